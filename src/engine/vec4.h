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

// Lane by lane, a where `mask` is all ones, else b.
inline Vec4 select4(Int4 mask, Vec4 a, Vec4 b) { return (Vec4)(((Int4)a & mask) | ((Int4)b & ~mask)); }

// e^x for x in [-87, 0] (below: e^-87.3), within 2 units in the last place of std::exp: x = n ln 2
// + r with |r| <= ln 2 / 2, e^r by Cephes's degree-6 polynomial for expf, 2^n written into the
// exponent bits. The softmax's exp() was a libm call per entry; this is four at once.
inline Vec4 exp_nonpositive4(Vec4 x) {
  const Vec4 lowest = splat4(-87.33654f);
  x = select4(x < lowest, lowest, x);
  // n = round(x / ln 2), as floor(x log2(e) + 1/2): truncation rounds towards zero, so step down
  // where it rounded up.
  const Vec4 scaled = x * splat4(1.44269504088896341f) + splat4(0.5f);
  Int4 n = __builtin_convertvector(scaled, Int4);
  n = n + (__builtin_convertvector(n, Vec4) > scaled);  // a true comparison is -1
  const Vec4 nf = __builtin_convertvector(n, Vec4);
  // r = x - n ln 2, with ln 2 in two parts so that n * the first is exact.
  Vec4 r = x - nf * splat4(0.693359375f);
  r = r - nf * splat4(-2.12194440e-4f);
  Vec4 p = splat4(1.9875691500e-4f);
  p = p * r + splat4(1.3981999507e-3f);
  p = p * r + splat4(8.3334519073e-3f);
  p = p * r + splat4(4.1665795894e-2f);
  p = p * r + splat4(1.6666665459e-1f);
  p = p * r + splat4(5.0000001201e-1f);
  const Vec4 e_r = p * (r * r) + r + splat4(1.0f);
  const Vec4 two_to_n = (Vec4)((n + 127) << 23);
  return e_r * two_to_n;
}

}  // namespace headlab
