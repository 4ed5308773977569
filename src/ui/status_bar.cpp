// The last notice (errors in red, warnings in amber) and token facts about the input.
#include "imgui.h"
#include "ui/panels.h"

namespace headlab::ui {

void draw_status_bar(PanelContext& context) {
  const app::AppState& state = context.state();
  int unknown = 0;
  for (char u : context.unknown_tokens()) unknown += u != 0;
  ImGui::TextDisabled(context.tr("status_tokens"), static_cast<int>(state.input.tokens.size()),
                      state.input.truncated ? context.tr("status_cut") : "");
  if (unknown > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled(context.tr("status_unknown_words"), unknown);
  }
  if (state.notices.empty()) return;
  const app::Notice& last = state.notices.back();
  const ImVec4 colour = last.level == app::NoticeLevel::error     ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                        : last.level == app::NoticeLevel::warning ? ImVec4(1.0f, 0.8f, 0.3f, 1.0f)
                                                                  : ImGui::GetStyleColorVec4(ImGuiCol_Text);
  ImGui::SameLine();
  ImGui::TextColored(colour, "| %s", app::notice_text(last, context.resources().ui_text, state.progress.language).c_str());
}

}  // namespace headlab::ui
