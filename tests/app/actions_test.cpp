#include <gtest/gtest.h>

#include <cmath>

#include "app/actions.h"
#include "engine/embedding.h"
#include "engine/model_file.h"
#include "engine/tokenizer.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

class ActionsTest : public ::testing::Test {
 protected:
  void SetUp() override { recompute(state, resources); }
  const Resources& resources = test_resources();
  AppState state;
};

TEST_F(ActionsTest, SetWeightRecomputes) {
  const Matrix before = state.trace.layers[0].heads[1].attention;
  EXPECT_EQ(set_weight(state, 0, 1, WeightMatrix::W_K, kFeatureNoun, 0, 5.0), "");
  recompute(state, resources);
  EXPECT_NE(state.trace.layers[0].heads[1].attention, before);
}

TEST_F(ActionsTest, RejectsNonFiniteWeights) {
  const Document before = state.document;
  EXPECT_NE(set_weight(state, 0, 0, WeightMatrix::W_Q, 0, 0, std::nan("")), "");
  EXPECT_NE(set_weight(state, 0, 0, WeightMatrix::W_Q, 0, 0, INFINITY), "");
  EXPECT_NE(set_weight(state, 0, 9, WeightMatrix::W_Q, 0, 0, 1.0), "");
  EXPECT_NE(set_weight(state, 0, 0, WeightMatrix::W_Q, 99, 0, 1.0), "");
  EXPECT_EQ(state.document.model.layers[0].heads[0].W_Q, before.model.layers[0].heads[0].W_Q);
}

TEST_F(ActionsTest, FailedLoadKeepsTheCurrentWork) {
  set_weight(state, 0, 0, WeightMatrix::W_Q, 0, 0, 3.0);
  EXPECT_NE(load_model(state, "{\"format\": \"headlab-model\", \"version\": 1}"), "");
  EXPECT_EQ(state.document.model.layers[0].heads[0].W_Q(0, 0), 3.0f);
  const std::string saved = serialize_model_file(state.document);
  set_weight(state, 0, 0, WeightMatrix::W_Q, 0, 0, 4.0);
  EXPECT_EQ(load_model(state, saved), "");
  EXPECT_EQ(state.document.model.layers[0].heads[0].W_Q(0, 0), 3.0f);
}

TEST_F(ActionsTest, HugePasteIsCappedWithANotice) {
  std::string huge;
  for (int i = 0; i < 20000; ++i) huge += "fox ";
  set_text(state, huge);
  recompute(state, resources);
  EXPECT_EQ(state.input.tokens.size(), kMaxTokens);
  ASSERT_FALSE(state.notices.empty());
  EXPECT_EQ(state.notices.back().text, "The text was cut to its first 64 tokens.");
  EXPECT_EQ(notice_text(state.notices.back(), resources.ui_text, Language::zh), "文本被截断为前 64 个词元。");
}

TEST_F(ActionsTest, EmptySentenceIsFine) {
  set_text(state, "");
  recompute(state, resources);
  EXPECT_EQ(state.input.tokens.size(), 0u);
  EXPECT_EQ(state.trace.layers[0].heads[0].attention.rows(), 0);
}

TEST_F(ActionsTest, HeadCountChangeClampsSelection) {
  select_head(state, 0, 3);
  EXPECT_EQ(set_head_count(state, 0, 2), "");
  recompute(state, resources);
  EXPECT_EQ(state.selection.head, 1);
  EXPECT_NE(set_head_count(state, 0, 17), "");
  EXPECT_NE(set_head_count(state, 0, 0), "");
}

}  // namespace
}  // namespace headlab::app
