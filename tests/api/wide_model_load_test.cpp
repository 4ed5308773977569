// Model files at the wide end of the documented ranges go through the same path a share link or an
// imported file takes in the page: loadModel, then state. Run natively and, in the web-test build,
// as WebAssembly under SAFE_HEAP, where a d_model of 124 or more used to trap.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "api/api.h"
#include "../app/test_resources.h"

namespace headlab::app {
namespace {

using nlohmann::json;

json random_matrix(std::mt19937& rng, int rows, int cols) {
  std::normal_distribution<float> normal(0.0f, 0.3f);
  json m = json::array();
  for (int r = 0; r < rows; ++r) {
    json row = json::array();
    for (int c = 0; c < cols; ++c) row.push_back(normal(rng));
    m.push_back(std::move(row));
  }
  return m;
}

// One layer, explicit X, no residual, norm or FFN: the model of the bug report.
json explicit_x_model(int d_model, int head_count, int token_count, unsigned seed) {
  std::mt19937 rng(seed);
  const int d_k = d_model / head_count;
  json heads = json::array();
  for (int h = 0; h < head_count; ++h)
    heads.push_back({{"W_Q", random_matrix(rng, d_model, d_k)},
                     {"W_K", random_matrix(rng, d_model, d_k)},
                     {"W_V", random_matrix(rng, d_model, d_k)}});
  return {{"format", "headlab-model"},
          {"version", 1},
          {"d_model", d_model},
          {"embedding", "random"},
          {"X", random_matrix(rng, token_count, d_model)},
          {"causal", false},
          {"layers", json::array({{{"heads", heads},
                                   {"W_O", random_matrix(rng, head_count * d_k, d_model)},
                                   {"residual", false},
                                   {"norm", "none"},
                                   {"ffn", nullptr}}})}};
}

struct WideCase {
  int d_model, head_count, token_count;
};

class WideModelLoad : public ::testing::TestWithParam<WideCase> {};

TEST_P(WideModelLoad, LoadsAndReportsState) {
  AppState state;
  Controller controller(state, test_resources());
  const WideCase c = GetParam();
  const json request = {{"op", "loadModel"}, {"json", explicit_x_model(c.d_model, c.head_count, c.token_count, 7).dump()}};
  const json loaded = json::parse(api::handle_request(controller, request.dump()));
  ASSERT_TRUE(loaded.value("ok", false)) << loaded.dump();
  const json reply = json::parse(api::handle_request(controller, R"({"op":"state"})"));
  ASSERT_TRUE(reply.value("ok", false)) << reply.dump();
  const json& model = reply["result"];
  EXPECT_EQ(state.trace.layers.at(0).heads.size(), static_cast<std::size_t>(c.head_count));
  EXPECT_EQ(state.input.X.rows(), c.token_count);
  EXPECT_FALSE(model.is_null());
  // Further requests still work: the module is alive.
  const json text = json::parse(api::handle_request(controller, R"({"op":"setText","text":"The cat sat."})"));
  EXPECT_TRUE(text.contains("ok")) << text.dump();
}

INSTANTIATE_TEST_SUITE_P(ReportedSizes, WideModelLoad,
                         ::testing::Values(WideCase{120, 4, 10}, WideCase{124, 4, 10}, WideCase{128, 4, 10},
                                           WideCase{128, 8, 33}, WideCase{256, 8, 33}, WideCase{512, 16, 66}));

}  // namespace
}  // namespace headlab::app
