// Head detail: the selected head's attention as a large heatmap with named axes, a legend, and a
// tooltip that explains each cell (weight, logit, the features that make the logit).
#include <algorithm>
#include <cmath>

#include "engine/logit_attribution.h"
#include "imgui.h"
#include "ui/figure_svg.h"
#include "ui/format_text.h"
#include "ui/head_caption.h"
#include "ui/heatmap.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

void contribution_lines(const char* side, const std::vector<FeatureContribution>& terms,
                        const std::vector<std::string>& feature_names) {
  if (terms.empty()) return;
  ImGui::TextDisabled("%s", side);
  for (const FeatureContribution& t : terms) {
    const char* name = t.feature < static_cast<int>(feature_names.size()) ? feature_names[t.feature].c_str() : "?";
    ImGui::Text("  %-8s %+.3f", name, t.value);
  }
}

void cell_tooltip(const PanelContext& context, int layer, int head, int row, int col) {
  const app::AppState& state = context.state();
  const LayerTrace& lt = state.trace.layers[layer];
  const HeadTrace& ht = lt.heads[head];
  const LogitAttribution attribution =
      attribute_logit(lt.input, state.document.model.layers[layer].heads[head], ht, row, col, 3);
  ImGui::BeginTooltip();
  ImGui::Text(context.tr("detail_cell_pair"), context.tokens()[row].c_str(), row, context.tokens()[col].c_str(), col);
  ImGui::Separator();
  ImGui::Text(context.tr("detail_weight"), ht.attention(row, col));
  if (std::isfinite(attribution.logit))
    ImGui::Text(context.tr("detail_logit"), attribution.logit);
  else
    ImGui::TextUnformatted(context.tr("detail_logit_masked"));
  if (std::isfinite(attribution.logit)) {
    ImGui::TextDisabled("%s", context.tr("detail_largest"));
    contribution_lines(context.tr("detail_query_features"), attribution.query_side, context.feature_names());
    contribution_lines(context.tr("detail_key_features"), attribution.key_side, context.feature_names());
  }
  ImGui::EndTooltip();
}

}  // namespace

void draw_head_detail(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  LabUiState& ui = context.ui;
  const int layer = state.selection.layer, head = state.selection.head;
  const float font = ImGui::GetFontSize();
  // The title, part of the figure a PNG export takes: layer, head and label, then the sentence.
  const ImVec2 title_min = ImGui::GetCursorScreenPos();
  ImGui::Text(context.tr("detail_head_title"), layer, head);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", head_caption(state, layer, head, context.words()).c_str());
  // The formula when it fits on the line, a shorter reminder when only that does: never cut.
  ImGui::SameLine();
  const float room = ImGui::GetContentRegionAvail().x;
  // The formula of the model's normalisation (engine/model.h): only softmax rows sum to 1.
  const AttentionNormalization kind = state.document.model.attention;
  const bool softmax = kind == AttentionNormalization::softmax;
  const char* const formula = context.tr(softmax ? "detail_formula"
                                         : kind == AttentionNormalization::sigmoid ? "detail_formula_sigmoid" : "detail_formula_plus_one");
  const char* const reminder = context.tr(softmax ? "detail_rows_sum" : "detail_rows_free");
  ImGui::TextDisabled("%s", ImGui::CalcTextSize(formula).x <= room ? formula : ImGui::CalcTextSize(reminder).x <= room ? reminder : "");
  std::string sentence = state.document.input.text;
  if (state.document.input.kind != InputKind::text) {  // given words, a matrix or ids: their tokens
    sentence.clear();
    for (const std::string& token : context.tokens()) sentence += (sentence.empty() ? "" : " ") + token;
  }
  ImGui::TextDisabled("%s", fit_text("\"" + drawable_text(sentence) + "\"", width).c_str());
  register_rect(ui, ids::kDetailTitle, title_min, ImVec2(title_min.x + width, ImGui::GetItemRectMax().y));
  const float legend_w = font * 4.5f;
  const float size = std::max(font * 6.0f, std::min(width - legend_w - font, height - 2.0f * ImGui::GetFrameHeightWithSpacing()));
  HeatmapOptions options;
  options.tokens = &context.tokens();
  options.unknown = &context.unknown_tokens();
  options.show_axis_titles = true;
  options.key_title = context.tr("heatmap_key_title");
  options.query_title = context.tr("heatmap_query_title");
  options.empty_text = context.tr("heatmap_no_tokens");
  options.show_values = true;
  options.highlight_token = ui.hovered_token;
  options.max_cell = font * 4.0f;
  options.textures = context.cell_textures;
  const Matrix& attention = state.trace.layers[layer].heads[head].attention;
  // Long inputs (40-64 tokens) would shrink the cells below a label's height and the axes would go
  // blank: then the heatmap keeps readable cells and scrolls inside its area instead.
  const float readable = font * 2.0f + font * 8.0f + static_cast<float>(attention.rows()) * font * 0.95f;
  const bool large = readable > size;
  if (large) {
    ImGui::BeginChild("detail_large", ImVec2(size, size), false, ImGuiWindowFlags_HorizontalScrollbar);
  }
  const HeatmapResult r = heatmap("detail", attention, large ? ImVec2(readable, readable) : ImVec2(size, size), options);
  ImVec2 figure_min = ImGui::GetItemRectMin(), figure_max = ImGui::GetItemRectMax();  // grid, labels, axis titles
  register_rect(ui, ids::kDetailHeatmap, ImVec2(r.geometry.grid_x, r.geometry.grid_y),
                ImVec2(r.geometry.grid_x + r.geometry.width(), r.geometry.grid_y + r.geometry.height()));
  if (large) {
    ImGui::EndChild();
    register_item(ui, ids::kDetailScroll);
    figure_min = ImGui::GetItemRectMin();  // what the scrolling area shows
    figure_max = ImGui::GetItemRectMax();
  }
  if (r.hovered_row >= 0) {
    cell_tooltip(context, layer, head, r.hovered_row, r.hovered_col);
    ui.next_hovered_token = r.hovered_col;
  }
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextDisabled("%s", context.tr("detail_legend"));
  colour_legend("detail_legend", std::min(size, font * 18.0f));
  ImGui::EndGroup();
  // The figure a PNG export takes: the title, the heatmap with its axes and the colour legend.
  figure_min = ImVec2(std::min(figure_min.x, title_min.x), std::min(figure_min.y, title_min.y));
  register_rect(ui, ids::kDetailFigure, figure_min,
                ImVec2(ImGui::GetItemRectMax().x, std::max(figure_max.y, ImGui::GetItemRectMax().y)));
  if (ui.pending_export == ExportKind::heatmap_svg) {
    HeatmapFigure figure;
    figure.title = format_text(context.tr("detail_head_title"), layer, head) + ": " + head_caption(state, layer, head, context.words());
    figure.sentence = sentence;
    figure.tokens = context.tokens();
    figure.unknown = context.unknown_tokens();
    figure.attention = attention;
    figure.key_title = context.tr("heatmap_key_title");
    figure.query_title = context.tr("heatmap_query_title");
    figure.legend_title = context.tr("detail_legend");
    ui.export_document = heatmap_svg(figure);
  }
}

}  // namespace headlab::ui
