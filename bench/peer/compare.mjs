// HeadLab's attention-only forward against tfjs-wasm in one Chromium, for scripts/bench: the lab page
// (window.headlab.benchmark) and the peer page (bench/peer/index.html, window.peer.benchmark) take
// turns, size by size, round by round, so both see the same machine (the 2-core development machine
// is shared: a build next door slows whoever runs during it). Each measurement is the median of
// `reps` samples as both pages time them (benchmark_api.cpp, time_runs; attention_tfjs.js, timeRuns);
// a size's result per side is its best round.

export const kVariants = ['headlab', 'batched', 'per_head'];
// Worst normalised error accepted from tfjs against the float64 reference (float32 sums).
const kMaxCheckError = 1e-4;
const kCheckSizes = [[9, 64, 4], [32, 128, 8]];

const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

// [{n, d_model, heads, batched, per_head, kernels}] (attention_tfjs.js, check); throws when tfjs is off the reference.
export async function checkPeer(peerPage) {
  const errors = [];
  for (const [n, dModel, heads] of kCheckSizes) {
    const e = await peerPage.evaluate((o) => window.peer.check(o), { n, d_model: dModel, heads });
    errors.push({ n, d_model: dModel, heads, ...e });
    for (const variant of kVariants.slice(1))
      if (!(e[variant] <= kMaxCheckError))
        throw new Error(`tfjs ${variant} at (${n}, ${dModel}, ${heads}) is off the float64 reference by ${e[variant]} (normalised)`);
  }
  return errors;
}

// Runs the rounds. Returns { sizes: [{n, d_model, heads, rounds: {headlab: [ms], batched, per_head, gemm},
// best: {headlab, batched, per_head}, gemm: its best round}], peaks: [{gflops, chains, ...}] } (the peak
// measured before the first size and after each).
export async function comparePeer({ labPage, peerPage, sizes, rounds, reps, log = () => {} }) {
  // The lab redraws its whole UI every animation frame, with WebGL in software (SwiftShader) in
  // headless Chromium: measured 1.4 of the 2 cores while idle. Paused, it costs nothing, and neither
  // side's timings compete with it. Emscripten's Module.pauseMainLoop stops the requestAnimationFrame loop.
  const paused = await labPage.evaluate(() => {
    if (typeof window.Module?.pauseMainLoop !== 'function') return false;
    window.Module.pauseMainLoop();
    return true;
  });
  if (!paused) throw new Error('the lab page has no Module.pauseMainLoop: its render loop would compete with both sides');
  try {
    const measure = {
      headlab: (size) => labPage.evaluate((o) => window.headlab.benchmark(o), { ...size, reps }),
      batched: (size) => peerPage.evaluate((o) => window.peer.benchmark(o), { ...size, reps, variant: 'batched' }),
      per_head: (size) => peerPage.evaluate((o) => window.peer.benchmark(o), { ...size, reps, variant: 'per_head' }),
    };
    // The forward's largest product alone, on XNNPACK: a reference for what a tuned kernel reaches.
    measure.gemm = (size) => peerPage.evaluate((o) => window.peer.gemm(o), { ...size, reps });
    const simdPeak = () => peerPage.evaluate(() => window.peer.simdPeak());
    const peaks = [await simdPeak()];
    const results = [];
    for (const [n, dModel, heads] of sizes) {
      const size = { n, d_model: dModel, heads };
      log(`(${n}, ${dModel}, ${heads}): ${rounds} rounds of HeadLab, tfjs batched, tfjs per-head (and the GEMM alone)`);
      const times = Object.fromEntries(Object.keys(measure).map((v) => [v, []]));
      let gemm = null;
      // The order turns each round, so no side always runs right after another.
      for (let r = 0; r < rounds; ++r)
        for (const name of rotate(Object.keys(measure), r)) {
          const result = await measure[name](size);
          times[name].push(result.median_ms);
          if (name === 'gemm' && !(gemm?.median_ms <= result.median_ms)) gemm = result;
        }
      peaks.push(await simdPeak());
      const best = Object.fromEntries(kVariants.map((v) => [v, Math.min(...times[v])]));
      results.push({ ...size, rounds: times, best, gemm });
    }
    return { sizes: results, peaks };
  } finally {
    await labPage.evaluate(() => window.Module.resumeMainLoop());
  }
}

// A GPT-2 block, HeadLab (window.headlab.benchmarkBlock) against tfjs's variants
// (gpt2_block_tfjs.js), the same interleaved rounds as the attention forward. Checks tfjs against its
// float64 reference first. Returns [{n, d_model, heads, rounds: {headlab: [ms], per_head, batched},
// best: {...}, check}].
export async function compareBlocks({ labPage, peerPage, sizes, rounds, reps, log = () => {} }) {
  const check = await peerPage.evaluate(() => window.peer.checkBlock({ n: 9, d_model: 64, heads: 4 }));
  for (const [variant, error] of Object.entries(check))
    if (!(error <= kMaxCheckError))
      throw new Error(`tfjs's GPT-2 block (${variant}) is off the float64 reference by ${error} (normalised)`);
  const variants = await peerPage.evaluate(() => window.peer.blockVariants);
  await labPage.evaluate(() => window.Module.pauseMainLoop());
  try {
    const results = [];
    for (const [n, dModel, heads] of sizes) {
      const size = { n, d_model: dModel, heads };
      log(`GPT-2 block (${n}, ${dModel}, ${heads}): ${rounds} rounds of HeadLab and tfjs ${variants.join(', ')}`);
      const measure = { headlab: () => labPage.evaluate((o) => window.headlab.benchmarkBlock(o), { ...size, reps }) };
      for (const variant of variants)
        measure[variant] = () => peerPage.evaluate((o) => window.peer.benchmarkBlock(o), { ...size, reps, variant });
      const times = Object.fromEntries(Object.keys(measure).map((v) => [v, []]));
      for (let r = 0; r < rounds; ++r)
        for (const name of rotate(Object.keys(measure), r)) times[name].push((await measure[name]()).median_ms);
      const best = Object.fromEntries(Object.keys(times).map((v) => [v, Math.min(...times[v])]));
      results.push({ ...size, rounds: times, best, check });
    }
    return results;
  } finally {
    await labPage.evaluate(() => window.Module.resumeMainLoop());
  }
}
