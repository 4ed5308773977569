// Text as the operating system gives it (issue: "Everyone can start"): input-method commits, the
// emoji picker's insertText, system clipboard paste and copy, and Tab that never erases the sentence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames, click, rectOf, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const state = (page) => page.evaluate(() => window.headlab.state());
const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

async function emptySentence(page) {
  await click(page, 'sentence');
  await page.keyboard.press(`${mod}+A`);
  await page.keyboard.press('Backspace');
  await frames(page, 3);
  assert.equal((await state(page)).text, '');
}

test('Chinese through an input method and emoji through insertText reach the sentence whole', async () => {
  const { page, errors, requests } = await openLab(browser, server.url, { width: 1280, height: 720 });
  const fontRequests = () => requests.filter((url) => url.includes('cjk-common')).length;
  assert.equal(fontRequests(), 0, 'English pages do not download the Chinese characters');
  await emptySentence(page);
  // A pinyin composition as Chromium's IME path delivers it: marked text first, then the commit.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'mao', selectionStart: 3, selectionEnd: 3 });
  await frames(page, 2);
  assert.equal((await state(page)).text, '', 'nothing is typed while the composition is open');
  await cdp.send('Input.insertText', { text: '猫' });
  await frames(page, 3);
  assert.equal((await state(page)).text, '猫');
  await page.keyboard.insertText('坐在垫子上。');
  await page.keyboard.insertText('🙂');
  await frames(page, 3);
  const s = await state(page);
  assert.equal(s.text, '猫坐在垫子上。🙂', 'every character kept, the emoji too (not U+FFFD)');
  assert.ok(s.tokens.some((t) => t.includes('🙂')), `the emoji is a token on the axes (${s.tokens})`);
  assert.ok(s.tokens.some((t) => t.includes('猫')));
  // 猫 is not in the embedded subset: the common characters arrive once, and the axes draw it.
  await page.waitForFunction(() => window.headlabFonts.common === 'loaded', null, { timeout: 20000 });
  await frames(page, 3);
  assert.equal(fontRequests(), 2, 'the font and its character list, once');
  await page.keyboard.insertText('狗');
  await frames(page, 3);
  assert.equal(fontRequests(), 2);
  await screenshot(page, 'text-input-chinese-emoji');
  assert.deepEqual(errors, []);
});

test('an emoji is drawn from the emoji font in the sentence box and on the axes, fetched once when typed', async () => {
  const { page, errors, requests, context } = await openLab(browser, server.url, { width: 1280, height: 720 });
  const emojiRequests = () => requests.filter((url) => url.includes('lazy-fonts/emoji')).length;
  assert.equal(emojiRequests(), 0, 'a page without emoji does not download the emoji font');
  // Hold the font back to see what the box draws without it (on the context: the service worker
  // fetches it).
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await context.route('**/lazy-fonts/emoji.ttf', async (route) => { await held; await route.continue(); });
  await emptySentence(page);
  await page.keyboard.insertText('I \u2764\uFE0F my cat 🙂');
  await frames(page, 3);
  assert.equal((await state(page)).text, 'I \u2764\uFE0F my cat 🙂');
  const box = await rectOf(page, 'sentence');
  const without = await page.screenshot({ clip: box });
  release();
  await page.waitForFunction(() => window.headlabFonts.emoji === 'loaded', null, { timeout: 20000, polling: 100 });
  await frames(page, 3);
  const withFont = await page.screenshot({ clip: box });
  assert.ok(!without.equals(withFont), 'the emoji glyphs replace the replacement marks');
  assert.equal(emojiRequests(), 2, 'the font and its character list, once');
  await page.keyboard.insertText(' 🐈');
  await frames(page, 3);
  assert.equal(emojiRequests(), 2);
  await screenshot(page, 'text-input-emoji');
  assert.deepEqual(errors, []);
});

test('a character typed in the frame that releases Ctrl is kept: text and keys reach the lab in order', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await emptySentence(page);
  await page.keyboard.type('ab');
  await frames(page, 3);
  await page.keyboard.down(mod);
  await frames(page, 3);
  // Ctrl's release and the next character within one task, so within one frame: ImGui ignores
  // characters while Ctrl is down, so the character must not overtake the release.
  await page.evaluate((key) => {
    const bridge = document.querySelector('.text-bridge');
    bridge.dispatchEvent(new KeyboardEvent('keyup', { key, code: key + 'Left', keyCode: key === 'Meta' ? 91 : 17, bubbles: true }));
    bridge.value = 'c';
    bridge.dispatchEvent(new InputEvent('input', { data: 'c', inputType: 'insertText', bubbles: true }));
  }, mod);
  await frames(page, 3);
  await page.keyboard.up(mod);
  await frames(page, 2);
  assert.equal((await state(page)).text, 'abc');
  assert.deepEqual(errors, []);
});

test('Ctrl+V pastes the system clipboard into the sentence, Ctrl+C copies it back out', async () => {
  const { page, errors, context } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.evaluate(() => navigator.clipboard.writeText('The small cat sleeps.'));
  await emptySentence(page);
  await page.keyboard.press(`${mod}+V`);
  await frames(page, 3);
  assert.equal((await state(page)).text, 'The small cat sleeps.', 'pasted once, from the system clipboard');
  await page.keyboard.insertText(' 你好');
  await page.keyboard.press(`${mod}+A`);
  await page.keyboard.press(`${mod}+C`);
  await frames(page, 3);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'The small cat sleeps. 你好');
  assert.deepEqual(errors, []);
});

test('Tab into the sentence keeps it: the cursor goes to its end and Space adds a space', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  const before = (await state(page)).text;
  await click(page, 'sentence');
  await page.keyboard.press('Escape');  // leave the field, keyboard navigation stays on it
  await frames(page, 2);
  await page.keyboard.press('Shift+Tab');
  await frames(page, 2);
  await page.keyboard.press('Tab');
  await frames(page, 2);
  await page.keyboard.type(' x');
  await frames(page, 3);
  const after = (await state(page)).text;
  assert.ok(after === before || after === `${before} x`, `the sentence is kept ("${after}")`);
  assert.deepEqual(errors, []);
});
