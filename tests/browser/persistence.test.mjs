// Nothing is lost and nothing breaks the page: reload restores, corrupt storage is set aside,
// share links round-trip, malformed imports are refused with the work intact, huge pastes are
// capped, and a long soak of random edits neither leaks wasm memory nor logs errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, screenshot, frames, click } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

// Until autosave has written the lab as it is now.
// Polled on a timer, not on animation frames: a frame of the largest model takes seconds on a busy machine.
const waitForAutosave = (page) => page.waitForFunction(() => !window.headlabPersistence.pending(), null, { timeout: 30000, polling: 200 });
const ready = (page) => page.waitForFunction(() => window.headlab && window.headlab.ready).then(() => page.evaluate(() => window.headlab.ready));
const toast = (page) => page.evaluate(() => document.getElementById('toast')?.textContent || '');

test('a reload restores model, sentence, selection, lesson progress and language', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => {
    const h = window.headlab;
    h.startLesson(3, 1);  // first: a step's setup resets the model
    h.setText('The cat chased the mouse.');
    h.setHeadCount(3);
    h.setWeight(0, 2, 'W_K', 5, 1, 1.25);
    h.setLanguage('zh');
    h.selectHead(0, 2);
  });
  await click(page, 'tab/circuits');
  const before = await page.evaluate(() => window.headlab.state());
  await waitForAutosave(page);
  await page.reload();
  await ready(page);
  await frames(page, 2);
  const after = await page.evaluate(() => window.headlab.state());
  assert.deepEqual(after.tokens, before.tokens);
  assert.equal(after.layers[0].heads.length, 3);
  assert.equal(after.layers[0].heads[2].W_K[5][1], 1.25);
  assert.deepEqual(after.selection, { layer: 0, head: 2 });
  assert.equal(after.lesson.index, 3);
  assert.equal(after.lesson.step, 1);
  assert.equal(after.lesson.language, 'zh');
  // The open tab too (the step's own highlights still open the Weights side).
  await page.waitForFunction(() => window.headlab.view().startsWith('circuits.'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a model too large to autosave says so once, keeps the last autosave, and autosave comes back when it shrinks', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setText('Small models save.'));
  await waitForAutosave(page);
  const stored = await page.evaluate(() => localStorage.getItem('headlab.state'));
  assert.match(stored, /Small models save/);

  // The largest model the controls allow: about 75 MB as text, past the 32 MB a state may have.
  await page.evaluate(() => {
    const h = window.headlab;
    h.request({ op: 'setDModel', d_model: 512 });
    h.request({ op: 'setLayerCount', count: 6 });
    for (let layer = 0; layer < 6; ++layer) h.request({ op: 'setHeadCount', count: 16, layer });
  });
  await page.waitForFunction(() => /too large to autosave/.test(document.getElementById('toast')?.textContent || ''), null, { timeout: 30000, polling: 200 });
  await page.evaluate(() => window.headlab.setText('Still too large.'));
  await waitForAutosave(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('headlab.state')), stored, 'the last autosave is kept as it was');

  await page.evaluate(() => {
    window.headlab.request({ op: 'setLayerCount', count: 1 });
    window.headlab.request({ op: 'setDModel', d_model: 64 });
  });
  await page.waitForFunction(() => /Autosave is on again/.test(document.getElementById('toast')?.textContent || ''), null, { timeout: 30000, polling: 200 });
  const saved = JSON.parse(await page.evaluate(() => localStorage.getItem('headlab.state')));
  assert.match(JSON.stringify(saved), /Still too large/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('corrupt storage is set aside under a backup key; the page starts clean and says so', async () => {
  const { page, context } = await openLab(browser, server.url);
  for (const junk of ['{"format":"headlab-state","version":1,"model":{"format":"headlab-model"}}', 'not json at all \u0000', '[]']) {
    await waitForAutosave(page);  // else leaving the page saves the live state over the junk
    await page.evaluate((text) => localStorage.setItem('headlab.state', text), junk);
    await page.reload();
    await ready(page);
    await frames(page, 3);
    const state = await page.evaluate(() => window.headlab.state());
    assert.equal(state.layers[0].heads.length, 4, 'started from the default model');
    assert.match(await toast(page), /could not be restored/, 'notice for: ' + junk);
    const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('headlab.state.unreadable.')));
    assert.ok(keys.length >= 1, 'the unreadable state was kept');
    // What is stored now is the clean state (autosave), never the unreadable text.
    assert.notEqual(await page.evaluate(() => localStorage.getItem('headlab.state')), junk);
  }
  await screenshot(page, 'persistence-corrupt-notice');
  await context.close();
});

test('share link round trip through the real menu, and a hostile link is refused', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => { window.headlab.setText('A tiny wombat sat under the old tree.'); window.headlab.setWeight(0, 1, 'W_Q', 6, 2, -3.5); });
  await frames(page, 2);
  // The learner is on the arcs and the Labels tab: the link reopens them.
  await click(page, 'tab/arcs');
  await click(page, 'tab/labels');
  assert.equal(await page.evaluate(() => window.headlab.view()), 'arcs.labels');
  await click(page, 'export/png');
  await click(page, 'export/share_link');
  await page.waitForFunction(() => window.headlabPersistence.lastLink, null, { timeout: 10000 });
  const link = await page.evaluate(() => window.headlabPersistence.lastLink);
  assert.match(link, /#s=[A-Za-z0-9_-]+&v=arcs\.labels$/);
  assert.ok(link.length < 30000, `the default model's link is ${link.length} characters`);
  const other = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const fresh = await other.newPage();
  await fresh.goto(link);
  await ready(fresh);
  await fresh.waitForFunction(() => window.headlab.state().text.includes('wombat'), null, { timeout: 10000 });
  const state = await fresh.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads[1].W_Q[6][2], -3.5);
  await fresh.waitForFunction(() => window.headlab.widgetRect('arcs') !== null && window.headlab.view() === 'arcs.labels');
  assert.equal(await fresh.evaluate(() => window.headlabPersistence && location.hash), '', 'the link is taken out of the address bar');
  // Hostile links: garbage, a valid deflate of nonsense, markup.
  for (const bad of ['#s=%%%%', '#s=AAAA', '#s=' + 'A'.repeat(5000), '#s=<img src=x onerror=alert(1)>']) {
    await fresh.goto('about:blank');  // a new document: a hash change alone would not reload
    await fresh.goto(server.url + bad);
    await ready(fresh);
    await frames(fresh, 3);
    assert.match(await fresh.evaluate(() => document.getElementById('toast').textContent), /could not be read|was not loaded|not valid/);
    assert.equal(await fresh.evaluate(() => document.querySelectorAll('img').length), 0);
  }
  await other.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link opens on top of the learner\'s own work (undo returns to it), in an open tab too; bombs and old links', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  // The shared lab, as a link made the way HeadLab's first links were (the browser's own deflate-raw).
  const shared = await page.evaluate(async () => {
    const h = window.headlab;
    h.setText('The red fox saw a bird.');
    h.setHeadCount(2);
    const text = h.saveState();
    const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return '#s=' + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  // The learner's own work, autosaved.
  await page.evaluate(() => { window.headlab.setText('My own sentence about a cat.'); window.headlab.setHeadCount(5); });
  await waitForAutosave(page);
  await page.goto('about:blank');
  await page.goto(server.url + shared);
  await ready(page);
  await frames(page, 2);
  let state = await page.evaluate(() => window.headlab.state());
  assert.match(state.text, /red fox/);
  assert.equal(state.layers[0].heads.length, 2);
  assert.match(await toast(page), /Undo/);
  assert.equal(await page.evaluate(() => location.hash), '', 'the link leaves the address bar once opened');
  await page.evaluate(() => window.headlab.undo());
  state = await page.evaluate(() => window.headlab.state());
  assert.match(state.text, /own sentence/, 'undo goes back to the work that was there before the link');
  assert.equal(state.layers[0].heads.length, 5);

  // A link pasted into the address bar of an open tab only changes the hash: it still opens.
  await page.evaluate((fragment) => { location.hash = fragment; }, shared);
  await page.waitForFunction(() => window.headlab.state().text.includes('red fox'), null, { timeout: 10000 });

  // A decompression bomb (a few kB expanding to 40 MB of zeros) is refused before it expands, and
  // the work stays.
  const { deflateRawSync } = await import('node:zlib');
  const bomb = '#s=' + deflateRawSync(Buffer.alloc(40 << 20)).toString('base64url');
  assert.ok(bomb.length < 100000);
  const before = await page.evaluate(() => window.headlab.saveState());
  await page.evaluate((fragment) => { location.hash = fragment; }, bomb);
  await page.waitForFunction(() => /could not be read/.test(document.getElementById('toast')?.textContent || ''), null, { timeout: 10000 });
  assert.match(await toast(page), /more than 32 MB/);
  assert.equal(await page.evaluate(() => window.headlab.saveState()), before);
  await screenshot(page, 'persistence-bomb-link');
  assert.deepEqual(errors, []);
  await context.close();
});

test('importing a malformed file is refused with a precise message and the work stays', async () => {
  const { page, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setWeight(0, 0, 'W_V', 2, 2, 7));
  const bad = JSON.stringify({ format: 'headlab-model', version: 1, d_model: 24, text: 'x',
    layers: [{ heads: [{ W_Q: [[1]], W_K: [[1]], W_V: [[1]] }], W_O: [[1]] }] });
  await page.evaluate(async (text) => {
    await window.headlabPersistence.readFile(new File([text], 'broken.json', { type: 'application/json' }));
  }, bad);
  assert.match(await toast(page), /broken\.json was not loaded: layers\[0\]\.heads\[0\]\.W_Q: expected 24x1, got 1x1/);
  const state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads[0].W_V[2][2], 7);
  await screenshot(page, 'persistence-import-refused');
  await context.close();
});

test('a 100,000-character paste, odd scripts and extreme weights keep the page alive', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const huge = 'fox '.repeat(25000);
  await page.evaluate((text) => window.headlab.setText(text), huge);
  let state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.tokens.length, 64);
  assert.ok(state.notices.some((n) => /64 tokens/.test(n.text)));
  await page.evaluate(() => window.headlab.setText('猫 🐈‍⬛ e\u0301 שלום , مرحبا !'));
  await frames(page, 3);
  await page.evaluate(() => window.headlab.setWeight(0, 0, 'W_Q', 0, 0, 1e30));
  await page.evaluate(() => window.headlab.setWeight(0, 0, 'W_K', 0, 0, -1e30));
  state = await page.evaluate(() => window.headlab.state());
  for (const row of state.layers[0].heads[0].attention) {
    assert.ok(row.every(Number.isFinite));
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4);
  }
  await frames(page, 3);
  await screenshot(page, 'persistence-odd-input');
  assert.deepEqual(errors, []);
  await context.close();
});

test('soak: thousands of random edits, bounded wasm memory, no console errors', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const result = await page.evaluate(async () => {
    const h = window.headlab;
    const memory = () => Module.HEAPU8.length;
    let seed = 12345;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const pick = (n) => Math.floor(random() * n);
    const words = ['The', 'fox', 'dog', 'jumps', 'over', ',', '.', 'lazy', '猫', '🐈', 'aardvark'];
    const warm = memory();
    let refused = 0;
    for (let i = 0; i < 4000; ++i) {
      try {
        const s = h.state;
        switch (pick(8)) {
          case 0: h.setText(Array.from({ length: pick(40) }, () => words[pick(words.length)]).join(' ')); break;
          case 1: h.setHeadCount(1 + pick(16)); break;
          case 2: h.setLayerCount(1 + pick(3)); break;
          case 3: h.setWeight(0, pick(4), ['W_Q', 'W_K', 'W_V'][pick(3)], pick(24), pick(6), (random() - 0.5) * 10 ** pick(8)); break;
          case 4: h.applyPreset(0, pick(4), ['previous_token', 'delimiter', 'verb_subject', 'content_similarity'][pick(4)]); break;
          case 5: h.undo(); break;
          case 6: h.redo(); break;
          case 7: h.selectHead(0, pick(4)); break;
        }
      } catch (e) { ++refused; }
      if (i % 500 === 0) await new Promise((r) => requestAnimationFrame(r));
    }
    const state = h.state();
    return { warm, after: memory(), refused, heads: state.layers.length };
  });
  // The undo history holds at most 256 documents; the bound is generous for that.
  assert.ok(result.after <= result.warm + 64 * 1024 * 1024, `wasm memory ${result.warm} -> ${result.after}`);
  console.log(`soak: 4000 edits, ${result.refused} refused with a message, wasm memory ${result.warm} -> ${result.after} bytes`);
  await frames(page, 3);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the page fetches only its own files; its policy forbids eval, inline scripts and foreign origins', async () => {
  const { page, requests, context } = await openLab(browser, server.url);
  // Exercise what loads lazily: a lesson, a share link, a few training steps, an export.
  await page.evaluate(() => {
    const h = window.headlab;
    h.startLesson(1, 0);
    h.request({ op: 'shareLink' });
    h.trainStep(5);
    h.exportModel();
  });
  await frames(page, 5);
  const origin = new URL(server.url).origin;
  const foreign = requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'every request stays on the page\'s own origin');
  // DevTools' own evaluate is exempt from the page's policy, so the policy is checked by what it
  // reports: markup injected the way a hostile state would try (an inline script, a foreign
  // image) and a foreign fetch must each raise a violation and never run or leave the page.
  const outcome = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.head.appendChild(script);
    const image = document.createElement('img');
    image.src = 'http://198.51.100.7/pixel.png';
    document.body.appendChild(image);
    let fetched = 'sent';
    try { await fetch('http://198.51.100.7/leak'); } catch (e) { fetched = e.name; }
    // The image's violation is reported when its load is refused: wait for all three, not a time.
    await new Promise((resolve) => {
      let framesLeft = 600;  // a violation that never comes fails the assertion below, not the timeout
      const check = () => (new Set(violations).size >= 3 || --framesLeft < 0 ? resolve() : requestAnimationFrame(check));
      check();
    });
    image.remove();
    const policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]').content;
    return { violations: [...new Set(violations)].sort(), injected: window.__injected === true, fetched, policy };
  });
  assert.deepEqual(outcome.violations, ['connect-src', 'img-src', 'script-src-elem']);
  assert.equal(outcome.injected, false);
  assert.equal(outcome.fetched, 'TypeError');
  const scriptSrc = outcome.policy.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
  assert.equal(scriptSrc, "script-src 'self' 'wasm-unsafe-eval'", 'no eval, no inline script, no foreign origin');
  await context.close();
});
