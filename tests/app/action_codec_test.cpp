// The one JSON <-> Action codec (app/action_codec.h): every op round-trips, and decoding is strict
// with messages that name the field, as the JS API and the lesson lint rely on.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/action_codec.h"

namespace headlab::app {
namespace {

using nlohmann::json;

// One action per op, every field away from its default so a decoder that skips a field shows.
std::vector<Action> one_of_each() {
  return {SetText{"The red fox."},
          SetRepeatedSequence{12, 7},
          SetTokenIds{{3, 0, 50256}},
          SetHeadCount{3, std::nullopt},
          SetHeadCount{5, 1},
          SetLayerCount{2},
          SetWeight{1, 2, WeightMatrix::W_V, 3, 1, -2.5},
          SetLine{1, 2, WeightMatrix::W_K, Axis::column, 1, {0.5f, -1.0f, 2.0f}},
          ScaleLine{1, 3, WeightMatrix::W_O, Axis::column, 4, 0.25},
          ZeroOutputBlock{1, 2},
          ZeroOutputBlockAll{1},
          SelectHead{1, 3},
          SetPruned{1, 2, true},
          PruneLeastImportant{1, 2},
          ApplyPreset{1, 2, "previous_token"},
          ResetDocument{},
          ResetModel{},
          SetCausal{true},
          SetSpecialTokens{true},
          SetHeadDim{1, 6, std::nullopt},
          SetHeadDim{1, 6, 4},
          SetDModel{48},
          SetLayerOptions{1, std::nullopt, std::nullopt, std::nullopt},
          SetLayerOptions{1, false, Norm::post, true},
          SetEmbedding{Embedding::random},
          SetEmbedding{Embedding::symbols},
          SetPositional{Positional::learned},
          Randomize{4000000000u},
          ResetHead{1, 2, 77},
          LoadModel{"{\"format\": \"headlab-model\"}"},
          LoadTrainedModel{},
          LoadTextModel{},
          LoadTextModel{AttentionNormalization::sigmoid},
          LoadStartingModel{},
          SetTheme{Theme::light},
          RequestTraining{training::Task::induction, 3, true, true},
          RequestTraining{training::Task::grammar, 2, false, true, AttentionNormalization::sigmoid},
          RequestHeadCountExperiment{false, true},
          PlayTraining{false},
          StepTraining{30},
          NewTrainingRun{std::nullopt, std::nullopt},
          NewTrainingRun{9u, training::Task::induction},
          SetLearningRate{0.0123},
          SetTrainingSpeed{0.25},
          StartProbes{true},
          StartComparison{},
          SetComparisonRunning{false},
          StepComparison{40},
          StartExperiment{},
          SetExperimentRunning{true},
          StepExperiment{500},
          UseTrainedModel{},
          PrepareTraining{},
          SetTrainingInput{3},
          Undo{},
          Redo{},
          GoToLesson{2, 1},
          MoveInLesson{LessonMove::show_me},
          SetLanguage{Language::zh}};
}

TEST(ActionCodec, EveryOpRoundTrips) {
  std::set<std::size_t> covered;
  for (const Action& action : one_of_each()) {
    covered.insert(action.index());
    const json encoded = encode_action(action);
    SCOPED_TRACE(encoded.dump());
    const Result<Action> decoded = decode_action(encoded);
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    EXPECT_EQ(decoded.value().index(), action.index());
    EXPECT_EQ(encode_action(decoded.value()), encoded);
    EXPECT_EQ(encoded["op"], action_op_names()[action.index()]);
  }
  EXPECT_EQ(covered.size(), std::variant_size_v<Action>) << "a new action needs a case here";
}

TEST(ActionCodec, OpNamesAreUniqueAndComplete) {
  const std::vector<std::string>& names = action_op_names();
  EXPECT_EQ(names.size(), std::variant_size_v<Action>);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const std::string& name : names) EXPECT_TRUE(is_action_op(name)) << name;
  EXPECT_FALSE(is_action_op("state"));
}

TEST(ActionCodec, OptionalFieldsMayBeLeftOut) {
  Result<Action> a = decode_action(json{{"op", "scaleLine"}, {"layer", 0}, {"which", "W_Q"}, {"index", 2}, {"factor", 2}});
  ASSERT_TRUE(a.ok()) << a.error();
  const ScaleLine& scale = std::get<ScaleLine>(a.value());
  EXPECT_EQ(scale.head, 0);
  EXPECT_EQ(scale.axis, Axis::row);
  a = decode_action(json{{"op", "setHeadCount"}, {"count", 2}});
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_FALSE(std::get<SetHeadCount>(a.value()).layer.has_value());
  a = decode_action(json{{"op", "setLayerOptions"}, {"layer", 0}, {"norm", "pre"}});
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(std::get<SetLayerOptions>(a.value()).norm, Norm::pre);
  EXPECT_FALSE(std::get<SetLayerOptions>(a.value()).ffn.has_value());
}

struct StrictCase {
  json request;
  std::string error;
};

TEST(ActionCodec, DecodingIsStrictAndNamesTheField) {
  const std::vector<StrictCase> cases = {
      {{{"op", "setText"}}, "text: expected a string"},
      {{{"op", "setText"}, {"text", 5}}, "text: expected a string (got 5)"},
      {{{"op", "setHeadCount"}, {"count", "4"}}, "count: expected an integer (got \"4\")"},
      {{{"op", "setHeadCount"}, {"count", 2.5}}, "count: expected an integer (got 2.5)"},
      {{{"op", "setHeadCount"}, {"count", 2}, {"layer", 1e12}}, "layer: expected an integer (got 1000000000000.0)"},
      {{{"op", "setWeight"}, {"layer", 0}, {"head", 0}, {"which", "W_X"}, {"row", 0}, {"col", 0}, {"value", 1}},
       "which: expected one of \"W_Q\", \"W_K\", \"W_V\", \"W_O\" (got \"W_X\")"},
      {{{"op", "setWeight"}, {"layer", 0}, {"head", 0}, {"which", "W_Q"}, {"row", 0}, {"col", 0}, {"value", "NaN"}},
       "value: expected a finite number (got NaN)"},
      {{{"op", "setPruned"}, {"layer", 0}, {"head", 1}}, "pruned: expected true or false"},
      {{{"op", "setPruned"}, {"layer", 0}, {"head", 1}, {"pruned", true}, {"heads", 2}},
       "heads: unknown field (setPruned takes layer, head, pruned)"},
      {{{"op", "scaleLine"}, {"layer", 0}, {"which", "W_Q"}, {"axis", "diagonal"}, {"index", 0}, {"factor", 2}},
       "axis: expected one of \"row\", \"column\" (got \"diagonal\")"},
      {{{"op", "setLayerOptions"}, {"layer", 0}, {"norm", "middle"}}, "norm: expected one of \"none\", \"pre\", \"post\" (got \"middle\")"},
      {{{"op", "setLine"}, {"layer", 0}, {"which", "W_Q"}, {"index", 0}, {"values", {1, "x"}}},
       "values[1]: expected a number (got \"x\")"},
      {{{"op", "randomize"}, {"seed", -1}}, "seed: expected an integer in 0..4294967295 (got -1)"},
      {{{"op", "setTheme"}, {"theme", "blue"}}, "theme: expected one of \"dark\", \"light\" (got \"blue\")"},
      {{{"op", "reset"}, {"hard", true}}, "hard: unknown field (reset takes no fields)"},
      {{{"op", "fly"}}, "op: unknown operation \"fly\""},
      {{{"layer", 0}}, "op: expected {\"op\": ...}"},
  };
  for (const StrictCase& c : cases) {
    const Result<Action> decoded = decode_action(c.request);
    ASSERT_FALSE(decoded.ok()) << c.request.dump();
    EXPECT_EQ(decoded.error(), c.error) << c.request.dump();
  }
}

TEST(ActionCodec, ErrorsCarryThePathTheCallerGives) {
  const Result<Action> decoded = decode_action(json{{"op", "selectHead"}, {"layer", 0}}, "intro.steps[2].setup[1].");
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error(), "intro.steps[2].setup[1].head: expected an integer");
}

}  // namespace
}  // namespace headlab::app
