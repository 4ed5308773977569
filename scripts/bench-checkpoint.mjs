#!/usr/bin/env node
// A GPT-2-small-sized checkpoint opened in the page, as a learner opens one from disk.
//   node scripts/bench-checkpoint.mjs [--json] [--keep]
// Writes model.safetensors (F32, Hugging Face's layout, random weights: 124 M parameters, 498 MB)
// and config.json into a temporary folder (never the repository; --keep leaves them there for the
// next run), picks both in the page's file chooser and prints:
//   - the time to open, from the pick until the lab shows the model, split into reading the file
//     into the module (File.slice pieces copied into the heap and decoded) and building the lab
//     (checkpointFinish: the model, the first forward and every head's analysis), with the GPT-2
//     tokenizer's download waited on beside the reading;
//   - the module's heap and the page's JavaScript heap once it is open;
//   - the forward of 64 tokens and the analysis of all 144 heads (window.headlab.benchmarkModel).
// Needs build/web (scripts/build-web) and Chromium (scripts/setup).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launchBrowser, openLab, frames } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const log = (...parts) => { if (!asJson) console.log(...parts); };

// GPT-2 small (Radford et al. 2019; Hugging Face's gpt2 config.json).
const config = { model_type: 'gpt2', n_layer: 12, n_head: 12, n_embd: 768, n_positions: 1024, n_ctx: 1024, vocab_size: 50257,
                 activation_function: 'gelu_new', layer_norm_epsilon: 1e-5 };

function tensorShapes() {
  const d = config.n_embd, shapes = [['wte.weight', [config.vocab_size, d]], ['wpe.weight', [config.n_positions, d]]];
  for (let l = 0; l < config.n_layer; ++l) {
    const p = `h.${l}.`;
    shapes.push([p + 'ln_1.weight', [d]], [p + 'ln_1.bias', [d]], [p + 'attn.c_attn.weight', [d, 3 * d]], [p + 'attn.c_attn.bias', [3 * d]],
                [p + 'attn.c_proj.weight', [d, d]], [p + 'attn.c_proj.bias', [d]], [p + 'ln_2.weight', [d]], [p + 'ln_2.bias', [d]],
                [p + 'mlp.c_fc.weight', [d, 4 * d]], [p + 'mlp.c_fc.bias', [4 * d]], [p + 'mlp.c_proj.weight', [4 * d, d]],
                [p + 'mlp.c_proj.bias', [d]]);
  }
  shapes.push(['ln_f.weight', [d]], ['ln_f.bias', [d]]);
  return shapes;
}

// Random weights at GPT-2's initial scale (stddev 0.02; LayerNorm gains 1, biases 0), from a seeded
// xorshift so every run opens the same file.
function writeCheckpoint(folder) {
  const modelPath = path.join(folder, 'model.safetensors'), configPath = path.join(folder, 'config.json');
  const shapes = tensorShapes();
  const header = {};
  let offset = 0;
  for (const [name, shape] of shapes) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  header.__metadata__ = { format: 'pt' };
  let headerText = JSON.stringify(header);
  headerText += ' '.repeat((8 - (headerText.length % 8)) % 8);
  const expected = 8 + headerText.length + offset;
  if (fs.existsSync(modelPath) && fs.statSync(modelPath).size === expected && fs.existsSync(configPath)) return { modelPath, configPath, bytes: expected };
  fs.writeFileSync(configPath, JSON.stringify(config, null, 1));
  const fd = fs.openSync(modelPath, 'w');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(headerText.length));
  fs.writeSync(fd, length);
  fs.writeSync(fd, headerText);
  let state = 0x2545f491;
  for (const [name, shape] of shapes) {
    const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
    const gain = /ln_\d\.weight|ln_f\.weight/.test(name), bias = /bias$/.test(name);
    for (let i = 0; i < values.length; ++i) {
      if (gain) { values[i] = 1; continue; }
      if (bias) { values[i] = 0; continue; }
      state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
      // Sum of two uniforms: a cheap bell shape with stddev 0.02.
      const u = ((state >>> 0) / 4294967296) + (((state * 2654435761) >>> 0) / 4294967296) - 1;
      values[i] = u * 0.049;
    }
    fs.writeSync(fd, new Uint8Array(values.buffer));
  }
  fs.closeSync(fd);
  return { modelPath, configPath, bytes: expected };
}

const folder = path.join(os.tmpdir(), 'headlab-bench-gpt2-small');
fs.mkdirSync(folder, { recursive: true });
log('writing a GPT-2-small-sized checkpoint of random weights...');
const files = writeCheckpoint(folder);
log(`  ${files.modelPath} (${(files.bytes / 1e6).toFixed(0)} MB)`);

const server = await startServer();
const browser = await launchBrowser();
const result = { file_mb: files.bytes / 1e6 };
try {
  const { page, errors } = await openLab(browser, server.url);
  // When each step of the opening starts, read off the requests the page makes.
  await page.evaluate(() => {
    window.__openTimes = {};
    const request = window.headlab.request;
    window.headlab.request = (fields) => {
      if (/^checkpoint(Begin|Finish)$/.test(fields.op)) window.__openTimes[fields.op] = performance.now();
      const reply = request(fields);
      if (fields.op === 'checkpointFinish') window.__openTimes.finished = performance.now();
      return reply;
    };
  });
  const started = await page.evaluate(() => performance.now());
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.evaluate(() => window.headlabCheckpoint.pick())]);
  await chooser.setFiles([files.modelPath, files.configPath]);
  await page.waitForFunction(() => window.__openTimes.finished && !window.headlabCheckpoint.busy(), null, { timeout: 600000, polling: 50 });
  await frames(page, 1);
  const shown = await page.evaluate(() => performance.now());
  const times = await page.evaluate(() => window.__openTimes);
  const state = await page.evaluate(() => {
    const s = window.headlab.state();
    return { checkpoint: s.checkpoint, layers: s.layers.length, heads: s.layers[0].heads.length, tokens: s.tokens.length };
  });
  if (!state.checkpoint || state.layers !== 12 || state.heads !== 12) throw new Error('the checkpoint did not open: ' + JSON.stringify(state));
  result.open_s = (shown - started) / 1000;
  result.read_s = (times.checkpointFinish - times.checkpointBegin) / 1000;
  result.build_s = (times.finished - times.checkpointFinish) / 1000;
  result.memory = await page.evaluate(() => ({ wasm_heap_mb: Module.HEAPU8.length / 1e6,
                                                js_heap_mb: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null }));
  log(`open from a local file: ${result.open_s.toFixed(2)} s (target 5 s): reading ${result.read_s.toFixed(2)} s, ` +
      `building the lab ${result.build_s.toFixed(2)} s`);
  log(`memory: WASM heap ${result.memory.wasm_heap_mb.toFixed(0)} MB, JS heap ${result.memory.js_heap_mb?.toFixed(0)} MB`);

  // 64 tokens, then the lab's own model timed on them.
  const ids = Array.from({ length: 64 }, (_, i) => (i * 7919) % config.vocab_size);
  await page.evaluate((list) => window.headlab.setTokenIds(list), ids);  // throws if refused
  const timed = await page.evaluate(() => window.headlab.benchmarkModel({ reps: 5 }));
  result.forward_64_ms = timed.forward.median_ms;
  result.analysis_144_ms = timed.analysis.median_ms;
  result.tokens = timed.tokens;
  const kForwardBudgetMs = 500;  // issue 34: GPT-2 small's forward of 64 tokens in the page
  log(`forward of ${timed.tokens} tokens: ${timed.forward.median_ms.toFixed(0)} ms (target ${kForwardBudgetMs} ms: ` +
      `${timed.forward.median_ms <= kForwardBudgetMs ? 'met' : 'NOT met'}); analysis of all ${timed.heads} heads: ` +
      `${timed.analysis.median_ms.toFixed(0)} ms (median of ${timed.forward.reps})`);
  if (errors.length) throw new Error('page errors: ' + errors.join('; '));
} finally {
  await browser.close();
  server.stop();
  if (!args.includes('--keep')) fs.rmSync(folder, { recursive: true, force: true });
}
if (asJson) console.log(JSON.stringify(result));
