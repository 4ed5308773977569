// Layer dependence measures (attention_spread.h) against hand-worked cases and a naive
// double-precision reference on random attention.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/analysis/attention_spread.h"
#include "engine/forward.h"
#include "engine/model.h"

namespace headlab::analysis {
namespace {

Matrix random_attention(int n, bool causal, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 3.0);
  Matrix A = Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int j = 0; j < n && (!causal || j <= i); ++j) sum += A(i, j) = static_cast<float>(std::exp(u(rng)));
    A.row(i) /= static_cast<float>(sum);
  }
  return A;
}

TEST(AttentionSpread, HandWorkedCases) {
  const int n = 4;
  const AttentionSpread self = attention_spread(Matrix::Identity(n, n), false);
  EXPECT_DOUBLE_EQ(self.distance, 0.0);
  EXPECT_DOUBLE_EQ(self.entropy, 0.0);
  EXPECT_NEAR(self.uniform_entropy, std::log(4.0), 1e-12);
  Matrix previous = Matrix::Zero(n, n);
  previous(0, 0) = 1.0f;
  for (int i = 1; i < n; ++i) previous(i, i - 1) = 1.0f;
  EXPECT_DOUBLE_EQ(attention_spread(previous, true).distance, 0.75);  // row 0 has nothing before it
  // Uniform over 4 keys: mean |i - j| per row 1.5, 1, 1, 1.5.
  const AttentionSpread uniform = attention_spread(Matrix::Constant(n, n, 0.25f), false);
  EXPECT_NEAR(uniform.distance, 1.25, 1e-7);
  EXPECT_NEAR(uniform.entropy, std::log(4.0), 1e-6);
  // Causal: row i sees i + 1 keys.
  EXPECT_NEAR(attention_spread(previous, true).uniform_entropy, (std::log(1.0) + std::log(2.0) + std::log(3.0) + std::log(4.0)) / 4,
              1e-12);
}

TEST(AttentionSpread, LayerMeansMatchANaiveReferenceAndSkipPrunedHeads) {
  std::mt19937 rng(5);
  for (bool causal : {false, true}) {
    Model model = make_model(16, 2, 3, 1);
    model.causal = causal;
    model.layers[1].heads[2].pruned = true;
    std::vector<Trace> traces(2);
    const int lengths[2] = {5, 9};
    for (int s = 0; s < 2; ++s) {
      traces[s].layers.resize(2);
      for (int l = 0; l < 2; ++l) {
        traces[s].layers[l].heads.resize(3);
        for (int h = 0; h < 3; ++h) traces[s].layers[l].heads[h].attention = random_attention(lengths[s], causal, rng);
      }
    }
    const std::vector<AttentionSpread> spreads = layer_spreads(model, {&traces[0], &traces[1]});
    ASSERT_EQ(spreads.size(), 2u);
    for (int l = 0; l < 2; ++l) {
      double distance = 0.0, entropy = 0.0;
      int rows = 0;
      for (int s = 0; s < 2; ++s)
        for (int h = 0; h < 3; ++h) {
          if (model.layers[l].heads[h].pruned) continue;
          const Matrix& A = traces[s].layers[l].heads[h].attention;
          for (int i = 0; i < A.rows(); ++i, ++rows)
            for (int j = 0; j < A.cols(); ++j) {
              const double a = A(i, j);
              distance += a * std::abs(i - j);
              if (a > 0) entropy -= a * std::log(a);
            }
        }
      EXPECT_EQ(spreads[l].rows, rows);
      EXPECT_NEAR(spreads[l].distance, distance / rows, 1e-9);
      EXPECT_NEAR(spreads[l].entropy, entropy / rows, 1e-9);
    }
    EXPECT_EQ(spreads[1].rows, 2 * (5 + 9));  // two unpruned heads
  }
}

}  // namespace
}  // namespace headlab::analysis
