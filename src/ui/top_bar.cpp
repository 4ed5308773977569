// Sentence bar (text, example picker), head/layer counts, undo/redo, export, theme and help.
#include <algorithm>

#include "imgui.h"
#include "imgui_stdlib.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
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
  if (ImGui::SliderInt("##count", &value, lo, hi)) changed = true;
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
  ImGui::SetNextItemWidth(narrow ? -font * 6.0f : std::max(font * 14.0f, ImGui::GetContentRegionAvail().x * 0.34f));
  // ImGui selects all of a field reached with Tab, so the next key (a Space) would replace the whole
  // sentence: a field entered from the keyboard keeps its text, with the cursor at its end.
  bool entered_by_keyboard = !ui.text_active && !ImGui::IsMouseDown(ImGuiMouseButton_Left);
  const auto keep_text = [](ImGuiInputTextCallbackData* data) {
    bool& fresh = *static_cast<bool*>(data->UserData);
    if (fresh) data->SelectionStart = data->SelectionEnd = data->CursorPos = data->BufTextLen;
    fresh = false;
    return 0;
  };
  if (ImGui::InputTextWithHint("##sentence", "Type a sentence...", &ui.text_buffer, ImGuiInputTextFlags_CallbackAlways, keep_text,
                               &entered_by_keyboard)) {
    // Each keystroke recomputes; the whole typing session is one undo step.
    actions.emit(app::SetText{ui.text_buffer}, /*merge_key=*/1);
  }
  register_item(ui, ids::kSentence);
  ui.text_active = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivated()) actions.end_merge();
  item_tooltip("The input sentence, split into words and punctuation (at most 64 tokens). Every edit updates all heads.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 6.5f);
  if (ImGui::BeginCombo("##examples", "Examples", ImGuiComboFlags_HeightLarge)) {
    for (const std::string& example : context.example_sentences)
      if (ImGui::Selectable(example.c_str(), example == text)) actions.emit(app::SetText{example});
    ImGui::EndCombo();
  }
  register_item(ui, ids::kExamples);
  item_tooltip("Pick an example sentence (some have a hand-checked parse, used by the syntactic labels).");

  flow_same_line(font * 13.0f, font);
  const Model& model = state.document.model;
  int heads = model.layers[0].head_count();
  if (count_control(ui, "heads", "Heads", heads, 1, kMaxHeads,
                    "Heads per layer (1-16). Heads that stay keep their weights; new heads start from a fresh "
                    "random initialisation.",
                    ids::kHeadCount, ids::kHeadCountMinus, ids::kHeadCountPlus)) {
    actions.emit(app::SetHeadCount{heads, std::nullopt});
  }
  flow_same_line(font * 13.0f, font * 0.6f);
  int layers = static_cast<int>(model.layers.size());
  if (count_control(ui, "layers", "Layers", layers, 1, kMaxLayers,
                    "Stacked attention layers (1-6). Layer l+1 reads the output of layer l.", ids::kLayerCount, nullptr,
                    nullptr))
    actions.emit(app::SetLayerCount{layers});

  flow_same_line(font * 7.0f, font * 0.6f);
  ImGui::BeginDisabled(!actions.can_undo());
  if (ImGui::Button("Undo")) actions.undo();
  register_item(ui, ids::kUndo);
  item_tooltip("Undo the last edit (Ctrl+Z).");
  ImGui::EndDisabled();
  ImGui::SameLine(0, 2);
  ImGui::BeginDisabled(!actions.can_redo());
  if (ImGui::Button("Redo")) actions.redo();
  register_item(ui, ids::kRedo);
  item_tooltip("Redo (Ctrl+Shift+Z or Ctrl+Y).");
  ImGui::EndDisabled();
  flow_same_line(font * 9.0f, font * 0.6f);
  if (ImGui::Button("Export / Share")) ImGui::OpenPopup("export_menu");
  register_item(ui, ids::kExportPng);
  item_tooltip("Save a picture, the attention as CSV or the model file; share a link; open a file (or drop a .json on the page).");
  if (ImGui::BeginPopup("export_menu")) {
    struct Choice {
      const char* label;
      const char* id;
      ExportKind kind;
    };
    static const Choice kChoices[] = {
        {"Heatmap of the selected head (PNG)", "export/heatmap_png", ExportKind::heatmap_png},
        {"Arc view (PNG)", "export/arcs_png", ExportKind::arcs_png},
        {"Whole screen (PNG)", "export/screen_png", ExportKind::screen_png},
        {"Attention of the selected head (CSV)", "export/heatmap_csv", ExportKind::heatmap_csv},
        {"Model file (JSON)", "export/model_json", ExportKind::model_json},
        {"Copy a share link", "export/share_link", ExportKind::share_link},
        {"Open a model or saved lab (JSON)...", "export/import", ExportKind::import_file}};
    for (const Choice& choice : kChoices) {
      if (ImGui::MenuItem(choice.label)) {
        ui.pending_export = choice.kind;
        // The PNG must show the view it names, for the frame it is taken in; then the learner's
        // own view comes back (the platform restores it).
        ui.detail_before_export = ui.detail;
        if (choice.kind == ExportKind::heatmap_png) ui.detail = DetailView::heatmap;
        if (choice.kind == ExportKind::arcs_png) ui.detail = DetailView::arcs;
      }
      register_item(ui, choice.id);
    }
    ImGui::EndPopup();
  }
  ImGui::SameLine(0, 2);
  const bool dark = state.preferences.theme == "dark";
  if (ImGui::Button(dark ? "Light" : "Dark"))
    actions.emit(app::SetTheme{dark ? app::Theme::light : app::Theme::dark});
  item_tooltip("Switch between the dark and the light theme.");
  ImGui::SameLine(0, 2);
  if (ImGui::Button("?")) ui.show_help = !ui.show_help;
  register_item(ui, ids::kHelp);
  item_tooltip("Keyboard shortcuts and how to read the views (press ? any time).");
}

}  // namespace headlab::ui
