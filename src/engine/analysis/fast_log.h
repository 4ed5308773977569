#pragma once
// A branch-free natural logarithm and the entropy sums built on it, for the row entropies (broad)
// and the Jensen-Shannon terms (jensen_shannon.h, redundancy), which take up to one log per
// attention entry and head pair: 4 layers x 120 pairs x 32 x 32 entries at most per recompute.
//
// The 4-wide versions use GCC/Clang vector extensions, which compile to SSE natively and to
// simd128 in WASM without intrinsics; other compilers get the scalar loop. Absolute error below
// 2e-6 for positive normal floats; inputs here are smoothed probabilities (>= 1e-4 / n), never
// zero, negative or denormal. For x in [sqrt(1/2), 1] the reduction leaves x - 1 exact, so the
// error there is also small relative to ln x. Scalar and vector paths do the same operations in the
// same order, so equal inputs give bit-equal results.
#include <cstdint>
#include <cstring>

namespace headlab::analysis {

// x = 2^k m with m in [sqrt(1/2), sqrt(2)), found with integer arithmetic only (as in musl's
// logf): shift the bits so the exponent rolls over at sqrt(2) instead of 2. Then
// ln m = 2 atanh(t) = 2 (t + t^3/3 + t^5/5 + ...), t = (m - 1) / (m + 1), |t| <= 0.172, with
// the series cut after t^5 and its two coefficients fitted (least squares on Chebyshev nodes) to
// within 5e-7 of ln m relative to it.
inline float fast_log(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits += 0x3F800000u - 0x3F3504F3u;  // 0x3F3504F3 is sqrt(1/2)
  const int k = static_cast<int>(bits >> 23) - 127;
  bits = (bits & 0x007FFFFFu) + 0x3F3504F3u;
  float m;
  std::memcpy(&m, &bits, sizeof m);
  const float t = (m - 1.0f) / (m + 1.0f);
  const float t2 = t * t;
  const float series = t * (2.0f + t2 * (0.66663481f + t2 * 0.40859533f));
  return static_cast<float>(k) * 0.69314718f + series;
}

#if defined(__GNUC__) || defined(__clang__)
#define HEADLAB_VECTOR_LOG 1
using Float4 = float __attribute__((vector_size(16)));
using Uint4 = std::uint32_t __attribute__((vector_size(16)));
using Int4 = std::int32_t __attribute__((vector_size(16)));

// fast_log on four floats at once, operation for operation.
inline Float4 fast_log4(Float4 x) {
  Uint4 bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits += 0x3F800000u - 0x3F3504F3u;
  const Int4 k = reinterpret_cast<Int4&>(bits) >> 23;  // the sign bit is 0 for positive x
  bits = (bits & 0x007FFFFFu) + 0x3F3504F3u;
  Float4 m;
  std::memcpy(&m, &bits, sizeof m);
  const Float4 t = (m - 1.0f) / (m + 1.0f);
  const Float4 t2 = t * t;
  const Float4 series = t * (2.0f + t2 * (0.66663481f + t2 * 0.40859533f));
  return __builtin_convertvector(k - 127, Float4) * 0.69314718f + series;
}

inline Float4 load4(const float* p) {
  Float4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
#endif

#ifdef HEADLAB_VECTOR_LOG
// Bit l (l < 4) set where v[l] != value.
inline unsigned not_equal_bits4(Float4 v, float value) {
  const Int4 differs = v != value;
#if defined(__wasm_simd128__)
  return static_cast<unsigned>(__builtin_wasm_bitmask_i32x4(differs));
#elif defined(__SSE__)
  Float4 lanes;  // the same bits as floats (memcpy: a reinterpret_cast breaks strict aliasing)
  std::memcpy(&lanes, &differs, sizeof lanes);
  return static_cast<unsigned>(__builtin_ia32_movmskps(lanes));
#else
  return static_cast<unsigned>((differs[0] & 1) | (differs[1] & 2) | (differs[2] & 4) | (differs[3] & 8));
#endif
}
#endif

// -sum a' ln a' of a smoothed row a' = keep * a + floor over j < k. Two 4-wide accumulators (8
// lanes) keep the loop free of a serial float dependency. Most keys of a peaked row hold 0 or so
// little (below ~1e-13 for 32 keys) that a' rounds to the floor: a block of 4 such keys subtracts
// floor ln floor, computed once with the same operations, so skipping its logarithms changes no
// bit. Denormal attention (about 1% of a peaked head's entries) is read as 0 before multiplying,
// which costs ~100 cycles per denormal operand on x86, natively and in WASM alike: keep * a is then
// below half an ulp of any floor >= 2^-99, so a' is the floor either way.
inline float smoothed_entropy(const float* a, int k, float keep, float floor) {
  float lanes[8] = {};
  int j = 0;
#ifdef HEADLAB_VECTOR_LOG
  const Float4 floors = {floor, floor, floor, floor};
  const Float4 floor_logs = fast_log4(floors);
  const Float4 zero = {0.0f, 0.0f, 0.0f, 0.0f};
  const float denormal_cut = floor >= 0x1p-99f ? 0x1p-126f : 0.0f;  // FLT_MIN, or read all as is
  const auto add = [&](Float4& sum, const float* p) {
    Float4 v = load4(p);
    v = v < denormal_cut ? zero : v;  // a NaN stays NaN
    const Float4 x = keep * v + floor;
    if (not_equal_bits4(x, floor) == 0) {
      sum -= floors * floor_logs;
    } else {
      sum -= x * fast_log4(x);
    }
  };
  Float4 low = {0, 0, 0, 0}, high = {0, 0, 0, 0};  // named, not an array: they stay in registers
  for (; j + 8 <= k; j += 8) {
    add(low, a + j);
    add(high, a + j + 4);
  }
  std::memcpy(lanes, &low, sizeof low);
  std::memcpy(lanes + 4, &high, sizeof high);
#endif
  for (int l = 0; j < k; ++j, l = (l + 1) % 8) {
    const float x = keep * a[j] + floor;
    lanes[l] -= x * fast_log(x);
  }
  float sum = 0.0f;
  for (float lane : lanes) sum += lane;
  return sum;
}

}  // namespace headlab::analysis
