// The head-count experiment on real text, with real mouse input: the text sample is not fetched
// with the page, only when the learner runs the experiment on it; it then trains in the worker
// with 1 to 16 heads, points arrive, and the shape is drawn beside Vaswani et al.'s. A sample that
// cannot be had says why and leaves the lab as it was. Screenshots go to artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, screenshot, frames, click } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const trainState = (page) => page.evaluate(() => window.headlab.trainState());
const sampleRequested = (requests) => requests.some((url) => /corpus\/sample\.(train|heldout)\.txt$/.test(url));

test('Run on real text fetches the sample only then and trains 1 to 16 heads in the worker', async () => {
  const { page, errors, context, requests } = await openLab(browser, server.url);
  await click(page, 'tab/training');
  await click(page, 'train/view/compare');
  await frames(page, 5);
  assert.equal(sampleRequested(requests), false, 'the page does not fetch the text sample before it is asked for');
  await click(page, 'train/experiment/text');
  await click(page, 'train/experiment');
  await page.waitForFunction(() => window.headlab.trainState().experiment?.in_worker, null, { timeout: 60000 });
  assert.equal(sampleRequested(requests), true);
  let state = await trainState(page);
  assert.equal(state.experiment.task, 'lm');
  assert.deepEqual(state.experiment.points.map((p) => p.heads), [1, 2, 4, 8, 16]);
  assert.equal(state.experiment.runs.length, 15);
  assert.equal(state.experiment_error, '');
  // Steps arrive from the worker while the page keeps drawing (a whole run is about a minute
  // there, so its score is left to the native tests: HeadCountExperiment, TrainingWorker).
  await page.waitForFunction(() => window.headlab.trainState().experiment.step >= 40, null, { timeout: 60000 });
  await click(page, 'train/experiment');  // pause
  state = await trainState(page);
  assert.equal(state.experiment.running, false);
  assert.equal(state.experiment.in_worker, false);
  assert.ok(state.experiment.step >= 40);
  const step = state.experiment.step;
  await frames(page, 20);
  assert.equal((await trainState(page)).experiment.step, step, 'paused: it trains nowhere');
  await page.mouse.move(5, page.viewportSize().height - 5);
  await screenshot(page, 'text-experiment');
  await page.evaluate(() => window.headlab.setLanguage('zh'));
  await frames(page, 5);
  await screenshot(page, 'text-experiment-zh');
  assert.deepEqual(errors, []);
  await context.close();
});

test('A text sample that cannot be downloaded says why and keeps the experiment the lab had', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  // The context's route: the page's service worker fetches for it, past the page's own routes.
  const missing = (route) => route.fulfill({ status: 404, body: 'gone' });
  await context.route('**/corpus/sample.train.txt', missing);
  await click(page, 'tab/training');
  await click(page, 'train/view/compare');
  await page.evaluate(() => window.headlab.headCountExperiment({ steps: 5 }));  // a grammar experiment
  await click(page, 'train/experiment/text');
  await click(page, 'train/experiment');
  await page.waitForFunction(() => window.headlab.trainState().experiment_error !== '', null, { timeout: 30000 });
  const state = await trainState(page);
  assert.match(state.experiment_error, /text sample could not be downloaded.*404/);
  assert.equal(state.experiment_waiting, false);
  assert.equal(state.experiment.task, 'grammar');
  assert.equal(state.experiment.step, 5, 'the grammar experiment is still there');
  await context.unroute('**/corpus/sample.train.txt', missing);
  await click(page, 'train/experiment');  // again, now that the sample can be had
  await page.waitForFunction(() => window.headlab.trainState().experiment?.task === 'lm', null, { timeout: 60000 });
  // Only the expected 404 of the sample reached the console.
  assert.deepEqual(errors.filter((e) => !/404|text sample/.test(e)), []);
  await context.close();
});

// The run itself on real text: choosing the task fetches the sample (not before), the run trains
// in the worker, the timeline reads every head's first-token share, and "Use in lab" opens the
// model reading the lab's text through the real-text vocabulary.
test('Real text in the Training tab trains in the worker and measures where heads park attention', async () => {
  const { page, errors, context, requests } = await openLab(browser, server.url);
  await click(page, 'tab/training');
  await frames(page, 5);
  assert.equal(sampleRequested(requests), false, 'the page does not fetch the text sample before it is asked for');
  await click(page, 'train/task/text');
  await page.waitForFunction(() => { const s = window.headlab.trainState(); return s.task === 'lm' && !s.waiting; }, null,
                             { timeout: 60000 });
  assert.equal(sampleRequested(requests), true);
  let state = await trainState(page);
  assert.equal(state.step, 0);
  assert.equal(state.wait_error, '');
  const first = state.timeline[0];
  assert.equal(first.heads.length, 8);
  assert.ok(first.held_out_loss > Math.log(6144) - 0.5, `no better than an even guess (8.72) at step 0: ${first.held_out_loss}`);
  await click(page, 'train/play');
  await page.waitForFunction(() => window.headlab.trainState().step >= 100, null, { timeout: 120000 });
  await page.waitForFunction(() => window.headlab.trainState().timeline.length >= 2, null, { timeout: 60000 });
  state = await trainState(page);
  assert.equal(state.in_worker, true);
  console.log(`real text in the worker: ${state.steps_per_second.toFixed(1)} steps/s, ${state.frames_per_second.toFixed(0)} frames/s`);
  const sample = state.timeline[1];
  assert.equal(sample.step, 100);
  assert.ok(sample.held_out_loss < first.held_out_loss - 1.0, `it learns: ${first.held_out_loss} -> ${sample.held_out_loss}`);
  for (const head of sample.heads) {
    assert.ok(head.first_token >= 0 && head.first_token < 0.2, `L${head.layer}H${head.head} first token ${head.first_token}`);
    assert.equal(typeof head.prefix_matching, 'number');
  }
  await click(page, 'train/play');  // pause
  await page.mouse.move(5, page.viewportSize().height - 5);
  await frames(page, 5);
  await screenshot(page, 'text-run');
  await click(page, 'train/use');
  await frames(page, 5);
  const lab = await page.evaluate(() => window.headlab.state());
  assert.equal(lab.config.layers, 2);
  assert.equal(lab.config.heads, 4);
  assert.ok(lab.tokens.length > 3, 'the lab reads its text with the run\'s vocabulary');
  assert.equal(lab.selection.layer, 1, 'the strongest layer-1 induction head is selected');
  await page.evaluate(() => window.headlab.setLanguage('zh'));
  await click(page, 'tab/training');
  await frames(page, 5);
  await screenshot(page, 'text-run-zh');
  assert.deepEqual(errors, []);
  await context.close();
});
