// Weight editor for the selected head: W_Q, W_K, W_V (and the layer's W_O) as grids of cells
// coloured by value, rows named by input feature. Drag a cell up/down to change it (Shift: 10x
// faster, Alt: 10x finer), double-click or Ctrl-click to type an exact value, right-click a row or
// column name for row/column operations. Every change is an Action (undoable) and
// is visible in every view in the same frame.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "app/matrix_actions.h"
#include "imgui.h"
#include "ui/colormap.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/weight_entry.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

constexpr const char* kMatrixNames[4] = {"W_Q", "W_K", "W_V", "W_O"};

std::uint64_t cell_merge_key(const app::MatrixRef& ref, int row, int col) {
  // Consecutive drag steps on one cell merge into one undo step.
  return 0x1000000000ull + (static_cast<std::uint64_t>(ref.layer) << 40) + (static_cast<std::uint64_t>(ref.head) << 32) +
         (static_cast<std::uint64_t>(ref.which) << 28) + (static_cast<std::uint64_t>(row) << 14) + static_cast<std::uint64_t>(col);
}

void line_menu(PanelContext& context, const app::MatrixRef& ref, app::Axis axis, int index, const Matrix& m) {
  ActionSink& actions = context.actions;
  const bool is_row = axis == app::Axis::row;
  const Eigen::Index length = is_row ? m.cols() : m.rows();
  ImGui::TextDisabled(is_row ? context.tr("editor_row_n") : context.tr("editor_column_n"), index);
  TallItems tall;
  const auto scale = [&](double factor) {
    actions.emit(app::ScaleLine{ref.layer, ref.head, ref.which, axis, index, factor});
  };
  if (ImGui::MenuItem(with_id(context.tr("editor_zero"), "zero").c_str())) scale(0.0);
  if (ImGui::MenuItem(with_id(context.tr("editor_scale_x2"), "scalex2").c_str())) scale(2.0);
  if (ImGui::MenuItem(with_id(context.tr("editor_scale_x05"), "scalex0.5").c_str())) scale(0.5);
  if (ImGui::MenuItem(with_id(context.tr("editor_negate"), "negate").c_str())) scale(-1.0);
  if (ImGui::MenuItem(with_id(context.tr("editor_copy"), "copy").c_str())) {
    context.ui.line_clipboard.assign(length, 0.0f);
    for (Eigen::Index k = 0; k < length; ++k) context.ui.line_clipboard[k] = is_row ? m(index, k) : m(k, index);
  }
  const bool can_paste = static_cast<Eigen::Index>(context.ui.line_clipboard.size()) == length;
  if (ImGui::MenuItem(with_id(context.tr("editor_paste"), "paste").c_str(), nullptr, false, can_paste)) {
    actions.emit(app::SetLine{ref.layer, ref.head, ref.which, axis, index, context.ui.line_clipboard});
  }
}

void draw_grid(PanelContext& context, const app::MatrixRef& ref, const Matrix& m, float height) {
  LabUiState& ui = context.ui;
  const float font = ImGui::GetFontSize();
  const float cell_w = font * 3.3f, cell_h = font * 1.45f;
  const bool named_rows = ref.which != app::WeightMatrix::W_O;
  float label_w = font * 3.0f;
  if (named_rows)
    for (const auto& name : context.feature_names()) label_w = std::max(label_w, ImGui::CalcTextSize(name.c_str()).x + font);
  const float scale = std::max(1e-6f, m.cwiseAbs().maxCoeff());
  ImGui::BeginChild("grid", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
  register_rect(ui, ids::kEditorMatrix, ImGui::GetWindowPos(),
                ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x, ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  // Column header and row names centred in the cells' height, which is less than a touch frame's:
  // the frame padding a finger needs would push their text out of them.
  const ImVec2 padding(ImGui::GetStyle().FramePadding.x, 0.0f);
  ImGui::Dummy(ImVec2(label_w, cell_h));
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    ImGui::SameLine(0, 0);
    ImGui::PushID(static_cast<int>(c));
    char header[16];
    std::snprintf(header, sizeof header, "%d", static_cast<int>(c));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, padding);
    ImGui::Button(header, ImVec2(cell_w, cell_h));
    ImGui::PopStyleVar();
    item_tooltip(context.tr("editor_column_tip"));
    if (ImGui::BeginPopupContextItem("col_menu")) {
      line_menu(context, ref, app::Axis::column, static_cast<int>(c), m);
      ImGui::EndPopup();
    }
    ImGui::PopID();
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(m.rows()), cell_h + ImGui::GetStyle().ItemSpacing.y);
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      ImGui::PushID(r);
      std::string name = named_rows && r < static_cast<int>(context.feature_names().size())
                             ? context.feature_names()[r]
                             : format_text(context.tr("editor_wo_row_name"),
                                           r / std::max(1, context.state().document.model.layers[ref.layer].d_v), r);
      ImGui::PushStyleVar(ImGuiStyleVar_SelectableTextAlign, ImVec2(0.0f, 0.5f));
      ImGui::Selectable(name.c_str(), false, 0, ImVec2(label_w - ImGui::GetStyle().ItemSpacing.x, cell_h));
      ImGui::PopStyleVar();
      item_tooltip(named_rows ? context.tr("editor_row_tip") : context.tr("editor_wo_row_tip"));
      if (ImGui::BeginPopupContextItem("row_menu")) {
        line_menu(context, ref, app::Axis::row, r, m);
        ImGui::EndPopup();
      }
      for (int c = 0; c < m.cols(); ++c) {
        ImGui::SameLine(label_w, 0);
        ImGui::SetCursorPosX(label_w + c * cell_w);
        ImGui::PushID(c);
        const float v = m(r, c);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::InvisibleButton("cell", ImVec2(cell_w - 1, cell_h));
        register_item(ui, std::string(ids::kEditorCell) + "/" + std::to_string(r) + "/" + std::to_string(c));
        const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
        draw->AddRectFilled(p, ImVec2(p.x + cell_w - 1, p.y + cell_h), diverging_u32(v / scale), 2.0f);
        if (hovered || active) draw->AddRect(p, ImVec2(p.x + cell_w - 1, p.y + cell_h), IM_COL32(255, 64, 160, 255), 2.0f, 0, 2.0f);
        char text[24];
        std::snprintf(text, sizeof text, std::fabs(v) >= 100 ? "%.0f" : "%.2f", v);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        draw->AddText(ImVec2(p.x + (cell_w - ts.x) * 0.5f, p.y + (cell_h - ts.y) * 0.5f),
                      std::fabs(v / scale) > 0.55f ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 20, 28, 255), text);
        const ImGuiIO& io = ImGui::GetIO();
        if (hovered && (ImGui::IsMouseDoubleClicked(0) || (io.KeyCtrl && ImGui::IsMouseClicked(0))))
          open_weight_entry(ui, ref, r, c, v);
        else if (active && ImGui::IsMouseDragging(0, 1.0f) && !io.KeyCtrl && io.MouseDelta.y != 0.0f) {
          const float step = ui.drag_sensitivity * (io.KeyShift ? 10.0f : 1.0f) * (io.KeyAlt ? 0.1f : 1.0f) *
                             std::max(1.0f, scale * 0.25f);
          const double value = v - io.MouseDelta.y * step;
          context.actions.emit(app::SetWeight{ref.layer, ref.head, ref.which, r, c, value}, cell_merge_key(ref, r, c));
        }
        if (ImGui::IsItemDeactivated()) context.actions.end_merge();
        if (hovered && !active)
          ImGui::SetTooltip(context.tr("editor_cell_tip"), kMatrixNames[static_cast<int>(ref.which)], name.c_str(), c, v);
        ImGui::PopID();
      }
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
}

void preset_menu(PanelContext& context, int layer, int head) {
  const app::Language language = context.state().progress.language;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  if (ImGui::BeginCombo("##preset", context.tr("editor_presets"), ImGuiComboFlags_HeightLarge)) {
    TallItems tall;
    for (const Preset& preset : context.presets) {
      if (ImGui::Selectable(app::localized(preset.name, language).c_str()))
        context.actions.emit(app::ApplyPreset{layer, head, preset.id});
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26.0f);
        ImGui::TextUnformatted(app::localized(preset.description, language).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
      register_item(context.ui, "editor/preset/" + preset.id);
    }
    tall.end();
    ImGui::EndCombo();
  }
  register_item(context.ui, ids::kPresetCombo);
  item_tooltip(context.tr("editor_presets_tip"));
}

}  // namespace

void draw_weight_editor(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  LabUiState& ui = context.ui;
  const int layer = state.selection.layer, head = state.selection.head;
  const float font = ImGui::GetFontSize();
  ImGui::Text(context.tr("editor_head_title"), layer, head);
  int which = static_cast<int>(ui.editor_matrix);
  ImGui::SameLine();
  if (segmented("matrix", kMatrixNames, 4, which, &ui, ids::kEditorTabs)) ui.editor_matrix = static_cast<app::WeightMatrix>(which);
  const app::MatrixRef ref{layer, head, ui.editor_matrix};
  const Matrix* m = app::find_matrix(state, ref);
  if (!m) return;
  const Layer& model_layer = state.document.model.layers[layer];
  const char* what = ui.editor_matrix == app::WeightMatrix::W_Q   ? context.tr("editor_what_wq")
                     : ui.editor_matrix == app::WeightMatrix::W_K ? context.tr("editor_what_wk")
                     : ui.editor_matrix == app::WeightMatrix::W_V ? context.tr("editor_what_wv")
                                                                  : context.tr("editor_what_wo");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s (%d x %d): %s", kMatrixNames[which], static_cast<int>(m->rows()), static_cast<int>(m->cols()), what);
  ImGui::PopStyleColor();
  // Head actions.
  if (ui.editor_matrix != app::WeightMatrix::W_O) {
    if (ImGui::Button(with_id(context.tr("editor_randomize"), "randomizehead").c_str())) {
      context.actions.emit(app::ResetHead{layer, head, static_cast<std::uint32_t>(std::random_device{}())});
    }
    item_tooltip(context.tr("editor_randomize_tip"));
    ImGui::SameLine();
    if (ImGui::Button(with_id(context.tr("editor_reset"), "resethead").c_str())) {
      context.actions.emit(app::ResetHead{layer, head, state.document.model.seed});
    }
    item_tooltip(context.tr("editor_reset_tip"));
    flow_same_line(font * 7.0f);
    preset_menu(context, layer, head);
    flow_same_line(font * 5.0f);
    bool pruned = model_layer.heads[head].pruned;
    if (ImGui::Checkbox(with_id(context.tr("editor_pruned"), "pruned").c_str(), &pruned))
      context.actions.emit(app::SetPruned{layer, head, pruned});
    register_item(ui, ids::kEditorPruned);
    item_tooltip(context.tr("editor_pruned_tip"));
  }
  draw_grid(context, ref, *m, std::max(font * 6.0f, height - ImGui::GetCursorPosY() + ImGui::GetScrollY()));
  draw_weight_entry_popup(context);
  (void)width;
}

}  // namespace headlab::ui
