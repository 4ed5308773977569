#pragma once
// Four floats as one value, for the forward's hot loops: the compiler's vector type, so the same
// code is SSE natively and SIMD128 in WebAssembly, with the same bits in both: neither target has a
// fused multiply-add, so every a * b + c rounds twice everywhere.
#include <cstring>

namespace headlab {

typedef float Vec4 __attribute__((vector_size(16)));
typedef int Int4 __attribute__((vector_size(16)));

inline Vec4 load4(const float* p) {
  Vec4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store4(float* p, Vec4 v) { std::memcpy(p, &v, sizeof v); }

inline Vec4 splat4(float x) { return Vec4{} + x; }

// *p in all four lanes, bit for bit (-0.0 stays -0.0): one v128.load32_splat in WebAssembly.
inline Vec4 broadcast4(const float* p) {
  const float x = *p;
  return Vec4{x, x, x, x};
}

// Lane by lane, a where `mask` is all ones, else b.
inline Vec4 select4(Int4 mask, Vec4 a, Vec4 b) { return (Vec4)(((Int4)a & mask) | ((Int4)b & ~mask)); }

// The constants of exp_nonpositive4, read from memory. Defined out of line (vec4.cpp) so that the
// compiler cannot see their values: it then loads each once or as a memory operand, where with the
// values in sight it writes a v128.const at every use inside the loop, and V8 builds each of those
// from immediates with several x86 instructions (an exp loop ran about 20% faster this way).
struct ExpConstants {
  Vec4 lowest, log2e, magic, ln2_high, ln2_low, p0, p1, p2, p3, p4, p5, one;
};
extern const ExpConstants kExpConstants;

// e^x for x in [-87, 0] (below: e^-87.3), within 2 units in the last place of std::exp: x = n ln 2
// + r with |r| <= ln 2 / 2, e^r by Cephes's degree-6 polynomial for expf, 2^n written into the
// exponent bits. The softmax's exp() was a libm call per entry; this is four at once.
inline Vec4 exp_nonpositive4(Vec4 x, const ExpConstants& c = kExpConstants) {
  x = select4(x < c.lowest, c.lowest, x);
  // n = round(x log2(e)) by adding 1.5 * 2^23: the sum's last mantissa bits are then n itself, so
  // neither n nor 2^n needs a float-to-integer conversion (WebAssembly's saturating one is several
  // x86 instructions a lane).
  const Vec4 shifted = x * c.log2e + c.magic;
  const Vec4 nf = shifted - c.magic;
  // r = x - n ln 2, with ln 2 in two parts so that n * the first is exact.
  Vec4 r = x - nf * c.ln2_high;
  r = r - nf * c.ln2_low;
  Vec4 p = c.p0;
  p = p * r + c.p1;
  p = p * r + c.p2;
  p = p * r + c.p3;
  p = p * r + c.p4;
  p = p * r + c.p5;
  const Vec4 e_r = p * (r * r) + r + c.one;
  // (0x4B400000 + n + 127) << 23 is (n + 127) << 23: the shift drops the magic number's bits.
  typedef unsigned UInt4 __attribute__((vector_size(16)));
  const Vec4 two_to_n = (Vec4)(((UInt4)shifted + 127u) << 23);
  return e_r * two_to_n;
}

}  // namespace headlab
