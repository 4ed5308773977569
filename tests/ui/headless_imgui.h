#pragma once
// Dear ImGui with no GPU, for UI tests: a context whose font atlas is built (NewFrame needs one),
// that writes no .ini file and has a given display size, destroyed with the object; and a click on
// a named widget through ImGui's input queue.
#include <gtest/gtest.h>

#include <string>

#include "imgui.h"
#include "ui/ui_state.h"

namespace headlab::ui {

class HeadlessImGui {
 public:
  explicit HeadlessImGui(ImVec2 display_size = ImVec2(1280, 720)) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    io.IniFilename = nullptr;
    io.DisplaySize = display_size;
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

// Draws a frame, then moves the mouse onto the centre of the widget `name` (as the last frame
// registered it), presses and releases the left button, one frame per event: ImGui clicks on release.
template <class DrawFrame>
void click_widget(const LabUiState& ui, const std::string& name, DrawFrame&& frame) {
  frame();
  const auto it = ui.widget_rects.find(name);
  if (it == ui.widget_rects.end()) {
    ADD_FAILURE() << "widget " << name << " is not on screen";
    return;
  }
  const Rect& r = it->second;
  ImGuiIO& io = ImGui::GetIO();
  io.AddMousePosEvent(r.x + r.w / 2, r.y + r.h / 2);
  frame();
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, true);
  frame();
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, false);
  frame();
}

}  // namespace headlab::ui
