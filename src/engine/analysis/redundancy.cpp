#include "engine/analysis/redundancy.h"

#include <algorithm>
#include <cmath>

#include "engine/analysis/fast_log.h"

namespace headlab::analysis {
void redundancy(const LayerTrace& layer, bool causal, float smoothing, float near_duplicate_distance,
                RedundancyWorkspace& w, Matrix& distance, std::vector<std::pair<int, int>>& near_duplicates) {
  const int heads = static_cast<int>(layer.heads.size());
  near_duplicates.clear();
  distance.setZero(heads, heads);
  w.pairs_computed = 0;
  w.changed.assign(heads, 1);
  const int n = heads > 0 ? static_cast<int>(layer.heads[0].attention.rows()) : 0;
  if (n == 0) {
    w.previous_smoothing = -1.0f;  // nothing to remember
    return;
  }
  const Eigen::Index stacked_rows = static_cast<Eigen::Index>(heads) * n;
  const bool same_shape = w.previous_smoothing == smoothing && w.previous_causal == causal &&
                          w.previous_attention.rows() == stacked_rows && w.previous_attention.cols() == n &&
                          w.previous_distance.rows() == heads;
  if (!same_shape) {
    w.smoothed.resize(stacked_rows, n);
    w.entropies.resize(static_cast<std::size_t>(stacked_rows));
    w.terms.resize(static_cast<std::size_t>(n) * n);
    w.mixture_entropies.resize(static_cast<std::size_t>(n));
    w.previous_attention.resize(stacked_rows, n);
    w.previous_distance.setZero(heads, heads);
    w.previous_causal = causal;
    w.previous_smoothing = smoothing;
  }
  w.changed.assign(heads, same_shape ? 0 : 1);
  const float keep = 1.0f - smoothing;
  const int block = n * n;
  float* terms = w.terms.data();
  // A head's rows and a pair's mixture go through the same kernel and the same sums, so two
  // identical heads come out exactly 0 apart.
  const auto mixture_row_entropies = [&](const float* p, const float* q, float* out) {
    neg_xlogx_of_mixture(p, q, block, terms);
    for (int i = 0; i < n; ++i) out[i] = fixed_order_sum(terms + static_cast<std::ptrdiff_t>(i) * n, n);
  };
  for (int h = 0; h < heads; ++h) {
    const Matrix& attention = layer.heads[h].attention;  // (n, n)
    auto previous = w.previous_attention.middleRows(static_cast<Eigen::Index>(h) * n, n);
    if (!w.changed[h] && previous == attention) continue;
    w.changed[h] = 1;
    previous = attention;
    float* head_rows = w.smoothed.data() + static_cast<std::ptrdiff_t>(h) * block;
    for (int i = 0; i < n; ++i) {
      const int visible = causal ? i + 1 : n;
      const float floor = smoothing / static_cast<float>(visible);
      float* row = head_rows + static_cast<std::ptrdiff_t>(i) * n;
      const float* a = attention.data() + static_cast<Eigen::Index>(i) * n;
      for (int j = 0; j < visible; ++j) row[j] = keep * a[j] + floor;
      // Masked keys hold 1: -1 ln 1 is exactly 0 in fast_log, so whole blocks can be summed.
      for (int j = visible; j < n; ++j) row[j] = 1.0f;
    }
    mixture_row_entropies(head_rows, head_rows, w.entropies.data() + static_cast<std::ptrdiff_t>(h) * n);
  }
  for (int a = 0; a < heads; ++a)
    for (int b = a + 1; b < heads; ++b) {
      float d = w.previous_distance(a, b);
      if (w.changed[a] || w.changed[b]) {
        float* mixed = w.mixture_entropies.data();
        mixture_row_entropies(w.smoothed.data() + static_cast<std::ptrdiff_t>(a) * block,
                              w.smoothed.data() + static_cast<std::ptrdiff_t>(b) * block, mixed);
        float sum = 0.0f;
        for (int i = 0; i < n; ++i) {
          const Eigen::Index ra = static_cast<Eigen::Index>(a) * n + i, rb = static_cast<Eigen::Index>(b) * n + i;
          const float js = mixed[i] - 0.5f * (w.entropies[ra] + w.entropies[rb]);
          sum += std::sqrt(std::max(0.0f, js));  // rounding can make an exact 0 slightly negative
        }
        d = sum / static_cast<float>(n);
        ++w.pairs_computed;
      }
      distance(a, b) = distance(b, a) = d;
      if (d < near_duplicate_distance) near_duplicates.emplace_back(a, b);
    }
  w.previous_distance = distance;
}

}  // namespace headlab::analysis
