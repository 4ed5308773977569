// The page's own words (web/page-text.js: loading overlay, crash message, notices about saving and
// loading) in both languages: a lint of the table against the page's scripts, then the page itself in
// Chinese, before the module runs (the browser's or the saved language) and after (the lab's).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openLab, screenshot, frames } from './harness.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const web = path.join(root, 'web');
const source = fs.readFileSync(path.join(web, 'page-text.js'), 'utf8');

// Runs page-text.js as the page would, with just enough of a browser around it.
function loadPageText({ languages = ['en-US'], saved = null } = {}) {
  const window = { localStorage: { getItem: (key) => (key === 'headlab.state' ? saved : null) } };
  const document = { documentElement: {}, querySelectorAll: () => [] };
  vm.runInNewContext(source, { window, document, navigator: { languages } });
  return { pageText: window.headlabPageText, document };
}

// Keys the page's scripts ask for: string literals inside pageText(...) / text(...) calls (a ternary
// between two keys included), and data-text / data-text-label attributes of index.html.
function usedKeys() {
  const used = new Map();  // key -> files
  const add = (key, file) => used.set(key, [...(used.get(key) || []), file]);
  for (const file of fs.readdirSync(web).filter((f) => f.endsWith('.js') && f !== 'page-text.js')) {
    const text = fs.readFileSync(path.join(web, file), 'utf8');
    for (const call of text.matchAll(/\b(?:pageText|text)\(([^)]*)\)/g)) {
      for (const literal of call[1].matchAll(/'([a-z][a-z0-9_]*)'/g)) add(literal[1], file);
    }
    // Elements a script makes, marked for translatePage as index.html's are (data-text, data-text-label).
    for (const mark of text.matchAll(/dataset\.text(?:Label)?\s*=\s*'([a-z][a-z0-9_]*)'/g)) add(mark[1], file);
  }
  const html = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
  for (const match of html.matchAll(/data-text(?:-label)?="([^"]+)"/g)) add(match[1], 'index.html');
  return used;
}

// The characters the lab's embedded Chinese font holds: every one its assets use
// (scripts/make-cjk-font.py, needs_cjk_font).
function embeddedCjk() {
  const chars = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) for (const ch of fs.readFileSync(full, 'utf8')) chars.add(ch);
    }
  };
  walk(path.join(root, 'assets'));
  return chars;
}
const needsCjkFont = (ch) => ch.codePointAt(0) >= 0x2e80 && !(ch.codePointAt(0) >= 0xfff0 && ch.codePointAt(0) <= 0xffff);

test('lint: every page text has English and Chinese with the same placeholders, and every key used exists', () => {
  const { texts } = loadPageText().pageText;
  const names = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [key, entry] of Object.entries(texts)) {
    assert.deepEqual(Object.keys(entry).sort(), ['en', 'zh'], `${key}: exactly en and zh`);
    assert.ok(entry.en.trim() && entry.zh.trim(), `${key}: both languages are written`);
    assert.deepEqual(names(entry.zh), names(entry.en), `${key}: same {placeholders} in both languages`);
  }
  const used = usedKeys();
  for (const [key, files] of used) assert.ok(key in texts, `"${key}" (used in ${files.join(', ')}) is in web/page-text.js`);
  for (const key of Object.keys(texts)) assert.ok(used.has(key), `"${key}" is used somewhere (else remove it)`);
  // Notices of web/persistence.js show in the lab's status bar too, drawn with the embedded font.
  const embedded = embeddedCjk();
  for (const [key, files] of used) {
    if (!files.includes('persistence.js')) continue;
    const missing = [...texts[key].zh].filter((ch) => needsCjkFont(ch) && !embedded.has(ch));
    assert.deepEqual(missing, [], `${key}: the lab's font lacks ${missing.join('')}; use words from assets/`);
  }
  // A hand-made check that the scan sees what it should.
  assert.ok(used.get('link_opened_undo')?.includes('persistence.js') && used.get('crashed')?.includes('crash.js') &&
            used.get('tagline')?.includes('index.html'));
});

test('the page language: saved with the work, else the first of the browser\'s languages HeadLab speaks', () => {
  const language = (options) => loadPageText(options).pageText.language();
  assert.equal(language({ languages: ['en-US', 'zh-CN'] }), 'en');
  assert.equal(language({ languages: ['zh-CN', 'en'] }), 'zh');
  assert.equal(language({ languages: ['fr-FR', 'zh-TW', 'en'] }), 'zh');
  assert.equal(language({ languages: ['de-DE'] }), 'en');
  assert.equal(language({ languages: ['zh-CN'], saved: '{"format":"headlab-state","language":"en","lesson":{}}' }), 'en');
  assert.equal(language({ languages: ['en-US'], saved: '{"format":"headlab-state","language":"zh"}' }), 'zh');
  assert.equal(language({ languages: ['zh'], saved: 'not json at all' }), 'zh');
  const { pageText, document } = loadPageText({ languages: ['zh-CN'] });
  assert.equal(document.documentElement.lang, 'zh-Hans');
  assert.equal(pageText.text('could_not_start', { reason: '{x} $1' }), 'HeadLab 无法启动：{x} $1', 'values are inserted as they are');
  pageText.setLanguage('en');
  assert.equal(pageText.text('file_opened', { name: 'a.json' }), 'Opened a.json.');
  assert.equal(document.documentElement.lang, 'en');
});

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

// A page missing one of its scripts (headlab.js unless told), so the loader's failure stays on screen.
async function failedStart({ locale, saved, missing = 'headlab.js' }) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, locale });
  if (saved) await context.addInitScript((text) => localStorage.setItem('headlab.state', text), saved);
  await context.route('**/' + missing, (route) => route.fulfill({ status: 404, body: '' }));
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => document.getElementById('status').className === 'error', null, { timeout: 10000 });
  const seen = await page.evaluate(() => ({
    status: document.getElementById('status').textContent,
    tagline: document.querySelector('.tagline').textContent,
    title: document.title,
    lang: document.documentElement.lang,
    canvas: document.getElementById('canvas').getAttribute('aria-label'),
  }));
  return { page, context, seen };
}

test('before the module runs: the loader speaks the browser\'s language, or the one saved with the work', async () => {
  let { context, seen } = await failedStart({ locale: 'en-US' });
  assert.equal(seen.status, 'HeadLab could not start: headlab.js did not load. Is the site complete?');
  assert.equal(seen.lang, 'en');
  await context.close();

  let page;
  ({ page, context, seen } = await failedStart({ locale: 'zh-CN' }));
  assert.equal(seen.status, 'HeadLab 无法启动：headlab.js 没有载入。网站的文件是否完整？');
  assert.equal(seen.tagline, '多头注意力如何工作，一次看一个头。');
  assert.match(seen.title, /多头注意力/);
  assert.match(seen.canvas, /实验台/);
  assert.equal(seen.lang, 'zh-Hans');
  await screenshot(page, 'page-text-loader-failed-zh');
  await context.close();

  // The script that starts the module's download, which runs before all the others.
  ({ context, seen } = await failedStart({ locale: 'en-US', missing: 'module-download.js' }));
  assert.equal(seen.status, 'HeadLab could not start: module-download.js did not load. Is the site complete?');
  await context.close();

  // A Chinese learner on an English browser: the saved preference wins.
  ({ context, seen } = await failedStart({ locale: 'en-US', saved: '{"format":"headlab-state","language":"zh","version":1}' }));
  assert.match(seen.status, /^HeadLab 无法启动/);
  assert.equal(seen.lang, 'zh-Hans');
  await context.close();
});

const toast = (page) => page.evaluate(() => document.getElementById('toast')?.textContent || '');
const ready = (page) => page.waitForFunction(() => window.headlab && window.headlab.ready, null, { timeout: 30000 })
  .then(() => page.evaluate(() => window.headlab.ready));

test('after start-up the notices follow the lab\'s language: a broken link, a refused file, broken saved work', async () => {
  const { page, context, errors } = await openLab(browser, server.url);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');

  // Switched in an open tab: the next notice and <html lang> follow from the next frame.
  await page.evaluate(() => window.headlab.setLanguage('zh'));
  await frames(page, 2);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  await page.evaluate(() => window.headlabPersistence.readFile(new File(['{"format":"headlab-model"'], 'half.json')));
  assert.equal(await toast(page), 'half.json 不是格式正确的 JSON；当前的实验台没有改变。');
  const notices = await page.evaluate(() => window.headlab.state().notices.map((n) => n.text));
  assert.ok(notices.includes('half.json 不是格式正确的 JSON；当前的实验台没有改变。'), 'the lab shows the same notice');

  // A broken share link opened on top of Chinese saved work: the restored language, at once.
  await page.waitForFunction(() => /"language":"zh"/.test(localStorage.getItem('headlab.state') || ''), null, { timeout: 10000 });
  await page.goto('about:blank');
  await page.goto(server.url + '#s=AAAA');
  await ready(page);
  assert.match(await toast(page), /^无法读取分享链接（.+）；你自己的实验台没有改变。$/);
  await frames(page, 2);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  await screenshot(page, 'page-text-broken-link-zh');

  // Saved work that cannot be restored but still says Chinese: set aside, and the clean lab stays Chinese.
  // Autosave settles, else leaving the page saves the live state over the junk.
  await page.waitForFunction(() => !window.headlabPersistence.pending(), null, { timeout: 10000 });
  await page.evaluate(() => localStorage.setItem('headlab.state', '{"format":"headlab-state","version":1,"language":"zh","model":{"format":"headlab-model"}}'));
  await page.goto('about:blank');
  await page.goto(server.url);
  await ready(page);
  assert.match(await toast(page), /^无法恢复你保存的实验台（.+）。它已另存在本地存档中，名称为“headlab\.state\.unreadable\..+”；现在从头开始。$/);
  assert.equal(await page.evaluate(() => window.headlab.state().lesson.language), 'zh');

  // And back: English notices again.
  await page.evaluate(() => window.headlab.setLanguage('en'));
  await frames(page, 2);
  await page.evaluate(() => window.headlabPersistence.readFile(new File(['{'], 'half.json')));
  assert.equal(await toast(page), 'half.json is not valid JSON; your current work is unchanged.');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a trap in a Chinese lab is explained in Chinese, with a Chinese reload button', async () => {
  const { page, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setLanguage('zh'));
  await page.waitForFunction(() => /"language":"zh"/.test(localStorage.getItem('headlab.state') || ''), null, { timeout: 10000 });
  await page.evaluate(() => setTimeout(() => window.Module._headlab_call(0xfffffff0)));
  await page.waitForFunction(() => window.headlabCrash.stopped, null, { timeout: 10000 });
  const message = await page.evaluate(() => document.getElementById('status').textContent);
  assert.match(message, /^HeadLab 遇到内部错误，已经停止运行（.+）。你的实验台截至上次自动保存（.+）的内容仍在这个浏览器里/);
  assert.equal(await page.locator('#reload').textContent(), '重新载入');
  assert.equal(await page.locator('.tagline').textContent(), '多头注意力如何工作，一次看一个头。');
  await screenshot(page, 'page-text-trap-zh');
  await context.close();
});
