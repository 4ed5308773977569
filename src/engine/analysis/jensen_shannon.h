#pragma once
// The Jensen-Shannon divergence of two smoothed attention rows, one key at a time, in a form whose
// error shrinks with the difference of the rows: redundancy.h reports sqrt(JS), which turns an
// error e in JS into up to sqrt(e) in the distance when the rows are nearly equal.
//
// Key j, with probabilities p, q and mixture m = (p + q) / 2, adds to JS(P, Q)
//   1/2 p ln(p / m) + 1/2 q ln(q / m) = 1/2 hi h(u),   hi = max(p, q), u = min(p, q) / hi,
//   h(u) = u ln u - (1 + u) ln((1 + u) / 2) = u ln u + w Q(w),   w = 1 - u,
//   h = sum over k >= 2 of (1 - 2^(1-k)) / (k (k - 1)) w^k >= w^2 / 4,   h(1) = 0, h(0) = ln 2.
// ln u is fast_log's, whose range reduction leaves u - 1 exact, so it is accurate relative to
// ln u as u -> 1; Q = -(1 + u) ln((1 + u) / 2) / w is a degree-5 Chebyshev fit (error < 2e-6). So
// each term is off by less than ~3e-6 w, and by Cauchy-Schwarz (sum hi <= 2) sqrt(JS) of a row is
// off by less than twice that: ~6e-6, however close the rows. The textbook
// H(M) - (H(P) + H(Q)) / 2 in float loses the difference of near-equal rows in the rounding of
// entropies of size ln n (up to 4e-4 on the distance).
//
// A key where both rows sit at the same smoothing floor adds exactly 0 (u = 1): redundancy.cpp
// visits only blocks of 4 keys where a row rises above its floor. The vector path (GCC/Clang
// vector extensions: SSE natively, simd128 in WASM) and the scalar path do the same operations in
// the same order, so equal rows give exactly 0 and equal inputs give bit-equal sums.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "engine/analysis/fast_log.h"

namespace headlab::analysis {

// hi h(u) of the header for one key (twice its share of JS). p, q > 0 and normal.
inline float js_key_term(float p, float q) {
  const float hi = q < p ? p : q;
  const float u = (p < q ? p : q) / hi;  // exactly 1 for p == q
  const float w = 1.0f - u;
  const float poly = 1.0f + w * (-0.250057304f + w * (-0.0410340198f + w * (-0.0129080772f +
                     w * (0.00109755218f + w * -0.00395072767f))));
  return hi * (u * fast_log(u) + w * poly);
}

#ifdef HEADLAB_VECTOR_LOG
// js_key_term on four keys, operation for operation (the min/max compile to minps/maxps and
// f32x4.pmin/pmax).
inline Float4 js_key_terms4(Float4 p, Float4 q) {
  const Float4 hi = q < p ? p : q;
  const Float4 u = (p < q ? p : q) / hi;
  const Float4 w = 1.0f - u;
  const Float4 poly = 1.0f + w * (-0.250057304f + w * (-0.0410340198f + w * (-0.0129080772f +
                      w * (0.00109755218f + w * -0.00395072767f))));
  return hi * (u * fast_log4(u) + w * poly);
}
#endif

// Sum of js_key_term over blocks of 4 keys, kept lane by lane so both paths round alike.
struct KeyTermSum {
#ifdef HEADLAB_VECTOR_LOG
  Float4 lanes = {0.0f, 0.0f, 0.0f, 0.0f};
  void add(const float* p, const float* q) { lanes += js_key_terms4(load4(p), load4(q)); }
  // Against a row that holds `floor` at these keys.
  void add(const float* p, float floor) { lanes += js_key_terms4(load4(p), Float4{floor, floor, floor, floor}); }
#else
  float lanes[4] = {};
  void add(const float* p, const float* q) {
    for (int l = 0; l < 4; ++l) lanes[l] += js_key_term(p[l], q[l]);
  }
  void add(const float* p, float floor) {
    for (int l = 0; l < 4; ++l) lanes[l] += js_key_term(p[l], floor);
  }
#endif
  float total() const { return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]); }
};

// lanes[0..4) += KeyTermSum::add(p, q)'s terms, for sums kept in memory (one per row of a pair).
inline void add_key_terms(float* lanes, const float* p, const float* q) {
  KeyTermSum sum;
  std::memcpy(&sum.lanes, lanes, sizeof sum.lanes);
  sum.add(p, q);
  std::memcpy(lanes, &sum.lanes, sizeof sum.lanes);
}

// KeyTermSum::total of lanes kept in memory.
inline float lane_total(const float* lanes) { return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]); }

// Bit l (l < 4) set where p[l] != floor.
inline unsigned above_floor_bits(const float* p, float floor) {
#ifdef HEADLAB_VECTOR_LOG
  return not_equal_bits4(load4(p), floor);
#else
  unsigned bits = 0;
  for (int l = 0; l < 4; ++l) bits |= static_cast<unsigned>(p[l] != floor) << l;
  return bits;
#endif
}

// Sum of sqrt(max(0, scale * x[i])) over i < count, count a multiple of 4, in 4 lanes added at the
// end (a vector square root: std::sqrt keeps errno and does not vectorize; and no serial chain
// of float additions, which cost more than the square roots).
inline float sum_scaled_sqrt(const float* x, float scale, int count) {
#ifdef HEADLAB_VECTOR_LOG
  const Float4 zero = {0.0f, 0.0f, 0.0f, 0.0f};
  Float4 sum = zero;
  for (int i = 0; i < count; i += 4) {
    Float4 v = load4(x + i) * scale;
    v = zero < v ? v : zero;  // rounding can make an exact 0 slightly negative
#if defined(__wasm_simd128__)
    v = __builtin_wasm_sqrt_f32x4(v);
#elif defined(__SSE__)
    v = __builtin_ia32_sqrtps(v);
#else
    for (int l = 0; l < 4; ++l) v[l] = std::sqrt(v[l]);
#endif
    sum += v;
  }
  return (sum[0] + sum[1]) + (sum[2] + sum[3]);
#else
  float lanes[4] = {};
  for (int i = 0; i < count; i += 4)
    for (int l = 0; l < 4; ++l) lanes[l] += std::sqrt(std::fmax(0.0f, scale * x[i + l]));
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
#endif
}

// Index of the lowest set bit of a nonzero word.
inline int lowest_bit(std::uint64_t bits) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(bits);
#else
  int index = 0;
  while (!(bits & 1u)) bits >>= 1, ++index;
  return index;
#endif
}

}  // namespace headlab::analysis
