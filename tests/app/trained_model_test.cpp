// The shipped trained model in the lab (LoadTrainedModel) and what held-out lesson goals read of
// it: the numbers lessons 19 and 20 state are checked here, so their text cannot drift from the
// model. Plus the live goal numbers the lesson panel shows for every numeric goal kind.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/controller.h"
#include "app/held_out_labels.h"
#include "app/pruning_curve.h"
#include "engine/training/evaluation.h"
#include "lessons/goal.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

lessons::HeldOutMeasures measures(const AppState& state) {
  const Model& model = state.document.model;
  return measure_held_out(model, test_resources().grammar,
                          training::held_out_sentences(test_resources().grammar, kHeldOutSeed, kHeldOutCount, model.special_tokens));
}

lessons::Goal goal(const char* json_text) {
  Result<lessons::Goal> parsed = lessons::parse_goal(nlohmann::json::parse(json_text), "goal");
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.ok() ? std::move(parsed).value() : lessons::Goal{};
}

class TrainedModel : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(controller.apply(LoadTrainedModel{}).ok()); }
  AppState state;
  Controller controller{state, test_resources()};
};

TEST_F(TrainedModel, ArrivesOnAnAnnotatedSentenceOfItsVocabularyAndUndoes) {
  EXPECT_TRUE(trained_on_grammar(state.document.model, test_resources().grammar));
  EXPECT_EQ(state.document.input.text, "The dog with the red ball sleeps.");
  EXPECT_EQ(state.document.model.layers.size(), 2u);
  ASSERT_TRUE(controller.undo());
  EXPECT_FALSE(trained_on_grammar(state.document.model, test_resources().grammar));
}

TEST_F(TrainedModel, PruningTheLessonsThreeHeadsStaysWithinTheBoundAndNoOtherThreeDo) {
  EXPECT_NEAR(measures(state).loss, 0.93, 0.005);
  // Every set of three heads: only L0H1, L1H2, L1H3 stays at or below 1.05 (lesson 19's hint).
  std::vector<std::vector<int>> within;
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b)
      for (int c = b + 1; c < 8; ++c) {
        for (const int x : {a, b, c}) ASSERT_TRUE(controller.apply(SetPruned{x / 4, x % 4, true}).ok());
        if (measures(state).loss <= 1.05) within.push_back({a, b, c});
        for (int i = 0; i < 3; ++i) controller.undo();
      }
  EXPECT_EQ(within, (std::vector<std::vector<int>>{{1, 6, 7}}));
  // The curve prunes them first (held-out ablation order), for 0.92, 0.92 and 1.01.
  const PruningCurve curve = pruning_curve(state, test_resources(), 5);
  ASSERT_GE(curve.importance_order.size(), 3u);
  EXPECT_EQ(curve.importance_order[0], std::make_pair(0, 1));
  EXPECT_EQ(curve.importance_order[1], std::make_pair(1, 2));
  EXPECT_EQ(curve.importance_order[2], std::make_pair(1, 3));
  EXPECT_NEAR(curve.importance[3], 1.01, 0.01);
  EXPECT_NEAR(curve.importance[4], 1.33, 0.01);
  EXPECT_NEAR(curve.random_mean[3], 1.41, 0.01);
}

TEST_F(TrainedModel, PositionsAndTheCausalMaskMoveTheLayerProfileAsLesson20Says) {
  const lessons::HeldOutMeasures trained = measures(state);
  ASSERT_EQ(trained.spreads.size(), 2u);
  EXPECT_NEAR(trained.spreads[0].distance, 2.29, 0.01);
  EXPECT_NEAR(trained.spreads[0].entropy, 0.25, 0.01);
  EXPECT_NEAR(trained.spreads[1].distance, 3.45, 0.01);
  EXPECT_NEAR(trained.spreads[1].entropy, 1.89, 0.01);
  EXPECT_NEAR(trained.spreads[0].uniform_entropy, 2.46, 0.01);

  ASSERT_TRUE(controller.apply(SetPositional{Positional::none}).ok());
  const lessons::HeldOutMeasures no_positions = measures(state);
  EXPECT_NEAR(no_positions.spreads[0].entropy, 1.95, 0.01);
  EXPECT_NEAR(no_positions.spreads[0].distance, 4.03, 0.01);
  EXPECT_NEAR(no_positions.loss, 5.15, 0.01);
  controller.undo();

  ASSERT_TRUE(controller.apply(SetCausal{true}).ok());
  const lessons::HeldOutMeasures causal = measures(state);
  EXPECT_NEAR(causal.spreads[1].distance, 2.53, 0.01);
  EXPECT_NEAR(causal.spreads[0].distance, 2.08, 0.01);
  EXPECT_NEAR(causal.spreads[0].uniform_entropy, 1.65, 0.01);
  EXPECT_NEAR(causal.loss, 8.53, 0.01);
}

TEST_F(TrainedModel, HeldOutGoalsReadTheModelOnTheHeldOutSentences) {
  const lessons::HeldOutMeasures held_out = measures(state);
  const lessons::Goal loss = goal(R"({"kind": "held_out", "measure": "loss", "max": 1.0})");
  const lessons::Goal entropy = goal(R"({"kind": "held_out", "measure": "entropy", "layer": 1, "min": 1.5})");
  const lessons::Goal distance = goal(R"({"kind": "held_out", "measure": "distance", "layer": 0, "max": 2.0})");
  lessons::GoalView view{state.document.model, state.input.tokens, state.trace, state.analysis};
  EXPECT_FALSE(lessons::goal_met(loss, view)) << "never met without a reading";
  view.held_out = &held_out;
  EXPECT_TRUE(lessons::goal_met(loss, view));
  EXPECT_TRUE(lessons::goal_met(entropy, view));
  EXPECT_FALSE(lessons::goal_met(distance, view));
  const std::vector<lessons::GoalNumber> numbers = lessons::goal_numbers(distance, view);
  ASSERT_EQ(numbers.size(), 1u);
  EXPECT_DOUBLE_EQ(numbers[0].value, held_out.spreads[0].distance);
  EXPECT_FALSE(numbers[0].holds);
  EXPECT_FALSE(lessons::parse_goal(nlohmann::json::parse(R"({"kind": "held_out", "measure": "speed"})"), "g").ok());
  EXPECT_FALSE(lessons::parse_goal(nlohmann::json::parse(R"({"kind": "d_k", "layer": -1, "min": 2})"), "g").ok());
}

TEST(GoalNumbers, EveryNumericGoalShowsItsValueAndTheHeadClosestToIt) {
  AppState state;
  Controller controller(state, test_resources());
  ASSERT_TRUE(controller.apply(ApplyPreset{0, 2, "previous_token"}).ok());
  ASSERT_TRUE(controller.apply(SetPruned{0, 1, true}).ok());
  const lessons::Goal g = goal(R"({"kind": "all", "goals": [
      {"kind": "attention", "layer": 0, "head": -1, "from": "lazy", "to": "the", "min": 0.6},
      {"kind": "pruned", "layer": -1, "min": 2},
      {"kind": "head_count", "layer": 0, "min": 4, "max": 4},
      {"kind": "label", "layer": 0, "label": "previous_token"},
      {"kind": "not", "goal": {"kind": "d_k", "layer": 0, "max": 1}}]})");
  const lessons::GoalView view{state.document.model, state.input.tokens, state.trace, state.analysis};
  const std::vector<lessons::GoalNumber> numbers = lessons::goal_numbers(g, view);
  ASSERT_EQ(numbers.size(), 3u) << "labels and negations show no number";
  // "lazy" attends to the "the" before it most in the previous-token head.
  EXPECT_EQ(numbers[0].head, 2);
  const Matrix& A = state.trace.layers[0].heads[2].attention;
  EXPECT_DOUBLE_EQ(numbers[0].value, A(7, 6));
  EXPECT_EQ(numbers[0].holds, A(7, 6) >= 0.6);
  EXPECT_EQ(numbers[1].value, 1.0);
  EXPECT_FALSE(numbers[1].holds);
  EXPECT_EQ(numbers[2].value, 4.0);
  EXPECT_TRUE(numbers[2].holds);
}

}  // namespace
}  // namespace headlab::app
