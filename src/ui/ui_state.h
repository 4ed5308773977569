#pragma once
// UI-only state: what is hovered, which panels are open, splitter positions. Never part of the
// document and never sent to the engine. No ImGui types here so it stays trivially testable.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <unordered_map>
#include <vector>

#include "app/actions.h"
#include "app/held_out_labels.h"
#include "app/matrix_actions.h"
#include "app/pruning_curve.h"
#include "app/query_key_job.h"
#include "engine/analysis/attention_spread.h"
#include "engine/analysis/circuits.h"
#include "engine/analysis/head_corpus.h"
#include "engine/analysis/redundancy.h"

namespace headlab::ui {

enum class DetailView { heatmap, arcs, concat, training, circuits, predictions, query_key };
enum class TrainingView { progress, probes, comparison };
enum class SidePanel { weights, labels };
// Undo/redo key chords, collected from the platform's key events (see LabUiState::history_keys).
enum class HistoryKey { undo, redo };
enum class ExportKind { none, heatmap_png, arcs_png, heatmap_svg, arcs_svg, screen_png, heatmap_csv, model_json, share_link, import_file, open_checkpoint };

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
};

// An exact-value entry in progress (double-click / Ctrl-click on a weight cell).
struct CellEntry {
  bool pending_open = false;
  bool refocus = false;
  app::MatrixRef matrix;
  int row = 0, col = 0;
  char text[64] = {};
  std::string error;
};

// The circuits tab's numbers, read from the weights of the state it was computed for: recomputed
// only when the tab is shown and the model (revision) or the selected head changed, so a drag in
// another tab costs nothing. A view of const state, like the heatmap's logit tooltip.
// A touch drag that scrolls a panel (touch_scroll.h), by ImGui window ids.
struct TouchScroll {
  unsigned int start_window = 0;  // the window under the finger when it touched
  unsigned int target = 0;        // the window being scrolled
  bool scrolling = false;
  bool vertical = true;
};

// The queries-and-keys tab (AttentionViz): the sentences read for one layer, a job since each is a
// forward pass (a checkpoint's take a tenth of a second), the picture of the selected head and the
// point the learner picked. Computed only while the tab is shown, for the revision it describes.
struct QueryKeyView {
  std::uint64_t revision = ~std::uint64_t{0};
  int layer = -1;
  std::shared_ptr<app::QueryKeyJob> job;
  int head = -1;  // the head `map` shows; -1: none yet
  analysis::HeadQueryKeyMap map;
  int picked = -1;          // a row of map.points, or -1
  bool picked_key = false;  // the key of that token, else its query
  bool colour_by_position = true;
  std::string announcement;  // the picked point in words, for the page's live region
  // The tab's other view, the head across the same sentences (exBERT): where its strongest
  // attention goes, for the search typed, computed again when the head, search or sentences change.
  bool corpus_shown = false;
  std::string search;
  bool search_active = false;
  std::uint64_t job_serial = 0;     // counts the jobs made, so a new one is told from the last
  std::uint64_t corpus_serial = 0;  // the job `corpus` was counted from
  int corpus_head = -1;
  std::string corpus_search;
  analysis::HeadCorpus corpus;
};

struct CircuitsCache {
  std::uint64_t revision = ~std::uint64_t{0};
  int layer = -1, head = -1;
  Matrix qk, ov;  // (d_model, d_model)
  float copying = 0.0f;
  // The entries of largest magnitude, as (row, column, value), largest first.
  struct Entry {
    int row, col;
    float value;
  };
  std::vector<Entry> qk_strongest, ov_strongest;
  int layer_a = -1, layer_b = -1;  // the layer pair composition is shown for; -1: one layer only
  analysis::CompositionScores composition;
  analysis::CompositionBaseline baseline;
  int baseline_shape[4] = {-1, -1, -1, -1};  // d_model, d_v of layer_a, d_k and d_v of layer_b
};

// The token and feature names the panels show, as drawable text, for the model of `revision` and
// a font of `glyphs` glyphs (the Chinese characters arrive later and turn "U+732B" into a glyph).
struct StateTexts {
  std::uint64_t revision = ~std::uint64_t{0};
  int glyphs = -1;
  int language = -1;
  std::vector<std::string> tokens;
  std::vector<char> unknown;  // per token: a word the lexicon lacks, its features guessed (named features only)
  std::vector<std::string> features;
};

struct LabUiState {
  StateTexts state_texts;
  // Sentence field.
  std::string text_buffer;
  bool text_active = false;  // the field has focus: do not overwrite what is being typed

  // Token hovered in any view; highlighted everywhere on the next frame.
  int hovered_token = -1;
  int next_hovered_token = -1;

  // Layout: fractions of the width given to the overview (left) and the side panel (right).
  float left_fraction = 0.30f;
  float right_fraction = 0.32f;
  float lesson_fraction = 0.62f;  // share of the left column's height given to the lesson panel
  DetailView detail = DetailView::heatmap;
  SidePanel side = SidePanel::weights;
  bool overview_summary = false;  // show each layer's mean attention instead of single heads

  // Arc view.
  float arc_threshold = 0.10f;
  std::uint32_t arc_heads = 0xFFFFu;  // bit h: head h of the selected layer is overlaid

  // Weight editor.
  app::WeightMatrix editor_matrix = app::WeightMatrix::W_K;
  CellEntry cell_entry;
  std::vector<float> line_clipboard;
  // Weight change per pixel of vertical drag: 40 px add 2, the size of a lesson's weights (Shift:
  // 10x coarser, Alt: 10x finer).
  float drag_sensitivity = 0.05f;

  // Training tab: which of its views is shown, and the seed typed for the next run.
  TrainingView training_view = TrainingView::progress;
  int training_seed = 1;
  // The text the head-count experiment's Run button trains on next (grammar or lm, real text).
  training::Task experiment_task = training::Task::grammar;
  // The session's experiment starts last seen: a new one (a lesson's request) moves the choice to its task.
  int experiment_starts_seen = 0;
  // The training request (AppState::training_request_serial) last shown: a new one, from a lesson
  // or the task choice, opens the Training tab on the run it asked for.
  std::uint64_t shown_training_request = 0;
  // The lesson step whose highlighted views were last opened ({lesson, step}; lesson -1: none).
  std::pair<int, int> shown_step{-1, 0};
  std::uint64_t shown_experiment_request = 0;  // the same for the one-vs-many experiment (its view)
  // The training model's head shown large under its heads overview (-1: none picked yet).
  int training_head_layer = -1;
  int training_head = 0;
  // The lesson panel: the height of its goal and buttons (last frame), and the hints scrolled to.
  float lesson_footer_height = 0.0f;
  float lesson_wanted_height = 0.0f;  // what the open step needs to show whole (0: no step open)
  int lesson_hints_scrolled = 0;

  CircuitsCache circuits;
  QueryKeyView query_key;
  TouchScroll touch_scroll;
  // The Labels tab's redundancy matrices, one per layer, for the model revision they describe. The
  // analysis of an edit leaves them out, so they are computed only while the tab is drawn; the
  // workspaces remember each layer's attention, so a new revision redoes only the pairs of heads
  // whose attention changed.
  struct Redundancy {
    std::uint64_t revision = ~std::uint64_t{0};
    std::vector<analysis::RedundancyWorkspace> workspaces;
    std::vector<analysis::LayerRedundancy> layers;
  } redundancy;
  // The overview's layer profile of the current input, for the model revision it describes.
  std::uint64_t spreads_revision = ~std::uint64_t{0};
  std::vector<analysis::AttentionSpread> spreads;
  // The pruning curve last measured (on request: a trained model takes up to a second), and the
  // model revision it describes.
  std::optional<app::PruningCurve> pruning_curve;
  // A curve being measured, a slice of each frame (a checkpoint's takes seconds), and the revision
  // it started at.
  std::shared_ptr<app::PruningCurveJob> pruning_job;
  std::uint64_t pruning_job_revision = 0;
  bool reveal_pruning = false;  // open the pruning section and scroll to it at its next draw
  // For a model trained on the grammar: its heads labelled on the Training tab's held-out sentences
  // (app/held_out_labels.h), for the model revision it was read at. Read again when the mouse is
  // up, so a drag on a trained model does not pay 60 forward passes a frame.
  struct HeldOutLabels {
    std::optional<app::HeldOutLabeller> labeller;  // built on first use
    bool special_tokens = true;                    // what the labeller's sentences were built with
    std::uint64_t revision = ~std::uint64_t{0};
    app::HeldOutReading reading;
  } held_out;
  std::uint64_t pruning_revision = 0;
  int pruning_apply = 0;  // the point of the curve the learner picked (its pruned_counts[] heads)
  // The "random tokens, repeated" box of the symbol embedding.
  int repeated_length = 8;
  int repeated_seed = 1;

  bool show_help = false;
  // Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z and Ctrl/Cmd+Y pressed since the last frame, in order, one per
  // key-down event the platform saw. Taken from SDL's key symbols rather than ImGui's key map, which
  // is by scancode: Z is then the key labelled Z on any layout (AZERTY, QWERTZ), Cmd works on a Mac
  // and a held chord undoes once.
  std::vector<HistoryKey> history_keys;
  ExportKind pending_export = ExportKind::none;
  // An SVG export's file, written by the view it pictures in the frame it is taken in (figure_svg.h).
  std::string export_document;
  DetailView detail_before_export = DetailView::heatmap;  // restored once the export is taken

  // Screen rectangles of named widgets (widget_ids.h), refreshed every frame, for tests and lessons.
  std::unordered_map<std::string, Rect> widget_rects;
  // Text mirrored into the page's ARIA live region when it changes.
  std::string live_text;
};

}  // namespace headlab::ui
