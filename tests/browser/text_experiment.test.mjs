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
