#pragma once
#include <random>

#include "engine/matrix.h"
#include "reference.h"

namespace test_util {

inline reference::Mat to_ref(const headlab::Matrix& m) {
  reference::Mat out(m.rows(), std::vector<double>(m.cols()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out[i][j] = m(i, j);
  return out;
}

// Normalised error ||a - b|| / max(||b||, 1e-12), as ggml's test-backend-ops measures it.
inline double normalized_error(const headlab::Matrix& a, const reference::Mat& b) {
  double diff = 0, norm = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      diff += (a(i, j) - b[i][j]) * (a(i, j) - b[i][j]);
      norm += b[i][j] * b[i][j];
    }
  return std::sqrt(diff) / std::max(std::sqrt(norm), 1e-12);
}

inline headlab::Matrix random_matrix(int rows, int cols, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> normal(0.0f, scale);
  headlab::Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = normal(rng);
  return m;
}

}  // namespace test_util
