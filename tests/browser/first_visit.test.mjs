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
  await screenshot(page, 'first-visit-zh-1280');
  assert.deepEqual(errors, []);
  await context.close();
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
