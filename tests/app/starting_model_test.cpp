// The lab a first visit opens on (LoadStartingModel, assets/starting_model.json): four heads that
// each hold a different role on the example sentence, one undo step away from the plain default.
#include <gtest/gtest.h>

#include <set>

#include "app/app_state.h"
#include "app/controller.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

TEST(StartingModel, FourHeadsWithFourDifferentRolesAndOneUndoBack) {
  AppState state;
  Controller controller(state, test_resources());
  recompute(state, test_resources());
  const Document plain = state.document;
  ASSERT_TRUE(controller.apply(LoadStartingModel{}).ok());
  recompute(state, test_resources());
  ASSERT_EQ(state.analysis.layers.size(), 1u);
  const auto& heads = state.analysis.layers[0].heads;
  ASSERT_EQ(heads.size(), 4u);
  const char* expected[4] = {"previous_token", "syntactic:nsubj", "delimiter", "next_token"};
  std::set<std::string> labels;
  for (int h = 0; h < 4; ++h) {
    EXPECT_EQ(heads[h].label.text(), expected[h]) << "head " << h << ": " << heads[h].label.explanation;
    labels.insert(heads[h].label.text());
  }
  EXPECT_EQ(labels.size(), 4u);
  EXPECT_EQ(state.selection.layer, 0);
  EXPECT_EQ(state.selection.head, 1);
  ASSERT_TRUE(controller.undo());
  EXPECT_EQ(state.document.model.layers[0].heads[1].W_K, plain.model.layers[0].heads[1].W_K);
  EXPECT_FALSE(controller.can_undo());
}

}  // namespace
}  // namespace headlab::app
