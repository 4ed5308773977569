#include "ui/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace headlab::ui {
namespace {

float x_of(const PlotSeries& s, int i) { return s.x ? s.x[i] : static_cast<float>(i + 1); }

void format_tick(char* out, std::size_t size, float value) {
  if (std::fabs(value) >= 1000.0f) std::snprintf(out, size, "%gk", value / 1000.0f);
  else std::snprintf(out, size, "%g", value);
}

// The series' value nearest to step `x` (for the hover read-out).
bool value_near(const PlotSeries& s, float x, float& out) {
  if (s.count <= 0) return false;
  int best = 0;
  if (!s.x) {
    best = std::clamp(static_cast<int>(std::lround(x)) - 1, 0, s.count - 1);
  } else {
    for (int i = 1; i < s.count; ++i)
      if (std::fabs(s.x[i] - x) < std::fabs(s.x[best] - x)) best = i;
  }
  out = s.y[best];
  return std::isfinite(out);
}

}  // namespace

std::vector<float> nice_ticks(float lo, float hi, int target) {
  std::vector<float> ticks;
  if (!(hi > lo) || target < 1) return ticks;
  const float raw = (hi - lo) / target;
  const float magnitude = std::pow(10.0f, std::floor(std::log10(raw)));
  // The round step whose tick count comes closest to the target.
  float step = magnitude;
  for (float m : {1.0f, 2.0f, 5.0f, 10.0f})
    if (std::fabs((hi - lo) / (m * magnitude) - target) < std::fabs((hi - lo) / step - target)) step = m * magnitude;
  // Multiples of the step, not a running sum, so rounding does not creep in.
  for (long k = std::lround(std::ceil(lo / step)); k * step <= hi + step * 1e-3f; ++k) ticks.push_back(k * step);
  return ticks;
}

void bucket_means(const float* values, int count, int buckets, std::vector<float>& out) {
  out.clear();
  if (count <= 0 || buckets <= 0) return;
  buckets = std::min(buckets, count);
  out.resize(buckets);
  for (int b = 0; b < buckets; ++b) {
    const int begin = static_cast<int>(static_cast<long long>(count) * b / buckets);
    const int end = static_cast<int>(static_cast<long long>(count) * (b + 1) / buckets);
    double sum = 0.0;
    int n = 0;
    for (int i = begin; i < end; ++i)
      if (std::isfinite(values[i])) {
        sum += values[i];
        ++n;
      }
    out[b] = n ? static_cast<float>(sum / n) : NAN;
  }
}

bool line_plot(const char* id, const std::vector<PlotSeries>& series, ImVec2 size, const PlotOptions& options) {
  const float font = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), ImGui::GetColorU32(ImGuiCol_FrameBg), 3.0f);

  // Ranges over every finite value.
  float x_max = options.x_max_at_least, y_min = options.y_from_zero ? 0.0f : INFINITY, y_max = -INFINITY;
  for (const PlotSeries& s : series)
    for (int i = 0; i < s.count; ++i) {
      x_max = std::max(x_max, x_of(s, i));
      if (!std::isfinite(s.y[i])) continue;
      y_min = std::min(y_min, s.y[i]);
      y_max = std::max(y_max, s.y[i]);
    }
  if (!std::isfinite(y_max)) y_min = 0.0f, y_max = 1.0f;
  y_max = std::max(y_max, options.y_max_at_least);
  if (y_max - y_min < 1e-3f) y_max = y_min + 1.0f;
  y_max += (y_max - y_min) * 0.05f;
  const float x_min = options.x_min;

  // Header: the y axis title, then one legend entry per named series, wrapped into rows.
  struct LegendEntry {
    ImVec2 at;
    const PlotSeries* series;
  };
  std::vector<LegendEntry> legend;
  const float row_h = font * 1.15f, gap = font * 0.9f, right = origin.x + size.x - font * 0.6f;
  float cursor_x = origin.x + font * 0.3f, cursor_y = origin.y + font * 0.15f;
  const bool has_y_label = options.y_label && *options.y_label;
  if (has_y_label) cursor_x += ImGui::CalcTextSize(options.y_label).x + gap;
  for (const PlotSeries& s : series) {
    if (!s.name || !*s.name) continue;  // a series that shares another's legend entry
    const float w = font + ImGui::CalcTextSize(s.name).x;
    if (cursor_x + w > right && cursor_x > origin.x + font * 0.3f) {
      cursor_x = origin.x + font * 0.3f;
      cursor_y += row_h;
    }
    legend.push_back({ImVec2(cursor_x, cursor_y), &s});
    cursor_x += w + gap;
  }
  const bool has_header = has_y_label || !legend.empty();
  const float header_h = has_header ? cursor_y + row_h - origin.y : 0.0f;

  const ImVec2 a(origin.x + font * 2.4f, origin.y + header_h + font * 0.5f);    // plot area, top left
  const ImVec2 b(origin.x + size.x - font * 0.6f, origin.y + size.y - font * 1.5f);  // bottom right
  if (b.x - a.x < font * 2 || b.y - a.y < font * 2) return hovered;
  const auto to_screen = [&](float x, float y) {
    return ImVec2(a.x + (x - x_min) / (x_max - x_min) * (b.x - a.x), b.y - (y - y_min) / (y_max - y_min) * (b.y - a.y));
  };

  // Grid and tick labels.
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border), label = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  char text[32];
  for (float t : nice_ticks(y_min, y_max, std::max(2, static_cast<int>((b.y - a.y) / (font * 2.2f))))) {
    const float y = to_screen(x_min, t).y;
    draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
    format_tick(text, sizeof text, t);
    draw->AddText(ImVec2(origin.x + font * 0.3f, y - font * 0.5f), label, text);
  }
  // The axis title sits at the right end; tick labels that would run into it are left out.
  const float title_x = b.x - ImGui::CalcTextSize(options.x_label).x;
  draw->AddText(ImVec2(title_x, b.y + font * 0.2f), label, options.x_label);
  for (float t : nice_ticks(x_min, x_max, std::max(2, static_cast<int>((b.x - a.x) / (font * 4.0f))))) {
    if (options.whole_x && t != std::floor(t)) continue;
    const float x = to_screen(t, y_min).x;
    draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), grid);
    format_tick(text, sizeof text, options.x_powers_of_two ? std::exp2(t) : t);
    const float w = ImGui::CalcTextSize(text).x;
    if (x + w * 0.5f < title_x - font * 0.4f) draw->AddText(ImVec2(x - w * 0.5f, b.y + font * 0.2f), label, text);
  }

  if (options.guide_y >= y_min && options.guide_y <= y_max) {
    // Dashed: it is a threshold, not data.
    const float y = to_screen(x_min, options.guide_y).y;
    for (float x = a.x; x < b.x; x += font * 0.8f)
      draw->AddLine(ImVec2(x, y), ImVec2(std::min(b.x, x + font * 0.45f), y), ImGui::GetColorU32(ImGuiCol_Text, 0.55f), 1.2f);
  }
  if (options.mark_x >= x_min && options.mark_x <= x_max) {
    const float x = to_screen(options.mark_x, y_min).x;
    const ImU32 colour = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
    draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), colour, 2.0f);
    const float w = ImGui::CalcTextSize(options.mark_label).x;
    // Left of the line, unless it would leave the plot.
    const float text_x = x - font * 0.3f - w > a.x ? x - font * 0.3f - w : x + font * 0.3f;
    draw->AddText(ImVec2(text_x, a.y + font * 0.1f), colour, options.mark_label);
  }

  // Curves: one averaged point per five pixels, so batch-to-batch noise becomes a readable trend.
  draw->PushClipRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), true);
  std::vector<float> means;
  std::vector<ImVec2> points;
  for (const PlotSeries& s : series) {
    if (s.markers || s.x) {
      for (int i = 0; i < s.count; ++i)
        if (std::isfinite(s.y[i])) {
          const ImVec2 p = to_screen(x_of(s, i), s.y[i]);
          if (s.markers) draw->AddCircleFilled(p, font * 0.22f, s.colour);
          else points.push_back(p);
        }
    } else {
      const int buckets = std::max(1, static_cast<int>((b.x - a.x) * s.count / std::max(1.0f, x_max - x_min) / 5.0f));
      bucket_means(s.y, s.count, buckets, means);
      const float per_bucket = static_cast<float>(s.count) / static_cast<float>(means.size());
      for (std::size_t k = 0; k < means.size(); ++k)
        if (std::isfinite(means[k])) points.push_back(to_screen((k + 0.5f) * per_bucket + 0.5f, means[k]));
    }
    if (points.size() >= 2) draw->AddPolyline(points.data(), static_cast<int>(points.size()), s.colour, ImDrawFlags_None, 1.8f);
    points.clear();
  }
  draw->PopClipRect();

  if (has_y_label) draw->AddText(ImVec2(origin.x + font * 0.3f, origin.y + font * 0.15f), label, options.y_label);
  for (const LegendEntry& entry : legend) {
    const ImVec2 p = entry.at;
    if (entry.series->markers) draw->AddCircleFilled(ImVec2(p.x + font * 0.4f, p.y + font * 0.5f), font * 0.22f, entry.series->colour);
    else draw->AddRectFilled(ImVec2(p.x, p.y + font * 0.4f), ImVec2(p.x + font * 0.8f, p.y + font * 0.6f), entry.series->colour);
    draw->AddText(ImVec2(p.x + font, p.y), ImGui::GetColorU32(ImGuiCol_Text), entry.series->name);
  }

  if (hovered) {
    const float mouse_x = ImGui::GetIO().MousePos.x;
    const float x = x_min + (mouse_x - a.x) / (b.x - a.x) * (x_max - x_min);
    if (x >= x_min && x <= x_max) {
      draw->AddLine(ImVec2(mouse_x, a.y), ImVec2(mouse_x, b.y), ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
      ImGui::BeginTooltip();
      ImGui::Text("%s %.0f", options.x_label, options.x_powers_of_two ? std::exp2(std::round(x)) : x);
      for (const PlotSeries& s : series) {
        float v = 0.0f;
        if (s.name && *s.name && value_near(s, x, v)) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "%s: %.3f", s.name, v);
      }
      ImGui::EndTooltip();
    }
  }
  return hovered;
}

}  // namespace headlab::ui
