// Heads overview ("model view"): layers as rows, heads as columns, one thumbnail heatmap each.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/analysis/attention_spread.h"
#include "engine/analysis/label_families.h"
#include "imgui.h"
#include "ui/format_text.h"
#include "ui/head_caption.h"
#include "ui/heatmap.h"
#include "ui/panels.h"
#include "ui/role_timeline.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// Layer dependence beside a layer's mean thumbnail: how far its heads look (mean attention
// distance, Vig & Belinkov 2019), how widely (row entropy against uniform rows, Clark et al. 2019),
// and the share of its heads per label as one stacked bar.
void draw_layer_profile(const app::AppState& state, int l, const analysis::AttentionSpread& spread, float width,
                        const Words& words) {
  const float font = ImGui::GetFontSize();
  const Layer& layer = state.document.model.layers[l];
  ImGui::BeginGroup();
  ImGui::Text(words("overview_distance"), spread.distance);
  ImGui::Text(words("overview_entropy"), spread.entropy, spread.uniform_entropy);
  std::vector<analysis::Label> labels;
  for (int h = 0; h < layer.head_count(); ++h)
    if (!layer.heads[h].pruned && l < static_cast<int>(state.analysis.layers.size()))
      labels.push_back(state.analysis.layers[l].heads[h].label);
  const std::vector<std::pair<analysis::Label, int>> shares = analysis::count_label_families(labels);
  const int heads = static_cast<int>(labels.size());
  const float bar_w = std::max(font * 4.0f, std::min(width, font * 14.0f)), bar_h = font * 0.8f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  float x = p.x;
  for (const auto& [group, count] : shares) {
    const float w = bar_w * count / std::max(1, heads);
    draw->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w - 1.0f, p.y + bar_h), role_colour(group));
    x += w;
  }
  ImGui::Dummy(ImVec2(bar_w, bar_h));
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    for (const auto& [group, count] : shares) ImGui::Text(words("overview_share"), label_display_name(group, words).c_str(), count, heads);
    ImGui::EndTooltip();
  }
  std::string top;
  for (const auto& [group, count] : shares) {
    if (!top.empty()) top += ", ";
    top += std::to_string(count) + " " + label_display_name(group, words);
  }
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + bar_w);
  ImGui::TextDisabled("%s", top.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

// The heads' numbers over a dense grid's columns (every one that fits, or every second, ...).
void draw_head_numbers(int heads, float tile, float spacing) {
  const float font = ImGui::GetFontSize();
  const float widest = ImGui::CalcTextSize(std::to_string(heads - 1).c_str()).x;
  const int every = std::max(1, static_cast<int>(std::ceil((widest + 2.0f) / (tile + spacing))));
  const ImVec2 row = ImGui::GetCursorScreenPos();
  const float left = ImGui::GetWindowPos().x - ImGui::GetScrollX() + font * 2.0f;  // where SameLine(font * 2) puts the first head
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int h = 0; h < heads; h += every) {
    const std::string number = std::to_string(h);
    const float w = ImGui::CalcTextSize(number.c_str()).x;
    draw->AddText(ImVec2(left + h * (tile + spacing) + (tile - w) * 0.5f, row.y), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                  number.c_str());
  }
  ImGui::Dummy(ImVec2(1.0f, font));
}

// Over a dense grid, whose tiles carry only a bar in their label's colour: what each colour is,
// with how many heads have it.
void draw_role_legend(const app::AppState& state, const Words& words) {
  const Model& model = state.document.model;
  std::vector<analysis::Label> labels;
  for (std::size_t l = 0; l < model.layers.size() && l < state.analysis.layers.size(); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h)
      if (!model.layers[l].heads[h].pruned) labels.push_back(state.analysis.layers[l].heads[h].label);
  const float font = ImGui::GetFontSize();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  bool first = true;
  for (const auto& [group, count] : analysis::count_label_families(labels)) {
    const std::string text = label_display_name(group, words) + " " + std::to_string(count);
    const float w = font * 1.0f + ImGui::CalcTextSize(text.c_str()).x;
    if (!first) flow_same_line(w, font * 0.8f);
    first = false;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw->AddRectFilled(ImVec2(at.x, at.y + font * 0.2f), ImVec2(at.x + font * 0.7f, at.y + font * 0.9f), role_colour(group));
    ImGui::Dummy(ImVec2(font * 0.8f, font));
    ImGui::SameLine(0.0f, font * 0.2f);
    ImGui::TextDisabled("%s", text.c_str());
  }
}

}  // namespace

void draw_heads_overview(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  LabUiState& ui = context.ui;
  const Model& model = state.document.model;
  const float font = ImGui::GetFontSize();
  ImGui::BeginChild("overview", ImVec2(width, height), true);
  register_rect(ui, ids::kOverview, ImGui::GetWindowPos(),
                ImVec2(ImGui::GetWindowPos().x + width, ImGui::GetWindowPos().y + height));
  const Words words = context.words();
  ImGui::TextUnformatted(words("overview_title"));
  ImGui::SameLine();
  ImGui::Checkbox(with_id(words("overview_summary"), "summary").c_str(), &ui.overview_summary);
  register_item(ui, ids::kOverviewSummary);
  item_tooltip(words("overview_summary_tip"));
  ImGui::SameLine();
  ImGui::TextDisabled("%s", words("overview_click_head"));

  int max_heads = 1;
  for (const Layer& l : model.layers) max_heads = std::max(max_heads, l.head_count());
  const int layer_count = static_cast<int>(model.layers.size());
  const float avail_w = ImGui::GetContentRegionAvail().x;
  float spacing = ImGui::GetStyle().ItemSpacing.x;
  // Thumbnails shrink to fit all heads of a layer on one row, down to a readable size; past that a
  // layer's heads wrap onto more rows (16 heads on a phone), and the panel scrolls vertically.
  const float row_w = avail_w - font * 2.2f;
  const int fit = std::max(1, static_cast<int>((row_w + spacing) / (font * 3.0f + spacing)));
  // A checkpoint's many heads (GPT-2 small: 12 x 12) that would wrap: a dense grid of small tiles,
  // one row a layer, each with a bar in its label's colour instead of the caption (the tooltip and
  // the Labels tab name it), so the whole model is seen at once.
  const bool dense = !ui.overview_summary && max_heads > fit && max_heads > 8;
  if (dense) spacing = 2.0f;
  const int columns = ui.overview_summary ? 1 : dense ? max_heads : std::min(max_heads, fit);
  float tile = dense ? std::max(font * 0.8f, (row_w + spacing) / columns - spacing)
                     : std::max(font * 3.0f, std::min(font * 14.0f, row_w / columns - spacing));
  // Summary: room for the layer's profile beside its thumbnail.
  if (ui.overview_summary) tile = std::max(font * 3.0f, std::min(tile, avail_w * 0.35f));
  if (ui.overview_summary && ui.spreads_revision != state.revision) {
    ui.spreads = analysis::layer_spreads(model, {&state.trace});
    ui.spreads_revision = state.revision;
  }
  const std::vector<analysis::AttentionSpread>& spreads = ui.spreads;
  if (dense) {
    draw_role_legend(state, words);
    draw_head_numbers(max_heads, tile, spacing);
  }
  for (int l = 0; l < layer_count; ++l) {
    const Layer& layer = model.layers[l];
    const bool lagging = l >= state.current_layers;
    const float row_top = ImGui::GetCursorScreenPos().y;
    ImGui::BeginGroup();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("L%d", l);
    if (lagging) item_tooltip(words("layer_catching_up_tip"));
    ImGui::EndGroup();
    ImGui::SameLine(font * 2.0f);
    const int heads = ui.overview_summary ? 1 : layer.head_count();
    for (int h = 0; h < heads; ++h) {
      if (h % columns != 0) ImGui::SameLine(0.0f, spacing);
      else if (h > 0) ImGui::SetCursorPosX(font * 2.0f);  // a new row of the same layer, under its first head
      ImGui::BeginGroup();
      ImGui::PushID(l * 64 + h);
      const bool selected = !ui.overview_summary && state.selection.layer == l && state.selection.head == h;
      HeatmapOptions options;
      options.tokens = &context.tokens();
      options.unknown = &context.unknown_tokens();
      options.show_labels = false;
      options.empty_text = words("heatmap_no_tokens");
      options.highlight_token = ui.hovered_token;
      options.selected = selected;
      options.textures = context.cell_textures;
      const Matrix& A = ui.overview_summary ? state.trace.layers[l].mean_attention : state.trace.layers[l].heads[h].attention;
      char id[32];
      std::snprintf(id, sizeof id, "thumb_%d_%d", l, h);
      const HeatmapResult r = heatmap(id, A, ImVec2(tile, tile), options);
      const std::string name = std::string(ids::kOverviewHead) + "/" + std::to_string(l) + "/" + std::to_string(h);
      register_item(ui, name);
      if (r.hovered_row >= 0) {
        ImGui::BeginTooltip();
        if (ui.overview_summary) ImGui::Text(words("overview_layer_mean"), l);
        else ImGui::Text(words("overview_head_label"), l, h, head_caption(state, l, h, words).c_str());
        ImGui::Text("\"%s\" -> \"%s\": %.4f", context.tokens()[r.hovered_row].c_str(), context.tokens()[r.hovered_col].c_str(),
                    A(r.hovered_row, r.hovered_col));
        if (!ui.overview_summary) ImGui::TextDisabled("%s", words("overview_click_this"));
        ImGui::EndTooltip();
        ui.next_hovered_token = r.hovered_col;
      }
      if (r.clicked && !ui.overview_summary)
        context.actions.emit(app::SelectHead{l, h});
      if (dense) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const bool labelled = l < static_cast<int>(state.analysis.layers.size()) && h < static_cast<int>(state.analysis.layers[l].heads.size());
        const ImU32 colour = layer.heads[h].pruned || !labelled ? ImGui::GetColorU32(ImGuiCol_TextDisabled)
                                                                : role_colour(state.analysis.layers[l].heads[h].label);
        ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + tile, at.y + 3.0f), colour);
        if (selected) ImGui::GetWindowDrawList()->AddRect(ImVec2(at.x - 1, at.y - 1), ImVec2(at.x + tile + 1, at.y + 4.0f), ImGui::GetColorU32(ImGuiCol_CheckMark));
        ImGui::Dummy(ImVec2(tile, 3.0f));
        ImGui::PopID();
        ImGui::EndGroup();
        continue;
      }
      const std::string caption =
          fit_text(ui.overview_summary ? words("overview_mean") : "H" + std::to_string(h) + " " + head_caption(state, l, h, words), tile);
      const float caption_w = ImGui::CalcTextSize(caption.c_str()).x;
      ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, (tile - caption_w) * 0.5f));
      if (selected) ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_CheckMark), "%s", caption.c_str());
      else ImGui::TextUnformatted(caption.c_str());
      ImGui::PopID();
      ImGui::EndGroup();
    }
    if (ui.overview_summary && l < static_cast<int>(spreads.size())) {
      ImGui::SameLine();
      draw_layer_profile(state, l, spreads[l], ImGui::GetContentRegionAvail().x, words);
      register_item(ui, std::string(ids::kOverviewLayerProfile) + "/" + std::to_string(l));
    }
    if (lagging) {
      // A veil over the row, so old thumbnails never pass for the model being dragged, and the word
      // for it where it can be read.
      const ImVec2 window = ImGui::GetWindowPos();
      const float row_bottom = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y;
      ImVec4 veil = ImGui::GetStyleColorVec4(ImGuiCol_ChildBg);
      if (veil.w == 0.0f) veil = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
      veil.w = 0.6f;
      ImDrawList* draw = ImGui::GetWindowDrawList();
      draw->AddRectFilled(ImVec2(window.x, row_top), ImVec2(window.x + ImGui::GetWindowWidth(), row_bottom),
                          ImGui::GetColorU32(veil));
      const char* note = words("layer_catching_up");
      draw->AddText(ImVec2(window.x + font * 2.0f + spacing, row_top + font * 0.2f), ImGui::GetColorU32(ImGuiCol_Text), note);
    }
  }
  ImGui::EndChild();
}

}  // namespace headlab::ui
