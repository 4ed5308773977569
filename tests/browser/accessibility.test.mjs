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
  // The hidden field that carries typed text is named in Chinese too.
  assert.equal(await page.locator('.text-bridge').getAttribute('aria-label'), '实验台中当前文本框的文字');
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

// A learner who uses only the keyboard (and a screen reader) starts and finishes lesson 1 from the
// panel: Tab reaches it from the page, Enter presses its buttons, arrow keys pick a head and a preset.
test('lesson 1 from the keyboard alone: Tab, Enter and the arrow keys in the text panel', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  const focusedId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
  // Tab until the focus is on the element with `id` (at most `limit` presses); returns the presses.
  const tabTo = async (id, limit = 40) => {
    for (let n = 1; n <= limit; ++n) {
      await page.keyboard.press('Tab');
      if ((await focusedId()) === id) return n;
    }
    assert.fail(`Tab never reached #${id} (now on #${await focusedId()})`);
  };
  const presses = await tabTo('a11y-start-first');
  assert.equal(presses, 1, 'the way in is the first stop');
  assert.ok(await page.locator('#a11y').isVisible(), 'the panel shows while it holds the focus');
  const snapshot = await page.locator('#a11y').ariaSnapshot();
  assert.match(snapshot, /button "Start 1\. Why several heads\?"/);
  assert.match(snapshot, /button "Start 22\. /, 'every lesson can be started');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'a11y-step-title');
  let lesson = await page.evaluate(() => window.headlab.state().lesson);
  assert.equal(lesson.index, 0);
  assert.equal(lesson.goal_met, false);
  assert.equal(await page.locator('#a11y-next').getAttribute('aria-disabled'), 'true', 'Next waits for the goal');
  // One head more, then select it and give it the delimiter preset.
  await tabTo('a11y-more-heads');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.headlab.state().layers[0].heads.length === 2);
  // The panel lists the new head once the lab has drawn it (a frame later).
  await page.waitForFunction(() => document.querySelectorAll('#a11y-select-head option').length === 2);
  await tabTo('a11y-select-head');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.headlab.state().selection.head === 1);
  await tabTo('a11y-preset');
  const presets = await page.locator('#a11y-preset option').evaluateAll((options) => options.map((o) => o.value));
  const target = presets.indexOf('delimiter');
  assert.ok(target >= 0, `presets: ${presets}`);
  for (let k = 0; k < target; ++k) await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('#a11y-preset').inputValue(), 'delimiter');
  await tabTo('a11y-apply-preset');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.headlab.state().lesson.goal_met === true);
  await page.waitForFunction(() => document.getElementById('a11y-next').getAttribute('aria-disabled') === 'false');
  assert.match(await page.locator('#a11y').textContent(), /delimiter/i, 'the new label is read');
  // Shift+Tab walks back to Next; Enter goes on to lesson 2.
  for (let n = 0; n < 20 && (await focusedId()) !== 'a11y-next'; ++n) await page.keyboard.press('Shift+Tab');
  assert.equal(await focusedId(), 'a11y-next');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.headlab.state().lesson.index === 1);
  lesson = await page.evaluate(() => window.headlab.state().lesson);
  assert.ok(lesson.completed.includes('01-why-heads/one-head'));
  // The focus moves to the new step's title once the panel shows it (the next frame).
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'a11y-step-title');
  assert.match(await page.locator('#a11y-step-title').textContent(), /\S/, 'the new step is read next');
  assert.deepEqual(errors, []);
});
