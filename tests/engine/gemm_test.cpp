// The forward's products and its four-wide exp: the products against float64 sums and against the
// documented order (one float sum over p = 0 .. k-1, multiply then add), at every edge of the 6 x 8
// tile; exp against std::exp. The same suite runs natively and as WebAssembly, so both builds are
// held to the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "engine/forward.h"
#include "engine/gemm.h"
#include "engine/vec4.h"

namespace headlab {
namespace {

Matrix random_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937& rng) {
  std::normal_distribution<float> normal;
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// The documented order, one entry at a time. `volatile` keeps the product rounded before the sum.
float ordered_dot(const Matrix& A, Eigen::Index i, const Matrix& B, Eigen::Index j, bool transposed) {
  float sum = 0.0f;
  for (Eigen::Index p = 0; p < A.cols(); ++p) {
    volatile float product = A(i, p) * (transposed ? B(j, p) : B(p, j));
    sum = sum + product;
  }
  return sum;
}

TEST(Gemm, EveryTileEdgeMatchesTheOrderedSumBitForBitAndFloat64Closely) {
  std::mt19937 rng(7);
  const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 17, 33};
  for (int m : sizes)
    for (int k : {1, 3, 4, 5, 8, 31, 64})
      for (int n : sizes) {
        const Matrix A = random_matrix(m, k, rng), B = random_matrix(k, n, rng), Bt = B.transpose();
        Matrix C, Ct;
        multiply(A, B, C);
        multiply_transposed(A, Bt, Ct);
        ASSERT_EQ(C.rows(), m);
        ASSERT_EQ(C.cols(), n);
        const Eigen::MatrixXd reference = A.cast<double>() * B.cast<double>();
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            SCOPED_TRACE(::testing::Message() << m << "x" << k << "x" << n << " at (" << i << ", " << j << ")");
            const float ordered = ordered_dot(A, i, B, j, false);
            ASSERT_EQ(C(i, j), ordered);
            ASSERT_EQ(Ct(i, j), ordered);
            const double scale = (A.row(i).cast<double>().cwiseAbs() * B.col(j).cast<double>().cwiseAbs()).value();
            ASSERT_LE(std::abs(C(i, j) - reference(i, j)), 1e-6 * k * scale + 1e-30);
          }
      }
}

TEST(Gemm, EmptyShapesGiveEmptyOrZeroResults) {
  Matrix C;
  multiply(Matrix(0, 4), Matrix(4, 3), C);
  EXPECT_EQ(C.rows(), 0);
  EXPECT_EQ(C.cols(), 3);
  multiply(Matrix(2, 0), Matrix(0, 3), C);
  ASSERT_EQ(C.rows(), 2);
  EXPECT_TRUE((C.array() == 0.0f).all());
  multiply_transposed(Matrix(2, 5), Matrix(0, 5), C);
  EXPECT_EQ(C.cols(), 0);
}

TEST(Gemm, ANonFiniteEntryReachesOnlyTheEntriesItFeeds) {
  std::mt19937 rng(3);
  Matrix A = random_matrix(7, 9, rng);
  const Matrix B = random_matrix(9, 11, rng);
  A(4, 2) = std::numeric_limits<float>::quiet_NaN();
  Matrix C;
  multiply(A, B, C);
  for (Eigen::Index i = 0; i < C.rows(); ++i)
    for (Eigen::Index j = 0; j < C.cols(); ++j) EXPECT_EQ(std::isnan(C(i, j)), i == 4) << i << ", " << j;
}

TEST(Gemm, ReusesNoStateBetweenProducts) {
  // A wide product, then a narrow one: the scratch panel is longer than needed the second time.
  std::mt19937 rng(5);
  const Matrix A = random_matrix(13, 40, rng), B = random_matrix(40, 19, rng);
  const Matrix a = random_matrix(3, 2, rng), b = random_matrix(2, 3, rng);
  Matrix first, small, again;
  multiply(A, B, first);
  multiply(a, b, small);
  multiply(A, B, again);
  EXPECT_EQ(std::memcmp(first.data(), again.data(), sizeof(float) * first.size()), 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(small(i, j), ordered_dot(a, i, b, j, false));
}

TEST(VectorExp, WithinTwoUnitsInTheLastPlaceOfStdExpOnItsRange) {
  float worst = 0.0f;
  for (float x = -87.0f; x <= 0.0f; x += 0.000731f) {
    float lanes[4];
    store4(lanes, exp_nonpositive4(Vec4{x, x * 0.5f, x * 0.25f, x * 0.125f}));
    const float inputs[4] = {x, x * 0.5f, x * 0.25f, x * 0.125f};
    for (int lane = 0; lane < 4; ++lane) {
      const double exact = std::exp(static_cast<double>(inputs[lane]));
      const double ulp = std::nextafter(static_cast<float>(exact), 1e30f) - static_cast<float>(exact);
      worst = std::max(worst, static_cast<float>(std::abs(lanes[lane] - exact) / ulp));
    }
  }
  EXPECT_LE(worst, 2.0f);
  float one[4];
  store4(one, exp_nonpositive4(Vec4{}));
  EXPECT_EQ(one[0], 1.0f);
}

TEST(GeluTanh, MatchesTheTanhFormulaInDoubleAtEveryPosition) {
  Matrix x(7, 9);  // 63 entries: the last three go through the padded lanes
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = -9.0f + 0.29f * static_cast<float>(i);
  x(0, 0) = 0.0f;
  x(0, 1) = -0.0f;
  x(6, 8) = 1e-30f;
  const Matrix input = x;
  gelu_tanh(x);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double v = input.data()[i];
    const double exact = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    EXPECT_NEAR(x.data()[i], exact, 1e-6 * std::max(1.0, std::abs(exact))) << "at " << v;
  }
  EXPECT_EQ(x(0, 0), 0.0f);
  Matrix infinite(1, 2);
  infinite << std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN();
  gelu_tanh(infinite);
  EXPECT_EQ(infinite(0, 0), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(infinite(0, 1)));
}

TEST(Softmax, MaskedAndFarBelowEntriesAreExactlyZeroAndRowsSumToOne) {
  const float inf = std::numeric_limits<float>::infinity();
  Matrix logits(3, 6);
  logits << 0.5f, -inf, 2.0f, -200.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f,  //
      3.0f, 3.0f, 3.0f, 3.0f, 3.0f, -inf,                                               //
      -1.0f, 40.0f, -inf, -inf, -inf, -inf;
  Matrix A;
  softmax_rows(logits, A);
  EXPECT_EQ(A(0, 1), 0.0f);
  EXPECT_EQ(A(0, 3), 0.0f);
  EXPECT_EQ(A(0, 4), 0.0f);
  EXPECT_EQ(A(1, 5), 0.0f);
  for (int j = 2; j < 6; ++j) EXPECT_EQ(A(2, j), 0.0f);
  const double z = std::exp(0.5 - 2.0) + 1.0 + std::exp(1.0 - 2.0);
  EXPECT_NEAR(A(0, 2), 1.0 / z, 1e-7);
  EXPECT_NEAR(A(0, 0), std::exp(-1.5) / z, 1e-7);
  for (int j = 0; j < 5; ++j) EXPECT_FLOAT_EQ(A(1, j), 0.2f);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(A.row(i).sum(), 1.0f, 1e-6f);
}

}  // namespace
}  // namespace headlab
