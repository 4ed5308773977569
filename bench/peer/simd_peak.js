// The arithmetic peak of WASM SIMD128 in this browser on this machine: what an f32 kernel could
// reach if it did nothing but multiply and add. WASM SIMD128 has no fused multiply-add (that is
// relaxed SIMD, which neither HeadLab's Eigen nor tfjs's XNNPACK build uses), so the peak is
// independent chains of acc = acc * m + c: one f32x4.mul and one f32x4.add per chain and step,
// 8 FLOPs (4 lanes, multiply-add = 2 FLOPs as in the attention FLOP count). Enough chains cover
// the latency of mul then add; fewer than 15 keep them in x86-64's 16 vector registers (V8
// reserves one). The module is assembled here byte by byte: no toolchain needed.

const V128 = 0x7b, I32 = 0x7f, F32 = 0x7d;
const op = {
  void_type: 0x40, loop: 0x03, end: 0x0b, br_if: 0x0d, local_get: 0x20, local_set: 0x21, local_tee: 0x22,
  i32_const: 0x41, i32_sub: 0x6b,
};
// SIMD opcodes: the 0xfd prefix, then the opcode as unsigned LEB128.
const simd = { v128_const: [0xfd, 0x0c], f32x4_extract_lane: [0xfd, 0x1f], f32x4_add: [0xfd, 0xe4, 0x01],
               f32x4_mul: [0xfd, 0xe6, 0x01] };

function uleb(value) {
  const bytes = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    bytes.push(byte);
  } while (value);
  return bytes;
}

const section = (id, payload) => [id, ...uleb(payload.length), ...payload];
const f32x4 = (x) => [...simd.v128_const, ...new Uint8Array(new Float32Array([x, x, x, x]).buffer)];

// (module (func (export "peak") (param $steps i32) (result f32) ...)): `chains` accumulators,
// `steps` (>= 1) steps of every chain, returns lane 0 of their sum so nothing is dead code.
export function peakModuleBytes(chains) {
  const acc = (i) => 1 + i, m = chains + 1, c = chains + 2;  // local 0 is $steps
  const body = [1, ...uleb(chains + 2), V128];  // one group of locals: the chains, m and c
  for (let i = 0; i < chains; ++i) body.push(...f32x4(1 + i / 64), op.local_set, acc(i));  // distinct: no merging
  body.push(...f32x4(0.999), op.local_set, m, ...f32x4(0.001), op.local_set, c);  // converges to 1, never denormal
  body.push(op.loop, op.void_type);
  for (let i = 0; i < chains; ++i)
    body.push(op.local_get, acc(i), op.local_get, m, ...simd.f32x4_mul, op.local_get, c, ...simd.f32x4_add, op.local_set, acc(i));
  body.push(op.local_get, 0, op.i32_const, 1, op.i32_sub, op.local_tee, 0, op.br_if, 0, op.end);
  body.push(op.local_get, acc(0));
  for (let i = 1; i < chains; ++i) body.push(op.local_get, acc(i), ...simd.f32x4_add);
  body.push(...simd.f32x4_extract_lane, 0, op.end);
  const name = [...new TextEncoder().encode('peak')];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, I32, 1, F32]),             // type 0: (i32) -> f32
    ...section(3, [1, 0]),                                // function 0 has type 0
    ...section(7, [1, name.length, ...name, 0x00, 0]),    // export "peak" = function 0
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

export const kPeakChains = [10, 12, 13];

// { gflops, chains, ms, steps }: the best of every chain count, each run until one call lasts
// >= 20 ms, after calls that let V8 tier the function up to its optimizing compiler.
export async function measureSimdPeak({ chains = kPeakChains, repeats = 5 } = {}) {
  let best = { gflops: 0 };
  for (const k of chains) {
    const { instance } = await WebAssembly.instantiate(peakModuleBytes(k));
    const peak = instance.exports.peak;
    let steps = 1 << 12;
    for (let i = 0; i < 20; ++i) peak(steps);  // tier-up
    for (;;) {
      const start = performance.now();
      peak(steps);
      if (performance.now() - start >= 20) break;
      steps *= 2;
    }
    for (let r = 0; r < repeats; ++r) {
      const start = performance.now();
      peak(steps);
      const ms = performance.now() - start;
      const gflops = (k * 8 * steps) / ms / 1e6;
      if (gflops > best.gflops) best = { gflops, chains: k, ms, steps };
    }
  }
  return best;
}
