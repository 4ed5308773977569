#pragma once
// The lab's panels. Each draws the AppState (read-only) into the current ImGui window region and
// hands its changes to the ActionSink as Action values; UI-only state is in LabUiState.
#include <string>
#include <vector>

#include "app/resources.h"
#include "ui/action_sink.h"
#include "ui/cell_textures.h"
#include "ui/ui_state.h"
#include "ui/words.h"

namespace headlab::app {
class TrainingSession;
}

namespace headlab::ui {

struct PanelContext {
  ActionSink& actions;
  LabUiState& ui;
  const std::vector<std::string>& example_sentences;
  const std::vector<Preset>& presets;
  const app::TrainingSession* training = nullptr;  // in-page training, drawn only (absent: the tab says so)
  CellTextures* cell_textures = nullptr;  // heatmaps' and matrices' cells on the GPU (absent: shapes)
  const app::AppState& state() const { return actions.state(); }
  const app::Resources& resources() const { return actions.resources(); }
  // Token texts of the current input and names of the d_model input dimensions. They follow the
  // state through the frame: an edit in the top bar changes what the heatmap below it shows.
  const std::vector<std::string>& tokens() const { return texts().tokens; }
  const std::vector<char>& unknown_tokens() const { return texts().unknown; }
  const std::vector<std::string>& feature_names() const { return texts().features; }
  const StateTexts& texts() const;
  // A UI text in the learner's language (assets/ui_text.json); printf patterns go through format_text.
  Words words() const { return {resources(), state().progress.language}; }
  const char* tr(const char* key) const { return words()(key); }
};

void draw_top_bar(PanelContext& context);
void draw_model_controls(PanelContext& context);
// The file picker for model.safetensors + config.json (web/checkpoint.js), through the platform;
// `widget_id` names the button for tests and lessons.
void open_checkpoint_button(PanelContext& context, const char* widget_id);
void draw_heads_overview(PanelContext& context, float width, float height);
void draw_head_detail(PanelContext& context, float width, float height);
void draw_arc_view(PanelContext& context, float width, float height);
void draw_concat_view(PanelContext& context, float width, float height);
void draw_training_panel(PanelContext& context, float width, float height);
void draw_circuits_view(PanelContext& context, float width, float height);
void draw_predictions_view(PanelContext& context, float width, float height);
// Queries and keys of many sentences in one picture (AttentionViz).
void draw_query_key_view(PanelContext& context, float width, float height);
void draw_weight_editor(PanelContext& context, float width, float height);
void draw_labels_panel(PanelContext& context, float width, float height);
// Every head's share of attention on the first token and on punctuation (inside the labels panel).
void draw_sink_grid(PanelContext& context, float width);
// The pruning curve of the lab model (inside the labels panel).
void draw_pruning_curve(PanelContext& context, float width);
void draw_help_overlay(PanelContext& context);
void draw_status_bar(PanelContext& context);
void draw_lesson_panel(PanelContext& context, float width, float height);
// Glowing frames around the widgets the current lesson step talks about (drawn last, on top).
void draw_lesson_highlights(PanelContext& context);

}  // namespace headlab::ui
