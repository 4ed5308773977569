// The real-text model HeadLab ships (LoadTextModel): it reads any text as subword tokens, and on a
// sentence written twice shows the heads docs/training.md reports (a previous-token head and an
// induction head), so the lesson that asks for them cannot drift from the model.
#include <gtest/gtest.h>

#include <string>

#include "app/controller.h"
#include "app/pruning_curve.h"
#include "app/saved_state.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

class TextModel : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(controller.apply(LoadTextModel{}).ok());
    controller.catch_up_all();
  }
  bool some_head_is(analysis::Role role) const {
    for (const analysis::LayerAnalysis& layer : state.analysis.layers)
      for (const analysis::HeadAnalysis& head : layer.heads)
        if (head.label.role == role) return true;
    return false;
  }
  AppState state;
  Controller controller{state, test_resources()};
};

constexpr const char* kSentence = "My grandmother baked fresh bread for the neighbours yesterday.";

TEST_F(TextModel, ReadsItsSubwordVocabularyAndUndoes) {
  EXPECT_EQ(state.document.model.tokenizer, "text");
  EXPECT_EQ(state.document.model.token_embedding.rows(), 6144);
  EXPECT_EQ(state.document.model.layers.size(), 2u);
  ASSERT_TRUE(controller.undo());
  EXPECT_TRUE(state.document.model.tokenizer.empty());
}

TEST_F(TextModel, AnyTextBecomesTokensOfItsVocabulary) {
  for (const std::string& text : {std::string(kSentence), std::string("我的奶奶昨天给邻居们烤了新鲜的面包。"),
                                 std::string("Ünïcödé 😀 tabs\tand  spaces")}) {
    ASSERT_TRUE(controller.apply(SetText{text}).ok()) << text;
    controller.catch_up_all();
    ASSERT_FALSE(state.input.tokens.empty());
    for (const Token& token : state.input.tokens) {
      EXPECT_GE(token.id, 0) << text;
      EXPECT_LT(token.id, 6144) << text;
    }
  }
}

TEST_F(TextModel, ASentenceWrittenTwiceShowsAPreviousTokenAndAnInductionHead) {
  ASSERT_TRUE(controller.apply(SetText{std::string(kSentence) + " " + kSentence}).ok());
  controller.catch_up_all();
  EXPECT_TRUE(some_head_is(analysis::Role::previous_token));
  EXPECT_TRUE(some_head_is(analysis::Role::induction));
}

TEST_F(TextModel, ChineseTextGetsHeadsThatAreNotAllBroad) {
  ASSERT_TRUE(controller.apply(SetText{"我的奶奶昨天给邻居们烤了新鲜的面包。"}).ok());
  controller.catch_up_all();
  int broad = 0, heads = 0;
  for (const analysis::LayerAnalysis& layer : state.analysis.layers)
    for (const analysis::HeadAnalysis& head : layer.heads) {
      ++heads;
      broad += head.label.role == analysis::Role::broad;
    }
  EXPECT_LT(broad, heads);
}

// Pruning is measured by the model's own next-token loss on the learner's text; on a sentence
// written twice the induction head is what the second copy's predictions need.
TEST_F(TextModel, PruningIsMeasuredByTheLossOnTheTextAndTheInductionHeadMattersOnARepeat) {
  ASSERT_TRUE(controller.apply(SetText{std::string(kSentence) + " " + kSentence}).ok());
  controller.catch_up_all();
  const PruningCurve curve = pruning_curve(state, test_resources(), 0);
  EXPECT_EQ(curve.measure, PruningMeasure::text_loss);
  ASSERT_EQ(curve.importance.size(), 9u);
  EXPECT_GT(curve.importance[0], 0.0f);
  EXPECT_LT(curve.importance[0], 4.0f) << "the repeat is predictable";
  ASSERT_FALSE(curve.importance_order.empty());
  EXPECT_EQ(curve.importance_order.back(), std::make_pair(1, 1)) << "the induction head matters most";
  ASSERT_TRUE(controller.apply(SetPruned{1, 1, true}).ok());
  controller.catch_up_all();
  EXPECT_GT(pruning_curve(state, test_resources(), 0).importance[0], curve.importance[0] + 0.5f);
}

TEST_F(TextModel, IsNotSavedInTheBrowserAndSaysWhy) {
  EXPECT_NE(state_too_large(state).find("subword"), std::string::npos);
}

}  // namespace
}  // namespace headlab::app
