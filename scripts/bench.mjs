#!/usr/bin/env node
// The table of `bash scripts/bench` (issue 3, item 8), from already built binaries:
// and the two budget lines (issue 3: the lesson-size edit under 1 ms; issue 4: the whole analysis of
// 4 layers x 16 heads x 32 tokens under 0.5 ms), from already built binaries:
//   native: build/bench/bench/headlab_bench (attention-only forward), headlab_lesson_bench and
//           headlab_analysis_bench, Google Benchmark, median of 5 repetitions;
//   WASM:   build/web served on 127.0.0.1, Debian's Chromium headless, window.headlab.benchmark,
//           benchmarkLesson and benchmarkAnalysis (docs/js-api.md, "Benchmarks"), median of --reps samples.
//   node scripts/bench.mjs [--reps 50] [--json]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openLab } from '../tests/browser/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const repsAt = args.indexOf('--reps');
const reps = repsAt >= 0 ? Number(args[repsAt + 1]) : 50;
const asJson = args.includes('--json');

// The sizes: (n tokens, d_model, heads), d_k = d_v = d_model / heads.
const sizes = [[9, 64, 4], [32, 128, 8], [64, 256, 8], [128, 256, 8], [256, 512, 16]];
const kBudgetMs = 1.0;
const kAnalysisBudgetMs = 0.5;

// Multiply-adds count 2, softmax ignored (src/app/benchmark_api.h, attention_flops).
const FORMULA = 'FLOPs = h*(3*2*n*d_model*d_k + 2*n^2*d_k + 2*n^2*d_v) + 2*n*(h*d_v)*d_model, ' +
                'd_k = d_v = d_model/h; multiply-add = 2 FLOPs, softmax not counted';
function attentionFlops(n, dModel, heads) {
  const dK = dModel / heads, dV = dK;
  return heads * (3 * 2 * n * dModel * dK + 2 * n * n * dK + 2 * n * n * dV) + 2 * n * (heads * dV) * dModel;
}

// Google Benchmark's JSON: the median aggregate of each benchmark, by name.
function googleBenchmark(binary, filter) {
  const file = path.join(root, 'build/bench/bench', binary);
  if (!fs.existsSync(file)) throw new Error(`${path.relative(root, file)} is not built (bash scripts/bench builds it)`);
  const out = execFileSync(file, [`--benchmark_filter=${filter}`, '--benchmark_format=json', '--benchmark_repetitions=5',
                                  '--benchmark_report_aggregates_only=true'], { encoding: 'utf8', maxBuffer: 16 << 20 });
  const medians = {};
  for (const b of JSON.parse(out).benchmarks)
    if (b.aggregate_name === 'median') medians[b.run_name] = { ...b, ms: b.real_time * { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 }[b.time_unit] };
  return medians;
}

function fail(message) {
  console.error('bench: ' + message);
  process.exit(1);
}

console.error('bench: native Google Benchmark (5 repetitions per size)...');
const native = googleBenchmark('headlab_bench', 'BM_AttentionForward');
const nativeLesson = googleBenchmark('headlab_lesson_bench', 'BM_LessonEdit');
const nativeAnalysis = googleBenchmark('headlab_analysis_bench', 'BM_AnalysisAll/64/0|BM_AnalysisOneHeadEdited/64|BM_Redundancy/64');

console.error(`bench: WASM in headless Chromium (${reps} samples per size)...`);
const server = await startServer();
const browser = await launchBrowser();
let wasm, lesson, lessonLastLayer, lessonGold, analysisAll, analysisOneHead, browserVersion;
try {
  browserVersion = browser.version();
  const { page, errors } = await openLab(browser, server.url);
  // One untimed round first: the browser compiles hot WASM functions again with its optimizing
  // compiler, and the first calls also grow the heap.
  await page.evaluate(() => {
    window.headlab.benchmark({ n: 32, d_model: 128, heads: 8, reps: 5 });
    window.headlab.benchmarkLesson({ reps: 5 });
    window.headlab.benchmarkAnalysis({ reps: 5 });
  });
  wasm = [];
  for (const [n, dModel, heads] of sizes)
    wasm.push(await page.evaluate((o) => window.headlab.benchmark(o), { n, d_model: dModel, heads, reps }));
  lesson = await page.evaluate((r) => window.headlab.benchmarkLesson({ reps: r }), reps);
  lessonLastLayer = await page.evaluate((r) => window.headlab.benchmarkLesson({ reps: r, layer: 1 }), reps);
  lessonGold = await page.evaluate((r) => window.headlab.benchmarkLesson({ reps: r, gold: true }), reps);
  analysisAll = await page.evaluate((r) => window.headlab.benchmarkAnalysis({ reps: r }), reps);
  analysisOneHead = await page.evaluate((r) => window.headlab.benchmarkAnalysis({ reps: r, change: 'one_head' }), reps);
  if (errors.length) fail('the page reported errors: ' + errors.join('; '));
} finally {
  await browser.close();
  server.stop();
}

const rows = sizes.map(([n, dModel, heads], i) => {
  const flops = attentionFlops(n, dModel, heads);
  const nat = native[`BM_AttentionForward/${n}/${dModel}/${heads}`];
  if (!nat) fail(`native size (${n}, ${dModel}, ${heads}) missing from bench/attention_bench.cpp`);
  // Both sides count with the same formula, or the GFLOP/s columns would not compare.
  if (nat.FLOPs !== flops || wasm[i].flops !== flops)
    fail(`FLOP counts disagree at (${n}, ${dModel}, ${heads}): formula ${flops}, native ${nat.FLOPs}, WASM ${wasm[i].flops}`);
  return { n, d_model: dModel, heads, flops, native_ms: nat.ms, native_gflops: flops / nat.ms / 1e6,
           wasm_ms: wasm[i].median_ms, wasm_gflops: wasm[i].gflops, wasm_batch: wasm[i].batch };
});
// BM_LessonEdit/<edited layer>/<gold sentence>
const nativeLessonMs = nativeLesson['BM_LessonEdit/0/0']?.ms, nativeLastLayerMs = nativeLesson['BM_LessonEdit/1/0']?.ms;
const nativeGoldMs = nativeLesson['BM_LessonEdit/0/1']?.ms;
const met = lesson.median_ms < kBudgetMs;
const nativeAnalysisMs = nativeAnalysis['BM_AnalysisAll/64/0']?.ms, nativeOneHeadMs = nativeAnalysis['BM_AnalysisOneHeadEdited/64']?.ms;
const nativeRedundancyMs = nativeAnalysis['BM_Redundancy/64']?.ms;
const analysisMet = analysisAll.median_ms < kAnalysisBudgetMs;

if (asJson) {
  console.log(JSON.stringify({ formula: FORMULA, browser: browserVersion, reps, rows, lesson: {
    wasm: lesson, wasm_last_layer: lessonLastLayer, wasm_gold: lessonGold, native_ms: nativeLessonMs,
    native_last_layer_ms: nativeLastLayerMs, native_gold_ms: nativeGoldMs, budget_ms: kBudgetMs, met },
    analysis: { wasm: analysisAll, wasm_one_head: analysisOneHead, native_ms: nativeAnalysisMs, native_one_head_ms: nativeOneHeadMs,
                native_redundancy_ms: nativeRedundancyMs, budget_ms: kAnalysisBudgetMs, met: analysisMet } }, null, 2));
  process.exit(0);
}

const fixed = (x, digits) => x.toFixed(digits);
const table = [['size (n, d_model, heads)', 'FLOPs', 'native ms', 'native GFLOP/s', 'WASM ms', 'WASM GFLOP/s'],
  ...rows.map((r) => [`(${r.n}, ${r.d_model}, ${r.heads})`, r.flops.toLocaleString('en-US'), fixed(r.native_ms, 4),
                      fixed(r.native_gflops, 2), fixed(r.wasm_ms, 4), fixed(r.wasm_gflops, 2)])];
const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
const line = (row) => '| ' + row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ') + ' |';
console.log('Attention-only forward, one layer (median per forward)');
console.log(line(table[0]));
console.log('|' + widths.map((w, c) => (c === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
for (const row of table.slice(1)) console.log(line(row));
console.log(FORMULA);
console.log(`native: Google Benchmark, median of 5 repetitions; WASM: Chromium ${browserVersion} headless, -O3 -msimd128, ` +
            `median of ${reps} samples (each at least 5 ms of back-to-back forwards); every head runs in every forward`);
console.log('');
const ms = (x) => (x === undefined ? '-' : x.toFixed(3));
console.log(`lesson model forward + analysis: ${ms(lesson.median_ms)} ms in WASM (budget 1 ms): ${met ? 'met' : 'NOT met'}`);
console.log(`  = median of ${lesson.reps} samples (fastest ${ms(lesson.min_ms)} ms) of one W_Q drag step in layer 0 through the ` +
            `Controller (2 layers x 8 heads, d_model 128, n ${lesson.n}; ${lesson.heads_rescored} heads get new attention): ` +
            `forward ${ms(lesson.parts.forward_ms)} ms + analysis ${ms(lesson.parts.analysis_ms)} ms + undo copy; ` +
            `native ${ms(nativeLessonMs)} ms`);
console.log(`  the same step in layer 1 (${lessonLastLayer.heads_rescored} head): ${ms(lessonLastLayer.median_ms)} ms in WASM ` +
            `(forward ${ms(lessonLastLayer.parts.forward_ms)}, analysis ${ms(lessonLastLayer.parts.analysis_ms)}), native ${ms(nativeLastLayerMs)} ms`);
console.log(`  layer 0 with syntax scores (annotated sentence, n ${lessonGold.n}): ${ms(lessonGold.median_ms)} ms in WASM, ` +
            `native ${ms(nativeGoldMs)} ms`);
console.log();
console.log(`analysis of 4 layers x 16 heads x ${analysisAll.n} tokens, full recompute: ${ms(analysisAll.median_ms)} ms in WASM ` +
            `(budget ${kAnalysisBudgetMs} ms): ${analysisMet ? 'met' : 'NOT met'}`);
console.log(`  = median of ${analysisAll.reps} samples (fastest ${ms(analysisAll.min_ms)} ms); all ${analysisAll.heads_rescored} heads get new ` +
            `attention every run: labels and scores, redundancy ${ms(analysisAll.parts.redundancy_ms)} ms, importance ` +
            `${ms(analysisAll.parts.importance_ms)} ms; native ${ms(nativeAnalysisMs)} ms (redundancy ${ms(nativeRedundancyMs)} ms)`);
console.log(`  one head changed (a drag frame): ${ms(analysisOneHead.median_ms)} ms in WASM, native ${ms(nativeOneHeadMs)} ms`);
