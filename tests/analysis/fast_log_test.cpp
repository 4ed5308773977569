// The logarithm behind the entropies and Jensen-Shannon terms: its stated accuracy, the exact zero
// at 1 and the relative accuracy just below 1 (jensen_shannon.h relies on both), and scalar/vector
// agreement.
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

TEST(FastLog, IsExactlyZeroAtOneAndRelativelyAccurateJustBelow) {
  EXPECT_EQ(fast_log(1.0f), 0.0f);
  double worst = 0.0;
  for (float x = 0.7072f; x < 1.0f; x = std::nextafter(x, 2.0f) + (1.0f - x) * 1e-3f)
    worst = std::max(worst, std::fabs(fast_log(x) / std::log(double{x}) - 1.0));
  EXPECT_LT(worst, 1e-6);
}

TEST(FastLog, VectorAndScalarPathsGiveTheSameBits) {
#ifdef HEADLAB_VECTOR_LOG
  for (float x = 1e-7f; x <= 1.0f; x *= 1.37f) {
    const Float4 v = fast_log4(Float4{x, 0.5f * x, 0.9f * x, 1.0f});
    EXPECT_EQ(v[0], fast_log(x));
    EXPECT_EQ(v[1], fast_log(0.5f * x));
    EXPECT_EQ(v[2], fast_log(0.9f * x));
    EXPECT_EQ(v[3], 0.0f);
  }
#endif
}

}  // namespace
}  // namespace headlab::analysis
