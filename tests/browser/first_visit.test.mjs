// A first visit opens on the starting model: four heads that each do something different on the
// example sentence, the verb-to-subject head selected, one undo from the plain default. Later visits
// open on the learner's own work, never on the starting model again. A browser that prefers Chinese
// opens the lab in Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const labels = (page) => page.evaluate(() => window.headlab.state().layers[0].heads.map((h) => h.label));

test('a first visit shows four specialised heads; a later visit keeps what the learner left', async () => {
  const { page, context, errors } = await openLab(browser, server.url, { firstVisit: true });
  assert.deepEqual(await labels(page), ['previous_token', 'syntactic:nsubj', 'delimiter', 'next_token']);
  const state = await page.evaluate(() => window.headlab.state());
  assert.deepEqual([state.selection.layer, state.selection.head], [0, 1]);
  await frames(page, 3);
  await screenshot(page, 'first-visit-1280');
  // Undo goes back to the plain default in one step.
  await page.evaluate(() => window.headlab.undo());
  assert.ok(!(await labels(page)).includes('syntactic:nsubj'));
  // The learner's own state is what the next visit opens on.
  await page.evaluate(() => window.headlabPersistence.autosave(true));
  const plain = await labels(page);
  await page.reload();
  await page.waitForFunction(() => window.headlab && window.headlab.ready, null, { timeout: 30000 });
  await page.evaluate(() => window.headlab.ready);
  assert.deepEqual(await labels(page), plain);
  // Even with nothing saved, a later visit opens on the plain default.
  await page.evaluate(() => { localStorage.removeItem('headlab.state'); });
  await page.reload();
  await page.waitForFunction(() => window.headlab && window.headlab.ready, null, { timeout: 30000 });
  await page.evaluate(() => window.headlab.ready);
  assert.ok(!(await labels(page)).includes('syntactic:nsubj'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a browser that prefers Chinese opens the lab in Chinese', async () => {
  const { page, context, errors } = await openLab(browser, server.url, { firstVisit: true, locale: 'zh-CN' });
  await frames(page, 3);
  assert.equal(await page.locator('#a11y').getAttribute('lang'), 'zh-Hans');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  // The Chinese subset is not in the module: this lab fetched it beside the module and began with it.
  const font = await page.evaluate(() => ({
    arrived: performance.getEntriesByType('resource').find((e) => e.name.endsWith('fonts/cjk.ttf'))?.responseEnd,
    firstFrame: performance.getEntriesByName('headlab-first-frame')[0].startTime,
    state: window.headlabFonts.subset,
  }));
  assert.ok(font.arrived <= font.firstFrame, `the font (${font.arrived} ms) before the first frame (${font.firstFrame} ms)`);
  assert.equal(font.state, 'loaded');
  await screenshot(page, 'first-visit-zh-1280');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an English lab fetches the Chinese font after its first frame, and switches to Chinese with it; without it, says so', async () => {
  const { page, context, errors } = await openLab(browser, server.url, { firstVisit: true, locale: 'en-US' });
  const font = await page.evaluate(() => ({
    started: performance.getEntriesByType('resource').find((e) => e.name.endsWith('fonts/cjk.ttf'))?.startTime,
    firstFrame: performance.getEntriesByName('headlab-first-frame')[0].startTime,
    state: window.headlabFonts.subset,
  }));
  assert.ok(font.started >= font.firstFrame, `the font (asked at ${font.started} ms) after the first frame (${font.firstFrame} ms)`);
  assert.equal(font.state, 'loaded', 'ready waits for it');
  const english = await page.screenshot();
  await page.evaluate(() => window.headlab.setLanguage('zh'));
  await frames(page, 3);
  assert.ok(!english.equals(await page.screenshot()));
  await screenshot(page, 'first-visit-switched-to-zh');
  assert.deepEqual(errors, []);
  await context.close();

  // The font refused (a broken deploy): the English lab opens as ever; Chinese says what is missing.
  const broken = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'en-US' });
  await broken.route('**/fonts/cjk.ttf', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const page2 = await broken.newPage();
  await page2.goto(server.url);
  await page2.waitForFunction(() => window.headlab && window.headlab.ready, null, { timeout: 30000 });
  await page2.evaluate(() => window.headlab.ready);
  assert.equal(await page2.evaluate(() => window.headlabFonts.subset), 'failed');
  const notices = await page2.evaluate(() => window.headlab.state().notices.map((n) => n.text));
  assert.ok(notices.some((text) => text.includes('fonts/cjk.ttf: HTTP 404')), notices.join(' | '));
  await broken.close();
});

test('the first screen on a phone and on a large screen', async () => {
  for (const [name, options] of [['first-visit-390-touch', { width: 390, height: 844, touch: true, deviceScaleFactor: 2 }],
                                 ['first-visit-1920-dpr2', { width: 1920, height: 1080, deviceScaleFactor: 2 }]]) {
    const { page, context, errors } = await openLab(browser, server.url, { ...options, firstVisit: true });
    assert.deepEqual(await labels(page), ['previous_token', 'syntactic:nsubj', 'delimiter', 'next_token']);
    await frames(page, 3);
    await screenshot(page, name);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
