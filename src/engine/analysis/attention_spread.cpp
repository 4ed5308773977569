#include "attention_spread.h"

#include <cmath>
#include <cstdlib>

namespace headlab::analysis {
namespace {

// Sums of one matrix's rows, before the means.
struct SpreadSums {
  double distance = 0.0, entropy = 0.0, uniform_entropy = 0.0;
  int rows = 0;

  void add(const Matrix& A, bool causal) {
    const Eigen::Index n = A.rows();
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < A.cols(); ++j) {
        const double a = A(i, j);
        distance += a * static_cast<double>(std::llabs(static_cast<long long>(i - j)));
        if (a > 0.0) entropy -= a * std::log(a);  // 0 ln 0 = 0
      }
      uniform_entropy += std::log(static_cast<double>(causal ? i + 1 : A.cols()));
    }
    rows += static_cast<int>(n);
  }

  AttentionSpread mean() const {
    AttentionSpread out;
    out.rows = rows;
    if (rows == 0) return out;
    out.distance = distance / rows;
    out.entropy = entropy / rows;
    out.uniform_entropy = uniform_entropy / rows;
    return out;
  }
};

}  // namespace

AttentionSpread attention_spread(const Matrix& A, bool causal) {
  SpreadSums sums;
  sums.add(A, causal);
  return sums.mean();
}

std::vector<AttentionSpread> layer_spreads(const Model& model, const std::vector<const Trace*>& traces) {
  std::vector<AttentionSpread> out;
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    SpreadSums sums;
    const Layer& layer = model.layers[l];
    for (const Trace* trace : traces) {
      if (!trace || l >= trace->layers.size()) continue;
      for (int h = 0; h < layer.head_count() && h < static_cast<int>(trace->layers[l].heads.size()); ++h)
        if (!layer.heads[h].pruned) sums.add(trace->layers[l].heads[h].attention, model.causal);
    }
    out.push_back(sums.mean());
  }
  return out;
}

}  // namespace headlab::analysis
