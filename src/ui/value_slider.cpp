#include "ui/value_slider.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui_internal.h"  // FindRenderedTextEnd, TempInputIsActive, LastItemData

namespace headlab::ui {
namespace {

// A double-click types a value, as in ImGui's drags (its sliders take only Ctrl-click): the next
// frame activates the slider for text input.
void type_on_double_click() {
  ImGuiContext& g = *GImGui;
  if (!ImGui::IsItemHovered() || !ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) return;
  ImGui::ActivateItemByID(g.LastItemData.ID);
  g.NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
}

// Draws ImGui's slider with its value text invisible, then the value inside the frame on the side
// away from the grab (at `fraction` 0..1 of the range), and the label after it as ImGui would.
// While the learner types into the slider (Ctrl-click), ImGui's own field shows as usual.
template <class DrawSlider, class ValueText, class Fraction>
bool slider_with_value_aside(const char* label, DrawSlider draw_slider, ValueText value_text, Fraction fraction) {
  const char* label_end = ImGui::FindRenderedTextEnd(label);
  // The slider itself gets no visible label (the label is drawn after it), under a stable id.
  const std::string id_only = label_end == label ? std::string(label) : std::string("##") + label;
  const bool typing = ImGui::TempInputIsActive(ImGui::GetID(id_only.c_str()));
  if (!typing) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(0, 0, 0, 0));
  const bool changed = draw_slider(id_only.c_str());
  if (!typing) ImGui::PopStyleColor();
  if (!typing) type_on_double_click();
  if (!typing) {
    const std::string text = value_text();
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const float left = min.x + style.FramePadding.x, right = max.x - style.FramePadding.x - size.x;
    const float x = fraction() > 0.5f ? left : std::max(left, right);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(min, max, true);
    draw->AddText(ImVec2(x, min.y + (max.y - min.y - size.y) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
    draw->PopClipRect();
  }
  if (label_end != label) {
    // Tooltips and registered rectangles that follow refer to the slider, not to its label.
    const ImGuiLastItemData slider = GImGui->LastItemData;
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextUnformatted(label, label_end);
    GImGui->LastItemData = slider;
  }
  return changed;
}

template <class T>
std::string format_value(const char* format, T value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

bool value_drag_int(const char* label, int* value, int min, int max, const char* format) {
  const float width = ImGui::CalcItemWidth();
  const float fraction = max > min ? static_cast<float>(std::clamp(*value, min, max) - min) / static_cast<float>(max - min) : 0.0f;
  // The fill, drawn under the frame's text: the frame background is made translucent for it.
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float height = ImGui::GetFrameHeight();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(at, ImVec2(at.x + width, at.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg), ImGui::GetStyle().FrameRounding);
  draw->AddRectFilled(at, ImVec2(at.x + width * fraction, at.y + height), ImGui::GetColorU32(ImGuiCol_SliderGrab, 0.45f),
                      ImGui::GetStyle().FrameRounding);
  const float speed = std::max(1.0f / 8.0f, static_cast<float>(max - min) / 400.0f);
  ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, ImGui::GetColorU32(ImGuiCol_FrameBgHovered, 0.35f));
  ImGui::PushStyleColor(ImGuiCol_FrameBgActive, ImGui::GetColorU32(ImGuiCol_FrameBgActive, 0.35f));
  const bool changed = ImGui::DragInt(label, value, speed, min, max, format, ImGuiSliderFlags_AlwaysClamp);
  ImGui::PopStyleColor(3);
  return changed;
}

bool value_slider_int(const char* label, int* value, int min, int max, const char* format, ImGuiSliderFlags flags) {
  return slider_with_value_aside(
      label, [&](const char* id) { return ImGui::SliderInt(id, value, min, max, format, flags); },
      [&] { return format_value(format, *value); },
      [&] { return max > min ? static_cast<float>(*value - min) / static_cast<float>(max - min) : 0.0f; });
}

bool value_slider_float(const char* label, float* value, float min, float max, const char* format, ImGuiSliderFlags flags) {
  return slider_with_value_aside(
      label, [&](const char* id) { return ImGui::SliderFloat(id, value, min, max, format, flags); },
      [&] { return format_value(format, static_cast<double>(*value)); }, [&] {
        float fraction = max > min ? (*value - min) / (max - min) : 0.0f;
        if ((flags & ImGuiSliderFlags_Logarithmic) && min > 0.0f && *value > 0.0f)
          fraction = std::log(*value / min) / std::log(max / min);
        return std::clamp(fraction, 0.0f, 1.0f);
      });
}

}  // namespace headlab::ui
