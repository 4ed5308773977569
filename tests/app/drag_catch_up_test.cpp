// A drag on a weight recomputes only the layers the frame draws; the later layers lag until the
// frames after the drag catch them up, and then the state is the one a full recompute gives.
// Nothing that reads the whole document (the JS API, other actions, lesson goals) sees a lag.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "api/state_json.h"
#include "app/controller.h"
#include "engine/model.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

constexpr std::uint64_t kDrag = 7;

AppState three_layer_state() {
  AppState state;
  state.document.model = make_model(32, 3, 4, 5);
  state.document.input.text = "The cat sat on the mat and the dog slept.";
  return state;
}

// The whole visible state, analysis included, as one comparable text; the revision counts
// recomputes, which differ by design.
std::string shown(const AppState& state) {
  nlohmann::json j = nlohmann::json::parse(api::state_json(state, test_resources()));
  j.erase("revision");
  return j.dump();
}

TEST(DragCatchUp, ADragInLayerZeroLeavesTheLaterLayersUntilItPauses) {
  AppState state = three_layer_state();
  Controller controller(state, test_resources());
  ASSERT_FALSE(layers_lag(state));
  const Matrix layer2_before = state.trace.layers[2].heads[0].attention;
  const Matrix layer0_before = state.trace.layers[0].heads[1].attention;

  for (int i = 1; i <= 3; ++i)
    ASSERT_TRUE(controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 0, 2.0 * i}, kDrag).ok());
  EXPECT_EQ(state.current_layers, 1);
  EXPECT_TRUE(layers_lag(state));
  EXPECT_NE(state.trace.layers[0].heads[1].attention, layer0_before) << "the edited layer is drawn at once";
  EXPECT_EQ(state.trace.layers[2].heads[0].attention, layer2_before) << "a later layer waits";

  // The frame right after a drag step does nothing: the drag may go on.
  EXPECT_FALSE(controller.catch_up(1.0));
  EXPECT_EQ(state.current_layers, 1);
  // Nor does one soon after it, while the drag has not settled.
  EXPECT_FALSE(controller.catch_up(1.0, 60.0));
  EXPECT_EQ(state.current_layers, 1);
  // With no budget, one layer a frame.
  EXPECT_TRUE(controller.catch_up(0.0));
  EXPECT_EQ(state.current_layers, 2);
  EXPECT_TRUE(controller.catch_up(0.0));
  EXPECT_FALSE(layers_lag(state));
  EXPECT_FALSE(controller.catch_up(0.0)) << "nothing left";

  AppState fresh = three_layer_state();
  fresh.document = state.document;
  Controller fresh_controller(fresh, test_resources());
  EXPECT_TRUE(shown(state) == shown(fresh)) << "the caught-up state is a fresh recompute's";
}

TEST(DragCatchUp, TheSelectedLayerIsDrawnAtOnceToo) {
  AppState state = three_layer_state();
  Controller controller(state, test_resources());
  ASSERT_TRUE(controller.apply(SelectHead{1, 0}).ok());
  ASSERT_TRUE(controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 0, 3.0}, kDrag).ok());
  EXPECT_EQ(state.current_layers, 2);
  ASSERT_TRUE(controller.apply(SetWeight{2, 1, WeightMatrix::W_Q, 2, 0, 3.0}, kDrag + 1).ok());
  EXPECT_EQ(state.current_layers, 3) << "an edit in the last layer draws it";
}

TEST(DragCatchUp, OtherActionsAndTheApiSeeEveryLayer) {
  AppState state = three_layer_state();
  Controller controller(state, test_resources());
  ASSERT_TRUE(controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 0, 4.0}, kDrag).ok());
  ASSERT_TRUE(layers_lag(state));
  // A typed value (no merge key) is a whole recompute, and so is anything after a lag.
  ASSERT_TRUE(controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 1, 1.0}).ok());
  EXPECT_FALSE(layers_lag(state));

  ASSERT_TRUE(controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 0, 5.0}, kDrag).ok());
  ASSERT_TRUE(layers_lag(state));
  const std::string reply = api::handle_request(controller, R"({"op":"state"})");
  EXPECT_FALSE(layers_lag(state)) << "the API answers for the whole document";
  AppState fresh = three_layer_state();
  fresh.document = state.document;
  Controller fresh_controller(fresh, test_resources());
  EXPECT_TRUE(shown(state) == shown(fresh)) << "the caught-up state is a fresh recompute's";
  EXPECT_NE(reply.find("\"ok\":true"), std::string::npos) << reply;

  ASSERT_TRUE(controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 0, 6.0}, kDrag).ok());
  ASSERT_TRUE(layers_lag(state));
  ASSERT_TRUE(controller.undo());
  EXPECT_FALSE(layers_lag(state)) << "undo recomputes every layer";
}

// The page's autosave polls stateKey twice a second and saves the document: neither reads a layer,
// so neither may bring the whole cost of a step back into a drag.
TEST(DragCatchUp, TheAutosavesRequestsLeaveTheLagAlone) {
  AppState state = three_layer_state();
  Controller controller(state, test_resources());
  ASSERT_TRUE(controller.apply(SetWeight{0, 1, WeightMatrix::W_Q, 2, 0, 4.0}, kDrag).ok());
  for (const char* request : {R"({"op":"stateKey"})", R"({"op":"saveState"})"}) {
    EXPECT_NE(api::handle_request(controller, request).find("\"ok\":true"), std::string::npos) << request;
    EXPECT_EQ(state.current_layers, 1) << request;
  }
  api::handle_request(controller, R"({"op":"state"})");
  EXPECT_FALSE(layers_lag(state));
}

}  // namespace
}  // namespace headlab::app
