// Attention sinks: the normalisation is picked in the Training tab with real clicks, the trained
// model goes to the lab, and the Labels tab's sink grid (first-token and punctuation shares of every
// head) shows that model. The grid's numbers are read through state(), which takes them from the
// same engine function the grid draws.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, screenshot, frames, rectOf, click } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const trainState = (page) => page.evaluate(() => window.headlab.trainState());
const sinkShares = (page) => page.evaluate(() => {
  const s = window.headlab.state();
  return { attention: s.config.attention, heads: s.layers.flatMap((l) => l.heads.map((h) => [h.first_token_share, h.punctuation_share])) };
});

test('a normalisation picked in the Training tab reaches the sink grid', async () => {
  const { page, errors } = await openLab(browser, server.url);
  const before = await sinkShares(page);
  assert.equal(before.attention, 'softmax');
  assert.ok(before.heads.every(([first, punct]) => first >= 0 && first <= 1 && punct >= 0 && punct <= 1), JSON.stringify(before));

  await click(page, 'tab/training');
  await page.waitForFunction(() => window.headlab.trainState().started, null, { timeout: 30000 });
  assert.equal((await trainState(page)).attention, 'softmax');

  await click(page, 'train/attention/sigmoid');
  await page.waitForFunction(() => window.headlab.trainState().attention === 'sigmoid', null, { timeout: 10000 });
  assert.equal((await trainState(page)).step, 0, 'a new normalisation is a new run');
  await click(page, 'train/step');
  await page.waitForFunction(() => window.headlab.trainState().step >= 10, null, { timeout: 30000 });

  await click(page, 'train/use');
  await page.waitForFunction(() => window.headlab.state().config.attention === 'sigmoid', null, { timeout: 10000 });
  const after = await sinkShares(page);
  assert.equal(after.heads.length, 8, 'the trained model has 2 layers of 4 heads');
  assert.notDeepEqual(after.heads, before.heads, 'the grid shows the trained model');
  // Sigmoid rows need not sum to 1: the grid's share of the first token is of whatever each row holds.
  const rows = await page.evaluate(() => window.headlab.state().layers[0].heads[0].attention.map((r) => r.reduce((a, b) => a + b, 0)));
  assert.ok(rows.some((sum) => Math.abs(sum - 1) > 1e-3), 'sigmoid rows do not all sum to 1: ' + rows);
  const grid = await rectOf(page, 'labels/sinks');
  assert.ok(grid.width > 100 && grid.height > 60, 'the sink grid is drawn in the Labels tab: ' + JSON.stringify(grid));
  await page.mouse.move(5, page.viewportSize().height - 5);
  await frames(page, 3);
  await screenshot(page, 'sinks-sigmoid');

  // Another choice, through the same control: softmax + 1, a fresh run again.
  await click(page, 'tab/training');
  await click(page, 'train/attention/softmax_plus_one');
  await page.waitForFunction(() => window.headlab.trainState().attention === 'softmax_plus_one', null, { timeout: 10000 });
  assert.equal((await trainState(page)).step, 0);
  assert.deepEqual(errors, []);
});

// The real-text models trained with softmax + 1 and sigmoid are not fetched with the page: the
// first click on one fetches it and the lab opens it when it arrives; its induction head L1H1 then
// parks almost nothing on the first token. A file that cannot be had is reported and changes nothing.
test('the real-text models of the other normalisations come on a click and show no sink', async () => {
  const { page, errors, context, requests } = await openLab(browser, server.url, { width: 1280, height: 1000 });
  const fetched = (name) => requests.some((url) => url.endsWith('models/text-' + name + '.safetensors'));
  await page.waitForFunction(() => window.headlab.widgetRect('model/text/sigmoid') !== null, null, { timeout: 20000 });
  assert.equal(fetched('sigmoid') || fetched('softmax_plus_one'), false, 'not fetched with the page');
  // A model that cannot be downloaded: said, and the lab keeps what it had.
  const missing = (route) => route.fulfill({ status: 404, body: 'gone' });
  await context.route('**/models/text-softmax_plus_one.safetensors', missing);
  const before = await page.evaluate(() => window.headlab.state().config);
  await click(page, 'model/text/softmax_plus_one');
  await page.waitForFunction(() => /could not be downloaded/.test(JSON.stringify(window.headlab.state().notices)), null, { timeout: 20000 });
  assert.deepEqual(await page.evaluate(() => window.headlab.state().config), before, 'the lab is unchanged');
  await context.unroute('**/models/text-softmax_plus_one.safetensors', missing);

  await click(page, 'model/text/sigmoid');
  await page.waitForFunction(() => window.headlab.state().config.attention === 'sigmoid', null, { timeout: 30000 });
  assert.equal(fetched('sigmoid'), true);
  const s = await page.evaluate(() => window.headlab.state());
  assert.equal(s.tokenizer, 'text');
  assert.equal(s.text, 'My grandmother baked fresh bread for the neighbours yesterday.');
  const inductionHead = s.layers[1].heads[1];
  assert.ok(inductionHead.first_token_share < 0.05, `sigmoid L1H1 on "My": ${inductionHead.first_token_share}`);
  await click(page, 'model/text/softmax_plus_one');  // again, now that it can be had
  await page.waitForFunction(() => window.headlab.state().config.attention === 'softmax_plus_one', null, { timeout: 30000 });
  assert.ok((await page.evaluate(() => window.headlab.state().layers[1].heads[1].first_token_share)) < 0.05);
  await page.mouse.move(5, page.viewportSize().height - 5);
  await frames(page, 3);
  await screenshot(page, 'sinks-text-plus-one');
  assert.deepEqual(errors.filter((e) => !/404|could not be/.test(e)), []);
  await context.close();
});

// Lesson 23's last step opens the sigmoid model, which the page fetches only then; the learner's
// click on its induction head L1H1 meets the goal (no sink).
test('lesson 23 opens the sigmoid model when it arrives and a click on L1H1 reads no sink', async () => {
  // At this height both layers of the heads overview are in view.
  const { page, errors, context } = await openLab(browser, server.url, { width: 1280, height: 1000 });
  const lessons = await page.evaluate(() => window.headlab.lessons());
  const index = lessons.findIndex((l) => l.id === '23-attention-sinks');
  const step = lessons[index].steps.indexOf('long-runs');
  assert.ok(index >= 0 && step >= 0);
  await page.evaluate(([l, s]) => window.headlab.startLesson(l, s), [index, step]);
  await page.waitForFunction(() => window.headlab.state().config.attention === 'sigmoid', null, { timeout: 30000 });
  await frames(page, 5);
  let lesson = (await page.evaluate(() => window.headlab.state())).lesson;
  assert.equal(lesson.goal_met, false);
  await click(page, 'overview/head/1/1');
  await page.waitForFunction(() => window.headlab.state().lesson.goal_met, null, { timeout: 10000 });
  const s = await page.evaluate(() => window.headlab.state());
  assert.deepEqual(s.selection, { layer: 1, head: 1 });
  assert.ok(s.layers[1].heads[1].first_token_share < 0.05);
  await page.mouse.move(5, page.viewportSize().height - 5);
  await frames(page, 3);
  await screenshot(page, 'lesson23-long-runs');
  assert.deepEqual(errors, []);
  await context.close();
});
