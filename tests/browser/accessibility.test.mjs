// The lab for screen readers: the lesson step, its goal and live numbers, hints, the selected head's
// label, explanation and closest roles, and the attention table are in the accessibility tree, in
// English and in Chinese, and follow the lab as it changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames, click } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

test('lesson 1 and the selected head can be read from the accessibility tree, in both languages', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await page.evaluate(() => window.headlab.startLesson(0));
  await frames(page, 3);
  const tree = () => page.locator('#a11y').ariaSnapshot();
  let snapshot = await tree();
  assert.match(snapshot, /heading "Lesson: Why several heads\?"/);
  const step = await page.evaluate(() => window.headlab.state().lesson);
  assert.equal(step.index, 0);
  assert.match(snapshot, /heading "Goal"/);
  assert.match(snapshot, /heading "Selected head: Layer 0, head 0"/);
  // The head's explanation is the one the Labels tab shows.
  const head = await page.evaluate(() => window.headlab.state().layers[0].heads[0]);
  assert.ok(head.explanation.length > 20);
  assert.ok((await page.locator('#a11y').textContent()).includes(head.explanation), 'the explanation is in the tree');
  // Adding a head and selecting it on the canvas (lesson 1's first move) updates the tree.
  await click(page, 'heads/plus');
  await click(page, 'overview/head/0/1');
  snapshot = await tree();
  assert.match(snapshot, /heading "Selected head: Layer 0, head 1"/);
  // A hint revealed on the canvas is read too.
  await click(page, 'lesson/hint');
  snapshot = await tree();
  assert.match(snapshot, /heading "Hints"/);

  await page.evaluate(() => window.headlab.setLanguage('zh'));
  await frames(page, 3);
  assert.equal(await page.locator('#a11y').getAttribute('lang'), 'zh-Hans');
  snapshot = await tree();
  assert.match(snapshot, /heading "课程: 为什么要多个头？"/);
  assert.match(snapshot, /heading "选中的头: 第 0 层，头 1"/);
  assert.match(snapshot, /heading "目标"/);
  // The selected head's explanation in Chinese: its template filled with the same numbers (role ids
  // among the values become role names).
  const selected = await page.evaluate(() => window.headlab.state().layers[0].heads[1]);
  const text = await page.locator('#a11y').textContent();
  assert.ok(!text.includes(selected.explanation), 'the English sentence is gone');
  assert.ok(selected.explanation_values.length > 0);
  for (const value of selected.explanation_values)
    if (!(value in selected.scores)) assert.ok(text.includes(value), `the value ${value} is in the Chinese sentence`);
  assert.ok(!/[{}]/.test(text), 'no placeholder is left');
  assert.deepEqual(errors, []);
});

test('the attention table: a row per query token, a column per key token, two decimals, reachable from the keyboard', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  // F6 moves the keyboard from the canvas to the panel (Tab belongs to the lab's own controls).
  await page.keyboard.press('F6');
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  assert.equal(focused, 'a11y-table-button');
  assert.ok(await page.locator('#a11y').isVisible(), 'the panel shows while it holds the focus');
  await page.keyboard.press('Enter');
  const state = await page.evaluate(() => window.headlab.state());
  const rows = await page.locator('#a11y-table tbody tr').count();
  assert.equal(rows, state.tokens.length);
  const firstRow = await page.locator('#a11y-table tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(firstRow, state.layers[0].heads[0].attention[0].map((v) => v.toFixed(2)));
  const headers = await page.locator('#a11y-table thead th').allTextContents();
  assert.deepEqual(headers, state.tokens);
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'canvas', 'Escape returns to the lab');
  assert.deepEqual(errors, []);
});
