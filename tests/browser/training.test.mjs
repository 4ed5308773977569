// Training in the page (issue 7) with real mouse input: press Play in the Training tab, watch the
// loss fall and heads take roles while the page keeps drawing; pause; a new run from another seed;
// probes and the one-vs-many comparison; the trained model loaded into the lab and undone.
// Screenshots go to artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, screenshot, frames, center, rectOf, click } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });


// Screenshots with the mouse parked on the status bar, so no tooltip covers the panel.
async function shot(page, name) {
  await page.mouse.move(5, page.viewportSize().height - 5);
  await frames(page, 3);
  await screenshot(page, name);
}

const trainState = (page) => page.evaluate(() => window.headlab.trainState());
// Specialised roles: not "mixed", nor "broad", which fresh, evenly attending heads already read.
const rolesOf = (state) => state.roles.filter((r) => r.label !== 'mixed' && r.label !== 'broad');

// Counts animation frames in the page from now on: the page is responsive when they keep coming.
async function countFrames(page) {
  await page.evaluate(() => {
    window.__frames = 0;
    const tick = () => { window.__frames += 1; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  return () => page.evaluate(() => window.__frames);
}

test('Play in the Training tab: the loss falls, heads take roles, the page keeps drawing', async () => {
  const { page, errors, context, requests } = await openLab(browser, server.url);
  const workerRequested = () => requests.some((url) => /training-worker\.js$/.test(url));
  assert.equal(workerRequested(), false, 'a page that has not trained has not started the worker');
  await click(page, 'tab/training');
  let state = await trainState(page);
  assert.equal(state.started, true, 'opening the tab builds the model');
  assert.equal(workerRequested(), true, 'the worker loads with the first run, before Play');
  assert.equal(state.step, 0);
  await shot(page, 'training-start');

  await click(page, 'train/play');
  assert.equal((await trainState(page)).running, true);
  const framesSoFar = await countFrames(page);
  const start = Date.now();
  const log = [];
  // Until three heads hold a role (the budget is 30 s), for at most 45 s: a sample a second for the log.
  for (;;) {
    await page.waitForFunction((since) => window.headlab.trainState().roles.filter((r) => r.label !== 'mixed' && r.label !== 'broad').length >= 3 ||
                                          Date.now() - since >= 1000, start, { timeout: 5000, polling: 100 });
    state = await trainState(page);
    log.push(`${((Date.now() - start) / 1000).toFixed(0)} s: step ${state.step}, loss ${state.loss?.toFixed(2)}, ` +
             rolesOf(state).map((r) => `L${r.layer}H${r.head} ${r.label}`).join(', '));
    if (rolesOf(state).length >= 3 || Date.now() - start > 45000) break;
  }
  const seconds = (Date.now() - start) / 1000;
  const fps = (await framesSoFar()) / seconds;
  console.log(log.join('\n'));
  console.log(`roles after ${seconds.toFixed(1)} s; page at ${fps.toFixed(1)} frames/s; ${state.steps_per_second.toFixed(0)} steps/s`);
  await shot(page, 'training-roles');

  assert.ok(state.step > 100, `steps advanced (${state.step})`);
  assert.ok(state.loss < state.first_loss - 1.0, `the loss fell (${state.first_loss} -> ${state.loss})`);
  assert.ok(state.timeline.length >= 3 && state.timeline.at(-1).heads.length === 8, 'the timeline has samples');
  assert.ok(rolesOf(state).length >= 2, 'heads took roles: ' + JSON.stringify(state.roles));
  assert.equal(state.in_worker, true, 'Play trains in the training worker');
  assert.ok(fps >= 5, `frames kept coming while training (${fps.toFixed(1)}/s)`);

  // Pause through the UI: training stops, the page still draws.
  await click(page, 'train/play');
  const paused = await trainState(page);
  assert.equal(paused.running, false);
  await frames(page, 30);
  assert.equal((await trainState(page)).step, paused.step, 'paused means no more steps, 30 frames later');
  assert.equal(paused.in_worker, false, 'the page took the run back');
  // A step by hand goes on from where the worker's run was adopted.
  await click(page, 'train/step');
  assert.equal((await trainState(page)).step, paused.step + 10);

  // Another seed through the seed field and New run: a fresh run.
  // The field is the left part of the widget, its -/+ buttons the right.
  const seed = await rectOf(page, 'train/seed');
  await page.mouse.click(seed.x + seed.width / 4, seed.y + seed.height / 2);
  await frames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await click(page, 'train/restart');
  state = await trainState(page);
  assert.equal(state.seed, 2);
  assert.equal(state.step, 0);
  assert.equal(state.timeline.length, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('probe bars and one big head vs several small heads, both made in the training worker', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'tab/training');
  await page.evaluate(() => window.headlab.trainStep(300));
  await click(page, 'train/view/probes');
  await click(page, 'train/probe');
  let state = await trainState(page);
  assert.equal(state.probes.step, 300);
  assert.equal(state.probes.in_worker, true);
  // A head at a time in the worker, while the page keeps its frames: wait for all eight.
  const framesBefore = state.frames;
  await page.waitForFunction(() => !window.headlab.trainState().probes.running, null, { timeout: 60000 });
  state = await trainState(page);
  assert.equal(state.probes.heads.length, 8);
  assert.equal(state.probes.in_worker, false);
  assert.ok(state.frames - framesBefore > 8, `the page kept its frames (${state.frames - framesBefore})`);
  for (const h of state.probes.heads) {
    assert.ok(h.pos_accuracy >= 0 && h.pos_accuracy <= 1);
    assert.ok(Math.abs(h.pos_selectivity - (h.pos_accuracy - h.pos_control_accuracy)) < 1e-5);
  }
  await rectOf(page, 'train/probes');
  await shot(page, 'training-probes');

  await click(page, 'train/view/compare');
  await click(page, 'train/compare');
  await page.waitForFunction(() => window.headlab.trainState().comparison?.in_worker, null, { timeout: 30000 });
  const comparisonFrames = (await trainState(page)).frames;
  // Until both sides have trained 50 steps in the worker and the page has drawn 60 frames meanwhile.
  await page.waitForFunction((f) => { const s = window.headlab.trainState(); return s.comparison.step > 50 && s.frames - f > 60; },
                             comparisonFrames, { timeout: 30000 });
  state = await trainState(page);
  assert.equal(state.comparison.in_worker, true);
  assert.ok(state.comparison.step > 50, `both trained in the worker (${state.comparison.step} steps)`);
  assert.ok(state.frames - comparisonFrames > 60, `the page kept its frames (${state.frames - comparisonFrames})`);
  await click(page, 'train/compare');  // pause
  state = await trainState(page);
  const comparison = state.comparison;
  assert.equal(comparison.running, false);
  assert.equal(comparison.in_worker, false);
  await frames(page, 30);
  assert.equal((await trainState(page)).comparison.step, comparison.step, 'paused: it trains nowhere, 30 frames later');
  assert.equal(comparison.many.heads, 4);
  assert.equal(comparison.one.heads, 1);
  assert.equal(comparison.many.d_k * comparison.many.heads, comparison.one.d_k);
  assert.ok(Number.isFinite(comparison.many.loss) && Number.isFinite(comparison.one.loss));
  await rectOf(page, 'train/compare/plot');
  await shot(page, 'training-compare');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the head-count experiment trains in the training worker: a run ends with its held-out loss, and a pause keeps it', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'tab/training');
  await click(page, 'train/view/compare');
  await click(page, 'train/experiment');
  await page.waitForFunction(() => window.headlab.trainState().experiment?.in_worker, null, { timeout: 30000 });
  const framesBefore = (await trainState(page)).frames;
  // 1,000 steps of its first run (one head of 64).
  await page.waitForFunction(() => window.headlab.trainState().experiment.runs[0].done, null, { timeout: 120000 });
  let state = await trainState(page);
  assert.equal(state.experiment.in_worker, true);
  assert.ok(Number.isFinite(state.experiment.runs[0].held_out_loss));
  assert.equal(state.experiment.points[0].runs, 1);
  assert.ok(state.frames - framesBefore > 60, `the page kept its frames (${state.frames - framesBefore})`);
  await click(page, 'train/experiment');  // pause
  state = await trainState(page);
  assert.equal(state.experiment.running, false);
  assert.equal(state.experiment.in_worker, false);
  await frames(page, 30);
  assert.equal((await trainState(page)).experiment.step, state.experiment.step, 'paused: it trains nowhere, 30 frames later');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Use in lab loads the trained model as one undoable edit', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'tab/training');
  await page.evaluate(() => window.headlab.trainStep(200));
  const before = await page.evaluate(() => window.headlab.state());
  await click(page, 'train/use');
  const loaded = await page.evaluate(() => window.headlab.state());
  assert.equal(loaded.config.layers, 2);
  assert.equal(loaded.layers[1].heads.length, 4);
  assert.equal(loaded.gold.has_gold, true, 'an annotated sentence, so the lab can score syntax');
  await shot(page, 'training-model-in-lab');
  await page.evaluate(() => window.headlab.undo());
  const undone = await page.evaluate(() => window.headlab.state());
  assert.equal(undone.config.layers, before.config.layers);
  assert.equal(undone.text, before.text);
  assert.deepEqual(errors, []);
  await context.close();
});

// Scrolls the panel under `anchor` with the mouse wheel until widget `name` is fully in view. The
// wheel turns over the anchor's column at a height inside the viewport: once the panel has scrolled,
// the anchor itself may be above the top, and a wheel event there reaches nothing.
async function scrollIntoView(page, anchor, name) {
  const height = page.viewportSize().height;
  for (let i = 0; i < 40; i++) {
    const r = await rectOf(page, name);
    if (r.y >= 0 && r.y + r.height <= height) return r;
    const a = center(await rectOf(page, anchor));
    await page.mouse.move(a.x, Math.min(Math.max(a.y, 0.3 * height), 0.8 * height));
    await page.mouse.wheel(0, r.y < 0 ? -200 : 200);
    await frames(page, 3);
  }
  throw new Error(`${name} never came into view`);
}

test('the heads of the model being trained redraw as it learns; a click shows one large', async () => {
  const { page, errors, context } = await openLab(browser, server.url, { width: 1920, height: 1080 });
  await click(page, 'tab/training');
  await click(page, 'train/play');
  await page.waitForFunction(() => window.headlab.trainState().snapshot.step > 0, null, { timeout: 30000 });
  const thumb = await scrollIntoView(page, 'train/loss', 'train/head/1/0');
  const before = await page.screenshot({ clip: thumb });
  const stepBefore = (await trainState(page)).snapshot.step;
  // Until the overview has been redrawn from a later snapshot (it renews at most four times a second).
  await page.waitForFunction((b) => window.headlab.trainState().snapshot.step > b + 200, stepBefore, { timeout: 30000 });
  await frames(page, 3);
  const after = await page.screenshot({ clip: await rectOf(page, 'train/head/1/0') });
  const state = await trainState(page);
  assert.ok(state.snapshot.step > stepBefore, `the snapshot follows training (${stepBefore} -> ${state.snapshot.step})`);
  assert.ok(state.snapshot.step <= state.step);
  assert.ok(!before.equals(after), 'the thumbnail was redrawn with the newer weights');
  await click(page, 'train/head/1/0');
  await click(page, 'train/play');  // pause, so the large view holds still for the screenshot
  await scrollIntoView(page, 'train/loss', 'train/head/detail');
  await shot(page, 'training-heads-overview');
  // The layer table is there, with a row per layer.
  await scrollIntoView(page, 'train/loss', 'train/layers');
  const layers = state.timeline.at(-1).layers;
  assert.equal(layers.length, 2);
  assert.ok(layers.every((l) => l.mean_distance > 0 && l.mean_entropy <= l.uniform_entropy + 1e-9));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the task choice switches the run to the induction task with a real click', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'tab/training');
  await click(page, 'train/task/induction');
  let state = await trainState(page);
  assert.equal(state.task, 'induction');
  assert.equal(state.step, 0);
  await page.evaluate(() => window.headlab.trainStep(200));
  await frames(page, 3);
  await rectOf(page, 'train/induction/prefix');
  await rectOf(page, 'train/induction/previous');
  state = await trainState(page);
  assert.equal(state.timeline.at(-1).heads.length, 8);
  assert.ok('prefix_matching' in state.timeline.at(-1).heads[4]);
  await click(page, 'train/task/grammar');
  assert.equal((await trainState(page)).task, 'grammar');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the run trained in the worker is the one the page would have trained, and a worker that cannot start leaves training in the page', async () => {
  // Same seed, same steps: the worker's run and a run stepped in the page agree bit for bit,
  // since both are the same engine and the run moves as bytes.
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.request({ op: 'trainReset', seed: 3 }));
  await page.evaluate(() => window.headlab.request({ op: 'trainStart' }));
  await page.waitForFunction(() => window.headlab.trainState().step >= 150, null, { timeout: 60000 });
  await page.evaluate(() => window.headlab.request({ op: 'trainPause' }));
  const worker = await page.evaluate(() => window.headlab.request({ op: 'trainState', losses: true }));
  assert.equal(worker.in_worker, false);
  await page.evaluate(() => window.headlab.request({ op: 'trainReset', seed: 3 }));
  const stepped = await page.evaluate((steps) => {
    window.headlab.request({ op: 'trainStep', steps });
    return window.headlab.request({ op: 'trainState', losses: true });
  }, worker.step);
  assert.equal(stepped.step, worker.step);
  assert.deepEqual(stepped.losses, worker.losses, 'the same losses, step for step');
  assert.deepEqual(stepped.timeline.map((s) => [s.step, s.held_out_loss, s.heads.map((h) => h.label)]),
                   worker.timeline.map((s) => [s.step, s.held_out_loss, s.heads.map((h) => h.label)]));
  assert.deepEqual(errors, []);
  await context.close();

  // The worker's script missing (a broken deploy or an old cache): Play still trains, in the page.
  const broken = await openLab(browser, server.url);
  await broken.context.route('**/training-worker.js', (route) => route.fulfill({ status: 404, body: 'missing' }));
  await broken.page.evaluate(() => window.headlab.request({ op: 'trainStart' }));
  await broken.page.waitForFunction(() => window.headlab.trainState().step >= 30, null, { timeout: 60000 });
  const state = await broken.page.evaluate(() => window.headlab.trainState());
  assert.equal(state.in_worker, false, 'training went on in the page');
  assert.equal(state.running, true);
  // The browser itself reports the missing script; nothing else may go wrong.
  assert.deepEqual(broken.errors.filter((e) => !/404|training-worker\.js/.test(e)), []);
  await broken.context.close();
});
