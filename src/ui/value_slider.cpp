#include "ui/value_slider.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui_internal.h"  // FindRenderedTextEnd, TempInputIsActive, LastItemData

namespace headlab::ui {
namespace {

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
