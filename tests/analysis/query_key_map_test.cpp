// The AttentionViz picture (query_key_map.h): the normalisation against a case worked by hand and
// the softmax it must leave alone, PCA against a set built on known axes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/analysis/query_key_map.h"
#include "engine/forward.h"

namespace headlab::analysis {
namespace {

Matrix rows(std::initializer_list<std::initializer_list<float>> values) {
  Matrix m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.begin()->size()));
  Eigen::Index r = 0;
  for (const auto& row : values) {
    Eigen::Index c = 0;
    for (float v : row) m(r, c++) = v;
    ++r;
  }
  return m;
}

TEST(QueryKeyMap, NormalisationOfAHandWorkedCase) {
  // Query centroid (0.5, 1), key centroid (2, 1): c = (-1.5, 0), keys become (1.5, 1), (-0.5, 1).
  // Mean query norm (1 + 2) / 2 = 1.5; mean key norm (sqrt(3.25) + sqrt(1.25)) / 2 = 1.460399;
  // a = sqrt(1.460399 / 1.5) = 0.986712.
  const Matrix Q = rows({{1, 0}, {0, 2}});
  const Matrix K = rows({{3, 1}, {1, 1}});
  const QueryKeyNormalisation n = query_key_normalisation(Q, K);
  EXPECT_NEAR(n.key_shift(0), -1.5f, 1e-6f);
  EXPECT_NEAR(n.key_shift(1), 0.0f, 1e-6f);
  EXPECT_NEAR(n.query_scale, 0.986712f, 1e-5f);
  Matrix q = Q, k = K;
  normalise_queries_keys(n, q, k);
  EXPECT_NEAR(q(1, 1), 2 * 0.986712f, 1e-5f);
  EXPECT_NEAR(k(0, 0), 1.5f / 0.986712f, 1e-5f);
  EXPECT_NEAR(k(1, 0), -0.5f / 0.986712f, 1e-5f);
  // Equal mean norms afterwards.
  EXPECT_NEAR((q.row(0).norm() + q.row(1).norm()) / 2, (k.row(0).norm() + k.row(1).norm()) / 2, 1e-5f);
}

// What the normalisation promises on a random head of many "sentences": every logit row moves by
// one number (q.c), so each row's softmax, the attention, is what it was.
TEST(QueryKeyMap, NormalisationLeavesEverySoftmaxRowAsItWas) {
  std::mt19937 rng(3);
  std::normal_distribution<float> g(0.0f, 1.0f);
  const int n = 12, d = 5;
  Matrix Q(n, d), K(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) {
      Q(i, j) = 2.0f * g(rng) + 1.0f;  // off-centre and of another size than the keys
      K(i, j) = 0.5f * g(rng) - 3.0f;
    }
  const QueryKeyNormalisation norm = query_key_normalisation(Q, K);
  EXPECT_GT(std::abs(norm.query_scale - 1.0f), 0.05f);  // the case does scale
  Matrix q = Q, k = K;
  normalise_queries_keys(norm, q, k);
  const Matrix before = Q * K.transpose(), after = q * k.transpose();
  for (int i = 0; i < n; ++i) {
    const float shift = Q.row(i).dot(norm.key_shift);
    for (int j = 0; j < n; ++j) EXPECT_NEAR(after(i, j), before(i, j) + shift, 1e-3f) << i << "," << j;
  }
  Matrix a, b;
  softmax_rows(before / std::sqrt(float(d)), a);
  softmax_rows(after / std::sqrt(float(d)), b);
  EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-5f);
  // The key centroid was moved onto the query centroid (before the scaling, which keeps dot products).
  const RowVector moved = (K.rowwise() + norm.key_shift).colwise().mean();
  EXPECT_LT((moved - Q.colwise().mean()).cwiseAbs().maxCoeff(), 1e-4f);
  // And the mean norms are equal after it.
  double qn = 0, kn = 0;
  for (int i = 0; i < n; ++i) qn += q.row(i).norm(), kn += k.row(i).norm();
  EXPECT_NEAR(qn, kn, 1e-3 * qn);
}

TEST(QueryKeyMap, PrincipalAxesRecoverTheAxesASetWasBuiltOn) {
  // Every sign pattern of +-3 u + -1 v + -0.1 w, for an orthonormal u, v, w: the covariance is
  // diagonal in that basis, with variances 9, 1, 0.01 times 8/7 (8 points, n - 1 = 7).
  const float s = 1.0f / std::sqrt(2.0f);
  const Eigen::RowVector3f u(s, s, 0), v(-s, s, 0), w(0, 0, 1);
  Matrix points(8, 3);
  for (int p = 0; p < 8; ++p)
    points.row(p) = (p & 1 ? 3.0f : -3.0f) * u + (p & 2 ? 1.0f : -1.0f) * v + (p & 4 ? 0.1f : -0.1f) * w +
                    Eigen::RowVector3f(5, -2, 1);  // off the origin: the mean is taken out
  const PrincipalAxes axes = principal_axes(points, 2);
  ASSERT_EQ(axes.axes.cols(), 2);
  EXPECT_NEAR(std::abs(axes.axes.col(0).dot(u.transpose())), 1.0f, 1e-5f);
  EXPECT_NEAR(std::abs(axes.axes.col(1).dot(v.transpose())), 1.0f, 1e-5f);
  EXPECT_GT(axes.axes.col(0).maxCoeff(), 0.0f);  // the sign rule: largest entry positive
  EXPECT_NEAR(axes.variances[0], 9.0f * 8 / 7, 1e-4f);
  EXPECT_NEAR(axes.variances[1], 1.0f * 8 / 7, 1e-4f);
  EXPECT_NEAR(axes.total_variance, (9.0f + 1.0f + 0.01f) * 8 / 7, 1e-4f);
  EXPECT_NEAR(axes.mean(0), 5.0f, 1e-5f);
}

// In two dimensions the projection is a rotation: every distance of the normalised points stays.
TEST(QueryKeyMap, TwoDimensionalHeadsKeepEveryDistance) {
  const Matrix Q = rows({{1, 0}, {0, 2}, {1, 1}});
  const Matrix K = rows({{3, 1}, {1, 1}, {2, -1}});
  const QueryKeyMap map = query_key_map(Q, K);
  Matrix q = Q, k = K;
  normalise_queries_keys(map.normalisation, q, k);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR((map.query_points.row(i) - map.key_points.row(j)).norm(), (q.row(i) - k.row(j)).norm(), 1e-4f);
  EXPECT_LE(map.min_x, map.query_points.col(0).minCoeff());
  EXPECT_GE(map.max_y, map.key_points.col(1).maxCoeff());
}

TEST(QueryKeyMap, OneDimensionalAndEmptyHeads) {
  const QueryKeyMap flat = query_key_map(rows({{1}, {2}}), rows({{4}, {5}}));
  EXPECT_EQ(flat.query_points.cols(), 2);
  EXPECT_EQ(flat.key_points(1, 1), 0.0f);
  const QueryKeyMap empty = query_key_map(Matrix(0, 4), Matrix(0, 4));
  EXPECT_EQ(empty.query_points.rows(), 0);
  EXPECT_EQ(empty.normalisation.query_scale, 1.0f);
}

}  // namespace
}  // namespace headlab::analysis
