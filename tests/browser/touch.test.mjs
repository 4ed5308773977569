// A phone (390 x 844, touch): a vertical swipe scrolls, even when it starts on a head's thumbnail,
// without selecting that head; a tap selects; a tap on a text field brings up the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames, rectOf, center, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

// A finger moving from (x, y0) to (x, y1) in small steps, one per frame, as real touch events.
async function swipe(page, x, y0, y1) {
  const cdp = await page.context().newCDPSession(page);
  const point = (y) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(y0) });
  await frames(page, 2);
  const steps = 12;
  for (let s = 1; s <= steps; s++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(y0 + ((y1 - y0) * s) / steps) });
    await frames(page, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await frames(page, 3);
}

test('on a phone a swipe scrolls without selecting, a tap selects, a text field brings up the keyboard', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 390, height: 844, touch: true });
  await page.evaluate(() => window.headlab.setHeadCount(16));
  await frames(page, 3);
  await screenshot(page, 'phone-16-heads');
  // All 16 heads of the layer are on screen (they wrap), none cut off at the right edge.
  for (let h = 0; h < 16; h++) {
    const r = await rectOf(page, `overview/head/0/${h}`);
    assert.ok(r.x >= 0 && r.x + r.width <= 390, `head ${h} fits the width (${r.x}, ${r.width})`);
  }
  const before = await rectOf(page, 'overview/head/0/2');  // on the first screen, under the lesson list
  const start = center(before);
  await swipe(page, start.x, start.y, start.y - 200);
  const after = await rectOf(page, 'overview/head/0/2');
  assert.ok(after.y < before.y - 100, `the swipe scrolled (${before.y} -> ${after.y})`);
  let state = await page.evaluate(() => window.headlab.state());
  assert.deepEqual(state.selection, { layer: 0, head: 0 }, 'the head under the finger was not selected');
  await screenshot(page, 'phone-after-swipe');

  const target = center(await rectOf(page, 'overview/head/0/6'));
  await page.touchscreen.tap(target.x, target.y);
  await frames(page, 3);
  state = await page.evaluate(() => window.headlab.state());
  assert.deepEqual(state.selection, { layer: 0, head: 6 }, 'a tap selects');

  // The sentence field is at the top: swipe back down, then tap it.
  await swipe(page, 195, 300, 700);
  const sentence = center(await rectOf(page, 'sentence'));
  await page.touchscreen.tap(sentence.x, sentence.y);
  await frames(page, 3);
  assert.equal(await page.evaluate(() => document.activeElement.className), 'text-bridge', 'the on-screen keyboard has a field');
  assert.deepEqual(errors, []);
});

test('on a phone every control is at least 40 px high, a finger wide', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 390, height: 844, touch: true });
  await frames(page, 3);
  // The controls of the first screen (the panels below it are reached by swiping).
  const names = ['sentence', 'examples', 'heads/minus', 'heads/plus', 'heads/count', 'layers/count', 'undo', 'redo', 'help',
                 'overview/summary'];
  for (const name of names) {
    const rect = await rectOf(page, name);
    assert.ok(rect.height >= 40, `${name} is ${rect.height} px high`);
  }
  await screenshot(page, 'phone-touch-targets');
  // A menu's items too: the export menu, opened by a tap.
  const share = center(await rectOf(page, 'export/png'));
  await page.touchscreen.tap(share.x, share.y);
  await frames(page, 3);
  for (const name of ['export/heatmap_png', 'export/share_link', 'export/import']) {
    const rect = await rectOf(page, name);
    assert.ok(rect.height >= 40, `menu item ${name} is ${rect.height} px high`);
  }
  await screenshot(page, 'phone-export-menu');
  assert.deepEqual(errors, []);
});

test('on a phone every view is reachable: the tabs wrap, the heatmap scrolls visibly, the weight grid shows its rows', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 390, height: 844, touch: true });
  await page.evaluate(() => window.headlab.setText('The quick brown fox jumps over the lazy dog .'));
  await frames(page, 3);
  // Swipes the page until the widget's top is on the upper part of the screen.
  const bring = async (name) => {
    for (let k = 0; k < 20; k++) {
      const r = await rectOf(page, name);
      if (r.y > 30 && r.y < 300) return r;
      await swipe(page, 370, r.y <= 30 ? 300 : 600, r.y <= 30 ? 500 : 300);
    }
    return rectOf(page, name);
  };
  // Every tab of the selected head's views within the screen's width, so a tap reaches it.
  for (const name of ['tab/heatmap', 'tab/arcs', 'tab/concat', 'tab/training', 'tab/circuits']) {
    const r = await rectOf(page, name);
    assert.ok(r.x >= 0 && r.x + r.width <= 390, `${name} is on screen (${r.x} + ${r.width})`);
  }
  // Ten tokens do not fit a phone's width: the heatmap scrolls inside its area, with scroll bars.
  const scroll = await bring('detail/scroll');
  const grid = await rectOf(page, 'detail/heatmap');
  assert.ok(grid.x + grid.width > scroll.x + scroll.width, 'the grid runs past its area, which scrolls');
  await screenshot(page, 'phone-heatmap-scrolls');
  const tab = center(await bring('tab/circuits'));
  await page.touchscreen.tap(tab.x, tab.y);
  await frames(page, 3);
  assert.ok(await page.evaluate(() => window.headlab.widgetRect('circuits/qk')), 'the Circuits tab opened with a tap');
  await screenshot(page, 'phone-circuits');
  // The weight grid shows most of a head's 24 feature rows, not one.
  const matrix = await bring('editor/matrix');
  const cell = await rectOf(page, 'editor/cell/0/0');
  assert.ok(matrix.height >= 8 * cell.height, `the grid is ${matrix.height} px for rows of ${cell.height} px`);
  await screenshot(page, 'phone-weights');
  assert.deepEqual(errors, []);
});
