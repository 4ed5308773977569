// The queries-and-keys tab (AttentionViz, Yeh et al. 2023): the selected head's queries and keys of
// the learner's sentence and the example sentences in one plane, normalised so that a query lies
// near the keys it attends to, then projected on their two principal axes
// (engine/analysis/query_key_map.h). A click or tap on a point shows its sentence with the
// attention that token gives (a query) or gets (a key), and draws lines to the points it concerns.
// The sentences are read a few per frame by an app::QueryKeyJob kept in LabUiState, only while
// the tab is shown.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/colormap.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// Multiply-adds of forward passes per frame (a few milliseconds in WebAssembly): the toy models
// read every sentence in one frame, a GPT-2 checkpoint one sentence a frame.
constexpr double kFrameWork = 3.0e7;
constexpr ImU32 kQueryColour = IM_COL32(240, 140, 40, 255);
constexpr ImU32 kKeyColour = IM_COL32(70, 160, 235, 255);

void refresh(const app::AppState& state, const app::Resources& resources, QueryKeyView& view) {
  const int layer = state.selection.layer, head = state.selection.head;
  if (view.revision != state.revision || view.layer != layer || !view.job) {
    view.job = std::make_shared<app::QueryKeyJob>(state, resources, layer);
    ++view.job_serial;
    view.revision = state.revision;
    view.layer = layer;
    view.head = -1;
    view.picked = -1;
  }
  double spent = 0.0;
  while (!view.job->done() && spent < kFrameWork) {
    view.job->advance(state, resources);
    const analysis::QueryKeySample& sample = view.job->sample();
    const int tokens = sample.sentences.empty() ? 1 : static_cast<int>(sample.sentences.back().tokens.size());
    spent += std::max(1.0, analysis::sample_cost(state.document.model, layer, tokens));
  }
  if (view.job->done() && view.head != head) {
    view.map = analysis::head_query_key_map(view.job->sample(), head);
    view.head = head;
    view.picked = -1;
  }
}

struct PlotFrame {
  ImVec2 origin;      // where data (min_x, max_y) lands
  float scale = 1.0f;  // pixels per unit, the same on both axes
  ImVec2 at(float x, float y, const analysis::QueryKeyMap& m) const {
    return ImVec2(origin.x + (x - m.min_x) * scale, origin.y + (m.max_y - y) * scale);
  }
};

// The data's box fitted into `size` with equal scales, centred.
PlotFrame fit(const analysis::QueryKeyMap& m, ImVec2 corner, ImVec2 size) {
  const float pad = ImGui::GetFontSize() * 0.8f;
  const float w = std::max(m.max_x - m.min_x, 1e-6f), h = std::max(m.max_y - m.min_y, 1e-6f);
  PlotFrame frame;
  frame.scale = std::min((size.x - 2 * pad) / w, (size.y - 2 * pad) / h);
  frame.origin = ImVec2(corner.x + (size.x - w * frame.scale) * 0.5f, corner.y + (size.y - h * frame.scale) * 0.5f);
  return frame;
}

ImU32 point_colour(const QueryKeyView& view, const analysis::QueryKeySample& sample, int point, bool key, float alpha) {
  const analysis::PointRef& ref = view.map.points[static_cast<std::size_t>(point)];
  if (!view.colour_by_position) return (key ? kKeyColour : kQueryColour) & IM_COL32(255, 255, 255, static_cast<int>(alpha * 255));
  const int n = static_cast<int>(sample.sentences[static_cast<std::size_t>(ref.sentence)].tokens.size());
  return viridis_u32(n > 1 ? static_cast<float>(ref.position) / static_cast<float>(n - 1) : 0.0f, alpha);
}

// The weight between the picked point and point `other` of the same sentence: what the picked
// query gives other's key, or what other's query gives the picked key.
float weight_to(const QueryKeyView& view, const analysis::QueryKeySample& sample, int other) {
  const analysis::PointRef& a = view.map.points[static_cast<std::size_t>(view.picked)];
  const analysis::PointRef& b = view.map.points[static_cast<std::size_t>(other)];
  if (a.sentence != b.sentence) return 0.0f;
  const Matrix& attention = sample.sentences[static_cast<std::size_t>(a.sentence)].heads[static_cast<std::size_t>(view.head)].attention;
  return view.picked_key ? attention(b.position, a.position) : attention(a.position, b.position);
}

void draw_point(ImDrawList* draw, ImVec2 p, bool key, float radius, ImU32 colour) {
  if (key) draw->AddRectFilled(ImVec2(p.x - radius, p.y - radius), ImVec2(p.x + radius, p.y + radius), colour);
  else draw->AddCircleFilled(p, radius, colour, 12);
}

void draw_plot(PanelContext& context, QueryKeyView& view, ImVec2 size) {
  const analysis::QueryKeySample& sample = view.job->sample();
  const analysis::QueryKeyMap& m = view.map.map;
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  // A press and release over the plot (a touch that scrolls the page lets go of the button first).
  const bool released_here = ImGui::InvisibleButton("qkmap_plot", size);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(corner, ImVec2(corner.x + size.x, corner.y + size.y), ImGui::GetColorU32(ImGuiCol_FrameBg), 3.0f);
  const PlotFrame frame = fit(m, corner, size);
  register_rect(context.ui, ids::kQueryKeyPlot, frame.at(m.min_x, m.max_y, m), frame.at(m.max_x, m.min_y, m));
  const float font = ImGui::GetFontSize();
  const float radius = std::max(3.0f, font * 0.26f);
  const int count = static_cast<int>(view.map.points.size());
  const int picked_sentence = view.picked >= 0 ? view.map.points[static_cast<std::size_t>(view.picked)].sentence : -1;
  draw->PushClipRect(corner, ImVec2(corner.x + size.x, corner.y + size.y), true);
  // Lines from the picked point to the points of its sentence it concerns, as thick as the weight.
  if (view.picked >= 0) {
    const Matrix& own = view.picked_key ? m.key_points : m.query_points;
    const Matrix& other = view.picked_key ? m.query_points : m.key_points;
    const ImVec2 from = frame.at(own(view.picked, 0), own(view.picked, 1), m);
    for (int i = 0; i < count; ++i) {
      const float w = weight_to(view, sample, i);
      if (w < 0.02f) continue;
      draw->AddLine(from, frame.at(other(i, 0), other(i, 1), m), ImGui::GetColorU32(ImGuiCol_Text, 0.25f + 0.6f * w), 1.0f + 4.0f * w);
    }
  }
  // Points of other sentences fade while one is picked; keys under queries, drawn twice as a set.
  for (int pass = 0; pass < 2; ++pass) {
    const bool key = pass == 0;
    const Matrix& points = key ? m.key_points : m.query_points;
    for (int i = 0; i < count; ++i) {
      const int sentence = view.map.points[static_cast<std::size_t>(i)].sentence;
      const float alpha = picked_sentence < 0 || sentence == picked_sentence ? 0.9f : 0.3f;
      draw_point(draw, frame.at(points(i, 0), points(i, 1), m), key, radius, point_colour(view, sample, i, key, alpha));
    }
  }
  if (view.picked >= 0) {
    const Matrix& own = view.picked_key ? m.key_points : m.query_points;
    const ImVec2 p = frame.at(own(view.picked, 0), own(view.picked, 1), m);
    draw->AddCircle(p, radius * 2.4f, ImGui::GetColorU32(ImGuiCol_Text), 16, 2.0f);
    const analysis::PointRef& ref = view.map.points[static_cast<std::size_t>(view.picked)];
    register_rect(context.ui, std::string(ids::kQueryKeyPicked) + "/" + std::to_string(ref.sentence) + "/" +
                                  std::to_string(ref.position) + (view.picked_key ? "/key" : "/query"),
                  ImVec2(p.x - radius, p.y - radius), ImVec2(p.x + radius, p.y + radius));
  }
  draw->PopClipRect();
  if (!released_here) return;
  // The nearest point within reach of a finger; a click on empty space lets go of the pick.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float reach = font * 1.1f;
  float best = reach * reach;
  int best_point = -1;
  bool best_key = false;
  for (int pass = 0; pass < 2; ++pass) {
    const Matrix& points = pass == 0 ? m.query_points : m.key_points;
    for (int i = 0; i < count; ++i) {
      const ImVec2 p = frame.at(points(i, 0), points(i, 1), m);
      const float d = (p.x - mouse.x) * (p.x - mouse.x) + (p.y - mouse.y) * (p.y - mouse.y);
      if (d < best) best = d, best_point = i, best_key = pass == 1;
    }
  }
  view.picked = best_point;
  view.picked_key = best_key;
}

void legend(PanelContext& context, const QueryKeyView& view) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize(), radius = std::max(2.5f, font * 0.22f);
  const auto swatch = [&](bool key, ImU32 colour, const char* text) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(font * 0.8f, font));
    draw_point(draw, ImVec2(p.x + font * 0.4f, p.y + font * 0.55f), key, radius, colour);
    ImGui::SameLine(0.0f, 2.0f);
    ImGui::TextUnformatted(text);
  };
  const ImU32 neutral = ImGui::GetColorU32(ImGuiCol_Text);
  swatch(false, view.colour_by_position ? neutral : kQueryColour, context.tr("qk_legend_query"));
  ImGui::SameLine();
  swatch(true, view.colour_by_position ? neutral : kKeyColour, context.tr("qk_legend_key"));
  if (!view.colour_by_position) return;
  // The colour of a position: the first token of its sentence to the last.
  const float bar = font * 5.0f;
  flow_same_line(bar + ImGui::CalcTextSize(context.tr("qk_legend_first")).x * 2 + font * 2);
  ImGui::TextUnformatted(context.tr("qk_legend_first"));
  ImGui::SameLine();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  for (int s = 0; s < 20; ++s)
    draw->AddRectFilled(ImVec2(p.x + bar * s / 20, p.y + font * 0.25f), ImVec2(p.x + bar * (s + 1) / 20, p.y + font * 0.85f),
                        viridis_u32(s / 19.0f));
  ImGui::Dummy(ImVec2(bar, font));
  ImGui::SameLine();
  ImGui::TextUnformatted(context.tr("qk_legend_last"));
}

}  // namespace

// The picked token's sentence (query_key_detail.cpp).
void draw_query_key_detail(PanelContext& context, QueryKeyView& view, float width);
// The tab's other view: the head across the same sentences (head_corpus_view.cpp).
void draw_head_corpus_view(PanelContext& context, QueryKeyView& view, float width, float height);

namespace {

void draw_picture(PanelContext& context, QueryKeyView& view, float width, float height) {
  const float top = ImGui::GetCursorPosY();
  static const char* const kColourKeys[2] = {"qk_colour_position", "qk_colour_role"};
  static const char* const kColourIds[2] = {ids::kQueryKeyByPosition, ids::kQueryKeyByRole};
  const std::string labels[2] = {with_id(context.tr(kColourKeys[0]), "position"), with_id(context.tr(kColourKeys[1]), "role")};
  const char* label_ptrs[2] = {labels[0].c_str(), labels[1].c_str()};
  int colour = view.colour_by_position ? 0 : 1;
  if (segmented("qk_colour", label_ptrs, 2, colour, &context.ui, kColourIds)) view.colour_by_position = colour == 0;
  ImGui::SameLine();
  help_marker(context.tr("qk_help"));
  flow_same_line(ImGui::GetFontSize() * 12.0f);
  legend(context, view);
  const analysis::PrincipalAxes& axes = view.map.map.axes;
  float shown = 0.0f;
  for (float v : axes.variances) shown += v;
  const int sentences = static_cast<int>(view.job->sample().sentences.size());
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextDisabled("%s", format_text(context.tr("qk_summary"), sentences, static_cast<int>(view.map.points.size()),
                                        axes.total_variance > 0 ? 100.0f * shown / axes.total_variance : 0.0f)
                                .c_str());
  ImGui::PopTextWrapPos();
  const float font = ImGui::GetFontSize();
  const float left = height - (ImGui::GetCursorPosY() - top);
  // Beside the plot when the tab is wide, under it otherwise (phones), with room for a few lines.
  const bool beside = width > font * 38.0f && width > left * 1.45f;
  const float side = beside ? std::min(left, width * 0.62f) : std::max(font * 10.0f, std::min(width, left - font * 8.0f));
  draw_plot(context, view, ImVec2(beside ? side : width, side));
  if (beside) ImGui::SameLine();
  const ImVec2 detail_size = beside ? ImVec2(width - side - ImGui::GetStyle().ItemSpacing.x, side)
                                    : ImVec2(width, std::max(font * 6.0f, left - side - ImGui::GetStyle().ItemSpacing.y));
  ImGui::BeginChild("qkmap_detail", detail_size, false);
  draw_query_key_detail(context, view, detail_size.x - ImGui::GetStyle().ScrollbarSize);
  ImGui::EndChild();
}

}  // namespace

void draw_query_key_view(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  QueryKeyView& view = context.ui.query_key;
  const float top = ImGui::GetCursorPosY();
  static const char* const kViewKeys[2] = {"qk_view_picture", "qk_view_corpus"};
  static const char* const kViewIds[2] = {ids::kQueryKeyPictureView, ids::kCorpusView};
  const std::string view_labels[2] = {with_id(context.tr(kViewKeys[0]), "picture"), with_id(context.tr(kViewKeys[1]), "corpus")};
  const char* view_ptrs[2] = {view_labels[0].c_str(), view_labels[1].c_str()};
  int shown = view.corpus_shown ? 1 : 0;
  if (segmented("qk_view", view_ptrs, 2, shown, &context.ui, kViewIds)) view.corpus_shown = shown == 1;
  if (app::layers_lag(state)) {  // the sentences are read with the model as it is now
    lagging_layer_note(context.words());
    return;
  }
  refresh(state, context.resources(), view);
  if (!view.job->done()) {
    ImGui::TextDisabled("%s", format_text(context.tr("qk_reading"), view.job->read(), view.job->total()).c_str());
    ImGui::ProgressBar(static_cast<float>(view.job->read()) / std::max(1, view.job->total()), ImVec2(width, 0.0f), "");
    view.announcement.clear();
    return;
  }
  const float left = height - (ImGui::GetCursorPosY() - top);
  if (view.corpus_shown) {
    view.announcement.clear();
    draw_head_corpus_view(context, view, width, left);
  } else {
    draw_picture(context, view, width, left);
  }
}

}  // namespace headlab::ui
