#pragma once
// A branch-free natural logarithm for the entropy and Jensen-Shannon sums, which take one log per
// attention entry (4 layers x 16 heads x 120 pairs x 32 x 32 entries is half a million logs).
// Written with plain arithmetic on the float's bits so compilers vectorize the loops (SSE natively,
// simd128 in WASM). Absolute error below 2e-6 for positive normal floats; inputs here are smoothed
// probabilities (>= 1e-4 / n), never zero, negative or denormal.
#include <cstdint>
#include <cstring>

namespace headlab::analysis {

inline float fast_log(float x) {
  // x = 2^k m with m in [sqrt(1/2), sqrt(2)), found with integer arithmetic only (no branches,
  // as in musl's logf): shift the bits so the exponent rolls over at sqrt(2) instead of 2.
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits += 0x3F800000u - 0x3F3504F3u;  // 0x3F3504F3 is sqrt(1/2)
  const int k = static_cast<int>(bits >> 23) - 127;
  bits = (bits & 0x007FFFFFu) + 0x3F3504F3u;
  float m;
  std::memcpy(&m, &bits, sizeof m);
  // ln m = 2 atanh(t) = 2 (t + t^3/3 + t^5/5 + t^7/7 + ...), t = (m - 1) / (m + 1), |t| <= 0.172.
  const float t = (m - 1.0f) / (m + 1.0f);
  const float t2 = t * t;
  const float series = t * (2.0f + t2 * (2.0f / 3.0f + t2 * (2.0f / 5.0f + t2 * (2.0f / 7.0f))));
  return static_cast<float>(k) * 0.69314718f + series;
}

// -sum_j f(j) ln f(j) for j < k, where f(j) = value(j) > 0. Summed in 8 interleaved lanes so the
// loop vectorizes without -ffast-math (a plain float sum is a serial dependency chain). Every
// caller uses this one summation order, so equal inputs give bit-equal results (identical heads
// have a Jensen-Shannon distance of exactly 0).
template <class Value>
inline float entropy_sum(int k, Value value) {
  constexpr int kLanes = 8;
  float lanes[kLanes] = {};
  int j = 0;
  for (; j + kLanes <= k; j += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const float p = value(j + l);
      lanes[l] -= p * fast_log(p);
    }
  for (int l = 0; j < k; ++j, ++l) {
    const float p = value(j);
    lanes[l] -= p * fast_log(p);
  }
  float sum = 0.0f;
  for (float lane : lanes) sum += lane;
  return sum;
}

}  // namespace headlab::analysis
