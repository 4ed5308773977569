// The logarithm behind the entropies and Jensen-Shannon terms: its stated accuracy, the exact zero
// at 1 and the relative accuracy just below 1 (jensen_shannon.h relies on both), and scalar/vector
// agreement.
#include "engine/analysis/fast_log.h"

#include <gtest/gtest.h>

#include <cstring>

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

// Natively (SSE) only: clang 14 -O2 for WASM did not finish compiling this test in 15 minutes,
// whichever way its loop was written; the WASM runs keep the redundancy tests, which need the two
// paths to agree (identical heads exactly 0 apart).
TEST(FastLog, VectorAndScalarPathsGiveTheSameBits) {
#if defined(HEADLAB_VECTOR_LOG) && !defined(__EMSCRIPTEN__)
  std::vector<float> xs;
  for (float x = 1e-7f; x <= 1.0f; x *= 1.37f) xs.push_back(x);
  std::vector<float> vector_path(4 * xs.size()), scalar_path(4 * xs.size());
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const float x = xs[k];
    const Float4 v = fast_log4(Float4{x, 0.5f * x, 0.9f * x, 1.0f});
    std::memcpy(&vector_path[4 * k], &v, sizeof v);
    scalar_path[4 * k] = fast_log(x);
    scalar_path[4 * k + 1] = fast_log(0.5f * x);
    scalar_path[4 * k + 2] = fast_log(0.9f * x);
    scalar_path[4 * k + 3] = 0.0f;
  }
  for (std::size_t i = 0; i < vector_path.size(); ++i) EXPECT_EQ(vector_path[i], scalar_path[i]) << "value " << i;
#endif
}

}  // namespace
}  // namespace headlab::analysis
