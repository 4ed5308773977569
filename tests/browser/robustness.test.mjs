// Valid model files of every size the format allows load in the page (a request bigger than the
// wasm stack used to overwrite the module's memory), and if the engine traps anyway the learner is
// told in plain words, offered a reload, and gets back the last good autosave.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, screenshot, frames } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

// The model of the bug report: one layer, explicit X, random numbers, no residual/norm/FFN.
function wideModel(dModel, headCount, tokenCount, seed) {
  let s = seed >>> 0;
  const random = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s / 4294967296 - 0.5) * 0.6; };
  const matrix = (rows, cols) => Array.from({ length: rows }, () => Array.from({ length: cols }, random));
  const dK = dModel / headCount;
  return {
    format: 'headlab-model', version: 1, d_model: dModel, embedding: 'random', causal: false,
    X: matrix(tokenCount, dModel),
    layers: [{
      heads: Array.from({ length: headCount }, () => ({ W_Q: matrix(dModel, dK), W_K: matrix(dModel, dK), W_V: matrix(dModel, dK) })),
      W_O: matrix(dModel, dModel), residual: false, norm: 'none', ffn: null,
    }],
  };
}

test('wide model files load, and the page keeps working after them', async () => {
  const { page, errors } = await openLab(browser, server.url);
  for (const [dModel, heads, tokens] of [[120, 4, 10], [124, 4, 10], [128, 4, 10], [256, 8, 33], [512, 16, 66]]) {
    const text = JSON.stringify(wideModel(dModel, heads, tokens, dModel));
    const result = await page.evaluate((t) => {
      try { window.headlab.loadModel(t); } catch (e) { return 'threw: ' + e.message; }
      const state = window.headlab.state();
      return { d_model: state.config.d_model, heads: state.layers[0].heads.length, tokens: state.tokens.length };
    }, text);
    assert.deepEqual(result, { d_model: dModel, heads, tokens }, `d_model ${dModel}, ${heads} heads, ${tokens} tokens (${(text.length / 1e6).toFixed(1)} MB)`);
    await frames(page, 2);
  }
  // A request of several MB that is refused is refused in words, and the lab goes on.
  const refusal = await page.evaluate(() => {
    try { window.headlab.loadState('{"format":"headlab-state","pad":"' + 'x'.repeat(6e6) + '"}'); return 'loaded'; } catch (e) { return e.message; }
  });
  assert.match(refusal, /\w/);
  assert.doesNotMatch(refusal, /RuntimeError|memory access/);
  await page.evaluate(() => window.headlab.setText('The cat sat on the mat.'));
  assert.equal((await page.evaluate(() => window.headlab.state())).tokens.length, 7);
  assert.equal(await page.evaluate(() => window.headlabCrash.stopped), false);
  await screenshot(page, 'robustness-wide-model');
  assert.deepEqual(errors, []);
});

test('a trap says so, offers a reload, keeps the last autosave and the reload restores it', async () => {
  const { page, context } = await openLab(browser, server.url);
  await page.evaluate(() => { window.headlab.setText('My own sentence about cats.'); window.headlab.setHeadCount(5); });
  await page.waitForFunction(() => (localStorage.getItem('headlab.state') || '').includes('My own sentence'), null, { timeout: 10000 });
  const saved = await page.evaluate(() => localStorage.getItem('headlab.state'));
  // A real trap, not a simulated one: the engine reads a C string at an address past the end of its
  // memory, inside a task of its own as a trap in the frame loop would be.
  await page.evaluate(() => setTimeout(() => window.Module._headlab_call(0xfffffff0)));
  await page.waitForFunction(() => window.headlabCrash.stopped, null, { timeout: 10000 });
  const message = await page.evaluate(() => document.getElementById('status').textContent);
  assert.match(message, /internal error and stopped/);
  assert.match(message, /comes back when you reload/);
  assert.equal(await page.locator('#reload').isVisible(), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'reload');
  await screenshot(page, 'robustness-trap-message');
  // Nothing more is asked of the engine, and autosave no longer writes.
  await assert.rejects(page.evaluate(() => window.headlab.state()), /stopped after an internal error/);
  await page.evaluate(() => { window.headlabPersistence.autosave(); window.headlabPersistence.autosave(true); });
  assert.equal(await page.evaluate(() => localStorage.getItem('headlab.state')), saved);
  // The Reload button restores the work.
  await Promise.all([page.waitForNavigation(), page.click('#reload')]);
  await page.waitForFunction(() => window.headlab && window.headlab.ready);
  await page.evaluate(() => window.headlab.ready);
  const state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.text, 'My own sentence about cats.');
  assert.equal(state.layers[0].heads.length, 5);
  await context.close();
});

test('saved work whose restore stopped the engine is set aside, not restored again', async () => {
  const { page, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setText('Work that was being restored.'));
  await page.waitForFunction(() => (localStorage.getItem('headlab.state') || '').includes('being restored'), null, { timeout: 10000 });
  // As if the last start stopped while restoring this state.
  await page.evaluate(() => localStorage.setItem('headlab.restoring', '1'));
  await page.reload();
  await page.waitForFunction(() => window.headlab && window.headlab.ready);
  await page.evaluate(() => window.headlab.ready);
  const toast = await page.evaluate(() => document.getElementById('toast')?.textContent || '');
  assert.match(toast, /stopped HeadLab last time/);
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('headlab.state.unreadable.')).map((k) => localStorage.getItem(k)));
  assert.equal(kept.length, 1);
  assert.match(kept[0], /being restored/);
  assert.notEqual((await page.evaluate(() => window.headlab.state())).text, 'Work that was being restored.');
  await context.close();
});
