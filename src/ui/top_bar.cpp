// Sentence bar (text, example picker), head/layer counts, undo/redo, export, theme and help.
#include <algorithm>
#include <string>

#include "imgui.h"
#include "imgui_stdlib.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/value_slider.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// "-  [slider]  +" for a count; returns true when the value changed.
bool count_control(LabUiState& ui, const char* id, const char* label, int& value, int lo, int hi, const char* tooltip,
                   const char* slider_id, const char* minus_id, const char* plus_id) {
  bool changed = false;
  ImGui::PushID(id);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
  if (ImGui::Button("-") && value > lo) { --value; changed = true; }
  if (minus_id) register_item(ui, minus_id);
  item_tooltip(tooltip);
  ImGui::SameLine(0, 2);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4.5f);
  if (value_slider_int("##count", &value, lo, hi)) changed = true;
  register_item(ui, slider_id);
  item_tooltip(tooltip);
  ImGui::SameLine(0, 2);
  if (ImGui::Button("+") && value < hi) { ++value; changed = true; }
  if (plus_id) register_item(ui, plus_id);
  item_tooltip(tooltip);
  ImGui::PopID();
  value = std::clamp(value, lo, hi);
  return changed;
}

}  // namespace

void draw_top_bar(PanelContext& context) {
  const app::AppState& state = context.state();
  LabUiState& ui = context.ui;
  ActionSink& actions = context.actions;
  const float font = ImGui::GetFontSize();
  const bool narrow = ImGui::GetContentRegionAvail().x < font * 50.0f;

  ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_CheckMark), "HeadLab");
  ImGui::SameLine();
  // Sentence.
  const std::string& text = state.document.input.text;
  if (!ui.text_active && ui.text_buffer != text) ui.text_buffer = text;  // changed elsewhere (undo, load)
  // The examples menu shows its whole name: on a touch screen its padding is larger.
  const char* examples_name = context.tr("top_examples");
  const float examples_width = ImGui::CalcTextSize(examples_name).x + 2.0f * ImGui::GetStyle().FramePadding.x + ImGui::GetFrameHeight();
  ImGui::SetNextItemWidth(narrow ? -(examples_width + ImGui::GetStyle().ItemSpacing.x)
                                 : std::max(font * 14.0f, ImGui::GetContentRegionAvail().x * 0.34f));
  // ImGui selects all of a field reached with Tab, so the next key (a Space) would replace the whole
  // sentence: a field entered from the keyboard keeps its text, with the cursor at its end.
  bool entered_by_keyboard = !ui.text_active && !ImGui::IsMouseDown(ImGuiMouseButton_Left);
  const auto keep_text = [](ImGuiInputTextCallbackData* data) {
    bool& fresh = *static_cast<bool*>(data->UserData);
    if (fresh) data->SelectionStart = data->SelectionEnd = data->CursorPos = data->BufTextLen;
    fresh = false;
    return 0;
  };
  if (ImGui::InputTextWithHint("##sentence", context.tr("top_sentence_hint"), &ui.text_buffer,
                               ImGuiInputTextFlags_CallbackAlways, keep_text, &entered_by_keyboard)) {
    // Each keystroke recomputes; the whole typing session is one undo step.
    actions.emit(app::SetText{ui.text_buffer}, /*merge_key=*/1);
  }
  register_item(ui, ids::kSentence);
  ui.text_active = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivated()) actions.end_merge();
  item_tooltip(context.tr("top_sentence_tip"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(examples_width);
  if (ImGui::BeginCombo("##examples", examples_name, ImGuiComboFlags_HeightLarge)) {
    TallItems tall;
    for (const std::string& example : context.example_sentences)
      if (ImGui::Selectable(example.c_str(), example == text)) actions.emit(app::SetText{example});
    tall.end();
    ImGui::EndCombo();
  }
  register_item(ui, ids::kExamples);
  item_tooltip(context.tr("top_examples_tip"));

  flow_same_line(font * 13.0f, font);
  const Model& model = state.document.model;
  // A checkpoint's counts are fixed by its weights (app::checkpoint_structure_refusal): shown, not set.
  const bool checkpoint = is_checkpoint_model(model);
  ImGui::BeginDisabled(checkpoint);
  int heads = model.layers[0].head_count();
  if (count_control(ui, "heads", context.tr("top_heads"), heads, 1, checkpoint ? kMaxCheckpointHeads : kMaxHeads,
                    context.tr(checkpoint ? "checkpoint_structure_locked" : "top_heads_tip"), ids::kHeadCount,
                    ids::kHeadCountMinus, ids::kHeadCountPlus) &&
      !checkpoint) {
    actions.emit(app::SetHeadCount{heads, std::nullopt});
  }
  flow_same_line(font * 13.0f, font * 0.6f);
  int layers = static_cast<int>(model.layers.size());
  if (count_control(ui, "layers", context.tr("top_layers"), layers, 1, checkpoint ? kMaxCheckpointLayers : kMaxLayers,
                    context.tr(checkpoint ? "checkpoint_structure_locked" : "top_layers_tip"), ids::kLayerCount, nullptr,
                    nullptr) &&
      !checkpoint)
    actions.emit(app::SetLayerCount{layers});
  ImGui::EndDisabled();

  flow_same_line(font * 7.0f, font * 0.6f);
  ImGui::BeginDisabled(!actions.can_undo());
  if (ImGui::Button(with_id(context.tr("top_undo"), "undo").c_str())) actions.undo();
  register_item(ui, ids::kUndo);
  item_tooltip(context.tr("top_undo_tip"));
  ImGui::EndDisabled();
  ImGui::SameLine(0, 2);
  ImGui::BeginDisabled(!actions.can_redo());
  if (ImGui::Button(with_id(context.tr("top_redo"), "redo").c_str())) actions.redo();
  register_item(ui, ids::kRedo);
  item_tooltip(context.tr("top_redo_tip"));
  ImGui::EndDisabled();
  flow_same_line(font * 9.0f, font * 0.6f);
  if (ImGui::Button(with_id(context.tr("top_export"), "export/share").c_str())) ImGui::OpenPopup("export_menu");
  register_item(ui, ids::kExportPng);
  item_tooltip(context.tr("top_export_tip"));
  if (ImGui::BeginPopup("export_menu")) {
    struct Choice {
      const char* label_key;  // ui_text.json
      const char* id;         // registered rectangle, and the item's ImGui id in every language
      ExportKind kind;
    };
    static const Choice kChoices[] = {
        {"top_export_heatmap_png", "export/heatmap_png", ExportKind::heatmap_png},
        {"top_export_arcs_png", "export/arcs_png", ExportKind::arcs_png},
        {"top_export_heatmap_svg", "export/heatmap_svg", ExportKind::heatmap_svg},
        {"top_export_arcs_svg", "export/arcs_svg", ExportKind::arcs_svg},
        {"top_export_screen_png", "export/screen_png", ExportKind::screen_png},
        {"top_export_heatmap_csv", "export/heatmap_csv", ExportKind::heatmap_csv},
        {"top_export_model_json", "export/model_json", ExportKind::model_json},
        {"top_export_share_link", "export/share_link", ExportKind::share_link},
        {"top_export_import", "export/import", ExportKind::import_file}};
    TallItems tall;
    for (const Choice& choice : kChoices) {
      if (ImGui::MenuItem(with_id(context.tr(choice.label_key), choice.id).c_str())) {
        ui.pending_export = choice.kind;
        // The PNG must show the view it names, for the frame it is taken in; then the learner's
        // own view comes back (the platform restores it).
        ui.detail_before_export = ui.detail;
        if (choice.kind == ExportKind::heatmap_png || choice.kind == ExportKind::heatmap_svg) ui.detail = DetailView::heatmap;
        if (choice.kind == ExportKind::arcs_png || choice.kind == ExportKind::arcs_svg) ui.detail = DetailView::arcs;
      }
      register_item(ui, choice.id);
    }
    tall.end();
    ImGui::EndPopup();
  }
  ImGui::SameLine(0, 2);
  const bool dark = state.preferences.theme == "dark";
  const std::string theme_label =
      dark ? with_id(context.tr("top_theme_light"), "light") : with_id(context.tr("top_theme_dark"), "dark");
  if (ImGui::Button(theme_label.c_str()))
    actions.emit(app::SetTheme{dark ? app::Theme::light : app::Theme::dark});
  item_tooltip(context.tr("top_theme_tip"));
  ImGui::SameLine(0, 2);
  if (ImGui::Button("?")) ui.show_help = !ui.show_help;
  register_item(ui, ids::kHelp);
  item_tooltip(context.tr("top_help_tip"));
}

}  // namespace headlab::ui
