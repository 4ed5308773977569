// GPT-2 checkpoints opened in the page as a learner opens them: through the real file chooser of the
// "Open GPT-2 checkpoint..." button, and by dropping the files on the page. The checkpoints are the
// tiny Hugging Face-layout ones tests/engine/write_gpt2_cases.py writes with random weights, next to
// its float64 numpy forward (reference.json): every head's attention and the top-5 predictions in
// the page's state must equal it within 1e-5. A truncated file and a config that does not match are
// refused with a message, and the learner's model stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openLab, screenshot, frames, center, click, rectOf } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let server, browser, cases;
before(async () => {
  cases = fs.mkdtempSync(path.join(os.tmpdir(), 'headlab-gpt2-'));
  execFileSync('/usr/bin/python3', [path.join(here, '..', 'engine', 'write_gpt2_cases.py'), cases]);
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
  if (cases) fs.rmSync(cases, { recursive: true, force: true });
});

const file = (name, part) => path.join(cases, name, part);
const reference = (name) => JSON.parse(fs.readFileSync(file(name, 'reference.json'), 'utf8'));

// The page's state after the reference's ids are its input, checked against the numpy forward.
async function expectReference(page, name) {
  const want = reference(name);
  const state = await page.evaluate((ids) => { window.headlab.setTokenIds(ids); return window.headlab.state(); }, want.ids);
  assert.equal(state.checkpoint, true);
  assert.equal(state.layers.length, want.layers);
  let worst = 0;
  for (let l = 0; l < want.layers; ++l) {
    assert.equal(state.layers[l].heads.length, want.heads);
    for (let h = 0; h < want.heads; ++h)
      want.attention[l][h].forEach((row, i) => row.forEach((value, j) => {
        worst = Math.max(worst, Math.abs(state.layers[l].heads[h].attention[i][j] - value));
      }));
  }
  assert.ok(worst < 1e-5, `largest attention difference ${worst}`);
  assert.equal(state.predictions.length, want.top.length);
  want.top.forEach((top, i) => top.forEach((next, k) => {
    assert.equal(state.predictions[i][k].id, next.id, `position ${i}, rank ${k}`);
    assert.ok(Math.abs(state.predictions[i][k].p - next.p) < 1e-5, `position ${i}, rank ${k}: p ${state.predictions[i][k].p} vs ${next.p}`);
  }));
  return state;
}

// Files made in the page from bytes sent from here (a drop and openCheckpoint take File objects).
function pageFiles(entries) {
  return entries.map(({ name, bytes }) => ({ name, data: Buffer.from(bytes).toString('base64') }));
}
const makeFiles = `(list) => list.map(({ name, data }) => {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], name);
})`;

// Picks a test case's files in the file chooser that `open` (a click, or a call) brings up, and
// waits until the lab shows its `layers` layers.
async function openInChooser(page, open, name, layers) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), open()]);
  await chooser.setFiles([file(name, 'model.safetensors'), file(name, 'config.json')]);
  await waitForCheckpoint(page, layers);
}

async function waitForCheckpoint(page, layers) {
  await page.waitForFunction((n) => { const s = window.headlab.state(); return s.checkpoint && s.layers.length === n; },
                             layers, { timeout: 30000 });
}

test('the Open button\'s file chooser opens model.safetensors with config.json, equal to the reference', async () => {
  // At this height the model settings (where the button is) are open.
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 1000 });
  const before = await page.evaluate(() => window.headlab.exportModel());
  await frames(page, 2);
  const rect = await page.evaluate(() => window.headlab.widgetRect('model/open_checkpoint'));
  assert.ok(rect, 'the Open GPT-2 checkpoint button is drawn');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.mouse.click(center(rect).x, center(rect).y)]);
  assert.ok(chooser.isMultiple());
  await chooser.setFiles([file('small_f32', 'model.safetensors'), file('small_f32', 'config.json')]);
  await waitForCheckpoint(page, 2);
  await expectReference(page, 'small_f32');
  const text = await page.evaluate(() => window.headlab.state().notices.map((n) => n.text).join('\n'));
  assert.match(text, /Opened model\.safetensors: 2 layers x 2 heads/);
  // Undo (past the ids) brings the learner's model back.
  await page.evaluate(() => { window.headlab.undo(); window.headlab.undo(); });
  assert.ok(await page.evaluate(() => window.headlab.exportModel()) === before, 'the model before the checkpoint is back');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('dropping the files on the page opens the checkpoint; without config.json the page asks for the head count', async () => {
  const { page, errors } = await openLab(browser, server.url);
  const drop = (entries) => page.evaluate(`(() => {
      const transfer = new DataTransfer();
      for (const f of (${makeFiles})(${JSON.stringify(pageFiles(entries))})) transfer.items.add(f);
      const canvas = document.querySelector('canvas');
      canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    })()`);
  await drop([{ name: 'model.safetensors', bytes: fs.readFileSync(file('prefixed_f16', 'model.safetensors')) },
              { name: 'config.json', bytes: fs.readFileSync(file('prefixed_f16', 'config.json')) }]);
  await waitForCheckpoint(page, 3);
  await expectReference(page, 'prefixed_f16');
  // Not saved, not shared, and its shape is fixed; each says why.
  const refusals = await page.evaluate(() => ['saveState', 'shareLink', 'setHeadCount'].map((call) => {
    try { window.headlab[call](4); return call + ': allowed'; } catch (e) { return e.message; }
  }));
  for (const refusal of refusals) assert.match(refusal, /checkpoint/);
  await frames(page, 3);
  await screenshot(page, 'checkpoint-opened-1280');

  // No config.json: the panel asks how many heads.
  await drop([{ name: 'model.safetensors', bytes: fs.readFileSync(file('bf16_three_heads', 'model.safetensors')) }]);
  await page.waitForSelector('#checkpoint-head-count', { timeout: 10000 });
  await screenshot(page, 'checkpoint-head-count-1280');
  await page.fill('#checkpoint-head-count', '3');
  await page.click('#checkpoint-head-count-open');
  await waitForCheckpoint(page, 1);
  await expectReference(page, 'bf16_three_heads');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a truncated file and a config that does not match are refused with a message; the model stays', async () => {
  const { page, errors } = await openLab(browser, server.url);
  await page.evaluate(() => { window.headlab.setText('The cat sat on the mat.'); window.headlab.setHeadCount(3); });
  const before = await page.evaluate(() => window.headlab.exportModel());
  const weights = fs.readFileSync(file('small_f32', 'model.safetensors'));
  const config = JSON.parse(fs.readFileSync(file('small_f32', 'config.json'), 'utf8'));
  const open = (entries) => page.evaluate(`window.headlab.openCheckpoint((${makeFiles})(${JSON.stringify(pageFiles(entries))}))`);

  const cut = await open([{ name: 'model.safetensors', bytes: weights.subarray(0, weights.length - 300) },
                          { name: 'config.json', bytes: Buffer.from(JSON.stringify(config)) }]);
  assert.equal(cut.ok, false);
  assert.match(cut.error, /cut short/);
  assert.ok(await page.evaluate(() => window.headlab.exportModel()) === before, 'the model is unchanged');
  assert.match(await page.evaluate(() => document.getElementById('toast').textContent), /not opened.*unchanged/);

  const wrong = await open([{ name: 'model.safetensors', bytes: weights },
                            { name: 'config.json', bytes: Buffer.from(JSON.stringify({ ...config, n_embd: 24 })) }]);
  assert.equal(wrong.ok, false);
  assert.match(wrong.error, /config\.json/);
  assert.ok(await page.evaluate(() => window.headlab.exportModel()) === before, 'the model is unchanged');

  const other = await open([{ name: 'model.safetensors', bytes: weights },
                            { name: 'config.json', bytes: Buffer.from(JSON.stringify({ ...config, model_type: 'llama' })) }]);
  assert.equal(other.ok, false);
  assert.ok(await page.evaluate(() => window.headlab.exportModel()) === before, 'the model is unchanged');
  // Cancel while it reads: nothing opens and the reader lets go of what it held.
  const cancelled = await page.evaluate(`(async () => {
    const reading = window.headlab.openCheckpoint((${makeFiles})(${JSON.stringify(pageFiles([
      { name: 'model.safetensors', bytes: weights }, { name: 'config.json', bytes: Buffer.from(JSON.stringify(config)) }]))}));
    window.headlabCheckpoint.cancel();
    return [await reading, window.headlab.checkpointState().active];
  })()`);
  assert.deepEqual(cancelled, [{ ok: false, error: 'cancelled' }, false]);
  assert.ok(await page.evaluate(() => window.headlab.exportModel()) === before, 'the model is unchanged');
  await frames(page, 2);
  await screenshot(page, 'checkpoint-refused-1280');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('on a phone the opened checkpoint shows its heads and predictions', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 390, height: 844, touch: true });
  const entries = [{ name: 'model.safetensors', bytes: fs.readFileSync(file('prefixed_f16', 'model.safetensors')) },
                   { name: 'config.json', bytes: fs.readFileSync(file('prefixed_f16', 'config.json')) }];
  const result = await page.evaluate(`window.headlab.openCheckpoint((${makeFiles})(${JSON.stringify(pageFiles(entries))}))`);
  assert.deepEqual(result, { ok: true });
  await frames(page, 3);
  await screenshot(page, 'checkpoint-opened-390');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('lesson 22 waits for a GPT-2 checkpoint, opens one from its goal box and checks the head the paper names', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await page.evaluate(() => window.headlab.request({ op: 'startLesson', lesson: 21, step: 0 }));
  await frames(page, 5);  // the lesson panel settles its footer's height over a frame or two
  // Without a checkpoint the goal box says how to get one; Show me says the same instead of failing.
  await click(page, 'lesson/show_me');
  await page.waitForFunction(() => window.headlab.state().notices.some((n) => /Needs GPT-2 small/.test(n.text)), null, { timeout: 10000 });
  const mirror = await page.evaluate(() => document.body.innerText);
  assert.match(mirror, /huggingface\.co\/openai-community\/gpt2/);
  await screenshot(page, 'lesson-22-needs-checkpoint-1280');
  const open = await page.evaluate(() => window.headlab.widgetRect('lesson/open_checkpoint'));
  assert.ok(open, 'the goal box offers the Open button');
  await openInChooser(page, () => page.mouse.click(center(open).x, center(open).y), 'seven_layers_f16', 7);
  await frames(page, 2);
  assert.equal(await page.evaluate(() => window.headlab.state().lesson.goal_met), false);
  assert.equal(await page.evaluate(() => window.headlab.widgetRect('lesson/open_checkpoint')), null, 'the note goes once a checkpoint is open');
  // The learner scrolls the heads overview down to layer 4 and picks L4H11 with the mouse.
  const overview = await rectOf(page, 'overview');
  let head = await page.evaluate(() => window.headlab.widgetRect('overview/head/4/11'));
  for (let k = 0; k < 20 && head && head.y + head.height > overview.y + overview.height; ++k) {
    await page.mouse.move(overview.x + overview.width / 2, overview.y + overview.height / 2);
    await page.mouse.wheel(0, 60);
    await frames(page, 2);
    head = await page.evaluate(() => window.headlab.widgetRect('overview/head/4/11'));
  }
  assert.ok(head && head.y + head.height <= overview.y + overview.height, 'L4H11 is in view in the overview');
  await page.mouse.click(center(head).x, center(head).y);
  await page.waitForFunction(() => window.headlab.state().lesson.goal_met, null, { timeout: 10000 });
  await frames(page, 2);
  await screenshot(page, 'lesson-22-head-found-1280');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a checkpoint\'s pruning curve is measured by the loss on the text, with a progress bar, and applied with clicks', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await openInChooser(page, () => page.evaluate(() => window.headlabCheckpoint.pick()), 'seven_layers_f16', 7);
  await click(page, 'tab/labels');
  await click(page, 'labels/pruning');
  await click(page, 'labels/pruning/measure');
  // 39 forwards with a 50,257-way unembedding: the page draws between them.
  await page.waitForFunction(() => window.headlab.widgetRect('labels/pruning/progress'), null, { timeout: 10000, polling: 'raf' });
  await screenshot(page, 'checkpoint-pruning-measuring-1280');
  await page.waitForFunction(() => window.headlab.widgetRect('labels/pruning/count'), null, { timeout: 60000, polling: 'raf' });
  await screenshot(page, 'checkpoint-pruning-curve-1280');
  const slider = await rectOf(page, 'labels/pruning/count');
  await page.mouse.click(slider.x + slider.width * 0.25, slider.y + slider.height / 2);
  await frames(page, 3);
  await click(page, 'labels/pruning/apply');
  const pruned = (await page.evaluate(() => window.headlab.state())).layers.flatMap((layer) => layer.heads.filter((head) => head.pruned));
  assert.ok(pruned.length > 0 && pruned.length % 7 === 0, `${pruned.length} heads pruned: a measured point of 84 heads, 7 apart`);
  assert.deepEqual(errors, []);
  await page.context().close();
});
