// app::apply and Controller::apply: a refused action leaves the whole AppState as it was, the
// Controller adds only its error notice, drags merge into one undo step, and pruning ranks heads
// by the analysis the state already has.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/apply_action.h"
#include "app/controller.h"
#include "app/lesson_runner.h"
#include "app/saved_state.h"
#include "api/api.h"
#include "api/state_json.h"
#include "engine/model_file.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

// Everything a refusal could disturb, as one comparable text.
std::string fingerprint(const AppState& state) {
  std::string out = serialize_model_file(state.document) + "|" + save_state(state) + "|" +
                    api::state_json(state, test_resources()) + "|" + std::to_string(state.dirty) + "|" +
                    std::to_string(state.revision) + "|" + std::to_string(state.progress.hints_shown) + "|" +
                    std::to_string(state.progress.goal_met);
  for (const Notice& notice : state.notices) out += "|" + notice.text;
  return out;
}

// A lab that is not at its defaults anywhere a refusal could reach.
class ApplyActionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(start_step(controller, 1, 0), "");  // lesson 2 starts from the default model, 4 heads
    ASSERT_TRUE(controller.apply(SetLayerCount{2}).ok());
    reveal_hint(controller);
    ASSERT_TRUE(controller.apply(SelectHead{1, 2}).ok());
    ASSERT_TRUE(controller.apply(SetTheme{Theme::light}).ok());
    controller.notify(NoticeLevel::info, "a notice from before");
  }
  const Resources& resources = test_resources();
  AppState state;
  Controller controller{state, resources};
};

std::vector<Action> refused_actions() {
  return {SetRepeatedSequence{1, 1},
          SetRepeatedSequence{21, 1},
          SetHeadCount{0, std::nullopt},
          SetHeadCount{17, std::nullopt},
          SetHeadCount{2, 9},
          SetLayerCount{7},
          SetWeight{0, 9, WeightMatrix::W_Q, 0, 0, 1.0},
          SetWeight{0, 0, WeightMatrix::W_Q, 99, 0, 1.0},
          SetWeight{0, 0, WeightMatrix::W_Q, 0, 0, 1e31},
          SetLine{0, 0, WeightMatrix::W_K, Axis::row, 0, {1.0f}},
          SetLine{5, 0, WeightMatrix::W_K, Axis::row, 0, {}},
          ScaleLine{0, 0, WeightMatrix::W_Q, Axis::row, 999, 2.0},
          ScaleLine{0, 0, WeightMatrix::W_Q, Axis::row, 0, 1e7},
          ZeroOutputBlock{0, 9},
          ZeroOutputBlock{0, -1},
          ZeroOutputBlockAll{3},
          SelectHead{0, 9},
          SelectHead{-1, 0},
          SetPruned{0, 9, true},
          PruneLeastImportant{0, 4},
          PruneLeastImportant{9, 1},
          ApplyPreset{0, 0, "no_such_preset"},
          ApplyPreset{0, 9, "previous_token"},
          SetHeadDim{0, 0, std::nullopt},
          SetHeadDim{4, 2, std::nullopt},
          SetDModel{4},
          SetLayerOptions{8, true, std::nullopt, std::nullopt},
          ResetHead{0, 9, 1},
          LoadModel{"{\"format\": \"headlab-model\", \"version\": 1}"},
          LoadModel{"not json"}};
}

TEST_F(ApplyActionTest, ARefusedActionLeavesTheWholeStateAsItWas) {
  for (const Action& action : refused_actions()) {
    SCOPED_TRACE(std::to_string(action.index()));
    const std::string before = fingerprint(state);
    const ActionResult result = apply(state, resources, action);
    EXPECT_FALSE(result.ok());
    EXPECT_EQ(fingerprint(state), before);
  }
}

TEST_F(ApplyActionTest, TheControllerAddsOnlyItsErrorNoticeAndNoUndoStep) {
  while (controller.can_undo()) controller.undo();
  controller.apply(SetWeight{0, 0, WeightMatrix::W_Q, 0, 0, 0.5});  // one undo step to keep
  for (const Action& action : refused_actions()) {
    SCOPED_TRACE(std::to_string(action.index()));
    AppState expected = state;
    const ActionResult result = controller.apply(action);
    ASSERT_FALSE(result.ok());
    push_notice(expected, NoticeLevel::error, result.error);
    EXPECT_EQ(fingerprint(state), fingerprint(expected));
    ASSERT_TRUE(controller.can_undo());
  }
  ASSERT_TRUE(controller.undo());
  EXPECT_FALSE(controller.can_undo());
}

TEST_F(ApplyActionTest, MessagesNameTheField) {
  EXPECT_EQ(apply(state, resources, SetHeadCount{17, 0}).error, "head count must be between 1 and 16");
  EXPECT_EQ(apply(state, resources, SelectHead{0, 9}).error, "head 9 does not exist in layer 0 (0..3)");
  EXPECT_EQ(apply(state, resources, ApplyPreset{0, 0, "nope"}).error,
            "preset: unknown preset \"nope\" (assets/presets/index.json)");
  EXPECT_NE(apply(state, resources, PruneLeastImportant{0, 4}).error.find("one must stay"), std::string::npos);
}

TEST_F(ApplyActionTest, DragStepsMergeAndEndMergeSplits) {
  while (controller.can_undo()) controller.undo();
  const float original = state.document.model.layers[0].heads[1].W_Q(2, 3);
  for (int i = 0; i < 10; ++i) controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 3, i * 0.1}, 42);
  controller.apply(SelectHead{0, 1}, 0);  // no undo step, and the drag goes on
  for (int i = 0; i < 10; ++i) controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 3, 1 + i * 0.1}, 42);
  controller.end_merge();
  for (int i = 0; i < 3; ++i) controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 3, 5 + i * 0.1}, 42);
  ASSERT_TRUE(controller.undo());
  EXPECT_FLOAT_EQ(state.document.model.layers[0].heads[1].W_Q(2, 3), 1.9f);
  ASSERT_TRUE(controller.undo());
  EXPECT_EQ(state.document.model.layers[0].heads[1].W_Q(2, 3), original);
  EXPECT_FALSE(controller.can_undo());
}

TEST_F(ApplyActionTest, SelectionAndThemeMakeNoUndoStep) {
  while (controller.can_undo()) controller.undo();
  ASSERT_TRUE(controller.apply(SelectHead{0, 1}).ok());
  ASSERT_TRUE(controller.apply(SetTheme{Theme::dark}).ok());
  EXPECT_FALSE(controller.can_undo());
  EXPECT_EQ(state.selection.head, 1);
  EXPECT_EQ(state.preferences.theme, "dark");
}

TEST_F(ApplyActionTest, PruneLeastImportantRanksByTheCurrentAnalysis) {
  const std::vector<int> ranking = state.analysis.layers[0].importance_ranking;
  ASSERT_GE(ranking.size(), 3u);
  const ActionResult result = controller.apply(PruneLeastImportant{0, 2});
  ASSERT_TRUE(result.ok()) << result.error;
  EXPECT_EQ(result.pruned_heads, std::vector<int>({ranking[0], ranking[1]}));
  // An un-analysed state has no ranking to trust: refused, not recomputed inside the edit.
  AppState stale = state;
  ASSERT_TRUE(apply(stale, resources, SetWeight{0, 0, WeightMatrix::W_Q, 0, 0, 3.0}).ok());
  const std::string before = fingerprint(stale);
  EXPECT_FALSE(apply(stale, resources, PruneLeastImportant{0, 1}).ok());
  EXPECT_EQ(fingerprint(stale), before);
}

// The largest model the UI allows is 25 MB a document: 256 undo steps of it would take 6 GB and
// kill the page (2 GB at most in WASM). The history keeps what fits in its budget instead.
TEST(UndoHistory, BigModelsKeepAsManyStepsAsFitTheBudget) {
  AppState state;
  state.document.model = make_model(kMaxDModel, kMaxLayers, kMaxHeads, 3);
  const std::size_t document = model_bytes(state.document.model);
  // W_O and the heads' W_Q, W_K, W_V of 6 layers, and a little more (LayerNorm, positions).
  ASSERT_GE(document, std::size_t{kMaxLayers} * (512 * 512 + 16 * 3 * 512 * 32) * sizeof(float));
  ASSERT_LT(document, std::size_t{26} << 20);
  Controller controller(state, test_resources());
  const int edits = static_cast<int>(Controller::kHistoryBytes / document) + 5;
  for (int i = 0; i < edits; ++i) ASSERT_TRUE(controller.apply(SetWeight{0, 0, WeightMatrix::W_V, 0, 0, 0.5 + i}).ok());
  int undone = 0;
  while (controller.undo()) ++undone;
  EXPECT_EQ(undone, static_cast<int>(Controller::kHistoryBytes / document));
  EXPECT_FLOAT_EQ(state.document.model.layers[0].heads[0].W_V(0, 0), 0.5f + 4) << "the oldest steps went first";
  EXPECT_TRUE(controller.redo());
}

// Saving the largest model as JSON took more memory than the page has and killed it; it could not
// have been restored anyway (kMaxStateBytes). The API refuses with the reason instead.
TEST(SavedState, AModelTooLargeToRestoreIsRefusedBeforeItIsWritten) {
  AppState state;
  state.document.model = make_model(kMaxDModel, kMaxLayers, kMaxHeads, 3);
  Controller controller(state, test_resources());
  EXPECT_NE(state_too_large(state).find("too large to save"), std::string::npos);
  for (const char* op : {R"({"op":"saveState"})", R"({"op":"shareLink"})"}) {
    const std::string reply = api::handle_request(controller, op);
    EXPECT_NE(reply.find("\"ok\":false"), std::string::npos) << op;
    EXPECT_NE(reply.find("too large to save"), std::string::npos) << op;
  }
  AppState lesson;
  lesson.document.model = make_model(128, 2, 8, 3);
  EXPECT_EQ(state_too_large(lesson), "");
}

}  // namespace
}  // namespace headlab::app
