#include "logistic_regression.h"

#include <cmath>

namespace headlab::training {
namespace {

// [standardised X, 1] (N, d + 1).
Matrix design(const LogisticRegression& m, const Matrix& X) {
  Matrix D(X.rows(), X.cols() + 1);
  D.leftCols(X.cols()) = ((X.rowwise() - m.mean).array().rowwise() * m.inv_std.array()).matrix();
  D.col(X.cols()).setOnes();
  return D;
}

}  // namespace

LogisticRegression fit_logistic_regression(const Matrix& X, const std::vector<int>& labels, int class_count,
                                           const LogisticRegressionConfig& config) {
  LogisticRegression m;
  const Eigen::Index n = X.rows(), d = X.cols();
  m.mean = X.colwise().mean();
  const RowVector variance = (X.rowwise() - m.mean).array().square().colwise().mean().matrix();
  m.inv_std = (variance.array() + 1e-6f).rsqrt().matrix();
  m.W = Matrix::Zero(d + 1, class_count);
  if (n == 0) return m;
  const Matrix D = design(m, X);
  Matrix P(n, class_count), G(d + 1, class_count), first = Matrix::Zero(d + 1, class_count),
      second = Matrix::Zero(d + 1, class_count);
  const float b1 = 0.9f, b2 = 0.999f;
  for (int it = 1; it <= config.iterations; ++it) {
    P.noalias() = D * m.W;  // (N, C) logits, then probabilities minus one-hot
    for (Eigen::Index i = 0; i < n; ++i) {
      P.row(i).array() -= P.row(i).maxCoeff();
      P.row(i) = P.row(i).array().exp().matrix();
      P.row(i) /= P.row(i).sum();
      P(i, labels[i]) -= 1.0f;
    }
    G.noalias() = D.transpose() * P;
    G /= static_cast<float>(n);
    G.topRows(d) += config.l2 * m.W.topRows(d);
    first = b1 * first + (1.0f - b1) * G;
    second = b2 * second + (1.0f - b2) * G.cwiseAbs2();
    const float c1 = 1.0f - std::pow(b1, static_cast<float>(it)), c2 = 1.0f - std::pow(b2, static_cast<float>(it));
    m.W.array() -= config.learning_rate / c1 * first.array() / ((second.array() / c2).sqrt() + 1e-8f);
  }
  return m;
}

float accuracy(const LogisticRegression& m, const Matrix& X, const std::vector<int>& labels) {
  if (X.rows() == 0) return 0.0f;
  const Matrix logits = design(m, X) * m.W;
  int correct = 0;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    Eigen::Index best = 0;
    logits.row(i).maxCoeff(&best);
    correct += best == labels[i] ? 1 : 0;
  }
  return static_cast<float>(correct) / static_cast<float>(X.rows());
}

}  // namespace headlab::training
