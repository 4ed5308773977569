#include "engine/analysis/redundancy.h"

#include <algorithm>
#include <cmath>

#include "engine/analysis/fast_log.h"

namespace headlab::analysis {
namespace {

// -sum p ln p over k entries.
inline float entropy(const float* p, int k) {
  return entropy_sum(k, [p](int j) { return p[j]; });
}

// Entropy of the mixture m = (p + q) / 2. JS(p, q) = H(m) - (H(p) + H(q)) / 2.
inline float mixture_entropy(const float* p, const float* q, int k) {
  return entropy_sum(k, [p, q](int j) { return 0.5f * (p[j] + q[j]); });
}

}  // namespace

void redundancy(const LayerTrace& layer, bool causal, float smoothing, float near_duplicate_distance,
                RedundancyWorkspace& workspace, Matrix& distance, std::vector<std::pair<int, int>>& near_duplicates) {
  const int heads = static_cast<int>(layer.heads.size());
  near_duplicates.clear();
  distance.setZero(heads, heads);
  if (heads == 0) return;
  const int n = static_cast<int>(layer.heads[0].attention.rows());
  if (n == 0) return;
  workspace.smoothed.resize(static_cast<Eigen::Index>(heads) * n, n);
  workspace.entropies.resize(static_cast<std::size_t>(heads) * n);
  const float keep = 1.0f - smoothing;
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < n; ++i) {
      const int visible = causal ? i + 1 : n;
      const float floor = smoothing / static_cast<float>(visible);
      const Eigen::Index r = static_cast<Eigen::Index>(h) * n + i;
      float* row = workspace.smoothed.data() + r * n;
      const float* a = layer.heads[h].attention.data() + static_cast<Eigen::Index>(i) * n;
      for (int j = 0; j < visible; ++j) row[j] = keep * a[j] + floor;
      workspace.entropies[r] = entropy(row, visible);
    }
  for (int a = 0; a < heads; ++a)
    for (int b = a + 1; b < heads; ++b) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i) {
        const int visible = causal ? i + 1 : n;
        const Eigen::Index ra = static_cast<Eigen::Index>(a) * n + i, rb = static_cast<Eigen::Index>(b) * n + i;
        const float js = mixture_entropy(workspace.smoothed.data() + ra * n, workspace.smoothed.data() + rb * n, visible) -
                         0.5f * (workspace.entropies[ra] + workspace.entropies[rb]);
        sum += std::sqrt(std::max(0.0f, js));  // rounding can make an exact 0 slightly negative
      }
      const float d = sum / static_cast<float>(n);
      distance(a, b) = distance(b, a) = d;
      if (d < near_duplicate_distance) near_duplicates.emplace_back(a, b);
    }
}

}  // namespace headlab::analysis
