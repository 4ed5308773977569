#include "ui/lab_window.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/embedding.h"
#include "imgui.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/touch_scroll.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

void select_relative(ActionSink& actions, int layer_step, int head_step) {
  const app::AppState& state = actions.state();
  const int layers = static_cast<int>(state.document.model.layers.size());
  const int layer = std::clamp(state.selection.layer + layer_step, 0, layers - 1);
  const int heads = state.document.model.layers[layer].head_count();
  const int head = std::clamp(state.selection.head + head_step, 0, heads - 1);
  actions.emit(app::SelectHead{layer, head});
}

void handle_shortcuts(ActionSink& actions, LabUiState& ui) {
  const ImGuiIO& io = ImGui::GetIO();
  // In a text field the chords are the field's own undo.
  if (!io.WantTextInput)
    for (HistoryKey key : ui.history_keys) key == HistoryKey::undo ? actions.undo() : actions.redo();
  ui.history_keys.clear();
  if (io.WantTextInput) return;
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i) {
    switch (io.InputQueueCharacters[i]) {
      case '?': ui.show_help = !ui.show_help; break;
      case '1': ui.detail = DetailView::heatmap; break;
      case '2': ui.detail = DetailView::arcs; break;
      case '3': ui.detail = DetailView::concat; break;
      case '4': ui.detail = DetailView::training; break;
      case '5': ui.detail = DetailView::circuits; break;
      case '6': ui.detail = DetailView::query_key; break;
      case 'w': case 'W': ui.side = SidePanel::weights; break;
      case 'l': case 'L': ui.side = SidePanel::labels; break;
      case '[': select_relative(actions, 0, -1); break;
      case ']': select_relative(actions, 0, 1); break;
      case '{': select_relative(actions, -1, 0); break;
      case '}': select_relative(actions, 1, 0); break;
      default: break;
    }
  }
}

// A lesson step that points at a widget on a hidden tab opens that tab when the step starts (the
// learner can switch away afterwards); widget ids name their view by their prefix (widget_ids.h).
void open_highlighted_views(const app::AppState& state, const app::Resources& resources, LabUiState& ui) {
  const app::LessonProgress& p = state.progress;
  const std::pair<int, int> step{p.lesson, p.step};
  if (step == ui.shown_step) return;
  ui.shown_step = step;
  if (p.lesson < 0 || p.lesson >= static_cast<int>(resources.lessons.size()) ||
      p.step >= static_cast<int>(resources.lessons[p.lesson].steps.size()))
    return;
  const auto starts = [](const std::string& id, const char* prefix) { return id.rfind(prefix, 0) == 0; };
  bool tab_opened = false;  // a step naming several matrices starts on the first
  for (const std::string& id : resources.lessons[p.lesson].steps[p.step].highlight) {
    if (starts(id, ids::kPruningSection)) ui.reveal_pruning = true;
    app::WeightMatrix matrix{};
    if (!tab_opened && editor_tab_matrix(id, matrix)) {
      ui.editor_matrix = matrix;
      tab_opened = true;
    }
    if (starts(id, "labels")) ui.side = SidePanel::labels;
    else if (starts(id, "editor")) ui.side = SidePanel::weights;
    else if (starts(id, "train/")) ui.detail = DetailView::training;
    else if (starts(id, "arcs")) ui.detail = DetailView::arcs;
    else if (starts(id, "concat")) ui.detail = DetailView::concat;
    else if (starts(id, "circuits")) ui.detail = DetailView::circuits;
    else if (starts(id, "qkmap") || id == ids::kTabQueryKey || starts(id, "corpus")) {
      ui.detail = DetailView::query_key;
      ui.query_key.corpus_shown = starts(id, "corpus");
    }
    else if (starts(id, ids::kOverviewSummary) || starts(id, ids::kOverviewLayerProfile)) ui.overview_summary = true;
  }
}

// Labels for segmented(): each text under `keys` in the learner's language, with an ImGui id from
// `stable_ids` that does not change with the language.
template <int N>
struct TabLabels {
  std::string text[N];
  const char* labels[N];
  TabLabels(const PanelContext& context, const char* const (&keys)[N], const char* const (&stable_ids)[N]) {
    for (int i = 0; i < N; ++i) {
      text[i] = with_id(context.tr(keys[i]), stable_ids[i]);
      labels[i] = text[i].c_str();
    }
  }
  TabLabels(const TabLabels&) = delete;  // labels point into text
};

void draw_detail_area(PanelContext& context, float width, float height) {
  LabUiState& ui = context.ui;
  static const char* const kKeys[7] = {"window_heatmap", "window_arcs", "window_concat", "window_training",
                                       "window_circuits", "window_query_key", "window_predictions"};
  static const char* const kStableIds[7] = {"heatmap", "arcs", "concat&w_o", "training", "circuits", "qkmap", "predictions"};
  static const char* const kIds[7] = {ids::kTabHeatmap, ids::kTabArcs, ids::kTabConcat, ids::kTabTraining,
                                      ids::kTabCircuits, ids::kTabQueryKey, ids::kTabPredictions};
  static constexpr DetailView kViews[7] = {DetailView::heatmap, DetailView::arcs,
                                           DetailView::concat, DetailView::training, DetailView::circuits,
                                           DetailView::query_key, DetailView::predictions};
  const TabLabels<7> tabs(context, kKeys, kStableIds);
  // The predictions tab is there for models that predict (an unembedding: trained, checkpoint).
  const int tab_count = context.state().predictions.empty() ? 6 : 7;
  if (tab_count == 6 && ui.detail == DetailView::predictions) ui.detail = DetailView::heatmap;
  int view = static_cast<int>(std::find(kViews, kViews + tab_count, ui.detail) - kViews);
  const float top = ImGui::GetCursorPosY();
  if (segmented("detail_view", tabs.labels, tab_count, view, &ui, kIds)) ui.detail = kViews[view];
  const float content_h = height - (ImGui::GetCursorPosY() - top);  // the tabs take one row, or two on a phone
  switch (ui.detail) {
    case DetailView::heatmap: draw_head_detail(context, width, content_h); break;
    case DetailView::arcs: draw_arc_view(context, width, content_h); break;
    case DetailView::concat: draw_concat_view(context, width, content_h); break;
    case DetailView::training: draw_training_panel(context, width, content_h); break;
    case DetailView::circuits: draw_circuits_view(context, width, content_h); break;
    case DetailView::predictions: draw_predictions_view(context, width, content_h); break;
    case DetailView::query_key: draw_query_key_view(context, width, content_h); break;
  }
}

void draw_side_area(PanelContext& context, float width, float height) {
  LabUiState& ui = context.ui;
  static const char* const kKeys[2] = {"window_weights", "window_labels"};
  static const char* const kStableIds[2] = {"weights", "labels"};
  static const char* const kIds[2] = {ids::kTabWeights, ids::kTabLabels};
  const TabLabels<2> tabs(context, kKeys, kStableIds);
  int side = static_cast<int>(ui.side);
  const float top = ImGui::GetCursorPosY();
  if (segmented("side_view", tabs.labels, 2, side, &ui, kIds)) ui.side = static_cast<SidePanel>(side);
  const float content_h = height - (ImGui::GetCursorPosY() - top);
  if (ui.side == SidePanel::weights) draw_weight_editor(context, width, content_h);
  else draw_labels_panel(context, width, content_h);
}

void draw_wide(PanelContext& context) {
  LabUiState& ui = context.ui;
  const float font = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float status_h = ImGui::GetFrameHeightWithSpacing();
  const float body_h = std::max(font * 10.0f, avail.y - status_h);
  const float splitter_w = font * 0.45f + ImGui::GetStyle().ItemSpacing.x * 2;
  const float usable = avail.x - 2 * splitter_w;
  const float left_w = usable * ui.left_fraction, right_w = usable * ui.right_fraction;
  const float center_w = usable - left_w - right_w;
  ImGui::BeginGroup();
  // The learner's split, raised as far as three quarters of the column while a step needs more,
  // so its text, goal and Next show together; the heads overview keeps the rest.
  const float lesson_h = std::floor(std::max(body_h * ui.lesson_fraction, std::min(ui.lesson_wanted_height, body_h * 0.75f)));
  draw_lesson_panel(context, left_w, lesson_h);
  horizontal_splitter("split_lesson", ui.lesson_fraction, body_h, 0.15f, 0.85f, left_w);
  draw_heads_overview(context, left_w, body_h - lesson_h - ImGui::GetItemRectSize().y - ImGui::GetStyle().ItemSpacing.y * 2);
  ImGui::EndGroup();
  ImGui::SameLine();
  vertical_splitter("split_left", ui.left_fraction, usable, 0.12f, 0.5f, body_h, false);
  ImGui::SameLine();
  ImGui::BeginChild("detail_area", ImVec2(center_w, body_h), true);
  draw_detail_area(context, center_w - ImGui::GetStyle().WindowPadding.x * 2, body_h - ImGui::GetStyle().WindowPadding.y * 2);
  ImGui::EndChild();
  ImGui::SameLine();
  vertical_splitter("split_right", ui.right_fraction, usable, 0.18f, 0.5f, body_h, true);
  ImGui::SameLine();
  ImGui::BeginChild("side_area", ImVec2(right_w, body_h), true);
  draw_side_area(context, right_w - ImGui::GetStyle().WindowPadding.x * 2, body_h - ImGui::GetStyle().WindowPadding.y * 2);
  ImGui::EndChild();
  draw_status_bar(context);
}

// Phone-sized viewports: one scrolling column; each part can be collapsed.
void draw_stacked(PanelContext& context) {
  const float font = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x;
  draw_status_bar(context);
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader(with_id(context.tr("window_lesson"), "lesson").c_str())) {
    // The page scrolls on a phone: a step's panel is as tall as the step, text to Next, so nothing
    // in it scrolls on its own (up to most of a screen; the lesson list keeps a fixed height).
    const float wanted = context.ui.lesson_wanted_height;
    const float screen = ImGui::GetMainViewport()->WorkSize.y;
    draw_lesson_panel(context, width, wanted > 0.0f ? std::clamp(wanted, font * 12.0f, screen * 0.9f) : font * 22.0f);
  }
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader(with_id(context.tr("window_heads"), "heads").c_str()))
    draw_heads_overview(context, width, std::max(font * 10.0f, width * 0.75f));
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader(with_id(context.tr("window_selected_head"), "selectedhead").c_str())) {
    // Square views fill the width; the room above them holds the tabs, which wrap to a second row.
    // The Many sentences tab also needs room under its square plot for the picked sentence, or
    // for its counts and contexts.
    const float below = context.ui.detail == DetailView::query_key ? font * 14.0f : 0.0f;
    const float detail_h = width + font * 4.0f + ImGui::GetFrameHeightWithSpacing() + below;
    ImGui::BeginChild("detail_area", ImVec2(width, detail_h), true);
    draw_detail_area(context, width - font, detail_h - font);
    ImGui::EndChild();
  }
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader(with_id(context.tr("window_weights_and_labels"), "weightsandlabels").c_str())) {
    // Tall enough for the weight grid to show most of its rows under the head's controls (a
    // finger-sized row is 40 px); the page, not the panel, scrolls past it.
    const float side_h = std::max(font * 26.0f, ImGui::GetMainViewport()->WorkSize.y * 0.85f);
    ImGui::BeginChild("side_area", ImVec2(width, side_h), true);
    draw_side_area(context, width - font, side_h - font);
    ImGui::EndChild();
  }
}

}  // namespace

void draw_lab_window(app::Controller& controller, LabUiState& ui, CellTextures* cell_textures) {
  app::Dispatcher dispatcher(controller, nullptr);
  draw_lab_window(dispatcher, ui, cell_textures);
}

void draw_lab_window(app::Dispatcher& dispatcher, LabUiState& ui, CellTextures* cell_textures) {
  ActionSink actions(dispatcher);
  const app::Controller& controller = dispatcher.controller();
  if (cell_textures) cell_textures->new_frame();
  const app::Resources& resources = controller.resources();
  ui.hovered_token = ui.next_hovered_token;
  ui.next_hovered_token = -1;
  ui.widget_rects.clear();
  handle_shortcuts(actions, ui);
  touch_scroll(ui);
  const app::AppState& state = controller.state();
  if (state.training_request_serial != ui.shown_training_request) {
    ui.shown_training_request = state.training_request_serial;
    ui.detail = DetailView::training;
    ui.training_seed = static_cast<int>(state.training_request.seed);
    ui.training_view = TrainingView::progress;
  }
  open_highlighted_views(state, resources, ui);
  if (state.experiment_request_serial != ui.shown_experiment_request) {
    ui.shown_experiment_request = state.experiment_request_serial;
    ui.detail = DetailView::training;
    ui.training_view = TrainingView::comparison;
  }
  PanelContext context{actions, ui, resources.example_sentences, resources.presets, dispatcher.training(), cell_textures};

  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const bool phone = viewport->WorkSize.x < kPhoneWidth;
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                           ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (phone) flags &= ~ImGuiWindowFlags_NoScrollbar;
  ImGui::Begin("HeadLab", nullptr, flags);
  draw_top_bar(context);
  // Open by default only where there is room for it next to the lesson and the views.
  ImGui::SetNextItemOpen(!phone && viewport->WorkSize.y >= 900.0f, ImGuiCond_Once);
  const bool settings_open = ImGui::CollapsingHeader(with_id(context.tr("window_model_settings"), "modelsettings").c_str());
  register_item(ui, ids::kModelSettings);
  if (settings_open) draw_model_controls(context);
  if (phone) draw_stacked(context);
  else draw_wide(context);
  ImGui::End();
  draw_help_overlay(context);
  draw_lesson_highlights(context);
}

}  // namespace headlab::ui
