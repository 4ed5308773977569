// The Labels tab's held-out line of each head, for a trained model whose layers have different head
// counts: the line must be the head's own entry of the layer-major reading, not another head's.
#include <gtest/gtest.h>

#include <string>

#include "../app/test_resources.h"
#include "app/controller.h"
#include "app/dispatcher.h"
#include "app/held_out_labels.h"
#include "engine/head_index.h"
#include "engine/model.h"
#include "headless_imgui.h"
#include "labels_panel_frame.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "ui/action_sink.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/role_timeline.h"

namespace headlab::ui {
namespace {

// The steps of the page: "Use in lab" (the shipped trained model, 2 x 4 heads), a third layer, then
// one head in layer 0. Layers 1 and 2 keep 4 heads each.
TEST(HeldOutLabelsPanel, EachHeadShowsItsOwnLabelWhenLayersDifferInHeadCount) {
  const app::Resources& resources = app::test_resources();
  app::AppState state;
  app::Controller controller(state, resources);
  ASSERT_TRUE(controller.apply(app::LoadTrainedModel{}).ok());
  ASSERT_TRUE(controller.apply(app::SetLayerCount{3}).ok());
  ASSERT_TRUE(controller.apply(app::SetHeadCount{1, 0}).ok());
  const Model& model = state.document.model;
  ASSERT_TRUE(app::trained_on_grammar(model, resources.grammar));
  ASSERT_EQ(model.layers[0].head_count(), 1);
  ASSERT_EQ(model.layers[1].head_count(), 4);

  const app::HeldOutLabeller labeller =
      app::HeldOutLabeller::make(resources.grammar, resources.analysis.config, model.special_tokens);
  const app::HeldOutReading reading = app::read_held_out(model, resources.grammar, labeller);
  ASSERT_EQ(static_cast<int>(reading.heads.size()), total_head_count(model));

  HeadlessImGui imgui(ImVec2(900, 8000));
  LabUiState ui;
  app::Dispatcher dispatcher(controller, nullptr);
  ActionSink sink(dispatcher);
  PanelContext context{sink, ui, resources.example_sentences, resources.presets};
  const Words words{resources, state.progress.language};
  int differing = 0;  // heads whose line the layer-0 arithmetic would take from another head
  for (int l = 0; l < static_cast<int>(model.layers.size()); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h) {
      ASSERT_TRUE(controller.apply(app::SelectHead{l, h}).ok());
      const std::string drawn = draw_labels_text(context);
      const app::HeadRole& role = reading.heads[flat_head_index(model, l, h)];
      const std::string expected =
          role.label.mixed()
              ? format_text(words("labels_held_out_mixed"), app::kHeldOutCount)
              : format_text(words("labels_held_out_role"), app::kHeldOutCount, role_text(role, words).c_str(), role.score);
      EXPECT_NE(drawn.find(expected), std::string::npos) << "L" << l << "H" << h << " should read: " << expected;
      const std::size_t uniform = static_cast<std::size_t>(l * model.layers[0].head_count() + h);
      if (uniform < reading.heads.size() && reading.heads[uniform].label != role.label) ++differing;
    }
  // The model is only a test of the lookup if some head's neighbour has a different label.
  EXPECT_GT(differing, 0);
}

}  // namespace
}  // namespace headlab::ui
