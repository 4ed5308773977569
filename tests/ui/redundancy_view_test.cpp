// The Labels tab's redundancy matrices: the analysis of an edit has none, so the tab computes them
// for each new revision it draws, with the numbers layer_redundancy gives from nothing.
#include <gtest/gtest.h>

#include <string>

#include "../app/test_resources.h"
#include "app/controller.h"
#include "app/dispatcher.h"
#include "engine/analysis/redundancy.h"
#include "headless_imgui.h"
#include "labels_panel_frame.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "ui/action_sink.h"
#include "ui/format_text.h"
#include "ui/panels.h"

namespace headlab::ui {
namespace {

void expect_fresh(const LabUiState& ui, const app::AppState& state, const app::Resources& resources) {
  ASSERT_EQ(ui.redundancy.revision, state.revision);
  ASSERT_EQ(ui.redundancy.layers.size(), state.trace.layers.size());
  for (std::size_t l = 0; l < state.trace.layers.size(); ++l) {
    const analysis::LayerRedundancy fresh =
        analysis::layer_redundancy(state.trace.layers[l], state.document.model.causal, resources.analysis.config);
    EXPECT_EQ(ui.redundancy.layers[l].distance, fresh.distance) << "layer " << l;
    EXPECT_EQ(ui.redundancy.layers[l].near_duplicates, fresh.near_duplicates) << "layer " << l;
  }
}

TEST(RedundancyView, TheLabelsTabComputesWhatItShowsForEachRevision) {
  const app::Resources& resources = app::test_resources();
  app::AppState state;
  app::Controller controller(state, resources);
  ASSERT_TRUE(controller.apply(app::ApplyPreset{0, 0, "previous_token"}).ok());
  ASSERT_TRUE(controller.apply(app::ApplyPreset{0, 2, "previous_token"}).ok());

  HeadlessImGui imgui(ImVec2(900, 8000));
  LabUiState ui;
  app::Dispatcher dispatcher(controller, nullptr);
  ActionSink sink(dispatcher);
  PanelContext context{sink, ui, resources.example_sentences, resources.presets};
  const Words words{resources, state.progress.language};
  const std::string duplicates = format_text(words("labels_near_duplicates"), 0, 2);

  std::string drawn = draw_labels_text(context);
  expect_fresh(ui, state, resources);
  EXPECT_NE(drawn.find(duplicates), std::string::npos) << "heads 0 and 2 attend alike";

  // A frame of the same state computes nothing again.
  const std::uint64_t revision = state.revision;
  ui.redundancy.layers[0].distance(0, 1) = -1.0f;
  draw_labels_text(context);
  EXPECT_EQ(ui.redundancy.layers[0].distance(0, 1), -1.0f);

  // An edit the tab does not see costs it nothing; the next frame it draws catches up, redoing the
  // pairs of the changed head only.
  ASSERT_TRUE(controller.apply(app::ApplyPreset{0, 2, "next_token"}).ok());
  ASSERT_NE(state.revision, revision);
  EXPECT_EQ(ui.redundancy.revision, revision);
  drawn = draw_labels_text(context);
  expect_fresh(ui, state, resources);
  EXPECT_EQ(ui.redundancy.workspaces[0].pairs_computed, state.document.model.layers[0].head_count() - 1);
  EXPECT_EQ(drawn.find(duplicates), std::string::npos);
}

}  // namespace
}  // namespace headlab::ui
