#!/usr/bin/env node
// Training speed in WebAssembly, measured in the page (issue 7, item 7), next to the native number.
//   node scripts/bench-web.mjs [--seconds 30] [--speed 0.5] [--seed 1] [--main-thread] [--no-first-frame] [--json]
// Needs build/web (scripts/build-web) and Chromium. It prints
//   0. first frame, cold cache (not with --no-first-frame: scripts/bench has printed it): median
//      of 5 loads, with when the wasm finished downloading and compiling (streamed together), when
//      main() started and when it had read the assets and built the fonts, and the bytes
//      transferred (compressed) before the first frame;
//   1. raw WASM speed: default model (2 layers x 4 heads, d_model 64, batch 16) trained on the
//      page's main thread with nothing else to do (window.headlab.trainBenchmark);
//   2. in-page speed: Play pressed in the Training tab, the page drawing as usual: steps/s,
//      frames/s and how many of them were drawn (a frame with nothing new is not), and the time
//      at which each learned role first appears on the held-out timeline (read every 0.2 s; a
//      head's label counts once it differs from the untrained model's, whose near-uniform heads
//      read as broad at step 0). Play trains
//      in the training worker; with --main-thread its script is refused, so the page trains in its
//      own frames at --speed, as it does where workers cannot start;
//   3. native speed: bench/training_bench (Google Benchmark) from build/bench, build/native or build/trainui,
//      when built.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureFirstFrame, describeFirstFrame } from './first-frame.mjs';
import { startServer, launchBrowser, openLab, frames, countDrawnFrames } from '../tests/browser/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? Number(args[i + 1]) : fallback;
};
const seconds = option('--seconds', 30), speed = option('--speed', 0.5), seed = option('--seed', 1);
const asJson = args.includes('--json');
const mainThread = args.includes('--main-thread');
const firstFrame = !args.includes('--no-first-frame');
const log = (...parts) => { if (!asJson) console.log(...parts); };

function nativeStepsPerSecond() {
  for (const dir of ['build/bench', 'build/native', 'build/trainui']) {
    const binary = path.join(root, dir, 'bench', 'training_bench');
    if (!fs.existsSync(binary)) continue;
    const out = execFileSync(binary, ['--benchmark_filter=BM_TrainingStep/16', '--benchmark_format=json'], { encoding: 'utf8' });
    const run = JSON.parse(out).benchmarks.find((b) => b.name.startsWith('BM_TrainingStep/16'));
    return { binary: path.relative(root, binary), steps_per_second: run['steps/s'] };
  }
  return null;
}

const server = await startServer();
const browser = await launchBrowser();
const result = { seconds, speed, seed };
try {
  if (firstFrame) {
    result.first_frame = await measureFirstFrame(browser, server.url);
    log(describeFirstFrame(result.first_frame));
  }

  const { page, context } = await openLab(browser, server.url);
  if (mainThread) await context.route('**/training-worker.js', (route) => route.fulfill({ status: 404, body: 'refused' }));
  const rectOf = async (name) => { await frames(page, 2); return page.evaluate((n) => window.headlab.widgetRect(n), name); };
  const clickOn = async (name) => {
    const r = await rectOf(name);
    await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
    await frames(page, 2);
  };

  // Before the Training tab opens: opening it starts the training worker, which then loads as it
  // does for a learner, not beside five seconds of training on the main thread. Play is pressed a
  // second after the tab opens, about when a learner who came to train would press it.
  log('raw WASM speed (5 s, main thread, no drawing)...');
  result.wasm_raw = await page.evaluate(() => window.headlab.trainBenchmark(5));
  log(`  ${result.wasm_raw.steps_per_second.toFixed(1)} steps/s (batch ${result.wasm_raw.batch})`);
  await clickOn('tab/training');
  await page.waitForTimeout(1000);

  await page.evaluate(([s, share]) => { window.headlab.trainReset({ seed: s }); window.headlab.trainSettings({ speed: share }); },
                      [seed, speed]);
  // The untrained model's labels (a head of near-uniform attention reads as broad at step 0): a
  // head's role counts as learned only once its label differs from this one.
  const untrained = {};
  for (const role of (await page.evaluate(() => window.headlab.trainState())).roles)
    untrained[`L${role.layer}H${role.head}`] = role.label;
  result.untrained_roles = untrained;
  await countDrawnFrames(page);
  await clickOn('train/play');
  log(`in-page training for ${seconds} s (seed ${seed}, ` +
      (mainThread ? `on the main thread, speed ${speed} of each frame)...` : 'in the training worker)...'));
  const start = Date.now();
  const firstSeen = {};
  let state = null, firstFrames = null;
  // Roles are read five times a second, so a role's first appearance is timed to 0.2 s; the
  // progress line is printed once a second.
  for (let poll = 1; Date.now() - start < seconds * 1000; ++poll) {
    await page.waitForTimeout(Math.max(0, start + poll * 200 - Date.now()));
    state = await page.evaluate(() => window.headlab.trainState());
    firstFrames ??= { frames: state.frames, drawn: await page.evaluate(() => window.drawnFrames), time: Date.now() };
    const elapsed = (Date.now() - start) / 1000;
    const learned = state.roles.filter((r) => r.label !== 'mixed' && r.label !== untrained[`L${r.layer}H${r.head}`]);
    for (const role of learned)
      if (!(role.label in firstSeen))
        firstSeen[role.label] = { seconds: +elapsed.toFixed(1), step: state.step, head: `L${role.layer}H${role.head}` };
    const labelled = learned.length;
    if (labelled >= 3 && !result.three_roles) result.three_roles = { seconds: +elapsed.toFixed(1), step: state.step };
    if (poll % 5 === 0) log(`  ${elapsed.toFixed(0).padStart(3)} s  step ${String(state.step).padStart(5)}  loss ${state.loss?.toFixed(2) ?? '-'}` +
        `  ${state.steps_per_second.toFixed(0)} steps/s  ${state.frames_per_second.toFixed(0)} fps  ` +
        state.roles.map((r) => (r.label === 'mixed' ? '.' : r.label.replace('syntactic:', ''))).join(' '));
  }
  const wall = (Date.now() - start) / 1000;
  const drawn = await page.evaluate(() => window.drawnFrames);
  result.in_page = {
    in_worker: state.in_worker,
    steps: state.step,
    steps_per_second: +(state.step / wall).toFixed(1),
    frames_per_second: +((state.frames - firstFrames.frames) / ((Date.now() - firstFrames.time) / 1000)).toFixed(1),
    drawn_per_second: +((drawn - firstFrames.drawn) / ((Date.now() - firstFrames.time) / 1000)).toFixed(1),
    step_ms: +state.step_ms.toFixed(2),
    loss: state.loss,
    first_loss: state.first_loss,
    roles: state.roles.map((r) => ({ head: `L${r.layer}H${r.head}`, label: r.label, score: +r.score.toFixed(2) })),
  };
  result.first_seen = firstSeen;
} finally {
  await browser.close();
  server.stop();
}
result.native = nativeStepsPerSecond();

if (asJson) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log('\nsummary (default model: 2 layers x 4 heads, d_model 64, batch 16)');
  if (result.native) console.log(`  native            ${result.native.steps_per_second.toFixed(1)} steps/s (${result.native.binary})`);
  else console.log('  native            not built (cmake --build --preset native --target training_bench)');
  console.log(`  WASM, raw         ${result.wasm_raw.steps_per_second.toFixed(1)} steps/s`);
  console.log(`  WASM, in the page ${result.in_page.steps_per_second} steps/s ` +
              `(${result.in_page.in_worker ? 'in the training worker' : 'on the main thread'}) at ${result.in_page.frames_per_second} frames/s, ` +
              `${result.in_page.drawn_per_second} of them drawn` +
              ` (${result.in_page.steps} steps in ${seconds} s, loss ${result.in_page.first_loss.toFixed(2)} -> ${result.in_page.loss.toFixed(2)})`);
  const startLabels = Object.entries(result.untrained_roles).filter(([, label]) => label !== 'mixed');
  console.log('  untrained (not counted as learned): ' +
              (startLabels.length ? startLabels.map(([head, label]) => `${head} ${label}`).join(', ') : 'every head mixed'));
  for (const [label, seen] of Object.entries(result.first_seen))
    console.log(`  first ${label.padEnd(18)} after ${String(seen.seconds).padStart(5)} s (step ${seen.step}, ${seen.head})`);
  if (result.three_roles) console.log(`  three heads with learned roles after ${result.three_roles.seconds} s (step ${result.three_roles.step})`);
  console.log('  roles at the end: ' + result.in_page.roles.map((r) => `${r.head} ${r.label}`).join(', '));
}
