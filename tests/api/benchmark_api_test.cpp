// The speed ops of window.headlab (docs/js-api.md, "Benchmarks") through api::handle_request, as
// the browser bridge drives them: result shapes, the FLOP formula, strict arguments. No timing
// thresholds: only that the times are finite and positive.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "api/api.h"
#include "api/benchmark_api.h"
#include "../app/test_resources.h"

namespace headlab::app {
namespace {

using nlohmann::json;

class BenchmarkApiTest : public ::testing::Test {
 protected:
  BenchmarkApiTest() : controller_(state_, test_resources()) {}
  json call(const json& request) { return json::parse(api::handle_request(controller_, request.dump())); }
  std::string error_of(const json& request) {
    const json response = call(request);
    EXPECT_FALSE(response["ok"].get<bool>()) << request.dump();
    return response.value("error", std::string());
  }

  AppState state_;
  Controller controller_;
};

TEST(AttentionFlops, MatchesTheStatedFormula) {
  // (n, d_model, heads) = (9, 64, 4): d_k = 16.
  const double projections = 4 * 3 * 2.0 * 9 * 64 * 16, scores = 4 * 2.0 * 9 * 9 * 16, mixing = 4 * 2.0 * 9 * 9 * 16;
  const double output = 2.0 * 9 * (4 * 16) * 64;
  EXPECT_DOUBLE_EQ(api::attention_flops(9, 64, 4), projections + scores + mixing + output);
  EXPECT_DOUBLE_EQ(api::attention_flops(256, 512, 16), 16 * (6.0 * 256 * 512 * 32 + 4.0 * 256 * 256 * 32) + 2.0 * 256 * 512 * 512);
}

TEST_F(BenchmarkApiTest, BenchmarkReturnsTimesAndFlops) {
  const std::uint64_t revision = controller_.state().revision;
  const json r = call({{"op", "benchmark"}, {"n", 9}, {"d_model", 64}, {"heads", 4}, {"reps", 5}});
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
  const json& result = r["result"];
  EXPECT_EQ(result["reps"], 5);
  EXPECT_EQ(result["d_k"], 16);
  EXPECT_GE(result["batch"].get<int>(), 1);
  for (const char* key : {"median_ms", "min_ms", "gflops"}) {
    EXPECT_TRUE(std::isfinite(result[key].get<double>())) << key;
    EXPECT_GT(result[key].get<double>(), 0.0) << key;
  }
  EXPECT_LE(result["min_ms"].get<double>(), result["median_ms"].get<double>());
  EXPECT_DOUBLE_EQ(result["flops"].get<double>(), api::attention_flops(9, 64, 4));
  EXPECT_EQ(controller_.state().revision, revision) << "the lab is not touched";
}

TEST_F(BenchmarkApiTest, BenchmarkRefusesBadArguments) {
  const json good = {{"op", "benchmark"}, {"n", 9}, {"d_model", 64}, {"heads", 4}, {"reps", 3}};
  const auto with = [&](const char* key, json value) {
    json r = good;
    r[key] = std::move(value);
    return r;
  };
  const auto without = [&](const char* key) {
    json r = good;
    r.erase(key);
    return r;
  };
  EXPECT_EQ(error_of(with("heads", 0)), "heads: expected an integer in 1..16 (got 0)");
  EXPECT_EQ(error_of(with("heads", 17)), "heads: expected an integer in 1..16 (got 17)");
  EXPECT_NE(error_of(with("d_model", 66)).find("d_model: 66 is not divisible by heads (4)"), std::string::npos);
  EXPECT_EQ(error_of(with("d_model", 1024)), "d_model: expected an integer in 8..512 (got 1024)");
  EXPECT_EQ(error_of(with("reps", 1000000000)), "reps: expected an integer in 1..1000 (got 1000000000)");
  EXPECT_EQ(error_of(with("n", "NaN")), "n: expected an integer in 1..256 (got NaN)");
  EXPECT_EQ(error_of(with("n", 2.5)), "n: expected an integer in 1..256 (got 2.5)");
  EXPECT_EQ(error_of(with("n", 0)), "n: expected an integer in 1..256 (got 0)");
  EXPECT_EQ(error_of(with("n", 257)), "n: expected an integer in 1..256 (got 257)");
  EXPECT_EQ(error_of(without("heads")), "heads: expected an integer in 1..16");
  EXPECT_NE(error_of(with("size", 3)).find("size: unknown field"), std::string::npos);
  EXPECT_TRUE(call(without("reps"))["ok"].get<bool>()) << "reps has a default";
}

TEST_F(BenchmarkApiTest, LessonBenchmarkTimesOneEditOnTheLessonModel) {
  const json r = call({{"op", "benchmarkLesson"}, {"reps", 3}});
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
  const json& result = r["result"];
  EXPECT_EQ(result["n"], 32);
  EXPECT_EQ(result["d_model"], 128);
  EXPECT_EQ(result["heads"], 8);
  EXPECT_EQ(result["layers"], 2);
  EXPECT_FALSE(result["has_gold"].get<bool>());
  // A drag step in layer 0 draws layer 0 only; layer 1 catches up when the drag pauses.
  EXPECT_EQ(result["heads_rescored"], 1) << "the edited head";
  EXPECT_EQ(result["layers_recomputed"], 1);
  EXPECT_GT(result["with_catch_up"]["median_ms"].get<double>(), 0.0);
  EXPECT_GT(result["median_ms"].get<double>(), 0.0);
  EXPECT_GT(result["parts"]["forward_ms"].get<double>(), 0.0);
  EXPECT_GT(result["parts"]["analysis_ms"].get<double>(), 0.0);

  const json last_layer = call({{"op", "benchmarkLesson"}, {"reps", 2}, {"layer", 1}});
  ASSERT_TRUE(last_layer["ok"].get<bool>()) << last_layer.dump();
  EXPECT_EQ(last_layer["result"]["heads_rescored"], 1) << "an edit in the last layer rescores that head only";
  EXPECT_EQ(last_layer["result"]["edited_layer"], 1);

  const json gold = call({{"op", "benchmarkLesson"}, {"reps", 2}, {"gold", true}});
  ASSERT_TRUE(gold["ok"].get<bool>()) << gold.dump();
  EXPECT_EQ(gold["result"]["n"], 16);
  EXPECT_TRUE(gold["result"]["has_gold"].get<bool>());

  EXPECT_EQ(error_of({{"op", "benchmarkLesson"}, {"reps", 0}}), "reps: expected an integer in 1..1000 (got 0)");
  EXPECT_EQ(error_of({{"op", "benchmarkLesson"}, {"gold", 1}}), "gold: expected true or false (got 1)");
  EXPECT_EQ(error_of({{"op", "benchmarkLesson"}, {"layer", 2}}), "layer: expected an integer in 0..1 (got 2)");
}

TEST_F(BenchmarkApiTest, LessonBenchmarkAlsoTimesTheLargestModelTheUiAllows) {
  const json r = call({{"op", "benchmarkLesson"}, {"reps", 1}, {"size", "largest"}});
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
  const json& result = r["result"];
  EXPECT_EQ(result["n"], 64) << "the text is cut at the lab's 64 tokens";
  EXPECT_EQ(result["d_model"], 512);
  EXPECT_EQ(result["heads"], 16);
  EXPECT_EQ(result["layers"], 6);
  // The drag step computes layer 0; the 5 later layers wait for the drag to pause.
  EXPECT_EQ(result["heads_rescored"], 1);
  EXPECT_EQ(result["layers_recomputed"], 1);
  EXPECT_GT(result["with_catch_up"]["median_ms"].get<double>(), 0.0);
  EXPECT_EQ(error_of({{"op", "benchmarkLesson"}, {"size", "huge"}}),
            "size: expected one of \"lesson\", \"largest\" (got \"huge\")");
  EXPECT_EQ(error_of({{"op", "benchmarkLesson"}, {"size", "largest"}, {"layer", 6}}),
            "layer: expected an integer in 0..5 (got 6)");
}

TEST_F(BenchmarkApiTest, AnalysisBenchmarkRecomputesEveryHeadOfFourLayersOfSixteen) {
  const json r = call({{"op", "benchmarkAnalysis"}, {"reps", 2}});
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
  const json& result = r["result"];
  EXPECT_EQ(result["n"], 32);
  EXPECT_EQ(result["d_model"], 64);
  EXPECT_EQ(result["layers"], 4);
  EXPECT_EQ(result["heads"], 16);
  EXPECT_EQ(result["change"], "every_head");
  EXPECT_EQ(result["heads_rescored"], 64) << "the budget's case: every head of every layer is new";
  EXPECT_FALSE(result["has_gold"].get<bool>());
  EXPECT_GT(result["median_ms"].get<double>(), 0.0);
  EXPECT_GT(result["parts"]["redundancy_ms"].get<double>(), 0.0);
  EXPECT_GT(result["parts"]["importance_ms"].get<double>(), 0.0);

  const json one = call({{"op", "benchmarkAnalysis"}, {"reps", 2}, {"change", "one_head"}, {"d_model", 128}});
  ASSERT_TRUE(one["ok"].get<bool>()) << one.dump();
  EXPECT_EQ(one["result"]["heads_rescored"], 1);
  EXPECT_EQ(one["result"]["d_model"], 128);

  const json gold = call({{"op", "benchmarkAnalysis"}, {"reps", 1}, {"gold", true}});
  ASSERT_TRUE(gold["ok"].get<bool>()) << gold.dump();
  EXPECT_EQ(gold["result"]["n"], 16);
  EXPECT_TRUE(gold["result"]["has_gold"].get<bool>());

  EXPECT_EQ(error_of({{"op", "benchmarkAnalysis"}, {"d_model", 72}}),
            "d_model: expected a multiple of 16 (the workload has 16 heads per layer; got 72)");
  EXPECT_EQ(error_of({{"op", "benchmarkAnalysis"}, {"d_model", 8}}), "d_model: expected an integer in 16..512 (got 8)");
  EXPECT_EQ(error_of({{"op", "benchmarkAnalysis"}, {"change", "all"}}), "change: expected one of \"every_head\", \"one_head\" (got \"all\")");
  EXPECT_EQ(error_of({{"op", "benchmarkAnalysis"}, {"layer", 0}}), "layer: unknown field (benchmarkAnalysis takes reps, d_model, gold, change)");
}

}  // namespace
}  // namespace headlab::app
