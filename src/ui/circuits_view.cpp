// Circuits tab: the selected head's weights read as circuits (Elhage et al. 2021, "A Mathematical
// Framework for Transformer Circuits"): the QK circuit W_Q W_K^T and the OV circuit W_V W_O^h as
// d_model x d_model matrices over the named input features, the OV copying score, and the Q-, K- and
// V-composition of every head pair of two adjacent layers. The numbers come from the engine's
// circuits functions on the const state, cached in LabUiState until the model or selection changes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/colormap.h"
#include "ui/heatmap.h"
#include "ui/matrix_view.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

constexpr float kGridLabelEm = 2.6f;
constexpr int kStrongestShown = 3;  // entries listed under each circuit  // width of a composition grid's row labels ("H12"), in font heights

// The k non-zero entries of largest magnitude, largest first.
void find_strongest(const Matrix& m, int k, std::vector<CircuitsCache::Entry>& out) {
  out.clear();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (m(i, j) != 0.0f) out.push_back({static_cast<int>(i), static_cast<int>(j), m(i, j)});
  const auto larger = [](const CircuitsCache::Entry& a, const CircuitsCache::Entry& b) {
    return std::fabs(a.value) > std::fabs(b.value);
  };
  const std::size_t shown = std::min<std::size_t>(k, out.size());
  std::partial_sort(out.begin(), out.begin() + shown, out.end(), larger);
  out.resize(shown);
}

void refresh(const app::AppState& state, CircuitsCache& c) {
  const int layer = state.selection.layer, head = state.selection.head;
  if (c.revision == state.revision && c.layer == layer && c.head == head) return;
  const Model& model = state.document.model;
  c.qk = analysis::qk_circuit(model, layer, head);
  c.ov = analysis::ov_circuit(model, layer, head);
  c.copying = analysis::ov_copying_score(model, layer, head);
  find_strongest(c.qk, kStrongestShown, c.qk_strongest);
  find_strongest(c.ov, kStrongestShown, c.ov_strongest);
  const int layers = static_cast<int>(model.layers.size());
  if (layers >= 2) {
    // The pair the selected head belongs to: its layer and the next, or the last two layers.
    c.layer_a = std::min(layer, layers - 2);
    c.layer_b = c.layer_a + 1;
    c.composition = analysis::composition_scores(model, c.layer_a, c.layer_b);
    const Layer& a = model.layers[c.layer_a];
    const Layer& b = model.layers[c.layer_b];
    const int shape[4] = {model.d_model, a.d_v, b.d_k, b.d_v};
    if (!std::equal(shape, shape + 4, c.baseline_shape)) {
      c.baseline = analysis::composition_baseline(shape[0], shape[1], shape[2], shape[3]);
      std::copy(shape, shape + 4, c.baseline_shape);
    }
  } else {
    c.layer_a = c.layer_b = -1;
  }
  c.revision = state.revision;
  c.layer = layer;
  c.head = head;
}

const char* feature(const std::vector<std::string>& names, int i) {
  return i >= 0 && i < static_cast<int>(names.size()) ? names[i].c_str() : "?";
}

// "row -> column +v" lines: on the named-feature embedding they read as sentences ("adj looks
// for noun +2.3": adjectives look for nouns).
void strongest_entries(const std::vector<CircuitsCache::Entry>& entries, const std::vector<std::string>& names,
                       const char* arrow) {
  for (const CircuitsCache::Entry& e : entries)
    ImGui::Text("  %-9s %s %-9s %+.2f", feature(names, e.row), arrow, feature(names, e.col), e.value);
}

// One circuit with feature names along both axes when they fit, and a tooltip that reads the
// hovered entry as a sentence.
void circuit(const PanelContext& context, const char* id, const Matrix& m, const std::vector<std::string>& names, float side,
             bool qk) {
  const float font = ImGui::GetFontSize();
  const int d = static_cast<int>(m.rows());
  const bool named = d > 0 && side / d >= font * 0.8f;  // the same test draw_circuits_view sized `side` by
  const float label_w = named ? font * 4.2f : 0.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  if (named) {
    const float cell = side / d;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (int j = 0; j < d; ++j)  // column names, reading upwards above the matrix
      add_column_label(draw, ImVec2(top_left.x + label_w + j * cell + (cell - font) * 0.5f, top_left.y + label_w - 2),
                       text, feature(names, j), label_w - 2);
    for (int i = 0; i < d; ++i)
      draw->AddText(ImVec2(top_left.x, top_left.y + label_w + i * cell + (cell - font) * 0.5f), text, feature(names, i));
    ImGui::Dummy(ImVec2(label_w, label_w));
    ImGui::SetCursorScreenPos(ImVec2(top_left.x + label_w, top_left.y + label_w));
  }
  int row = -1, col = -1;
  matrix_view(id, m, ImVec2(side, side), 0.0f, &row, &col, context.cell_textures);
  register_item(context.ui, std::string(ids::kCircuitPrefix) + id);
  const bool hovered = row >= 0;
  if (named) ImGui::SetCursorScreenPos(ImVec2(top_left.x + label_w, ImGui::GetCursorScreenPos().y));
  diverging_legend(m, 0.0f, side);
  if (!hovered) return;
  ImGui::BeginTooltip();
  const float v = m(row, col);
  if (qk) {
    ImGui::Text("QK[%s, %s] = %+.3f", feature(names, row), feature(names, col), v);
    ImGui::TextDisabled(context.tr("circuits_qk_tip"), feature(names, row),
                        v >= 0 ? context.tr("circuits_more") : context.tr("circuits_less"), feature(names, col));
    ImGui::TextDisabled("%s", context.tr("circuits_qk_tip_note"));
  } else {
    ImGui::Text("OV[%s, %s] = %+.3f", feature(names, row), feature(names, col), v);
    ImGui::TextDisabled(context.tr("circuits_ov_tip"), feature(names, row), v, feature(names, col));
  }
  ImGui::EndTooltip();
}

// A (heads of layer_a) x (heads of layer_b) grid of scores in [0, 1] with the value in each cell.
void composition_grid(const char* title, const Matrix& scores, int layer_a, int layer_b, int selected_a,
                      int selected_b, bool has_strongest, int strongest_a, int strongest_b, float cell) {
  const float font = ImGui::GetFontSize();
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const int rows = static_cast<int>(scores.rows()), cols = static_cast<int>(scores.cols());
  const float label = font * kGridLabelEm;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  char text[32];
  for (int j = 0; j < cols; ++j) {
    std::snprintf(text, sizeof text, "H%d", j);
    draw->AddText(ImVec2(origin.x + label + j * cell + cell * 0.3f, origin.y), dim, text);
  }
  for (int i = 0; i < rows; ++i) {
    std::snprintf(text, sizeof text, "H%d", i);
    draw->AddText(ImVec2(origin.x, origin.y + font + i * cell + (cell - font) * 0.5f), dim, text);
    for (int j = 0; j < cols; ++j) {
      const float v = scores(i, j);
      const ImVec2 a(origin.x + label + j * cell, origin.y + font + i * cell);
      const ImVec2 b(a.x + cell - 1, a.y + cell - 1);
      const Rgb colour = viridis(std::clamp(v, 0.0f, 1.0f));
      draw->AddRectFilled(a, b, viridis_u32(std::clamp(v, 0.0f, 1.0f)));
      std::snprintf(text, sizeof text, "%.2f", v);
      if (cell >= font * 2.0f)
        draw->AddText(ImVec2(a.x + 3, a.y + (cell - font) * 0.5f), contrasting_text_u32(colour), text);
      if (has_strongest && i == strongest_a && j == strongest_b)
        draw->AddRect(a, b, IM_COL32(255, 64, 160, 255), 0.0f, 0, 3.0f);
      else if (i == selected_a || j == selected_b)
        draw->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border), 0.0f, 0, 1.0f);
    }
  }
  ImGui::Dummy(ImVec2(label + cols * cell, font + rows * cell));
  if (ImGui::IsItemHovered()) {
    const ImVec2 p = ImGui::GetIO().MousePos;
    const int i = static_cast<int>((p.y - origin.y - font) / cell), j = static_cast<int>((p.x - origin.x - label) / cell);
    if (i >= 0 && i < rows && j >= 0 && j < cols)
      ImGui::SetTooltip("L%dH%d -> L%dH%d: %.3f", layer_a, i, layer_b, j, scores(i, j));
  }
  ImGui::EndGroup();
}

void draw_composition(const PanelContext& context, const CircuitsCache& c, float width) {
  const app::AppState& state = context.state();
  if (c.layer_a < 0) {
    ImGui::TextDisabled("%s", context.tr("circuits_needs_two_layers"));
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text(context.tr("circuits_composition"), c.layer_a, c.layer_b);
  ImGui::PopTextWrapPos();
  const analysis::CompositionScores& s = c.composition;
  // The strongest pair over the three kinds, measured against each kind's chance level.
  int kind = -1, best_a = 0, best_b = 0;
  float best_ratio = 0.0f, best_score = 0.0f;
  const Matrix* grids[3] = {&s.q, &s.k, &s.v};
  const float chance[3] = {c.baseline.q, c.baseline.k, c.baseline.v};
  for (int k = 0; k < 3; ++k)
    for (Eigen::Index i = 0; i < grids[k]->rows(); ++i)
      for (Eigen::Index j = 0; j < grids[k]->cols(); ++j) {
        const float v = (*grids[k])(i, j);
        const float ratio = chance[k] > 0.0f ? v / chance[k] : v;
        if (std::isfinite(v) && v > 0.0f && ratio > best_ratio) {
          best_ratio = ratio, best_score = v, kind = k;
          best_a = static_cast<int>(i), best_b = static_cast<int>(j);
        }
      }
  const char* kKinds[3] = {"Q", "K", "V"};
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled(context.tr("circuits_composition_help"), c.baseline.q, c.baseline.k, c.baseline.v);
  ImGui::PopTextWrapPos();
  if (kind >= 0)
    ImGui::Text(context.tr("circuits_strongest_pair"), c.layer_a, best_a, c.layer_b, best_b, kKinds[kind], best_score,
                best_ratio);
  const int heads_b = std::max<int>(1, static_cast<int>(s.k.cols()));
  const float font = ImGui::GetFontSize();
  // Cells wide enough for their value; the three grids share a line when they fit, else stack.
  const float grid_label = font * kGridLabelEm;
  const float cell = std::clamp((width / 3.0f - grid_label - font) / heads_b, font * 2.2f, font * 3.0f);
  const bool one_line = 3.0f * (grid_label + heads_b * cell) + 2.0f * font <= width;
  const int sel_a = state.selection.layer == c.layer_a ? state.selection.head : -1;
  const int sel_b = state.selection.layer == c.layer_b ? state.selection.head : -1;
  const char* kTitles[3] = {"circuits_q_composition", "circuits_k_composition", "circuits_v_composition"};  // keys
  for (int k = 0; k < 3; ++k) {
    if (k > 0 && one_line) ImGui::SameLine(0.0f, font);
    composition_grid(context.tr(kTitles[k]), *grids[k], c.layer_a, c.layer_b, sel_a, sel_b, kind == k, best_a, best_b, cell);
  }
}

}  // namespace

void draw_circuits_view(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  CircuitsCache& c = context.ui.circuits;
  refresh(state, c);
  const float font = ImGui::GetFontSize();
  ImGui::BeginChild("circuits_scroll", ImVec2(width, height), false);
  // Lay out within the child's own content width, less a scrollbar it may grow.
  width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  ImGui::Text(context.tr("circuits_title"), c.layer, c.head);
  ImGui::SameLine();
  help_marker(context.tr("circuits_help"));
  // Both circuits side by side when the area is wide enough, each as large as fits; feature names
  // along the axes when a cell is tall enough for a line of text.
  const int d = std::max(1, static_cast<int>(c.qk.rows()));
  const bool side_by_side = width >= font * 30.0f;
  const auto fit = [&](float label_w) {
    const float across = side_by_side ? (width - font) * 0.5f - label_w : width - label_w;
    return std::max(font * 6.0f, std::min(across, std::max(font * 8.0f, height * 0.6f - label_w)));
  };
  float side = fit(font * 4.2f);
  if (side / d < font * 0.8f) side = fit(0.0f);
  const std::vector<std::string>& names = context.feature_names();
  ImGui::BeginGroup();
  ImGui::TextUnformatted(context.tr("circuits_qk_title"));
  ImGui::TextDisabled("%s", context.tr("circuits_qk_axes"));
  circuit(context, "qk", c.qk, names, side, true);
  ImGui::TextDisabled("%s", context.tr("circuits_strongest"));
  strongest_entries(c.qk_strongest, names, context.tr("circuits_looks_for"));
  ImGui::EndGroup();
  if (side_by_side) ImGui::SameLine(0.0f, font);
  ImGui::BeginGroup();
  ImGui::TextUnformatted(context.tr("circuits_ov_title"));
  ImGui::TextDisabled("%s", context.tr("circuits_ov_axes"));
  circuit(context, "ov", c.ov, names, side, false);
  if (std::isfinite(c.copying))
    ImGui::Text(context.tr("circuits_copying"), c.copying);
  else
    ImGui::TextUnformatted(context.tr("circuits_copying_na"));
  ImGui::SameLine();
  help_marker(context.tr("circuits_copying_help"));
  ImGui::TextDisabled("%s", context.tr("circuits_strongest"));
  strongest_entries(c.ov_strongest, names, context.tr("circuits_writes"));
  ImGui::EndGroup();
  ImGui::Separator();
  draw_composition(context, c, width);
  ImGui::EndChild();
}

}  // namespace headlab::ui
