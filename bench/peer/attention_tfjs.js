// HeadLab's attention-only forward written in tfjs, timed the way window.headlab.benchmark times
// HeadLab's (src/api/benchmark_api.cpp), for scripts/bench. Runs in bench/peer/index.html on tfjs's
// WASM backend: the SIMD build, one thread (no cross-origin isolation, so no SharedArrayBuffer).
//
// The same computation, op for op (src/engine/forward.h; no mask, residual, norm or FFN):
//   Q_i = X W_Q_i, K_i = X W_K_i, V_i = X W_V_i     (n, d_k)   X (n, d_model), d_k = d_v = d_model / h
//   A_i = softmax(Q_i K_i^T * 1/sqrt(d_k))           (n, n)
//   Z_i = A_i V_i                                    (n, d_v)
//   out = Concat(Z_1..Z_h) W_O                       (n, d_model)
// Two ways to say it in tfjs:
//   batched:  one X [W_Q | W_K | W_V] product (n, 3 h d_k), reshaped and transposed to (3, h, n, d_k),
//             batched matMuls for Q K^T and A V over all heads, transposed back to (n, h d_v), W_O;
//   per_head: a loop over heads with one tf.matMul per product, tf.concat, W_O. K is transposed
//             on its own: tfjs-backend-wasm 4.22 sends a matMul to XNNPACK only when neither side
//             is transposed and the batch is 1, and runs every other one as a plain scalar loop
//             (src/cc/batch_mat_mul_impl.cc), which is why the batched variant's two products over
//             all heads are slow.
// Inputs are seeded random with HeadLab's distributions (X ~ N(0, 1), W_Q/W_K/W_V ~ N(0, 1/d_model),
// W_O identity-like) but not its values: speed does not depend on them, shapes and ops do.
import { measureSimdPeak } from './simd_peak.js';

const tf = window.tf;

// mulberry32 and Box-Muller: seeded normal floats.
export function normals(count, seed, stddev = 1) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;  // (0, 1)
  };
  const out = new Float32Array(count);
  for (let i = 0; i < count; ++i) out[i] = stddev * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return out;
}

// Row-major Float32Arrays: X0 and X1 (n, d_model), per head W_Q/W_K/W_V (d_model, d_k), W_O (h d_v, d_model).
function makeData(n, dModel, heads, seed) {
  const dK = dModel / heads, scale = 1 / Math.sqrt(dModel);
  const W = (matrix, h) => normals(dModel * dK, seed * 1000 + matrix * 100 + h + 1, scale);
  const W_O = new Float32Array(heads * dK * dModel);
  for (let r = 0; r < heads * dK; ++r) W_O[r * dModel + (r % dModel)] = 1;  // as identity_like
  return {
    n, dModel, heads, dK,
    X: [normals(n * dModel, seed), normals(n * dModel, seed + 7919)],
    W_Q: Array.from({ length: heads }, (_, h) => W(0, h)),
    W_K: Array.from({ length: heads }, (_, h) => W(1, h)),
    W_V: Array.from({ length: heads }, (_, h) => W(2, h)),
    W_O,
  };
}

// The weights as tensors for both variants; dispose() frees them.
function makeTensors(data) {
  const { n, dModel, heads, dK } = data;
  const t = {
    X: data.X.map((x) => tf.tensor2d(x, [n, dModel])),
    W_Q: data.W_Q.map((w) => tf.tensor2d(w, [dModel, dK])),
    W_K: data.W_K.map((w) => tf.tensor2d(w, [dModel, dK])),
    W_V: data.W_V.map((w) => tf.tensor2d(w, [dModel, dK])),
    W_O: tf.tensor2d(data.W_O, [heads * dK, dModel]),
    scale: tf.scalar(1 / Math.sqrt(dK)),
  };
  // (d_model, 3 h d_k): [W_Q_1 .. W_Q_h | W_K_1 .. W_K_h | W_V_1 .. W_V_h]
  t.W_QKV = tf.concat([...t.W_Q, ...t.W_K, ...t.W_V], 1);
  t.dispose = () => tf.dispose([t.X, t.W_Q, t.W_K, t.W_V, t.W_O, t.scale, t.W_QKV]);
  return t;
}

const variants = {
  batched(t, X, { n, heads, dK }) {
    const qkv = tf.transpose(tf.reshape(tf.matMul(X, t.W_QKV), [n, 3, heads, dK]), [1, 2, 0, 3]);  // (3, h, n, d_k)
    const [Q, K, V] = tf.unstack(qkv);                                                              // (h, n, d_k) each
    const A = tf.softmax(tf.mul(tf.matMul(Q, K, false, true), t.scale));                            // (h, n, n)
    const Z = tf.reshape(tf.transpose(tf.matMul(A, V), [1, 0, 2]), [n, heads * dK]);               // (n, h d_v)
    return tf.matMul(Z, t.W_O);                                                                     // (n, d_model)
  },
  per_head(t, X, { heads }) {
    const Z = [];
    for (let h = 0; h < heads; ++h) {
      const Q = tf.matMul(X, t.W_Q[h]), K = tf.matMul(X, t.W_K[h]), V = tf.matMul(X, t.W_V[h]);  // (n, d_k)
      const A = tf.softmax(tf.mul(tf.matMul(Q, tf.transpose(K)), t.scale));                      // (n, n)
      Z.push(tf.matMul(A, V));                                                                     // (n, d_v)
    }
    return tf.matMul(tf.concat(Z, 1), t.W_O);
  },
};

// One forward, result copied to JS memory (dataSync), every intermediate freed.
function forward(variant, t, X, shape) {
  const out = tf.tidy(() => variants[variant](t, X, shape));
  const values = out.dataSync();
  out.dispose();
  return values;
}

// The float64 reference, plain loops.
function referenceForward(data, x) {
  const { n, dModel, heads, dK } = data;
  const product = (a, b, rows, inner, cols) => {
    const c = new Float64Array(rows * cols);
    for (let i = 0; i < rows; ++i)
      for (let k = 0; k < inner; ++k)
        for (let j = 0; j < cols; ++j) c[i * cols + j] += a[i * inner + k] * b[k * cols + j];
    return c;
  };
  const concat = new Float64Array(n * heads * dK);
  for (let h = 0; h < heads; ++h) {
    const Q = product(x, data.W_Q[h], n, dModel, dK), K = product(x, data.W_K[h], n, dModel, dK);
    const V = product(x, data.W_V[h], n, dModel, dK);
    for (let i = 0; i < n; ++i) {
      const logits = new Float64Array(n);
      for (let j = 0; j < n; ++j) {
        for (let k = 0; k < dK; ++k) logits[j] += Q[i * dK + k] * K[j * dK + k];
        logits[j] /= Math.sqrt(dK);
      }
      const max = Math.max(...logits);
      const e = logits.map((v) => Math.exp(v - max));
      const sum = e.reduce((s, v) => s + v, 0);
      for (let k = 0; k < dK; ++k) {
        let z = 0;
        for (let j = 0; j < n; ++j) z += (e[j] / sum) * V[j * dK + k];
        concat[i * heads * dK + h * dK + k] = z;
      }
    }
  }
  return product(concat, data.W_O, n, heads * dK, dModel);
}

// Mirrors time_runs in src/api/benchmark_api.cpp: 100 ms (and at least 3 runs) untimed, then the
// runs per sample doubled until a sample lasts 5 ms, then `reps` samples; times per run.
export function timeRuns(reps, run) {
  const warmUp = performance.now();
  for (let i = 0; i < 3 || performance.now() - warmUp < 100; ++i) run();
  let batch = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < batch; ++i) run();
    if (performance.now() - start >= 5 || batch >= 1 << 16) break;
    batch *= 2;
  }
  const perRun = [];
  for (let r = 0; r < reps; ++r) {
    const start = performance.now();
    for (let i = 0; i < batch; ++i) run();
    perRun.push((performance.now() - start) / batch);
  }
  perRun.sort((a, b) => a - b);
  const mid = perRun.length >> 1;
  const median = perRun.length % 2 ? perRun[mid] : 0.5 * (perRun[mid - 1] + perRun[mid]);
  return { median_ms: median, min_ms: perRun[0], reps, batch };
}

function checkSize({ n, d_model: dModel, heads }) {
  if (!(Number.isInteger(n) && Number.isInteger(dModel) && Number.isInteger(heads) && n > 0 && heads > 0 && dModel % heads === 0))
    throw new Error(`bad size (${n}, ${dModel}, ${heads}): d_model must be a multiple of heads`);
}

// { variant: normalised error, kernels: { variant: kernel calls per forward } }; the error is
// max |tfjs - reference| / max |reference| over the output.
async function check({ n, d_model: dModel, heads, seed = 1 }) {
  checkSize({ n, d_model: dModel, heads });
  const data = makeData(n, dModel, heads, seed);
  const t = makeTensors(data);
  const reference = referenceForward(data, data.X[0]);
  const scale = reference.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const errors = {};
  for (const variant of Object.keys(variants)) {
    const got = forward(variant, t, t.X[0], data);
    let worst = 0;
    for (let i = 0; i < got.length; ++i) worst = Math.max(worst, Math.abs(got[i] - reference[i]));
    errors[variant] = got.length === reference.length ? worst / scale : Infinity;
  }
  errors.kernels = {};
  for (const variant of Object.keys(variants)) {
    const profile = await tf.profile(() => forward(variant, t, t.X[0], data));
    errors.kernels[variant] = profile.kernels.length;
  }
  t.dispose();
  return errors;
}

function benchmark({ n, d_model: dModel, heads, reps = 50, variant, seed = 1 }) {
  checkSize({ n, d_model: dModel, heads });
  if (!variants[variant]) throw new Error(`variant: expected one of ${Object.keys(variants).join(', ')} (got ${variant})`);
  const data = makeData(n, dModel, heads, seed);
  const t = makeTensors(data);
  const tensorsBefore = tf.memory().numTensors;
  let turn = 0;
  const timing = timeRuns(reps, () => forward(variant, t, t.X[turn ^= 1], data));
  const leaked = tf.memory().numTensors - tensorsBefore;
  t.dispose();
  if (leaked !== 0) throw new Error(`${variant} leaked ${leaked} tensors per timing`);
  return { ...timing, variant, n, d_model: dModel, heads };
}

// The largest product of the forward alone, X (n, d_model) times [W_Q | W_K | W_V] (d_model, 3 h d_k),
// on XNNPACK (weights packed once, as tfjs caches them): what a tuned WASM SIMD kernel reaches at
// this shape, for comparison with the arithmetic peak. FLOPs 2 m k n.
function gemm({ n, d_model: dModel, heads, reps = 20, seed = 1 }) {
  checkSize({ n, d_model: dModel, heads });
  const cols = 3 * heads * (dModel / heads);
  const X = tf.tensor2d(normals(n * dModel, seed), [n, dModel]);
  const W = tf.tensor2d(normals(dModel * cols, seed + 1, 1 / Math.sqrt(dModel)), [dModel, cols]);
  const timing = timeRuns(reps, () => {
    const out = tf.matMul(X, W);
    out.dataSync();
    out.dispose();
  });
  tf.dispose([X, W]);
  const flops = 2 * n * dModel * cols;
  return { ...timing, m: n, k: dModel, n: cols, flops, gflops: flops / timing.median_ms / 1e6 };
}

async function init() {
  tf.wasm.setThreadsCount(1);
  tf.wasm.setWasmPaths({
    'tfjs-backend-wasm.wasm': 'tfjs/tfjs-backend-wasm.wasm',
    'tfjs-backend-wasm-simd.wasm': 'tfjs/tfjs-backend-wasm-simd.wasm',
    'tfjs-backend-wasm-threaded-simd.wasm': 'tfjs/tfjs-backend-wasm-threaded-simd.wasm',
  });
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialize');
  await tf.ready();
  return {
    tfjs: tf.version.tfjs,
    backend: tf.getBackend(),
    simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'),
    multithread: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'),
    threads: tf.wasm.getThreadsCount(),
    cross_origin_isolated: self.crossOriginIsolated,
  };
}

window.peer = { ready: init(), check, benchmark, gemm, simdPeak: measureSimdPeak, variants: Object.keys(variants) };
