// Softmax, softmax + 1 and sigmoid attention (engine/model.h): the forward pass against an
// independent float64 reference written here with plain loops, edge cases, reuse and the model files.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "engine/attention_normalization.h"
#include "engine/document.h"
#include "engine/forward.h"
#include "engine/model.h"
#include "engine/model_file.h"
#include "engine/tensor_model_file.h"
#include "test_util.h"

namespace headlab {
namespace {

using test_util::normalized_error;
using test_util::random_matrix;
using test_util::to_ref;
constexpr double kTolerance = 2e-5;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr AttentionNormalization kKinds[] = {AttentionNormalization::softmax, AttentionNormalization::softmax_plus_one,
                                             AttentionNormalization::sigmoid};

// The definitions in float64, straight from the formulas (no max shift: the test's scores are small).
reference::Mat reference_attention(const reference::Mat& Q, const reference::Mat& K, bool causal, AttentionNormalization kind) {
  const std::size_t n = Q.size(), d_k = Q[0].size();
  reference::Mat A(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t visible = causal ? i + 1 : n;
    std::vector<double> s(visible);
    for (std::size_t j = 0; j < visible; ++j) {
      double dot = 0.0;
      for (std::size_t k = 0; k < d_k; ++k) dot += Q[i][k] * K[j][k];
      s[j] = dot / std::sqrt(static_cast<double>(d_k));
    }
    double sum = 0.0;
    for (double v : s) sum += std::exp(v);
    for (std::size_t j = 0; j < visible; ++j) {
      if (kind == AttentionNormalization::softmax) A[i][j] = std::exp(s[j]) / sum;
      else if (kind == AttentionNormalization::softmax_plus_one) A[i][j] = std::exp(s[j]) / (1.0 + sum);
      else A[i][j] = 1.0 / (1.0 + std::exp(-(s[j] - std::log(static_cast<double>(visible)))));
    }
  }
  return A;
}

std::string name(AttentionNormalization kind) { return std::string(enum_name(kAttentionNormalizationNames, kind)); }

TEST(AttentionNormalization, EachKindMatchesAFloat64Reference) {
  std::mt19937 rng(7);
  for (AttentionNormalization kind : kKinds)
    for (int trial = 0; trial < 24; ++trial) {
      const int n = 1 + static_cast<int>(rng() % 40), d = 8 + static_cast<int>(rng() % 40);
      const int d_k = 1 + static_cast<int>(rng() % 16), d_v = 1 + static_cast<int>(rng() % 16);
      const bool causal = trial % 2 == 0;
      const Matrix X = random_matrix(n, d, rng);
      HeadWeights head{random_matrix(d, d_k, rng, 0.3f), random_matrix(d, d_k, rng, 0.3f), random_matrix(d, d_v, rng, 0.3f)};
      HeadTrace trace;
      attention_head(X, head, causal, trace, kind);
      const auto Q = reference::matmul(to_ref(X), to_ref(head.W_Q));
      const auto K = reference::matmul(to_ref(X), to_ref(head.W_K));
      const auto V = reference::matmul(to_ref(X), to_ref(head.W_V));
      const auto A = reference_attention(Q, K, causal, kind);
      SCOPED_TRACE(name(kind) + " trial " + std::to_string(trial) + " n=" + std::to_string(n));
      EXPECT_LT(normalized_error(trace.attention, A), kTolerance);
      EXPECT_LT(normalized_error(trace.Z, reference::matmul(A, V)), kTolerance);
    }
}

TEST(AttentionNormalization, RowSumsSayWhatEachKindAllows) {
  std::mt19937 rng(8);
  const Matrix X = random_matrix(12, 16, rng);
  HeadWeights head{random_matrix(16, 4, rng, 0.5f), random_matrix(16, 4, rng, 0.5f), random_matrix(16, 4, rng, 0.5f)};
  HeadTrace softmax, plus_one, sigmoid;
  attention_head(X, head, true, softmax, AttentionNormalization::softmax);
  attention_head(X, head, true, plus_one, AttentionNormalization::softmax_plus_one);
  attention_head(X, head, true, sigmoid, AttentionNormalization::sigmoid);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    EXPECT_NEAR(softmax.attention.row(i).sum(), 1.0f, 1e-5f);
    EXPECT_LT(plus_one.attention.row(i).sum(), 1.0f);  // the zero logit always takes a share
    EXPECT_GT(plus_one.attention.row(i).sum(), 0.0f);
    // Softmax + 1 is softmax scaled by sum e / (1 + sum e): the same order, the same ratios.
    for (Eigen::Index j = 0; j <= i; ++j)
      EXPECT_NEAR(plus_one.attention(i, j) / plus_one.attention.row(i).sum(), softmax.attention(i, j), 1e-5f);
    for (Eigen::Index j = i + 1; j < X.rows(); ++j) {
      EXPECT_EQ(plus_one.attention(i, j), 0.0f);
      EXPECT_EQ(sigmoid.attention(i, j), 0.0f);
    }
  }
  // The first query sees one key: sigmoid(s - ln 1) = sigmoid(s).
  EXPECT_NEAR(sigmoid.attention(0, 0), 1.0f / (1.0f + std::exp(-sigmoid.logits(0, 0))), 1e-6f);
}

TEST(AttentionNormalization, ZeroScoresHandComputed) {
  // Three keys, every score 0: softmax 1/3 each; softmax + 1 1/4 each (the zero logit takes the
  // fourth); sigmoid(0 - ln 3) = 1 / (1 + 3) = 1/4 each.
  const Matrix zeros = Matrix::Zero(1, 3);
  Matrix out;
  normalize_attention_rows(zeros, AttentionNormalization::softmax, out);
  EXPECT_NEAR(out(0, 1), 1.0f / 3.0f, 1e-7f);
  normalize_attention_rows(zeros, AttentionNormalization::softmax_plus_one, out);
  EXPECT_NEAR(out(0, 1), 0.25f, 1e-7f);
  normalize_attention_rows(zeros, AttentionNormalization::sigmoid, out);
  EXPECT_NEAR(out(0, 1), 0.25f, 1e-7f);
}

TEST(AttentionNormalization, ExtremeAndMaskedScores) {
  Matrix logits(4, 3);
  logits << 1000.0f, 0.0f, -1000.0f,  // huge: no overflow
      -kInf, -kInf, -kInf,             // nothing visible
      kInf, 2.0f, kInf,                // +inf entries
      std::nanf(""), 0.0f, -kInf;      // NaN and a masked key
  Matrix out;
  normalize_attention_rows(logits, AttentionNormalization::softmax_plus_one, out);
  EXPECT_TRUE(out.allFinite());
  EXPECT_NEAR(out(0, 0), 1.0f, 1e-6f);
  EXPECT_EQ(out.row(1).sum(), 0.0f);  // all on the zero logit, not uniform as softmax would be
  EXPECT_EQ(out(2, 0), 0.5f);
  EXPECT_EQ(out(2, 1), 0.0f);
  EXPECT_EQ(out(3, 0), 0.0f);
  EXPECT_NEAR(out(3, 1), 0.5f, 1e-7f);  // one finite zero score against the zero logit
  normalize_attention_rows(logits, AttentionNormalization::sigmoid, out);
  EXPECT_TRUE(out.allFinite());
  EXPECT_NEAR(out(0, 0), 1.0f, 1e-6f);
  EXPECT_EQ(out(0, 2), 0.0f);
  EXPECT_EQ(out.row(1).sum(), 0.0f);
  EXPECT_EQ(out(2, 0), 1.0f);
  EXPECT_EQ(out(3, 0), 0.0f);
  EXPECT_NEAR(out(3, 1), 0.5f, 1e-7f);  // one visible key: bias -ln 1 = 0
  EXPECT_EQ(out(3, 2), 0.0f);
}

TEST(AttentionNormalization, ForwardFollowsTheModelsChoiceAndReusesNothingStale) {
  Model model = make_model(16, 2, 2, 3, Embedding::random);
  model.causal = true;
  std::mt19937 rng(9);
  const Matrix X = random_matrix(7, 16, rng);
  Trace reused;
  forward(model, X, reused);
  for (AttentionNormalization kind : kKinds) {
    model.attention = kind;
    forward(model, X, reused);
    Trace fresh;
    forward(model, X, fresh);
    for (std::size_t l = 0; l < model.layers.size(); ++l)
      for (std::size_t h = 0; h < model.layers[l].heads.size(); ++h)
        EXPECT_EQ(reused.layers[l].heads[h].attention, fresh.layers[l].heads[h].attention) << name(kind);
    HeadTrace alone;
    attention_head(fresh.layers[0].input, model.layers[0].heads[0], true, alone, kind);
    EXPECT_EQ(alone.attention, fresh.layers[0].heads[0].attention) << name(kind);
  }
}

TEST(AttentionNormalization, ModelFilesKeepItAndOldFilesReadAsSoftmax) {
  Document document;
  document.model = make_model(16, 1, 2, 5, Embedding::random);
  document.input.text = "a b";
  for (AttentionNormalization kind : kKinds) {
    document.model.attention = kind;
    const std::string text = serialize_model_file(document, -1);
    EXPECT_EQ(text.find("\"attention\"") != std::string::npos, kind != AttentionNormalization::softmax) << name(kind);
    const Result<Document> back = parse_model_file(text);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back.value().model.attention, kind);
  }
  document.model.attention = AttentionNormalization::softmax;
  std::string old = serialize_model_file(document, -1);
  const Result<Document> parsed = parse_model_file(old);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed.value().model.attention, AttentionNormalization::softmax);
  old.insert(old.find('{') + 1, "\"attention\":\"sigmoidal\",");
  const Result<Document> refused = parse_model_file(old);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("attention"), std::string::npos) << refused.error();
}

TEST(AttentionNormalization, TensorModelFilesKeepIt) {
  Document document;
  Model& model = document.model;
  model = make_model(16, 1, 2, 7, Embedding::random);
  model.tokenizer = "text";
  model.causal = true;
  model.token_embedding = Matrix::Random(30, 16);
  model.output_bias = RowVector::Random(30);
  document.input.text = "a sentence";
  for (AttentionNormalization kind : kKinds) {
    model.attention = kind;
    const std::vector<std::uint8_t> file = write_tensor_model(document, TensorType::f32);
    const Result<Document> back = read_tensor_model(file.data(), file.size());
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back.value().model.attention, kind) << name(kind);
  }
}

}  // namespace
}  // namespace headlab
