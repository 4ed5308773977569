// Circuits (Elhage et al. 2021): QK/OV circuits and composition scores against a naive
// double-precision reference, copying scores of hand-built circuits, constructed head pairs that
// compose one known way, and all-zero weights.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/analysis/circuits.h"
#include "engine/model.h"
#include "test_util.h"

namespace headlab {
namespace {

using analysis::composition_baseline;
using analysis::composition_json;
using analysis::composition_scores;
using analysis::copying_score;
using analysis::ov_circuit;
using analysis::qk_circuit;
using reference::Mat;
using test_util::random_matrix;
using test_util::to_ref;

struct Shape {
  int d_model, d_k, d_v, heads_a, heads_b;
};
// Square and non-square heads, d_k != d_v, one-dimensional heads, up to d_model 128.
const Shape kShapes[] = {{24, 6, 6, 4, 4}, {32, 5, 7, 3, 2}, {64, 16, 8, 2, 3}, {128, 8, 32, 4, 2}, {8, 1, 1, 1, 1}};

std::string describe(const Shape& s) {
  return "d_model=" + std::to_string(s.d_model) + " d_k=" + std::to_string(s.d_k) + " d_v=" +
         std::to_string(s.d_v) + " heads=" + std::to_string(s.heads_a) + "," + std::to_string(s.heads_b);
}

// Two layers with every weight (W_O included) seeded Gaussian.
Model random_model(const Shape& s, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Model model;
  model.d_model = s.d_model;
  for (int heads : {s.heads_a, s.heads_b}) {
    Layer layer;
    layer.d_k = s.d_k;
    layer.d_v = s.d_v;
    for (int h = 0; h < heads; ++h)
      layer.heads.push_back({random_matrix(s.d_model, s.d_k, rng), random_matrix(s.d_model, s.d_k, rng),
                             random_matrix(s.d_model, s.d_v, rng)});
    layer.W_O = random_matrix(heads * s.d_v, s.d_model, rng);
    model.layers.push_back(std::move(layer));
  }
  return model;
}

// ---- naive reference: plain loops in double, no Eigen ----

Mat transpose(const Mat& m) {
  Mat t(m[0].size(), std::vector<double>(m.size()));
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m[0].size(); ++j) t[j][i] = m[i][j];
  return t;
}

double frobenius(const Mat& m) {
  double sum = 0.0;
  for (const auto& row : m)
    for (double x : row) sum += x * x;
  return std::sqrt(sum);
}

Mat reference_qk(const Model& model, int layer, int head) {
  const HeadWeights& w = model.layers[layer].heads[head];
  return reference::matmul(to_ref(w.W_Q), transpose(to_ref(w.W_K)));
}

Mat reference_ov(const Model& model, int layer, int head) {
  const Layer& l = model.layers[layer];
  const Mat W_O = to_ref(l.W_O);
  const Mat block(W_O.begin() + head * l.d_v, W_O.begin() + (head + 1) * l.d_v);  // (d_v, d_model)
  return reference::matmul(to_ref(l.heads[head].W_V), block);
}

double reference_ratio(const Mat& first, const Mat& second) {
  const double denominator = frobenius(first) * frobenius(second);
  return denominator > 0.0 ? frobenius(reference::matmul(first, second)) / denominator : 0.0;
}

// max |engine - reference| / max |reference|
double relative_max_error(const Matrix& engine, const Mat& ref) {
  double diff = 0.0, scale = 0.0;
  for (Eigen::Index i = 0; i < engine.rows(); ++i)
    for (Eigen::Index j = 0; j < engine.cols(); ++j) {
      diff = std::max(diff, std::abs(engine(i, j) - ref[i][j]));
      scale = std::max(scale, std::abs(ref[i][j]));
    }
  return diff / std::max(scale, 1e-300);
}

TEST(CircuitMatrices, QkAndOvMatchNaiveReference) {
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(describe(s));
    const Model model = random_model(s, 7);
    for (int layer = 0; layer < 2; ++layer)
      for (int head = 0; head < model.layers[layer].head_count(); ++head) {
        const Matrix qk = qk_circuit(model, layer, head), ov = ov_circuit(model, layer, head);
        ASSERT_EQ(qk.rows(), s.d_model);
        ASSERT_EQ(qk.cols(), s.d_model);
        ASSERT_EQ(ov.rows(), s.d_model);
        ASSERT_EQ(ov.cols(), s.d_model);
        EXPECT_LT(relative_max_error(qk, reference_qk(model, layer, head)), 1e-4) << "layer " << layer << " head " << head;
        EXPECT_LT(relative_max_error(ov, reference_ov(model, layer, head)), 1e-4) << "layer " << layer << " head " << head;
      }
  }
}

TEST(CircuitMatrices, RowIsQueryFeatureColumnIsKeyFeature) {
  // Query feature 0 looks for key feature 2: the logit of x = e_0 against y = e_2 is x W_QK y^T.
  Model model = make_model(8, 1, 1, 3);
  HeadWeights& head = model.layers[0].heads[0];
  head.W_Q.setZero();
  head.W_K.setZero();
  head.W_Q(0, 0) = 2.0f;
  head.W_K(2, 0) = 3.0f;
  const Matrix qk = qk_circuit(model, 0, 0);
  EXPECT_FLOAT_EQ(qk(0, 2), 6.0f);
  EXPECT_FLOAT_EQ(qk(2, 0), 0.0f);
}

TEST(CircuitComposition, MatchesNaiveReference) {
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(describe(s));
    const Model model = random_model(s, 11);
    const analysis::CompositionScores scores = composition_scores(model, 0, 1);
    ASSERT_EQ(scores.q.rows(), s.heads_a);
    ASSERT_EQ(scores.q.cols(), s.heads_b);
    for (int a = 0; a < s.heads_a; ++a)
      for (int b = 0; b < s.heads_b; ++b) {
        const Mat ov_a = reference_ov(model, 0, a), qk_b = reference_qk(model, 1, b), ov_b = reference_ov(model, 1, b);
        // Row vectors: head a's output x W_OV^a reaches b's query through W_QK^b, b's key through
        // W_QK^b^T (the logit y W_QK^b (x W_OV^a)^T, transposed), b's value through W_OV^b.
        EXPECT_NEAR(scores.q(a, b), reference_ratio(ov_a, qk_b), 1e-5) << a << "," << b;
        EXPECT_NEAR(scores.k(a, b), reference_ratio(ov_a, transpose(qk_b)), 1e-5) << a << "," << b;
        EXPECT_NEAR(scores.v(a, b), reference_ratio(ov_a, ov_b), 1e-5) << a << "," << b;
      }
  }
}

// W_V = the first d_v coordinates (d_model, d_v); the OV circuit is W_V M W_V^T for a (d_v, d_v) M.
Model model_with_ov_block(const Matrix& block) {
  const int d_model = 12, d_v = static_cast<int>(block.rows());
  Model model = make_model(d_model, 1, 2, 5);  // d_v = 6; the circuit under test is head 1's
  Layer& layer = model.layers[0];
  const Matrix projection = identity_like(d_model, d_v);  // (d_model, d_v) e_i -> e_i
  layer.heads[1].W_V = projection;
  layer.W_O.middleRows(d_v, d_v) = block * projection.transpose();
  return model;
}

TEST(CircuitCopyingScore, HandBuiltCircuits) {
  const int d_v = 6;
  Matrix rotation = Matrix::Zero(d_v, d_v);  // antisymmetric: quarter turns in three planes
  for (int i = 0; i < d_v; i += 2) {
    rotation(i, i + 1) = 1.0f;
    rotation(i + 1, i) = -1.0f;
  }
  const Matrix identity = Matrix::Identity(d_v, d_v);
  struct Case {
    const char* name;
    Matrix block;
    float expected;
  } cases[] = {{"copying projection", identity, 1.0f},
               {"negated projection", -identity, -1.0f},
               {"rotation", rotation, 0.0f},
               {"scaled copying", 0.01f * identity, 1.0f}};
  for (const Case& c : cases) {
    const Model model = model_with_ov_block(c.block);
    EXPECT_NEAR(copying_score(ov_circuit(model, 0, 1)), c.expected, 1e-5) << c.name;
    EXPECT_NEAR(analysis::ov_copying_score(model, 0, 1), c.expected, 1e-5) << c.name;
  }
}

TEST(CircuitCopyingScore, HeadShortcutMatchesFullCircuit) {
  // d_v < d_model (the small product is used) and d_v > d_model (the full one is).
  for (const Shape& s : {Shape{24, 6, 6, 4, 1}, Shape{64, 16, 8, 2, 1}, Shape{8, 3, 12, 2, 1}}) {
    SCOPED_TRACE(describe(s));
    const Model model = random_model(s, 13);
    for (int head = 0; head < s.heads_a; ++head)
      EXPECT_NEAR(analysis::ov_copying_score(model, 0, head), copying_score(ov_circuit(model, 0, head)), 1e-4);
  }
}

TEST(CircuitCopyingScore, EigenvaluesByHand) {
  // A plane rotation by theta has eigenvalues e^{+-i theta}: the score is cos(theta).
  for (double theta : {0.0, 0.5, 1.0471975511965976, 1.5707963267948966, 2.5, 3.141592653589793}) {
    Matrix m(2, 2);
    m << static_cast<float>(std::cos(theta)), static_cast<float>(-std::sin(theta)),
        static_cast<float>(std::sin(theta)), static_cast<float>(std::cos(theta));
    EXPECT_NEAR(copying_score(m), std::cos(theta), 1e-6) << "theta " << theta;
  }
  // Triangular: eigenvalues 2, -1, 0.5 on the diagonal whatever lies above it.
  Matrix triangular(3, 3);
  triangular << 2, 7, -3, 0, -1, 4, 0, 0, 0.5f;
  EXPECT_NEAR(copying_score(triangular), 1.5 / 3.5, 1e-6);
}

// Head a = layer 0 head 1 writes only into features [0, 2). Head b = layer 1 head 0: the matrix
// under test (W_Q, W_K or W_V) reads only those features, the other two only features [2, 24).
TEST(CircuitComposition, ReadingTheWrittenSubspaceGivesThatKind) {
  const int d_model = 24, written = 2;
  const analysis::CompositionBaseline baseline = composition_baseline(d_model, 12, 12, 12);
  const char* kinds[] = {"q", "k", "v"};
  for (int kind = 0; kind < 3; ++kind) {
    SCOPED_TRACE(kinds[kind]);
    std::mt19937 rng(100 + kind);
    Model model = make_model(d_model, 2, 2, 9, Embedding::random);  // d_k = d_v = 12
    Layer& first = model.layers[0];
    first.W_O.middleRows(12, 12).setZero();
    first.W_O.block(12, 0, 12, written) = random_matrix(12, written, rng);
    HeadWeights& b = model.layers[1].heads[0];
    Matrix* readers[] = {&b.W_Q, &b.W_K, &b.W_V};
    for (int r = 0; r < 3; ++r) {
      Matrix& w = *readers[r];
      w = random_matrix(d_model, 12, rng);
      if (r == kind) w.bottomRows(d_model - written).setZero();
      else w.topRows(written).setZero();
    }
    const analysis::CompositionScores scores = composition_scores(model, 0, 1);
    const float by_kind[] = {scores.q(1, 0), scores.k(1, 0), scores.v(1, 0)};
    const float chance[] = {baseline.q, baseline.k, baseline.v};
    for (int other = 0; other < 3; ++other) {
      if (other != kind) {
        EXPECT_LT(by_kind[other], 1e-6f) << kinds[other];
      }
    }
    EXPECT_GT(by_kind[kind], 2.0f * chance[kind]);
    const nlohmann::json json = composition_json(model, 0, 1);
    EXPECT_EQ(json["strongest"]["kind"], kinds[kind]);
    EXPECT_EQ(json["strongest"]["a"], 1);
    EXPECT_EQ(json["strongest"]["b"], 0);
  }
}

TEST(CircuitComposition, BaselineIsChanceLevelOfRandomHeads) {
  const analysis::CompositionBaseline small = composition_baseline(24, 6, 6, 6);
  const analysis::CompositionBaseline again = composition_baseline(24, 6, 6, 6);
  const analysis::CompositionBaseline large = composition_baseline(128, 6, 6, 6);
  EXPECT_EQ(small.q, again.q);
  EXPECT_EQ(small.v, again.v);
  EXPECT_GT(large.k, 0.0f);
  EXPECT_GT(small.k, large.k);  // wider residual streams leave more room to miss
  // The mean score of a model with Gaussian weights lands near the baseline.
  const Shape s{64, 16, 16, 4, 4};
  const analysis::CompositionScores scores = composition_scores(random_model(s, 21), 0, 1);
  const analysis::CompositionBaseline chance = composition_baseline(64, 16, 16, 16);
  EXPECT_NEAR(scores.q.mean(), chance.q, 0.1 * chance.q);
  EXPECT_NEAR(scores.k.mean(), chance.k, 0.1 * chance.k);
  EXPECT_NEAR(scores.v.mean(), chance.v, 0.1 * chance.v);
}

TEST(CircuitDegenerate, AllZeroWeightsGiveZeroNotNaN) {
  Model model = make_model(16, 2, 2, 4);
  for (Layer& layer : model.layers) {
    for (HeadWeights& head : layer.heads) {
      head.W_Q.setZero();
      head.W_K.setZero();
      head.W_V.setZero();
    }
    layer.W_O.setZero();
  }
  EXPECT_TRUE(qk_circuit(model, 1, 1).isZero(0.0f));
  EXPECT_EQ(copying_score(ov_circuit(model, 0, 0)), 0.0f);
  const analysis::CompositionScores scores = composition_scores(model, 0, 1);
  for (const Matrix* m : {&scores.q, &scores.k, &scores.v}) {
    EXPECT_TRUE(m->allFinite());
    EXPECT_TRUE(m->isZero(0.0f));
  }
  const nlohmann::json circuits = analysis::circuits_json(model, 0, 1);
  EXPECT_EQ(circuits["copying_score"], 0.0);
  EXPECT_EQ(circuits["qk"].size(), 16u);
  const nlohmann::json composition = composition_json(model, 0, 1);
  EXPECT_TRUE(composition["strongest"].is_null());
  EXPECT_EQ(composition["k"][1][1], 0.0);
  EXPECT_EQ(copying_score(Matrix(0, 0)), 0.0f);
  EXPECT_EQ(composition_baseline(0, 4, 4, 4).q, 0.0f);
}

TEST(CircuitDegenerate, PrunedHeadsComposeWithNothingAndNaNIsNotHidden) {
  Model model = random_model({16, 4, 4, 2, 2}, 3);
  model.layers[0].heads[1].pruned = true;
  model.layers[1].heads[0].pruned = true;
  const analysis::CompositionScores scores = composition_scores(model, 0, 1);
  EXPECT_EQ(scores.v(1, 1), 0.0f);
  EXPECT_EQ(scores.q(0, 0), 0.0f);
  EXPECT_GT(scores.k(0, 1), 0.0f);
  Matrix broken = Matrix::Identity(3, 3);
  broken(1, 2) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(copying_score(broken)));
}

}  // namespace
}  // namespace headlab
