// One GPT-2 block written in tfjs, timed as window.headlab.benchmarkBlock times HeadLab's
// (src/api/block_benchmark.cpp), for scripts/bench:
//   a = LN_1(X);  [Q | K | V] = a W_attn + b_attn                (n, 3 d_model)
//   per head: A_i = softmax(Q_i K_i^T / sqrt(d_k) + causal mask);  Z_i = A_i V_i
//   X' = X + Concat(Z) W_proj + b_proj
//   out = X' + GELU_tanh(LN_2(X') W_fc + b_fc) W_fc2 + b_fc2     d_ff = 4 d_model
// Two ways to say it in tfjs, the faster counts:
//   per_head: the [Q | K | V] product once, sliced per head, each head's products on XNNPACK (K
//             transposed on its own, as in attention_tfjs.js), concatenated;
//   batched:  reshaped and transposed to (3, h, n, d_k), batched matMuls over the heads.
// Weights have GPT-2's scales (N(0, 0.02), LayerNorm gain 1 and bias 0) and seeded values of their own.
import { normals, timeRuns } from './attention_tfjs.js';

const tf = window.tf;

function makeData(n, dModel, heads, seed) {
  const dFf = 4 * dModel;
  const w = (count, salt) => normals(count, seed * 1000 + salt, 0.02);
  return {
    n, dModel, heads, dK: dModel / heads, dFf,
    X: [normals(n * dModel, seed), normals(n * dModel, seed + 7919)],
    W_attn: w(dModel * 3 * dModel, 1), b_attn: w(3 * dModel, 2),
    W_proj: w(dModel * dModel, 3), b_proj: w(dModel, 4),
    W_fc: w(dModel * dFf, 5), b_fc: w(dFf, 6),
    W_fc2: w(dFf * dModel, 7), b_fc2: w(dModel, 8),
  };
}

function makeTensors(d) {
  const { n, dModel, dK, dFf } = d;
  const mask = new Float32Array(n * n);
  for (let i = 0; i < n; ++i) for (let j = i + 1; j < n; ++j) mask[i * n + j] = -1e9;
  const t = {
    X: d.X.map((x) => tf.tensor2d(x, [n, dModel])),
    W_attn: tf.tensor2d(d.W_attn, [dModel, 3 * dModel]), b_attn: tf.tensor1d(d.b_attn),
    W_proj: tf.tensor2d(d.W_proj, [dModel, dModel]), b_proj: tf.tensor1d(d.b_proj),
    W_fc: tf.tensor2d(d.W_fc, [dModel, dFf]), b_fc: tf.tensor1d(d.b_fc),
    W_fc2: tf.tensor2d(d.W_fc2, [dFf, dModel]), b_fc2: tf.tensor1d(d.b_fc2),
    gain: tf.ones([dModel]), bias: tf.zeros([dModel]),
    mask: tf.tensor2d(mask, [n, n]), scale: tf.scalar(1 / Math.sqrt(dK)),
  };
  t.dispose = () => tf.dispose(Object.values(t).filter((v) => v instanceof tf.Tensor || Array.isArray(v)));
  return t;
}

function layerNorm(x, gain, bias) {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), gain), bias);
}

function geluTanh(x) {
  const inner = tf.mul(0.7978845608028654, tf.add(x, tf.mul(0.044715, tf.mul(x, tf.mul(x, x)))));
  return tf.mul(tf.mul(0.5, x), tf.add(1, tf.tanh(inner)));
}

// Everything after the heads' outputs, the same in both variants.
function finish(t, X, Z) {
  const x1 = tf.add(X, tf.add(tf.matMul(Z, t.W_proj), t.b_proj));
  const hidden = geluTanh(tf.add(tf.matMul(layerNorm(x1, t.gain, t.bias), t.W_fc), t.b_fc));
  return tf.add(x1, tf.add(tf.matMul(hidden, t.W_fc2), t.b_fc2));
}

const variants = {
  per_head(t, X, { n, dModel, heads, dK }) {
    const qkv = tf.add(tf.matMul(layerNorm(X, t.gain, t.bias), t.W_attn), t.b_attn);
    const Z = [];
    for (let h = 0; h < heads; ++h) {
      const Q = tf.slice(qkv, [0, h * dK], [n, dK]), K = tf.slice(qkv, [0, dModel + h * dK], [n, dK]);
      const V = tf.slice(qkv, [0, 2 * dModel + h * dK], [n, dK]);
      const A = tf.softmax(tf.add(tf.mul(tf.matMul(Q, tf.transpose(K)), t.scale), t.mask));
      Z.push(tf.matMul(A, V));
    }
    return finish(t, X, tf.concat(Z, 1));
  },
  batched(t, X, { n, dModel, heads, dK }) {
    const qkv = tf.add(tf.matMul(layerNorm(X, t.gain, t.bias), t.W_attn), t.b_attn);
    const [Q, K, V] = tf.unstack(tf.transpose(tf.reshape(qkv, [n, 3, heads, dK]), [1, 2, 0, 3]));
    const A = tf.softmax(tf.add(tf.mul(tf.matMul(Q, K, false, true), t.scale), t.mask));
    return finish(t, X, tf.reshape(tf.transpose(tf.matMul(A, V), [1, 0, 2]), [n, dModel]));
  },
};

function run(variant, t, X, d) {
  const out = tf.tidy(() => variants[variant](t, X, d));
  const values = out.dataSync();
  out.dispose();
  return values;
}

// The block in float64, plain loops.
function reference(d, x) {
  const { n, dModel, heads, dK, dFf } = d;
  const product = (a, b, rows, inner, cols, bias) => {
    const c = new Float64Array(rows * cols);
    for (let i = 0; i < rows; ++i) {
      for (let k = 0; k < inner; ++k) for (let j = 0; j < cols; ++j) c[i * cols + j] += a[i * inner + k] * b[k * cols + j];
      for (let j = 0; j < cols; ++j) c[i * cols + j] += bias[j];
    }
    return c;
  };
  const norm = (a) => {
    const out = new Float64Array(a.length);
    for (let i = 0; i < n; ++i) {
      const row = a.subarray(i * dModel, (i + 1) * dModel);
      const mean = row.reduce((s, v) => s + v, 0) / dModel;
      const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / dModel;
      for (let j = 0; j < dModel; ++j) out[i * dModel + j] = (row[j] - mean) / Math.sqrt(variance + 1e-5);
    }
    return out;
  };
  const qkv = product(norm(Float64Array.from(x)), d.W_attn, n, dModel, 3 * dModel, d.b_attn);
  const Z = new Float64Array(n * dModel);
  for (let h = 0; h < heads; ++h)
    for (let i = 0; i < n; ++i) {
      const logits = [];
      for (let j = 0; j <= i; ++j) {
        let s = 0;
        for (let k = 0; k < dK; ++k) s += qkv[i * 3 * dModel + h * dK + k] * qkv[j * 3 * dModel + dModel + h * dK + k];
        logits.push(s / Math.sqrt(dK));
      }
      const max = Math.max(...logits);
      const e = logits.map((v) => Math.exp(v - max));
      const sum = e.reduce((s, v) => s + v, 0);
      for (let k = 0; k < dK; ++k) {
        let z = 0;
        for (let j = 0; j <= i; ++j) z += (e[j] / sum) * qkv[j * 3 * dModel + 2 * dModel + h * dK + k];
        Z[i * dModel + h * dK + k] = z;
      }
    }
  const attn = product(Z, d.W_proj, n, dModel, dModel, d.b_proj);
  const x1 = attn.map((v, i) => v + x[i]);
  const hidden = product(norm(x1), d.W_fc, n, dModel, dFf, d.b_fc)
    .map((v) => 0.5 * v * (1 + Math.tanh(0.7978845608028654 * (v + 0.044715 * v * v * v))));
  const mlp = product(hidden, d.W_fc2, n, dFf, dModel, d.b_fc2);
  return mlp.map((v, i) => v + x1[i]);
}

// { variant: max |tfjs - reference| / max |reference| }.
export function checkBlock({ n, d_model: dModel, heads, seed = 1 }) {
  const d = makeData(n, dModel, heads, seed);
  const t = makeTensors(d);
  const want = reference(d, d.X[0]);
  const scale = want.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const errors = {};
  for (const variant of Object.keys(variants)) {
    const got = run(variant, t, t.X[0], d);
    let worst = 0;
    for (let i = 0; i < got.length; ++i) worst = Math.max(worst, Math.abs(got[i] - want[i]));
    errors[variant] = got.length === want.length ? worst / scale : Infinity;
  }
  t.dispose();
  return errors;
}

export function benchmarkBlock({ n, d_model: dModel, heads, reps = 20, variant, seed = 1 }) {
  if (!variants[variant]) throw new Error(`variant: expected one of ${Object.keys(variants).join(', ')} (got ${variant})`);
  const d = makeData(n, dModel, heads, seed);
  const t = makeTensors(d);
  const tensorsBefore = tf.memory().numTensors;
  let turn = 0;
  const timing = timeRuns(reps, () => run(variant, t, t.X[turn ^= 1], d));
  const leaked = tf.memory().numTensors - tensorsBefore;
  t.dispose();
  if (leaked !== 0) throw new Error(`block ${variant} leaked ${leaked} tensors per timing`);
  return { ...timing, variant, n, d_model: dModel, heads };
}

export const blockVariants = Object.keys(variants);

// attention_tfjs.js, imported above, has run and made window.peer.
Object.assign(window.peer, { checkBlock, benchmarkBlock, blockVariants });
