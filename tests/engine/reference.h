#pragma once
// An independent, naive double-precision multi-head attention, written with plain loops and no
// Eigen, to check the engine against. Shapes as in the engine: X (n, d), W (d, d_k).
#include <cmath>
#include <vector>

namespace reference {

using Mat = std::vector<std::vector<double>>;

inline Mat matmul(const Mat& a, const Mat& b) {
  Mat c(a.size(), std::vector<double>(b[0].size(), 0.0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < b.size(); ++k)
      for (std::size_t j = 0; j < b[0].size(); ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// softmax(Q K^T / sqrt(d_k)) with an optional causal mask; row i = query i.
inline Mat attention(const Mat& Q, const Mat& K, bool causal) {
  const std::size_t n = Q.size(), d_k = Q[0].size();
  Mat A(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> logits(n);
    double max_logit = -1e300;
    for (std::size_t j = 0; j < n; ++j) {
      double dot = 0;
      for (std::size_t k = 0; k < d_k; ++k) dot += Q[i][k] * K[j][k];
      logits[j] = dot / std::sqrt(static_cast<double>(d_k));
      if (!(causal && j > i)) max_logit = std::max(max_logit, logits[j]);
    }
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
      A[i][j] = (causal && j > i) ? 0.0 : std::exp(logits[j] - max_logit);
      sum += A[i][j];
    }
    for (std::size_t j = 0; j < n; ++j) A[i][j] /= sum;
  }
  return A;
}

}  // namespace reference
