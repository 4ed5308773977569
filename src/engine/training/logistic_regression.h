#pragma once
// Multinomial logistic regression (softmax regression) with L2, trained full-batch with Adam on
// standardised features: the linear probe of Hewitt & Liang (2019).
#include <cstdint>
#include <vector>

#include "engine/matrix.h"

namespace headlab::training {

struct LogisticRegressionConfig {
  int iterations = 100;
  float learning_rate = 0.1f;
  float l2 = 1e-3f;
};

struct LogisticRegression {
  RowVector mean, inv_std;  // (1, d) feature standardisation from the training set
  Matrix W;                 // (d + 1, C) last row = bias
};

// X (N, d) features, labels (N) in [0, class_count).
LogisticRegression fit_logistic_regression(const Matrix& X, const std::vector<int>& labels, int class_count,
                                           const LogisticRegressionConfig& config);
// Share of rows of X whose predicted class equals the label.
float accuracy(const LogisticRegression& model, const Matrix& X, const std::vector<int>& labels);

}  // namespace headlab::training
