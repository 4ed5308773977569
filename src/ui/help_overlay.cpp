// Help overlay (?): keyboard shortcuts and how to read each view.
#include <initializer_list>

#include "imgui.h"
#include "ui/format_text.h"
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
  if (ImGui::Begin(with_id(context.tr("help_title"), "help").c_str(), &ui.show_help,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) {
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      // The keys are notation in every language; a gesture in words is a ui_text.json key instead.
      struct Row {
        const char* keys;     // shown as is
        const char* gesture;  // ui_text.json key, for rows without `keys`
        const char* action;   // ui_text.json key
      };
      static const Row kRows[] = {
          {"Ctrl+Z", nullptr, "help_undo"},
          {"Ctrl+Shift+Z, Ctrl+Y", nullptr, "help_redo"},
          {"[  ]", nullptr, "help_select_head"},
          {"{  }", nullptr, "help_select_layer"},
          {"1  2  3  4  5  6", nullptr, "help_views"},
          {"W  L", nullptr, "help_side_panels"},
          {"?", nullptr, "help_toggle"},
          {nullptr, "help_keys_keyboard", "help_keyboard"},
          {nullptr, "help_keys_drag", "help_drag"},
          {nullptr, "help_keys_double_click", "help_double_click"},
          {nullptr, "help_keys_right_click", "help_right_click"},
      };
      for (const Row& row : kRows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        const char* keys = row.keys ? row.keys : context.tr(row.gesture);
        ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_CheckMark), "%s", keys);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(context.tr(row.action));
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    for (const char* key : {"help_heatmap", "help_arcs", "help_concat", "help_training", "help_circuits", "help_query_key"})
      ImGui::TextUnformatted(context.tr(key));
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace headlab::ui
