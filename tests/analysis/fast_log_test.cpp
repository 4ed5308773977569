// The logarithm behind the entropies and Jensen-Shannon sums: its stated accuracy, the exact zero
// at 1 that lets redundancy sum masked keys (they hold 1), and scalar/vector agreement, which makes
// identical heads exactly 0 apart.
#include "engine/analysis/fast_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace headlab::analysis {
namespace {

TEST(FastLog, WithinTwoMillionthsOfTheLibraryLogOverTheRangeUsed) {
  double worst = 0.0;
  for (float x = 1e-7f; x <= 1.0f; x *= 1.0007f) worst = std::max(worst, std::fabs(fast_log(x) - std::log(double{x})));
  EXPECT_LT(worst, 2e-6);
  EXPECT_NEAR(fast_log(0.5f), std::log(0.5), 2e-6);
}

TEST(FastLog, IsExactlyZeroAtOne) {
  EXPECT_EQ(fast_log(1.0f), 0.0f);
  std::vector<float> ones(7, 1.0f), terms(7, 5.0f);
  neg_xlogx_of_mixture(ones.data(), ones.data(), 7, terms.data());
  for (float t : terms) EXPECT_EQ(t, 0.0f);
}

TEST(FastLog, VectorAndScalarPathsGiveTheSameBits) {
  // 11 entries: two 4-wide packets and a scalar tail; shifted by one, each value takes the other path.
  std::vector<float> p(12), q(12);
  for (int j = 0; j < 12; ++j) {
    p[j] = 0.013f * static_cast<float>(j + 1);
    q[j] = 0.3f / static_cast<float>(j + 2);
  }
  std::vector<float> a(11), b(11);
  neg_xlogx_of_mixture(p.data(), q.data(), 11, a.data());
  neg_xlogx_of_mixture(p.data() + 1, q.data() + 1, 11, b.data());
  for (int j = 0; j + 1 < 11; ++j) EXPECT_EQ(a[j + 1], b[j]) << j;
  for (int j = 0; j < 11; ++j) {
    const double m = 0.5 * (double{p[j]} + double{q[j]});
    EXPECT_NEAR(a[j], -m * std::log(m), 2e-6);
  }
}

TEST(FastLog, FixedOrderSumAddsEveryValue) {
  std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(fixed_order_sum(v.data(), 9), 45.0f);
  EXPECT_EQ(fixed_order_sum(v.data(), 3), 6.0f);
}

}  // namespace
}  // namespace headlab::analysis
