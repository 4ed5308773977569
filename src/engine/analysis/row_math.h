#pragma once
// Sums, dot products and maxima over one attention row, written so they vectorize in WASM too:
// a float reduction is a serial chain unless the compiler may reorder it (-ffast-math, which we
// do not use), so these keep 8 partial sums in two 4-wide vectors. Eigen has no simd128 code, so
// its row reductions run scalar in the browser.
#include <algorithm>

#include "engine/analysis/fast_log.h"

namespace headlab::analysis {

inline float row_sum(const float* a, int k) {
  int j = 0;
  float sum = 0.0f;
#ifdef HEADLAB_VECTOR_LOG
  Float4 x = {0, 0, 0, 0}, y = {0, 0, 0, 0};
  for (; j + 8 <= k; j += 8) {
    x += load4(a + j);
    y += load4(a + j + 4);
  }
  const Float4 s = x + y;
  sum = (s[0] + s[1]) + (s[2] + s[3]);
#endif
  for (; j < k; ++j) sum += a[j];
  return sum;
}

inline float row_dot(const float* a, const float* b, int k) {
  int j = 0;
  float sum = 0.0f;
#ifdef HEADLAB_VECTOR_LOG
  Float4 x = {0, 0, 0, 0}, y = {0, 0, 0, 0};
  for (; j + 8 <= k; j += 8) {
    x += load4(a + j) * load4(b + j);
    y += load4(a + j + 4) * load4(b + j + 4);
  }
  const Float4 s = x + y;
  sum = (s[0] + s[1]) + (s[2] + s[3]);
#endif
  for (; j < k; ++j) sum += a[j] * b[j];
  return sum;
}

// dst[j] += a[j] for j < k.
inline void add_row(float* dst, const float* a, int k) {
  for (int j = 0; j < k; ++j) dst[j] += a[j];  // no reduction: vectorizes as it is
}

// Index of the unique maximum of a[0..k), or -1 when another entry is within 1e-5 (relative) of
// it: a uniform row has no argmax. Attention values are >= 0. The maximum is the only entry at or
// above the tie level when it is unique, so one pass finds both the count and the index.
inline int row_unique_argmax(const float* a, int k) {
  int j = 0;
  float best = -1.0f;
#ifdef HEADLAB_VECTOR_LOG
  Float4 best4 = {-1.0f, -1.0f, -1.0f, -1.0f};
  for (; j + 4 <= k; j += 4) {
    const Float4 v = load4(a + j);
    best4 = v > best4 ? v : best4;  // NaN never wins, as in the scalar loop
  }
  for (int l = 0; l < 4; ++l) best = best4[l] > best ? best4[l] : best;
#endif
  for (; j < k; ++j) best = a[j] > best ? a[j] : best;
  const float tie = best - 1e-5f * best;
  int ties = 0, index = -1;
  j = 0;
#ifdef HEADLAB_VECTOR_LOG
  Int4 count4 = {0, 0, 0, 0}, index4 = {-1, -1, -1, -1};
  for (Int4 keys = {0, 1, 2, 3}; j + 4 <= k; j += 4, keys += 4) {
    const Int4 at_top = load4(a + j) >= tie;  // lanes of -1 where true
    count4 -= at_top;
    index4 = at_top ? keys : index4;
  }
  for (int l = 0; l < 4; ++l) {
    ties += count4[l];
    index = index4[l] > index ? index4[l] : index;
  }
#endif
  for (; j < k; ++j) {
    ties += a[j] >= tie;
    index = a[j] >= tie ? j : index;
  }
  return ties == 1 ? index : -1;
}

}  // namespace headlab::analysis
