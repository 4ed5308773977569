// Labels panel: every head's specialization label, score bars and explanation.
#include "imgui.h"
#include "ui/head_caption.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {

void draw_labels_panel(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  register_rect(context.ui, ids::kLabels, ImGui::GetCursorScreenPos(),
                ImVec2(ImGui::GetCursorScreenPos().x + width, ImGui::GetCursorScreenPos().y + height));
  for (int l = 0; l < static_cast<int>(state.document.model.layers.size()); ++l)
    for (int h = 0; h < state.document.model.layers[l].head_count(); ++h)
      ImGui::Text("L%d H%d  %s", l, h, head_caption(state, l, h).c_str());
}

}  // namespace headlab::ui
