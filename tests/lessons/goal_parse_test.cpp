// Goals are parsed strictly into typed values: each refusal names the lesson, the step and the
// JSON path, and what a goal reads (matrix, row, bounds) is what its file says.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "app/action.h"
#include "app/controller.h"
#include "app/lesson_runner.h"
#include "engine/analysis/redundancy.h"
#include "engine/embedding.h"
#include "engine/training/text_evaluation.h"
#include "lessons/goal.h"
#include "lessons/lesson.h"
#include "../app/test_resources.h"

namespace headlab::lessons {
namespace {

using nlohmann::json;

const json kBoth = {{"en", "x"}, {"zh", "x"}};

// A lesson "demo" of two steps whose second step has `goal`; the error parse_lesson gives, or "".
std::string lesson_error(const json& goal) {
  const json open = {{"kind", "head_count"}, {"layer", 0}, {"min", 1}};
  const auto step = [&](const json& g) { return json{{"title", kBoth}, {"text", kBoth}, {"goal_text", kBoth}, {"goal", g}}; };
  const json lesson = {{"format", "headlab-lesson"}, {"id", "demo"},   {"title", kBoth},
                       {"summary", kBoth},           {"steps", {step(open), step(goal)}}};
  Result<Lesson> parsed = parse_lesson(lesson.dump());
  return parsed.ok() ? "" : parsed.error();
}

Goal parsed(const json& goal) {
  Result<Goal> g = parse_goal(goal, "goal");
  EXPECT_TRUE(g.ok()) << g.error();
  return g.ok() ? std::move(g).value() : Goal{};
}

const json kWeight = {{"kind", "weight"}, {"layer", 0}, {"head", 0}, {"matrix", "W_K"}, {"row", "noun"}, {"col", 0}, {"min", 1}};

json with(json goal, const char* key, const json& value) {
  goal[key] = value;
  return goal;
}

TEST(GoalParse, AWeightGoalReadsTheMatrixAndRowItNames) {
  const Goal g = parsed(kWeight);
  EXPECT_EQ(g.matrix, GoalMatrix::W_K);
  EXPECT_EQ(g.row, feature_index("noun"));
  EXPECT_EQ(g.row_name, "noun");
  EXPECT_EQ(parsed(with(kWeight, "matrix", "W_O")).matrix, GoalMatrix::W_O);
  EXPECT_EQ(parsed(with(kWeight, "row", 3)).row, 3);
  const Goal training = parsed({{"kind", "training"}, {"task", "induction"}, {"role", "distinct_roles"}, {"min", 2}});
  EXPECT_EQ(training.training_task, training::Task::induction);
  EXPECT_EQ(training.training_role, TrainingRole::distinct_roles);
  EXPECT_EQ(parsed({{"kind", "held_out"}, {"measure", "entropy"}, {"layer", 1}, {"min", 1}}).measure, HeldOutMeasure::entropy);
  EXPECT_EQ(parsed({{"kind", "score"}, {"layer", 0}, {"role", "broad"}, {"max", 0.5}}).role, analysis::Role::broad);
}

// Used to read W_V for any name but W_Q, W_K and W_O.
TEST(GoalParse, RefusesAnUnknownMatrix) {
  EXPECT_EQ(lesson_error(with(kWeight, "matrix", "W_X")),
            "demo.steps[1].goal.matrix: unknown matrix \"W_X\" (expected W_Q, W_K, W_V or W_O)");
  EXPECT_EQ(lesson_error({{"kind", "all"}, {"goals", {kWeight, with(kWeight, "matrix", "w_q")}}}),
            "demo.steps[1].goal.goals[1].matrix: unknown matrix \"w_q\" (expected W_Q, W_K, W_V or W_O)");
}

// Used to become row 0 (atoi of a name).
TEST(GoalParse, RefusesAnUnknownRow) {
  EXPECT_EQ(lesson_error(with(kWeight, "row", "nuon")),
            "demo.steps[1].goal.row: unknown row \"nuon\" (expected a feature name such as \"noun\", or a row index)");
  EXPECT_EQ(lesson_error(with(kWeight, "row", -1)), "demo.steps[1].goal.row: expected an integer in 0..511 (got -1)");
}

// Used to be ignored: a misspelt bound made a goal that always held.
TEST(GoalParse, RefusesAnUnknownField) {
  EXPECT_EQ(lesson_error(with(kWeight, "mni", 1)),
            "demo.steps[1].goal.mni: unknown field \"mni\" (a weight goal takes layer, head, matrix, row, col, min or max)");
  EXPECT_EQ(lesson_error({{"kind", "not"}, {"goal", {{"kind", "pruned"}, {"layer", 0}, {"min", 1}, {"head", 2}}}}),
            "demo.steps[1].goal.goal.head: unknown field \"head\" (a pruned goal takes layer, min or max)");
}

// A lesson about a head of GPT-2 names one head; "some head of the layer" would be any head.
TEST(GoalParse, ACheckpointHeadGoalNamesOneHead) {
  EXPECT_EQ(lesson_error({{"kind", "checkpoint_head"}, {"layer", 4}, {"head", -1}}), "demo.steps[1].goal.head: needs a head");
  EXPECT_EQ(lesson_error({{"kind", "checkpoint_head"}, {"layer", 4}, {"head", 11}, {"min", 1}}),
            "demo.steps[1].goal.min: unknown field \"min\" (a checkpoint_head goal takes layer or head)");
}

TEST(GoalParse, RefusesMinAndMinScoreTogether) {
  const json label = {{"kind", "label"}, {"layer", 0}, {"head", 0}, {"label", "self"}, {"min", 0.2}, {"min_score", 0.8}};
  EXPECT_EQ(lesson_error(label), "demo.steps[1].goal.min_score: give min or min_score, not both");
}

// The names of every other closed vocabulary, refused with what was expected.
TEST(GoalParse, RefusesUnknownNamesWithWhatWasExpected) {
  struct Case {
    json goal;
    const char* error;
  };
  const Case cases[] = {
      {{{"kind", "lable"}},
       "demo.steps[1].goal.kind: unknown goal kind \"lable\" (expected label, attention, score, distance, head_count, pruned, "
       "weight, d_k, output_block, probe, training, held_out, checkpoint_head, sink, all, any or not)"},
      {{{"kind", "sink"}, {"layer", 0}, {"measure", "first"}},
       "demo.steps[1].goal.measure: unknown sink measure \"first\" (expected \"first_token\" or \"punctuation\")"},
      {{{"kind", "sink"}, {"layer", 0}, {"measure", "first_token"}, {"trained_with", "softmax1"}},
       "demo.steps[1].goal.trained_with: unknown attention normalisation \"softmax1\" (expected \"softmax\", "
       "\"softmax_plus_one\" or \"sigmoid\")"},
      {{{"kind", "training"}, {"task", "grammer"}, {"role", "induction"}},
       "demo.steps[1].goal.task: unknown task \"grammer\" (expected \"grammar\", \"induction\" or \"lm\")"},
      {{{"kind", "training"}, {"task", "grammar"}, {"role", "syntax"}},
       "demo.steps[1].goal.role: unknown training role \"syntax\" (expected \"induction\", \"previous_token\", "
       "\"duplicate_token\", \"first_token\", \"distinct_roles\", \"steps\" or \"experiment_head_counts\")"},
      {{{"kind", "held_out"}, {"measure", "perplexity"}},
       "demo.steps[1].goal.measure: unknown measure \"perplexity\" (expected \"loss\", \"distance\" or \"entropy\")"},
      {{{"kind", "probe"}, {"layer", 0}, {"head", 0}, {"task", "tags"}},
       "demo.steps[1].goal.task: unknown probe task \"tags\" (expected \"pos\" or \"previous_pos\")"},
      {{{"kind", "score"}, {"layer", 0}, {"role", "syntactic:nsubj"}}, "demo.steps[1].goal.role: unknown role \"syntactic:nsubj\""},
      {{{"kind", "label"}, {"layer", 0}, {"label", "previus_token"}}, "demo.steps[1].goal.label: unknown label \"previus_token\""},
      {{{"kind", "weight"}, {"layer", 0}, {"head", 0}, {"row", "noun"}}, "demo.steps[1].goal.matrix: missing"},
      {{{"kind", "attention"}, {"layer", 0}, {"from", "fox"}}, "demo.steps[1].goal.to: missing"},
      {{{"kind", "label"}, {"layer", 0}, {"label", "previous_token"}, {"selected", "yes"}},
       "demo.steps[1].goal.selected: expected true or false"},
  };
  for (const Case& c : cases) EXPECT_EQ(lesson_error(c.goal), c.error) << c.goal.dump();
}

// Reading goals against the lab's state as it starts.
class GoalReading : public ::testing::Test {
 protected:
  const app::Resources& resources = app::test_resources();
  app::AppState state;
  app::Controller controller{state, resources};
  GoalView view() const { return GoalView{state.document.model, state.input.tokens, state.trace, state.analysis}; }
};

// A label goal with only a max used to ignore it (the label alone met the goal).
TEST_F(GoalReading, ALabelGoalWithOnlyAMaxHoldsItsScoreToIt) {
  int head = -1;
  const analysis::LayerAnalysis& layer = state.analysis.layers[0];
  for (int h = 0; h < static_cast<int>(layer.heads.size()) && head < 0; ++h)
    if (!layer.heads[h].label.mixed()) head = h;
  ASSERT_GE(head, 0) << "the default model has a labelled head in layer 0";
  const analysis::HeadAnalysis& a = layer.heads[head];
  const double score = a.scores.score(*a.label.role);
  const json goal = {{"kind", "label"}, {"layer", 0}, {"head", head}, {"label", a.label.text()}};
  EXPECT_TRUE(goal_met(parsed(goal), view()));
  EXPECT_TRUE(goal_met(parsed(with(goal, "max", score + 0.01)), view()));
  EXPECT_FALSE(goal_met(parsed(with(goal, "max", score - 0.01)), view())) << a.label.text() << " " << score;
  EXPECT_FALSE(goal_met(parsed(with(goal, "min", score + 0.01)), view()));
}

// A sink goal reads the Labels tab's grid (training::sink_shares); "trained_with" asks for a model
// trained in the page with that normalisation, which the starting lab's is not.
TEST_F(GoalReading, ASinkGoalReadsTheFirstTokenShareOfTheLabsSentence) {
  const std::vector<training::TextHeadScores> sinks = training::sink_shares(state.trace, state.input.tokens);
  ASSERT_GE(sinks.size(), 2u);
  const float first = sinks[1].first_token;  // layer 0, head 1
  const json goal = {{"kind", "sink"}, {"layer", 0}, {"head", 1}, {"measure", "first_token"}};
  EXPECT_TRUE(goal_met(parsed(with(goal, "min", first - 0.01)), view()));
  EXPECT_FALSE(goal_met(parsed(with(goal, "min", first + 0.01)), view()));
  const json punctuation = {{"kind", "sink"}, {"layer", 0}, {"head", 1}, {"measure", "punctuation"}, {"min", sinks[1].punctuation - 0.01}};
  EXPECT_TRUE(goal_met(parsed(punctuation), view()));
  EXPECT_FALSE(goal_met(parsed(with(with(goal, "min", first - 0.01), "trained_with", "softmax")), view()))
      << "the starting model was not trained in the page";
  state.document.model.vocab = {"[UNK]", "a"};  // as a model trained in the page has
  EXPECT_TRUE(goal_met(parsed(with(with(goal, "min", first - 0.01), "trained_with", "softmax")), view()));
  EXPECT_FALSE(goal_met(parsed(with(with(goal, "min", first - 0.01), "trained_with", "sigmoid")), view()));
}

// "selected": the guess counts only on the head the learner clicked.
TEST_F(GoalReading, ASelectedLabelGoalReadsOnlyTheSelectedHead) {
  const analysis::LayerAnalysis& layer = state.analysis.layers[0];
  int head = -1;
  for (int h = 0; h < static_cast<int>(layer.heads.size()) && head < 0; ++h)
    if (!layer.heads[h].label.mixed()) head = h;
  ASSERT_GE(head, 0);
  ASSERT_GE(layer.heads.size(), 2u);
  const std::string label = layer.heads[head].label.text();
  const Goal any_head = parsed({{"kind", "label"}, {"layer", 0}, {"head", -1}, {"label", label}, {"selected", true}});
  const Goal this_head = parsed({{"kind", "label"}, {"layer", 0}, {"head", head}, {"label", label}, {"selected", true}});
  GoalView v = view();
  v.selected_layer = 0;
  v.selected_head = head;
  EXPECT_TRUE(goal_met(any_head, v));
  EXPECT_TRUE(goal_met(this_head, v));
  v.selected_head = (head + 1) % static_cast<int>(layer.heads.size());
  EXPECT_FALSE(goal_met(this_head, v)) << "another head is selected";
  v.selected_layer = 1;
  v.selected_head = head;
  EXPECT_FALSE(goal_met(any_head, v)) << "a head of another layer is selected";
  v.selected_layer = -1;
  EXPECT_FALSE(goal_met(any_head, v)) << "nothing is selected";
}

// The panel's number for a guess is the selected head's, never the head that would meet it.
TEST_F(GoalReading, AGuessShowsOnlyTheSelectedHeadsNumber) {
  ASSERT_GE(state.input.tokens.size(), 2u);
  const Goal goal = parsed({{"kind", "attention"}, {"layer", 0}, {"head", -1}, {"from", 1}, {"to", 0}, {"min", 0.99}, {"selected", true}});
  GoalView v = view();
  v.selected_layer = 0;
  v.selected_head = 1;
  std::vector<GoalNumber> numbers = goal_numbers(goal, v);
  ASSERT_EQ(numbers.size(), 1u);
  EXPECT_EQ(numbers[0].head, 1);
  EXPECT_FLOAT_EQ(numbers[0].value, state.trace.layers[0].heads[1].attention(1, 0));
  v.selected_layer = 1;
  numbers = goal_numbers(goal, v);
  ASSERT_EQ(numbers.size(), 1u);
  EXPECT_EQ(numbers[0].head, -1);
  EXPECT_TRUE(std::isnan(numbers[0].value));
}

TEST_F(GoalReading, AWeightGoalReadsItsOwnMatrix) {
  const int noun = feature_index("noun");
  ASSERT_TRUE(controller.apply(app::SetWeight{0, 0, app::WeightMatrix::W_K, noun, 0, 7.0}).ok());
  ASSERT_TRUE(controller.apply(app::SetWeight{0, 0, app::WeightMatrix::W_V, noun, 0, -7.0}).ok());
  const json goal = with(with(kWeight, "min", 6.5), "max", 7.5);
  EXPECT_TRUE(goal_met(parsed(goal), view()));
  EXPECT_FALSE(goal_met(parsed(with(goal, "matrix", "W_V")), view()));
  EXPECT_FALSE(goal_met(parsed(with(goal, "row", noun + 1)), view()));
}

// The analysis carries no redundancy: a distance goal computes its layer's with the lab's thresholds,
// the numbers the Labels tab shows, and without thresholds is never met.
TEST_F(GoalReading, ADistanceGoalComputesTheLayersRedundancy) {
  ASSERT_TRUE(controller.apply(app::ApplyPreset{0, 0, "previous_token"}).ok());
  ASSERT_TRUE(controller.apply(app::ApplyPreset{0, 1, "previous_token"}).ok());
  const analysis::LayerRedundancy expected =
      analysis::layer_redundancy(state.trace.layers[0], state.document.model.causal, resources.analysis.config);
  const Goal same = parsed({{"kind", "distance"}, {"layer", 0}, {"head_a", 0}, {"head_b", 1}, {"max", 0.1}});
  const Goal apart = parsed({{"kind", "distance"}, {"layer", 0}, {"head_a", 0}, {"head_b", 2}, {"max", 0.1}});
  GoalView v = view();
  v.label_config = &resources.analysis.config;
  EXPECT_TRUE(goal_met(same, v));
  std::vector<GoalNumber> numbers = goal_numbers(apart, v);
  ASSERT_EQ(numbers.size(), 1u);
  EXPECT_EQ(numbers[0].value, expected.distance(0, 2));
  EXPECT_EQ(goal_met(apart, v), expected.distance(0, 2) <= 0.1f);
  EXPECT_EQ(goal_numbers(same, v)[0].value, expected.distance(0, 1));
  EXPECT_FALSE(goal_met(same, view())) << "no thresholds to compute with";
}

// The lab checks the redundancy lesson's goal with its thresholds: the panel's number is the
// distance the Labels tab shows, and copying the head meets the goal.
TEST_F(GoalReading, TheRedundancyLessonReadsTheDistanceOnDemand) {
  int lesson = -1;
  for (std::size_t i = 0; i < resources.lessons.size(); ++i)
    if (resources.lessons[i].id == "12-redundancy-pruning") lesson = static_cast<int>(i);
  ASSERT_GE(lesson, 0);
  ASSERT_EQ(app::start_step(controller, lesson, 0), "");
  const auto distance = [&] {
    return analysis::layer_redundancy(state.trace.layers[0], state.document.model.causal, resources.analysis.config).distance(0, 1);
  };
  ASSERT_EQ(state.progress.numbers.size(), 1u);
  EXPECT_EQ(state.progress.numbers[0].value, distance());
  EXPECT_FALSE(state.progress.goal_met);
  ASSERT_TRUE(controller.apply(app::ApplyPreset{0, 1, "previous_token"}).ok());
  EXPECT_EQ(state.progress.numbers[0].value, distance());
  EXPECT_TRUE(state.progress.goal_met);
}

}  // namespace
}  // namespace headlab::lessons
