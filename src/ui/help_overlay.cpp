// Help overlay (?): keyboard shortcuts and how to read each view.
#include "imgui.h"
#include "ui/panels.h"

namespace headlab::ui {

void draw_help_overlay(PanelContext& context) {
  LabUiState& ui = context.ui;
  if (!ui.show_help) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f, viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(font * 40.0f, viewport->WorkSize.x - 20), 0));
  ImGui::SetNextWindowFocus();
  if (ImGui::Begin("Help: shortcuts and views", &ui.show_help,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) {
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      const char* rows[][2] = {
          {"Ctrl+Z", "undo the last edit"},
          {"Ctrl+Shift+Z, Ctrl+Y", "redo"},
          {"[  ]", "select the previous / next head"},
          {"{  }", "select the layer above / below"},
          {"1  2  3  4  5", "heatmap, arc view, concat and W_O, training, circuits"},
          {"W  L", "weight editor, labels panel"},
          {"?", "show or hide this help"},
          {"Tab, arrows, Space", "move between controls with the keyboard"},
          {"drag a weight cell", "change it (Shift: faster, Alt: finer)"},
          {"double-click a cell", "type an exact value (Ctrl-click too)"},
          {"right-click a row/column name", "zero, scale, negate, copy, paste"},
      };
      for (const auto& row : rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_CheckMark), "%s", row[0]);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(row[1]);
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(
        "Heatmap: row i is the query (the attending token), column j the key (the attended token); the colour "
        "is A(i, j) = softmax(q_i . k_j / sqrt(d_k)), and each row sums to 1. Hover a cell to see which input "
        "features make its logit.");
    ImGui::TextUnformatted(
        "Arcs: a curve from each token to the tokens it attends to, wider for larger weights. Several heads "
        "overlay with their own colour and line style.");
    ImGui::TextUnformatted(
        "Concat and W_O: each head's output Z_i sits side by side; W_O mixes them into the layer output.");
    ImGui::TextUnformatted(
        "Training: a 2-layer, 4-head model learns to fill in masked words of a small language. Press play and "
        "watch the loss fall and each head take a role (measured on held-out sentences every 100 steps).");
    ImGui::TextUnformatted(
        "Circuits: the selected head's weights read as two d_model x d_model matrices (Elhage et al. 2021). "
        "QK = W_Q W_K^T: which query feature looks for which key feature. OV = W_V W_O: what the head writes "
        "when it attends to a feature. Composition: how much a later head reads what an earlier one writes.");
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace headlab::ui
