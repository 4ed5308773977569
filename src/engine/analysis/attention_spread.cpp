#include "attention_spread.h"

#include <algorithm>
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
      // A row of softmax + 1 or sigmoid attention (engine/model.h) need not sum to 1: its shape
      // (the row over its sum) is measured, weighted by min(1, sum), so a head that attends to
      // nothing adds no distance and no entropy. Softmax rows are read as they are.
      const double total = A.row(i).cast<double>().sum();
      const bool distribution = std::abs(total - 1.0) <= 1e-4;
      const double scale = distribution || total <= 0.0 ? 1.0 : 1.0 / total;
      const double weight = distribution ? 1.0 : std::min(1.0, total);
      double row_distance = 0.0, row_entropy = 0.0;
      for (Eigen::Index j = 0; j < A.cols(); ++j) {
        const double a = A(i, j) * scale;
        row_distance += a * static_cast<double>(std::llabs(static_cast<long long>(i - j)));
        if (a > 0.0) row_entropy -= a * std::log(a);  // 0 ln 0 = 0
      }
      distance += weight * row_distance;
      entropy += weight * row_entropy;
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
