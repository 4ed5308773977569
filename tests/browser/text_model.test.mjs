// The real-text model in the page: chosen with the mouse under Model, it reads any typed text as
// its subword tokens (Chinese through an input method, English typed twice) and shows its heads
// labelled: a previous-token head, and an induction head on the repeat.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames, click, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const state = (page) => page.evaluate(() => window.headlab.state());
const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
const labelsOf = (s) => s.layers.flatMap((layer) => layer.heads.map((head) => head.label));

// ImGui takes queued key events a few a frame: wait until the whole text has reached the lab.
async function replaceSentence(page, text, typeIt) {
  await click(page, 'sentence');
  await page.keyboard.press(`${mod}+A`);
  await page.keyboard.press('Backspace');
  await typeIt();
  await page.waitForFunction((t) => window.headlab.state().text === t, text, { timeout: 30000, polling: 100 });
  await frames(page, 3);
}

test('the real-text model reads typed Chinese and a sentence written twice: no unknown token, its heads labelled', async () => {
  // At this height the model settings (where the button is) are open.
  const { page, errors, context } = await openLab(browser, server.url, { width: 1280, height: 1000 });
  await page.waitForFunction(() => window.headlab.widgetRect('model/text') !== null, null, { timeout: 20000 });
  await click(page, 'model/text');
  let s = await state(page);
  assert.equal(s.tokenizer, 'text', 'the button loads the real-text model');
  // Not autosaved (its embedding alone is about 5 MB as JSON), and the page says so plainly.
  await page.waitForFunction(() => /not autosaved/.test(document.getElementById('toast')?.textContent || ''), null, { timeout: 10000 });

  const sentence = 'My grandmother baked fresh bread for the neighbours yesterday.';
  // Written once, then copied and pasted after a space, as a learner doubles a sentence.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await replaceSentence(page, `${sentence} ${sentence}`, async () => {
    await page.keyboard.insertText(sentence);
    await frames(page, 2);
    await page.keyboard.press(`${mod}+A`);
    await page.keyboard.press(`${mod}+C`);
    await page.keyboard.press('End');
    await page.keyboard.insertText(' ');
    await frames(page, 2);
    await page.keyboard.press(`${mod}+V`);
  });
  s = await state(page);
  assert.equal(s.text, `${sentence} ${sentence}`);
  assert.ok(s.ids.length > 0 && s.ids.every((id) => id >= 0), 'every token is one of the vocabulary\'s, none unknown');
  assert.equal(s.tokens.length % 2, 0, `the sentence's tokens, twice over (${s.tokens.length})`);
  const english = labelsOf(s);
  assert.ok(english.includes('previous_token'), `a previous-token head (${english})`);
  assert.ok(english.includes('induction'), `an induction head on the repeat (${english})`);
  await screenshot(page, 'text-model-repeat');

  // Chinese through an input method's commit, as Chromium delivers it.
  await replaceSentence(page, '我的奶奶昨天给邻居们烤了新鲜的面包。', async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'wode', selectionStart: 4, selectionEnd: 4 });
    await cdp.send('Input.insertText', { text: '我的奶奶昨天给邻居们烤了新鲜的面包。' });
  });
  s = await state(page);
  assert.equal(s.text, '我的奶奶昨天给邻居们烤了新鲜的面包。');
  assert.ok(s.tokens.includes('面') && s.tokens.includes('包'), `common characters are one token each (${s.tokens})`);
  assert.ok(s.ids.every((id) => id >= 0), 'no unknown token: a rare character becomes its bytes');
  const chinese = labelsOf(s);
  assert.ok(chinese.some((label) => label !== 'broad'), `not every head broad on Chinese (${chinese})`);
  assert.ok(s.predictions?.length > 0, 'the next-token predictions are there');
  await screenshot(page, 'text-model-chinese');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('lesson 21: the labels stay hidden until a real click makes the right guess', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await page.evaluate(() => window.headlab.request({ op: 'startLesson', lesson: 20, step: 0 }));
  await frames(page, 3);
  let s = await state(page);
  assert.equal(s.tokenizer, 'text', 'the step opens the real-text model');
  // What a screen reader reads as the selected head's label (the canvas draws the same caption).
  const heading = async () => { await frames(page, 2); return page.locator('section[aria-labelledby="a11y-head-title"] p').first().textContent(); };
  assert.equal(await heading(), '?', 'the selected head\'s label is hidden before the guess');
  await click(page, 'overview/head/0/0');  // a wrong guess: still hidden, the goal open
  s = await state(page);
  assert.equal(s.lesson.goal_met, false);
  assert.equal(await heading(), '?');
  await click(page, 'overview/head/0/2');  // the previous-token head
  s = await state(page);
  assert.equal(s.lesson.goal_met, true, 'the right guess meets the goal');
  assert.match(await heading(), /previous token/, 'and the labels show');
  await screenshot(page, 'lesson-21-guessed');
  assert.deepEqual(errors, []);
  await page.context().close();
});
