// The pruning curve (Michel et al. 2019): its first point is the model as it is, its last point
// has every head pruned whatever the order, and on the shipped trained model (seed 1) pruning in
// importance order costs less held-out loss than pruning in random order. Plus the layer
// profile reply of the API.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <numeric>

#include "api/api.h"
#include "app/controller.h"
#include "app/pruning_curve.h"
#include "engine/assets.h"
#include "engine/model_file.h"
#include "engine/training/evaluation.h"
#include "engine/next_token.h"
#include "gpt2_shaped_checkpoint.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

using nlohmann::json;

TEST(PruningCurve, HandBuiltModelsAreMeasuredByTheChangeOfTheLastLayersOutput) {
  AppState state;
  Controller controller(state, test_resources());
  ASSERT_TRUE(controller.apply(SetLayerCount{2}).ok());
  ASSERT_TRUE(controller.apply(SetPruned{1, 2, true}).ok());
  const PruningCurve curve = pruning_curve(state, test_resources(), 4);
  EXPECT_EQ(curve.measure, PruningMeasure::output_change);
  ASSERT_EQ(curve.importance_order.size(), 7u) << "the unpruned heads";
  for (const auto& [layer, head] : curve.importance_order) EXPECT_FALSE(layer == 1 && head == 2);
  ASSERT_EQ(curve.importance.size(), 8u);
  EXPECT_EQ(curve.importance[0], 0.0f);
  EXPECT_EQ(curve.random_mean[0], 0.0f);
  // Every order ends with the same heads pruned.
  EXPECT_NEAR(curve.random_min.back(), curve.importance.back(), 1e-5);
  EXPECT_NEAR(curve.random_max.back(), curve.importance.back(), 1e-5);
  EXPECT_GT(curve.importance.back(), 0.0f);
  // Least important first: the layer-0 head pruned first is the one the lab ranks lowest there.
  const auto first = curve.importance_order[0];
  for (int h = 0; h < 4; ++h) {
    if (!state.document.model.layers[first.first].heads[h].pruned) {
      EXPECT_LE(state.analysis.layers[first.first].heads[first.second].importance,
                state.analysis.layers[first.first].heads[h].importance);
    }
  }
  EXPECT_EQ(controller.state().document.model.layers[0].heads[0].pruned, false) << "the lab model is untouched";
}

TEST(PruningCurve, ImportanceOrderBeatsRandomOrderOnTheTrainedModel) {
  AppState state;
  Controller controller(state, test_resources());
  const std::optional<std::string> model_text = read_asset("models/trained.json");
  ASSERT_TRUE(model_text);
  ASSERT_TRUE(controller.apply(LoadModel{*model_text}).ok());
  const PruningCurve curve = pruning_curve(state, test_resources(), 5);
  ASSERT_EQ(curve.measure, PruningMeasure::held_out_loss);
  ASSERT_EQ(curve.importance.size(), 9u);
  // The first point is the unpruned model's held-out loss, as the Training tab measures it.
  const std::vector<training::Sentence> held_out =
      training::held_out_sentences(test_resources().grammar, 7, 60, state.document.model.special_tokens);
  EXPECT_FLOAT_EQ(curve.importance[0], training::held_out_loss(state.document.model, test_resources().grammar, held_out,
                                                               training::Objective::masked_token, training::MaskingConfig{}, 7));
  const float importance_area = std::accumulate(curve.importance.begin(), curve.importance.end(), 0.0f);
  const float random_area = std::accumulate(curve.random_mean.begin(), curve.random_mean.end(), 0.0f);
  EXPECT_LT(importance_area, random_area);
  std::printf("trained model, held-out loss by heads pruned (importance / random mean):");
  for (std::size_t k = 0; k < curve.importance.size(); ++k) std::printf(" %.2f/%.2f", curve.importance[k], curve.random_mean[k]);
  std::printf("\n");
}

json call(Controller& controller, const json& request) {
  return json::parse(api::handle_request(controller, request.dump(), nullptr));
}

TEST(PruningCurve, ApiRepliesAndTheLayerProfile) {
  AppState state;
  Controller controller(state, test_resources());
  json r = call(controller, {{"op", "pruningCurve"}, {"random_orders", 2}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["measure"], "output change");
  EXPECT_EQ(r["result"]["order"].size(), 4u);
  EXPECT_EQ(r["result"]["importance"].size(), 5u);
  EXPECT_EQ(r["result"]["random"]["orders"], 2);
  EXPECT_FALSE(call(controller, {{"op", "pruningCurve"}, {"random_orders", 99}})["ok"]);

  ASSERT_TRUE(controller.apply(ApplyPreset{0, 0, "previous_token"}).ok());
  r = call(controller, {{"op", "layerProfile"}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  const json& layer = r["result"][0];
  EXPECT_EQ(layer["heads"], 4);
  EXPECT_GT(layer["mean_distance"].get<double>(), 0.0);
  EXPECT_LE(layer["mean_entropy"].get<double>(), layer["uniform_entropy"].get<double>() + 1e-9);
  double total = 0.0;
  for (const auto& [role, share] : layer["role_shares"].items()) total += share.get<double>();
  EXPECT_NEAR(total, 1.0, 1e-9);
  EXPECT_NEAR(layer["role_shares"].value("previous_token", 0.0), 0.25, 1e-9);
}

// A GPT-2 checkpoint is pruned by its next-token loss on the learner's text, at 13 points of its
// 84 heads with 2 random orders, a measurement at a time; the job measures the model as it was
// when it began, whatever the learner does meanwhile.
TEST(PruningCurve, ACheckpointIsMeasuredByTheLossOnTheTextAPointAtATime) {
  AppState state;
  Controller controller(state, test_resources());
  controller.open_checkpoint(gpt2_shaped_checkpoint(), "model.safetensors");
  const std::vector<int> ids = {464, 2068, 7586, 21831, 18045, 625, 262, 16931, 3290, 13};
  ASSERT_TRUE(controller.apply(SetTokenIds{ids}).ok());
  const Matrix logits = next_token_logits(state.document.model, state.trace);
  double loss = 0.0;
  for (Eigen::Index r = 0; r + 1 < logits.rows(); ++r) loss += row_log_sum_exp(logits, r) - logits(r, ids[r + 1]);
  loss /= static_cast<double>(logits.rows() - 1);
  const PruningCurve whole = pruning_curve(state, test_resources());

  PruningCurveJob job(state, test_resources());
  EXPECT_EQ(job.total(), 13 * 3);
  ASSERT_TRUE(controller.apply(SetPruned{0, 0, true}).ok());  // the learner goes on editing
  int steps = 0;
  while (!job.advance()) {
    ++steps;
    EXPECT_EQ(job.measured(), steps);
  }
  EXPECT_EQ(job.measured(), job.total());
  const PruningCurve& curve = job.curve();
  EXPECT_EQ(curve.measure, PruningMeasure::text_loss);
  EXPECT_EQ(curve.pruned_counts, (std::vector<int>{0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84}));
  EXPECT_EQ(curve.random_orders, 2);
  ASSERT_EQ(curve.importance.size(), 13u);
  EXPECT_NEAR(curve.importance[0], loss, 1e-5 * loss);
  EXPECT_EQ(curve.importance, whole.importance) << "the edit made during the job did not reach it";
  EXPECT_EQ(curve.random_mean, whole.random_mean);
  EXPECT_NEAR(curve.random_min.back(), curve.importance.back(), 1e-5);
}

}  // namespace
}  // namespace headlab::app
