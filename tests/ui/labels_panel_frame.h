#pragma once
// One frame of the labels panel alone in a window as tall as the display, so no card is clipped;
// returns the text it drew, as ImGui's logging captures it.
#include <string>

#include "imgui.h"
#include "imgui_internal.h"
#include "ui/panels.h"

namespace headlab::ui {

inline std::string draw_labels_text(PanelContext& context) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::Begin("labels_test", nullptr, ImGuiWindowFlags_NoDecoration);
  ImGui::LogToBuffer();
  draw_labels_panel(context, display.x - 20.0f, display.y - 20.0f);
  std::string text = ImGui::GetCurrentContext()->LogBuffer.c_str();
  ImGui::LogFinish();
  ImGui::End();
  ImGui::Render();
  return text;
}

}  // namespace headlab::ui
