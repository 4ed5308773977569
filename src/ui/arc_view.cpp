// Arc view, after the classic figure for "The quick brown fox jumps over the lazy dog": tokens in a
// row, a curve from each query to every key it attends to above a threshold, line width by weight.
// Overlaid heads differ by colour AND line style, so they stay apart in grey scale.
#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "ui/arc_geometry.h"
#include "ui/figure_svg.h"
#include "ui/format_text.h"
#include "ui/head_caption.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/value_slider.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// The line styles' names: keys of the string table, in LineStyle order.
constexpr const char* kStyleNames[4] = {"arcs_style_solid", "arcs_style_dashed", "arcs_style_dotted", "arcs_style_dash_dot"};

ImU32 head_colour(int head, float alpha) {
  const unsigned int rgb = head_rgb(head);
  return IM_COL32((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF, static_cast<int>(std::clamp(alpha, 0.0f, 1.0f) * 255.0f));
}

// More arcs than this are a tangle no one can read, and each is a few hundred vertices: with 16
// heads on 64 tokens a low threshold passes thousands, and a frame took most of a second to draw.
constexpr std::size_t kMostArcs = 200;

void legend_swatch(ImDrawList* draw, ImVec2 p, float length, int head) {
  std::vector<Point> line{{p.x, p.y}, {p.x + length, p.y}};
  for (const auto& piece : dash(line, line_style_for_head(head), ImGui::GetFontSize() * 0.12f))
    draw->AddPolyline(reinterpret_cast<const ImVec2*>(piece.data()), static_cast<int>(piece.size()), head_colour(head, 1.0f),
                      0, 2.5f);
}

}  // namespace

void draw_arc_view(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  LabUiState& ui = context.ui;
  const int layer = state.selection.layer;
  const Layer& model_layer = state.document.model.layers[layer];
  const float font = ImGui::GetFontSize();
  // Controls: threshold and which heads to overlay. With the canvas they are the figure a PNG export
  // takes: the heads' colours and line styles are its legend, the threshold its cut-off.
  const ImVec2 figure_min = ImGui::GetCursorScreenPos();
  ImGui::SetNextItemWidth(font * 9.0f);
  value_slider_float(with_id(context.tr("arcs_threshold"), "threshold").c_str(), &ui.arc_threshold, 0.0f, 0.9f, "%.2f");
  register_item(ui, ids::kArcThreshold);
  item_tooltip(context.tr("arcs_threshold_tip"));
  ImGui::SameLine();
  ImGui::TextDisabled(context.tr("arcs_layer_heads"), layer);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int h = 0; h < model_layer.head_count(); ++h) {
    flow_same_line(font * 3.2f);
    ImGui::PushID(h);
    bool on = (ui.arc_heads >> h) & 1u;
    char label[16];
    std::snprintf(label, sizeof label, "H%d", h);
    if (ImGui::Checkbox(label, &on)) ui.arc_heads = on ? (ui.arc_heads | (1u << h)) : (ui.arc_heads & ~(1u << h));
    const ImVec2 r = ImGui::GetItemRectMax();
    legend_swatch(draw, ImVec2(r.x - font * 1.6f, r.y + 2), font * 1.4f, h);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(context.tr("arcs_head_tip"), h, head_caption(state, layer, h, context.words()).c_str(),
                        context.tr(kStyleNames[static_cast<int>(line_style_for_head(h))]));
    ImGui::PopID();
  }
  ImGui::TextDisabled("%s", context.tr("arcs_caption"));
  // The arcs above the threshold, the strongest first when there are more than a figure can show.
  const int tokens = static_cast<int>(context.tokens().size());
  std::vector<Arc> arcs;
  for (int h = 0; h < model_layer.head_count(); ++h) {
    if (!((ui.arc_heads >> h) & 1u)) continue;
    const Matrix& A = state.trace.layers[layer].heads[h].attention;
    for (int i = 0; i < tokens; ++i)
      for (int j = 0; j < tokens; ++j) {
        const float w = A(i, j);
        if (w >= ui.arc_threshold && w > 0.0f) arcs.push_back({w, h, i, j});
      }
  }
  const std::size_t found = arcs.size();
  keep_strongest_per_head(arcs, kMostArcs);
  if (arcs.size() < found) ImGui::TextWrapped(context.tr("arcs_capped"), static_cast<int>(arcs.size()), static_cast<int>(found));
  if (ui.pending_export == ExportKind::arcs_svg) {
    ArcFigure figure;
    figure.title = format_text(context.tr("arcs_svg_title"), layer, static_cast<double>(ui.arc_threshold));
    figure.tokens = context.tokens();
    figure.arcs = arcs;
    for (int h = 0; h < model_layer.head_count(); ++h)
      if ((ui.arc_heads >> h) & 1u) {
        figure.heads.push_back(h);
        figure.head_names.push_back("H" + std::to_string(h) + " " + head_caption(state, layer, h, context.words()));
      }
    ui.export_document = arcs_svg(figure);
  }
  // Canvas.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(width, std::max(font * 8.0f, height - (origin.y - ImGui::GetWindowPos().y) + ImGui::GetScrollY() -
                                                     ImGui::GetStyle().WindowPadding.y));
  ImGui::InvisibleButton("arc_canvas", size);
  register_item(ui, ids::kArcView);
  register_rect(ui, ids::kArcFigure, figure_min, ImGui::GetItemRectMax());
  const int n = static_cast<int>(context.tokens().size());
  if (n == 0) {
    draw->AddText(origin, ImGui::GetColorU32(ImGuiCol_TextDisabled), context.tr("arcs_no_tokens"));
    return;
  }
  const float spacing = size.x / static_cast<float>(n);
  const float baseline = origin.y + size.y - font * 1.6f;
  const float max_height = size.y - font * 3.5f;
  // Hovered token: highlight its arcs.
  int hovered = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (m.y > baseline - font) hovered = std::clamp(static_cast<int>((m.x - origin.x) / spacing), 0, n - 1);
  }
  if (hovered >= 0) ui.next_hovered_token = hovered;
  const int focus = hovered >= 0 ? hovered : ui.hovered_token;
  draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  for (const Arc& arc : arcs) {
    const int h = arc.head, i = arc.query, j = arc.key;
    const float w = arc.weight;
    const bool dim = focus >= 0 && focus != i;
    const float x0 = origin.x + (i + 0.5f) * spacing, x1 = origin.x + (j + 0.5f) * spacing;
    // Offset each head slightly so coincident arcs do not hide each other.
    const float lift = static_cast<float>(h % 4) * font * 0.12f;
    const auto points = arc_points(x0, x1, baseline - font * 0.2f - lift, max_height, spacing);
    const float thickness = 1.0f + 4.0f * w;
    for (const auto& piece : dash(points, line_style_for_head(h), font * 0.12f))
      draw->AddPolyline(reinterpret_cast<const ImVec2*>(piece.data()), static_cast<int>(piece.size()),
                        head_colour(h, dim ? 0.12f : 0.35f + 0.65f * w), 0, thickness);
    // Arrowhead at the key end.
    if (i != j && !dim) {
      const Point tip = points.back(), before = points[points.size() - 3];
      const float dx = tip.x - before.x, dy = tip.y - before.y, len = std::max(1e-3f, std::hypot(dx, dy));
      const float ux = dx / len, uy = dy / len, s = font * 0.35f;
      draw->AddTriangleFilled(ImVec2(tip.x, tip.y), ImVec2(tip.x - ux * s - uy * s * 0.6f, tip.y - uy * s + ux * s * 0.6f),
                              ImVec2(tip.x - ux * s + uy * s * 0.6f, tip.y - uy * s - ux * s * 0.6f), head_colour(h, 0.9f));
    }
  }
  // Tokens.
  for (int i = 0; i < n; ++i) {
    const char* text = context.tokens()[i].c_str();
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const float scale = std::min(1.0f, (spacing - 4.0f) / std::max(1.0f, ts.x));
    const float x = origin.x + (i + 0.5f) * spacing;
    const ImU32 colour = i == focus ? IM_COL32(255, 64, 160, 255) : ImGui::GetColorU32(ImGuiCol_Text);
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale, ImVec2(x - ts.x * scale * 0.5f, baseline + font * 0.3f),
                  colour, text);
  }
  draw->PopClipRect();
}

}  // namespace headlab::ui
