// window.headlab.benchmark and benchmarkLesson (docs/js-api.md, "Benchmarks"; issue 3, item 8):
// behaviour, not speed. Times are finite and positive, FLOPs follow the stated formula, bad
// arguments are refused with a message, and the lab is untouched and keeps working afterwards.
// No timing thresholds: scripts/bench reports the numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

// h (3 * 2 n d_model d_k + 2 n^2 d_k + 2 n^2 d_v) + 2 n (h d_v) d_model, d_k = d_v = d_model / h.
function attentionFlops(n, dModel, heads) {
  const dK = dModel / heads, dV = dK;
  return heads * (3 * 2 * n * dModel * dK + 2 * n * n * dK + 2 * n * n * dV) + 2 * n * (heads * dV) * dModel;
}

const positive = (x, what) => assert.ok(Number.isFinite(x) && x > 0, `${what} is finite and positive (${x})`);

test('benchmark: finite positive times and the stated FLOP count, lab untouched', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const before = await page.evaluate(() => window.headlab.state());
  for (const [n, dModel, heads] of [[9, 64, 4], [32, 128, 8]]) {
    const r = await page.evaluate((o) => window.headlab.benchmark(o), { n, d_model: dModel, heads, reps: 5 });
    positive(r.median_ms, 'median_ms');
    positive(r.min_ms, 'min_ms');
    positive(r.gflops, 'gflops');
    assert.ok(r.min_ms <= r.median_ms);
    assert.equal(r.reps, 5);
    assert.ok(Number.isInteger(r.batch) && r.batch >= 1);
    assert.equal(r.d_k, dModel / heads);
    assert.equal(r.flops, attentionFlops(n, dModel, heads));
  }
  const after = await page.evaluate(() => window.headlab.state());
  assert.equal(after.revision, before.revision, 'benchmarks use models of their own');
  assert.deepEqual(errors, []);
  await context.close();
});

test('benchmark refuses bad arguments with a message; the page keeps working', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const refusal = (options) => page.evaluate((o) => {
    // NaN does not survive page.evaluate's argument passing: rebuild it in the page.
    for (const key of Object.keys(o)) if (o[key] === 'NaN') o[key] = NaN;
    try { window.headlab.benchmark(o); return 'accepted'; } catch (e) { return e.message; }
  }, options);
  const good = { n: 9, d_model: 64, heads: 4, reps: 3 };
  assert.match(await refusal({ ...good, heads: 0 }), /^heads: expected an integer in 1\.\.16 \(got 0\)/);
  assert.match(await refusal({ ...good, d_model: 66 }), /^d_model: 66 is not divisible by heads \(4\)/);
  assert.match(await refusal({ ...good, reps: 1e9 }), /^reps: expected an integer in 1\.\.1000 \(got 1000000000\)/);
  assert.match(await refusal({ ...good, n: 'NaN' }), /^n: expected an integer in 1\.\.256 \(got NaN\)/);
  assert.match(await refusal({ ...good, n: 2.5 }), /^n: expected an integer/);
  assert.match(await refusal({ d_model: 64, heads: 4 }), /^n: expected an integer/);
  assert.match(await page.evaluate(() => {
    try { window.headlab.benchmarkLesson({ reps: 0 }); return 'accepted'; } catch (e) { return e.message; }
  }), /^reps: expected an integer in 1\.\.1000/);

  // Still a working lab: an edit lands, the heatmaps redraw, undo brings the old weight back.
  const before = await page.evaluate(() => window.headlab.state());
  await page.evaluate(() => window.headlab.setWeight(0, 0, 'W_Q', 0, 0, 2.5));
  let state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads[0].W_Q[0][0], 2.5);
  assert.ok(state.revision > before.revision);
  await frames(page);
  await page.evaluate(() => window.headlab.undo());
  state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads[0].W_Q[0][0], before.layers[0].heads[0].W_Q[0][0]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('benchmarkAnalysis: the issue-4 workload, full recompute and one-head change', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const full = await page.evaluate(() => window.headlab.benchmarkAnalysis({ reps: 3 }));
  assert.deepEqual([full.n, full.d_model, full.layers, full.heads], [32, 64, 4, 16]);
  assert.equal(full.change, 'every_head');
  assert.equal(full.heads_rescored, 64, 'two models with different seeds: every head changes');
  assert.equal(full.has_gold, false);
  positive(full.median_ms, 'median_ms');
  positive(full.parts.redundancy_ms, 'redundancy_ms');
  positive(full.parts.importance_ms, 'importance_ms');
  assert.ok(full.min_ms <= full.median_ms);
  const one = await page.evaluate(() => window.headlab.benchmarkAnalysis({ reps: 2, change: 'one_head' }));
  assert.equal(one.heads_rescored, 1, 'a one-head edit in the last layer rescores that head only');
  positive(one.median_ms, 'median_ms');
  const gold = await page.evaluate(() => window.headlab.benchmarkAnalysis({ reps: 2, gold: true, d_model: 128 }));
  assert.equal(gold.has_gold, true);
  assert.equal(gold.n, 16);
  assert.equal(gold.d_model, 128);
  const refused = await page.evaluate(() => {
    try { window.headlab.benchmarkAnalysis({ d_model: 20 }); return null; } catch (e) { return String(e.message || e); }
  });
  assert.match(refused ?? '', /d_model/, 'a d_model that is not a multiple of 16 is refused with its name');
  await frames(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('benchmarkLesson: one edit on the lesson-size model, with its parts', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const r = await page.evaluate(() => window.headlab.benchmarkLesson({ reps: 3 }));
  assert.deepEqual([r.n, r.d_model, r.heads, r.layers], [32, 128, 8, 2]);
  assert.equal(r.heads_rescored, 1, 'a drag step in layer 0 rescores the edited head; layer 1 waits for a pause');
  assert.equal(r.layers_recomputed, 1);
  positive(r.with_catch_up.median_ms, 'with_catch_up.median_ms');
  positive(r.median_ms, 'median_ms');
  positive(r.parts.forward_ms, 'forward_ms');
  positive(r.parts.analysis_ms, 'analysis_ms');
  const lastLayer = await page.evaluate(() => window.headlab.benchmarkLesson({ reps: 2, layer: 1 }));
  assert.equal(lastLayer.heads_rescored, 1, 'an edit in the last layer rescores that head only');
  positive(lastLayer.median_ms, 'median_ms');
  const gold = await page.evaluate(() => window.headlab.benchmarkLesson({ reps: 2, gold: true }));
  assert.equal(gold.has_gold, true);
  assert.equal(gold.n, 16);
  await frames(page);
  assert.deepEqual(errors, []);
  await context.close();
});
