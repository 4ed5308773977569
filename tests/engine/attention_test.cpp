// The forward pass against hand-computed cases and an independent double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/forward.h"
#include "engine/model.h"
#include "test_util.h"

namespace headlab {
namespace {

using test_util::normalized_error;
using test_util::random_matrix;
using test_util::to_ref;

// Tolerance for float32 engine vs float64 reference, as a normalised error.
constexpr double kTolerance = 2e-5;

TEST(Attention, RowIsQueryColumnIsKey) {
  // Query 0 matches key 2 only: A(0, 2) must hold the weight, not A(2, 0).
  Matrix X = Matrix::Zero(3, 3);
  X(0, 0) = 1; X(1, 1) = 1; X(2, 2) = 1;
  HeadWeights head;
  head.W_Q = Matrix::Zero(3, 1);
  head.W_K = Matrix::Zero(3, 1);
  head.W_V = Matrix::Identity(3, 3);
  head.W_Q(0, 0) = 10.0f;  // token 0 queries strongly
  head.W_K(2, 0) = 10.0f;  // token 2 is the key that answers
  HeadTrace trace;
  attention_head(X, head, false, trace);
  EXPECT_GT(trace.attention(0, 2), 0.99f);
  EXPECT_NEAR(trace.attention(2, 0), 1.0f / 3.0f, 1e-6f);
}

TEST(Attention, HandComputedTwoTokens) {
  // X = [[1, 0], [0, 1]], W_Q = W_K = I, W_V = [[1, 2], [3, 4]], d_k = 2.
  // logits = X X^T / sqrt(2) = I / sqrt(2); row 0: softmax(0.7071, 0) = (0.66976, 0.33024).
  Matrix X = Matrix::Identity(2, 2);
  HeadWeights head;
  head.W_Q = Matrix::Identity(2, 2);
  head.W_K = Matrix::Identity(2, 2);
  head.W_V.resize(2, 2);
  head.W_V << 1, 2, 3, 4;
  HeadTrace trace;
  attention_head(X, head, false, trace);
  const double e = std::exp(1.0 / std::sqrt(2.0));
  const double a00 = e / (e + 1.0), a01 = 1.0 / (e + 1.0);
  EXPECT_NEAR(trace.attention(0, 0), a00, 1e-6);
  EXPECT_NEAR(trace.attention(0, 1), a01, 1e-6);
  EXPECT_NEAR(trace.attention(1, 1), a00, 1e-6);
  // Z = A V: row 0 = a00 * [1, 2] + a01 * [3, 4].
  EXPECT_NEAR(trace.Z(0, 0), a00 * 1 + a01 * 3, 1e-5);
  EXPECT_NEAR(trace.Z(0, 1), a00 * 2 + a01 * 4, 1e-5);
  EXPECT_NEAR(trace.logits(0, 0), 1.0 / std::sqrt(2.0), 1e-6);
}

TEST(Attention, MatchesNaiveReferenceAtRandomSizes) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 40), d = 8 + static_cast<int>(rng() % 57);
    const int d_k = 1 + static_cast<int>(rng() % 16), d_v = 1 + static_cast<int>(rng() % 16);
    const bool causal = trial % 3 == 0;
    const Matrix X = random_matrix(n, d, rng);
    HeadWeights head{random_matrix(d, d_k, rng, 0.3f), random_matrix(d, d_k, rng, 0.3f),
                     random_matrix(d, d_v, rng, 0.3f)};
    HeadTrace trace;
    attention_head(X, head, causal, trace);
    const auto ref_Q = reference::matmul(to_ref(X), to_ref(head.W_Q));
    const auto ref_K = reference::matmul(to_ref(X), to_ref(head.W_K));
    const auto ref_V = reference::matmul(to_ref(X), to_ref(head.W_V));
    const auto ref_A = reference::attention(ref_Q, ref_K, causal);
    const auto ref_Z = reference::matmul(ref_A, ref_V);
    SCOPED_TRACE("trial " + std::to_string(trial) + " n=" + std::to_string(n) + " d=" + std::to_string(d));
    EXPECT_LT(normalized_error(trace.attention, ref_A), kTolerance);
    EXPECT_LT(normalized_error(trace.Z, ref_Z), kTolerance);
  }
}

TEST(Attention, RowsSumToOneAndShapes) {
  std::mt19937 rng(7);
  Model model = make_model(32, 2, 4, 3, Embedding::random);
  const Matrix X = random_matrix(11, 32, rng);
  Trace trace;
  forward(model, X, trace);
  ASSERT_EQ(trace.layers.size(), 2u);
  for (const LayerTrace& lt : trace.layers) {
    ASSERT_EQ(lt.heads.size(), 4u);
    EXPECT_EQ(lt.concat.rows(), 11);
    EXPECT_EQ(lt.concat.cols(), 4 * 8);
    EXPECT_EQ(lt.output.cols(), 32);
    for (const HeadTrace& h : lt.heads) {
      EXPECT_EQ(h.attention.rows(), 11);
      EXPECT_EQ(h.attention.cols(), 11);
      EXPECT_EQ(h.Z.cols(), 8);
      for (Eigen::Index i = 0; i < 11; ++i) EXPECT_NEAR(h.attention.row(i).sum(), 1.0f, 1e-5f);
      EXPECT_GE(h.attention.minCoeff(), 0.0f);
    }
  }
}

TEST(Attention, PerHeadAgreesWithFusedComputation) {
  // Fused: one big projection X [W_Q_1 .. W_Q_h], split into blocks, must give the same heads,
  // and the layer output must equal Concat(Z_1..Z_h) W_O exactly.
  std::mt19937 rng(11);
  Model model = make_model(24, 1, 3, 5, Embedding::random);
  model.layers[0].W_O = random_matrix(3 * 8, 24, rng);
  const Matrix X = random_matrix(9, 24, rng);
  Trace trace;
  forward(model, X, trace);
  const Layer& layer = model.layers[0];
  Matrix W_Q_all(24, 24), W_K_all(24, 24), W_V_all(24, 24);
  for (int h = 0; h < 3; ++h) {
    W_Q_all.middleCols(h * 8, 8) = layer.heads[h].W_Q;
    W_K_all.middleCols(h * 8, 8) = layer.heads[h].W_K;
    W_V_all.middleCols(h * 8, 8) = layer.heads[h].W_V;
  }
  const Matrix Q = X * W_Q_all, K = X * W_K_all, V = X * W_V_all;
  Matrix concat(9, 24);
  for (int h = 0; h < 3; ++h) {
    const auto A = reference::attention(to_ref(Q.middleCols(h * 8, 8)), to_ref(K.middleCols(h * 8, 8)), false);
    EXPECT_LT(normalized_error(trace.layers[0].heads[h].attention, A), kTolerance);
    Matrix A_m(9, 9);
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 9; ++j) A_m(i, j) = static_cast<float>(A[i][j]);
    concat.middleCols(h * 8, 8) = A_m * V.middleCols(h * 8, 8);
  }
  EXPECT_LT(normalized_error(trace.layers[0].concat, to_ref(concat)), kTolerance);
  EXPECT_LT(normalized_error(trace.layers[0].output, to_ref(concat * layer.W_O)), kTolerance);
}

TEST(Attention, ExtremeLogitsStayFinite) {
  std::mt19937 rng(3);
  const Matrix X = random_matrix(6, 8, rng);
  for (float w : {1e4f, 1e15f, 1e30f, -1e30f}) {
    HeadWeights head{Matrix::Constant(8, 2, w), random_matrix(8, 2, rng), Matrix::Constant(8, 2, w)};
    head.W_K(0, 0) = w;
    HeadTrace trace;
    attention_head(X, head, false, trace);
    for (Eigen::Index i = 0; i < 6; ++i) {
      EXPECT_TRUE(trace.attention.row(i).allFinite()) << "w=" << w;
      EXPECT_NEAR(trace.attention.row(i).sum(), 1.0f, 1e-5f) << "w=" << w;
    }
  }
}

TEST(Softmax, HandlesInfinitiesAndNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  Matrix logits(4, 3);
  logits << inf, 0, inf,          // two +inf share the row
      -inf, -inf, -inf,           // nothing finite: uniform
      std::nanf(""), 1, 1,        // NaN gets zero weight
      1000, -1000, 999;           // large but finite
  Matrix out;
  softmax_rows(logits, out);
  EXPECT_FLOAT_EQ(out(0, 0), 0.5f);
  EXPECT_FLOAT_EQ(out(0, 1), 0.0f);
  EXPECT_FLOAT_EQ(out(1, 1), 1.0f / 3.0f);
  EXPECT_FLOAT_EQ(out(2, 0), 0.0f);
  EXPECT_FLOAT_EQ(out(2, 1), 0.5f);
  EXPECT_NEAR(out(3, 0), 1.0 / (1.0 + std::exp(-1.0)), 1e-6);
}

TEST(Attention, CausalMaskHidesTheFuture) {
  std::mt19937 rng(5);
  Model model = make_model(16, 1, 2, 1, Embedding::random);
  model.causal = true;
  Trace trace;
  forward(model, random_matrix(7, 16, rng), trace);
  for (const HeadTrace& h : trace.layers[0].heads)
    for (int i = 0; i < 7; ++i)
      for (int j = i + 1; j < 7; ++j) EXPECT_EQ(h.attention(i, j), 0.0f);
}

TEST(Attention, PrunedHeadIsAZeroBlock) {
  std::mt19937 rng(9);
  Model model = make_model(16, 1, 2, 1, Embedding::random);
  model.layers[0].heads[1].pruned = true;
  Trace trace;
  forward(model, random_matrix(5, 16, rng), trace);
  EXPECT_TRUE(trace.layers[0].concat.middleCols(8, 8).isZero());
  EXPECT_FALSE(trace.layers[0].concat.middleCols(0, 8).isZero());
}

TEST(Forward, ResidualNormAndFfnMatchAHandWrittenComposition) {
  std::mt19937 rng(13);
  Model model = make_model(16, 1, 2, 1, Embedding::random);
  Layer& layer = model.layers[0];
  layer.residual = true;
  layer.norm = Norm::post;
  set_ffn(model, 0, true);
  const Matrix X = random_matrix(5, 16, rng);
  Trace trace;
  forward(model, X, trace);
  Matrix h1, out;
  layer_norm(X + trace.layers[0].concat * layer.W_O, layer.ln_gamma, layer.ln_beta, h1);
  Matrix f = ((h1 * layer.ffn.W_1).rowwise() + layer.ffn.b_1).cwiseMax(0.0f) * layer.ffn.W_2;
  f.rowwise() += layer.ffn.b_2;
  layer_norm(h1 + f, layer.ln2_gamma, layer.ln2_beta, out);
  EXPECT_LT(normalized_error(trace.layers[0].output, to_ref(out)), 1e-5);
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(trace.layers[0].output.row(i).mean(), 0.0f, 1e-4f);
}

}  // namespace
}  // namespace headlab
