#include "ui/lab_window.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/actions.h"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "ui/heatmap.h"

namespace headlab::ui {
namespace {

std::vector<std::string> token_texts(const app::AppState& state) {
  std::vector<std::string> out;
  out.reserve(state.input.tokens.size());
  for (const Token& t : state.input.tokens) out.push_back(t.text);
  return out;
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void draw_sentence_bar(app::Controller& controller, LabUiState& ui) {
  const app::AppState& state = controller.state();
  const std::string& text = state.document.input.text;
  if (!ui.text_active && ui.text_buffer != text) ui.text_buffer = text;  // edits from elsewhere
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Sentence");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(200.0f, ImGui::GetContentRegionAvail().x * 0.5f));
  if (ImGui::InputTextWithHint("##sentence", "Type a sentence...", &ui.text_buffer)) {
    // Every keystroke recomputes: the heatmaps below already show the new text this frame.
    controller.apply([&](app::AppState& s) { return app::set_text(s, ui.text_buffer); }, /*merge_key=*/1);
  }
  ui.text_active = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivated()) controller.end_merge();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The input sentence. It is split into words and punctuation (at most 64 tokens).");
}

void draw_model_controls(app::Controller& controller) {
  const app::AppState& state = controller.state();
  const Model& model = state.document.model;
  int heads = model.layers[0].head_count();
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Heads");
  ImGui::SameLine();
  ImGui::PushID("heads");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  bool changed = ImGui::SliderInt("##count", &heads, 1, kMaxHeads);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Number of attention heads in every layer (1-16).");
  ImGui::SameLine(0, 2);
  if (ImGui::Button("-") && heads > 1) { --heads; changed = true; }
  ImGui::SameLine(0, 2);
  if (ImGui::Button("+") && heads < kMaxHeads) { ++heads; changed = true; }
  ImGui::PopID();
  if (changed) {
    controller.apply([heads](app::AppState& s) {
      for (int l = 0; l < static_cast<int>(s.document.model.layers.size()); ++l)
        if (auto error = app::set_head_count(s, l, heads); !error.empty()) return error;
      return std::string();
    });
  }
  help_marker("Each head has its own W_Q, W_K and W_V. Heads that stay keep their weights; a new head "
              "starts from a fresh random initialisation.");
}

void head_tooltip(const app::AppState& state, int layer, int head, int row, int col) {
  const Matrix& A = state.trace.layers[layer].heads[head].attention;
  const Tokens& tokens = state.input.tokens;
  ImGui::BeginTooltip();
  ImGui::Text("Layer %d, head %d", layer, head);
  ImGui::Separator();
  ImGui::Text("query  \"%s\"  (row %d)", tokens[row].text.c_str(), row);
  ImGui::Text("key    \"%s\"  (column %d)", tokens[col].text.c_str(), col);
  ImGui::Text("weight %.6f", A(row, col));
  ImGui::TextDisabled("Row %d sums to 1: this is the share of \"%s\"'s attention.", row, tokens[row].text.c_str());
  ImGui::EndTooltip();
}

void draw_heads_grid(app::Controller& controller, LabUiState& ui, const std::vector<std::string>& tokens) {
  const app::AppState& state = controller.state();
  const Model& model = state.document.model;
  const float font = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legend_w = font * 4.0f;
  int max_heads = 1;
  for (const Layer& l : model.layers) max_heads = std::max(max_heads, l.head_count());
  const int layer_count = static_cast<int>(model.layers.size());
  // Columns: as many as fit with a readable cell; wrap heads onto extra rows otherwise.
  const float grid_w = avail.x - legend_w - font;
  const float min_tile = font * 12.0f;
  const int columns = std::clamp(static_cast<int>(grid_w / min_tile), 1, max_heads);
  const int rows_per_layer = (max_heads + columns - 1) / columns;
  const float caption = font * 1.6f;
  const float tile_w = grid_w / columns - ImGui::GetStyle().ItemSpacing.x;
  const float tile_h_fit = (avail.y - font) / static_cast<float>(layer_count * rows_per_layer) - caption -
                           ImGui::GetStyle().ItemSpacing.y * 2;
  const float tile = std::max(min_tile * 0.8f, std::min(tile_w, tile_h_fit));

  ImGui::BeginChild("heads_grid", ImVec2(grid_w, avail.y), false);
  for (int l = 0; l < layer_count; ++l) {
    const Layer& layer = model.layers[l];
    for (int h = 0; h < layer.head_count(); ++h) {
      if (h % columns != 0) ImGui::SameLine();
      ImGui::BeginGroup();
      ImGui::PushID(l * 64 + h);
      const bool selected = state.selection.layer == l && state.selection.head == h;
      if (selected) ImGui::TextColored(ImGui::GetStyle().Colors[ImGuiCol_CheckMark], "Layer %d  Head %d", l, h);
      else ImGui::Text("Layer %d  Head %d", l, h);
      HeatmapOptions options;
      options.tokens = &tokens;
      options.highlight_token = ui.hovered_token;
      options.selected = selected;
      options.show_values = true;
      char id[32];
      std::snprintf(id, sizeof id, "heatmap_%d_%d", l, h);
      const HeatmapResult r = heatmap(id, state.trace.layers[l].heads[h].attention, ImVec2(tile, tile), options);
      if (r.hovered_row >= 0) {
        head_tooltip(state, l, h, r.hovered_row, r.hovered_col);
        ui.next_hovered_token = r.hovered_col;
      }
      if (r.clicked) controller.apply_without_history([l, h](app::AppState& s) { return app::select_head(s, l, h); });
      ImGui::PopID();
      ImGui::EndGroup();
    }
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextDisabled("weight");
  colour_legend("legend", std::min(avail.y - font * 2, font * 16));
  ImGui::EndGroup();
}

void draw_notices(const app::AppState& state) {
  if (state.notices.empty()) return;
  const app::Notice& last = state.notices.back();
  const ImVec4 colour = last.level == app::NoticeLevel::error     ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                        : last.level == app::NoticeLevel::warning ? ImVec4(1.0f, 0.8f, 0.3f, 1.0f)
                                                                  : ImGui::GetStyle().Colors[ImGuiCol_Text];
  ImGui::TextColored(colour, "%s", last.text.c_str());
}

}  // namespace

void draw_lab_window(app::Controller& controller, LabUiState& ui) {
  ui.hovered_token = ui.next_hovered_token;
  ui.next_hovered_token = -1;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("HeadLab", nullptr, kFlags);
  ImGui::TextColored(ImGui::GetStyle().Colors[ImGuiCol_CheckMark], "HeadLab");
  ImGui::SameLine();
  ImGui::TextDisabled("multi-head attention, live");
  draw_sentence_bar(controller, ui);
  draw_model_controls(controller);
  draw_notices(controller.state());
  ImGui::Separator();
  const std::vector<std::string> tokens = token_texts(controller.state());
  draw_heads_grid(controller, ui, tokens);
  ImGui::End();
}

}  // namespace headlab::ui
