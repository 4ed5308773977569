#include "ui/touch_scroll.h"

#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "imgui_internal.h"  // the hovered window and its scroll limits

namespace headlab::ui {
namespace {

constexpr float kThreshold = 10.0f;  // pixels a finger moves before a touch counts as a swipe

// The window `start` or its innermost parent that can scroll along the swipe.
ImGuiWindow* scrollable(ImGuiWindow* start, bool vertical) {
  for (ImGuiWindow* w = start; w; w = w->ParentWindow)
    if ((vertical ? w->ScrollMax.y : w->ScrollMax.x) > 0.0f) return w;
  return nullptr;
}

}  // namespace

void touch_scroll(LabUiState& ui) {
  ImGuiContext& g = *GImGui;
  ImGuiIO& io = g.IO;
  TouchScroll& t = ui.touch_scroll;
  const ImGuiID owner = ImGui::GetID("##touch_scroll");
  if (io.MouseSource != ImGuiMouseSource_TouchScreen || !io.MouseDown[0]) {
    if (t.scrolling && g.ActiveId == owner) ImGui::ClearActiveID();
    t = {};
    return;
  }
  if (io.MouseClicked[0]) {
    t = {};
    t.start_window = g.HoveredWindow ? g.HoveredWindow->ID : 0;
    return;
  }
  ImGuiWindow* start = t.start_window ? ImGui::FindWindowByID(t.start_window) : nullptr;
  const ImVec2 moved(io.MousePos.x - io.MouseClickedPos[0].x, io.MousePos.y - io.MouseClickedPos[0].y);
  if (!t.scrolling && start && (std::fabs(moved.x) > kThreshold || std::fabs(moved.y) > kThreshold)) {
    t.vertical = std::fabs(moved.y) >= std::fabs(moved.x);
    if (ImGuiWindow* target = scrollable(start, t.vertical)) {
      t.scrolling = true;
      t.target = target->ID;
      // The widget the touch started on lets go, and no other sees the finger while the panel moves.
      ImGui::SetActiveID(owner, target);
    }
  }
  if (!t.scrolling) return;
  ImGuiWindow* target = ImGui::FindWindowByID(t.target);
  if (!target) return;
  if (g.ActiveId == owner) ImGui::KeepAliveID(owner);
  // What the innermost panel cannot take (it reached its end) scrolls the one around it, as nested
  // scrolling areas do on a phone, so an inner panel never traps the page.
  float left = t.vertical ? -io.MouseDelta.y : -io.MouseDelta.x;
  for (ImGuiWindow* w = target; w && left != 0.0f; w = scrollable(w->ParentWindow, t.vertical)) {
    const float scroll = t.vertical ? w->Scroll.y : w->Scroll.x;
    const float max = t.vertical ? w->ScrollMax.y : w->ScrollMax.x;
    const float next = std::clamp(scroll + left, 0.0f, max);
    if (t.vertical) ImGui::SetScrollY(w, next);
    else ImGui::SetScrollX(w, next);
    left -= next - scroll;
  }
}

}  // namespace headlab::ui
