// The circuit ops of window.headlab: what they return matches the engine's circuits of the lab's
// model, and bad indices are refused by name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../app/test_resources.h"
#include "api/api.h"
#include "app/controller.h"
#include "engine/analysis/circuits.h"

namespace headlab::api {
namespace {

using nlohmann::json;

class CircuitsApiTest : public ::testing::Test {
 protected:
  json call(const json& request) { return json::parse(handle_request(controller, request.dump())); }
  app::AppState state;
  app::Controller controller{state, app::test_resources()};
};

TEST_F(CircuitsApiTest, CircuitsOfTheSelectedModelsHead) {
  const Model& model = state.document.model;
  const json reply = call({{"op", "circuits"}, {"layer", 0}, {"head", 1}});
  ASSERT_TRUE(reply["ok"]) << reply.dump();
  const json& r = reply["result"];
  const Matrix qk = analysis::qk_circuit(model, 0, 1);
  ASSERT_EQ(r["qk"].size(), static_cast<std::size_t>(model.d_model));
  ASSERT_EQ(r["ov"][0].size(), static_cast<std::size_t>(model.d_model));
  EXPECT_FLOAT_EQ(r["qk"][3][5].get<float>(), qk(3, 5));
  EXPECT_EQ(r["feature_names"].size(), static_cast<std::size_t>(model.d_model));
  EXPECT_GE(r["copying_score"].get<double>(), -1.0);
  EXPECT_LE(r["copying_score"].get<double>(), 1.0);
}

TEST_F(CircuitsApiTest, CompositionNeedsTwoLayersAndNamesBadIndices) {
  EXPECT_EQ(call({{"op", "composition"}})["error"], "composition needs two layers (this model has one)");
  ASSERT_TRUE(call({{"op", "setLayerCount"}, {"count", 3}})["ok"]);
  const json reply = call({{"op", "composition"}, {"layer_a", 0}, {"layer_b", 2}});
  ASSERT_TRUE(reply["ok"]) << reply.dump();
  const int heads = state.document.model.layers[0].head_count();
  EXPECT_EQ(reply["result"]["k"].size(), static_cast<std::size_t>(heads));
  EXPECT_GT(reply["result"]["baseline"]["k"].get<double>(), 0.0);
  EXPECT_TRUE(call({{"op", "composition"}})["ok"]);  // layers 0 and 1 by default
  EXPECT_EQ(call({{"op", "composition"}, {"layer_a", 1}, {"layer_b", 1}})["error"],
            "layer_b: expected an integer in 2..2 (got 1)");
  EXPECT_EQ(call({{"op", "circuits"}, {"layer", 0}, {"head", 99}})["error"],
            "head: expected an integer in 0.." + std::to_string(heads - 1) + " (got 99)");
  EXPECT_EQ(call({{"op", "circuits"}, {"layer", 0}})["error"],
            "head: expected an integer in 0.." + std::to_string(heads - 1));
}

}  // namespace
}  // namespace headlab::api
