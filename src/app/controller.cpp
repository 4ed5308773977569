#include "app/controller.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <variant>

namespace headlab::app {

Controller::Controller(AppState& state, const Resources& resources) : state_(state), resources_(resources) {
  recompute(state_, resources_);
}

namespace {

// What one undo step holds.
std::size_t document_bytes(const Document& document) {
  const Input& input = document.input;
  std::size_t bytes = model_bytes(document.model) + input.text.size() + static_cast<std::size_t>(input.X.size()) * sizeof(float);
  for (const std::string& token : input.tokens) bytes += sizeof(std::string) + token.size();
  return bytes;
}

// The layers a drag step must show this frame: through the edited layer and the selected one (the
// weight editor and the heatmaps draw the selected layer). 0 when `action` is no drag on a weight.
int layers_for_drag_step(const AppState& state, const Action& action, std::uint64_t merge_key) {
  const SetWeight* weight = std::get_if<SetWeight>(&action);
  if (merge_key == 0 || weight == nullptr) return 0;
  return std::max(weight->layer, state.selection.layer) + 1;
}

bool replaces_document(const Action& action) {
  return std::holds_alternative<LoadModel>(action) || std::holds_alternative<LoadTrainedModel>(action) ||
         std::holds_alternative<LoadTextModel>(action) ||
         std::holds_alternative<LoadStartingModel>(action) || std::holds_alternative<ApplyPreset>(action) ||
         std::holds_alternative<ResetDocument>(action) || std::holds_alternative<ResetModel>(action);
}

}  // namespace

void Controller::open_checkpoint(Model model, const std::string& name) {
  replace_model(std::move(model));
  const Model& m = state_.document.model;
  const std::size_t bytes = document_bytes(state_.document);
  std::vector<std::string> args = {name, std::to_string(m.layers.size()), std::to_string(m.layers.empty() ? 0 : m.layers[0].head_count()),
                                   std::to_string(m.d_model)};
  if (bytes > kCopiedDocumentBytes) {
    args.push_back(std::to_string(bytes >> 20));
    notify(NoticeLevel::info, "notice_checkpoint_opened", std::move(args));
  } else {
    notify(NoticeLevel::info, "notice_checkpoint_opened_small", std::move(args));
  }
}

void Controller::replace_model(Model model) {
  recompute(state_, resources_);
  Document next;
  next.model = std::move(model);
  // The learner's sentence stays; an input of another kind (symbols, words, an explicit X) means
  // nothing to the checkpoint, which gets the default sentence.
  if (state_.document.input.kind == InputKind::text) next.input = state_.document.input;
  undo_.push_back(std::move(state_.document));
  state_.document = std::move(next);
  redo_.clear();
  trim_history();
  last_merge_key_ = 0;
  state_.selection = {};
  state_.dirty = true;
  recompute(state_, resources_);
}

ActionResult Controller::apply(const Action& action, std::uint64_t merge_key) {
  const int drag_layers = layers_for_drag_step(state_, action, merge_key);
  // Actions read the state (PruneLeastImportant ranks by the analysis): no layer may lag for them.
  if (drag_layers == 0) recompute(state_, resources_);
  const bool edits_document = changes_document(action);
  const bool merges = edits_document && merge_key != 0 && merge_key == last_merge_key_ && !undo_.empty();
  // Edits of a very large document keep no copy (kCopiedDocumentBytes); replacing it still does,
  // so a preset or a model file never loses an opened checkpoint for good.
  const bool uncopied = edits_document && !replaces_document(action) && document_bytes(state_.document) > kCopiedDocumentBytes;
  // A step merged into the last undo step needs no copy of the document before it: at the largest
  // model that copy (25 MB) took longer than the step's forward pass.
  if (edits_document && !merges && !uncopied) before_ = state_.document;
  ActionResult result = app::apply(state_, resources_, action);
  if (!result.ok()) {
    push_notice(state_, NoticeLevel::error, result.error);
    return result;
  }
  if (edits_document && result.changed) {
    redo_.clear();
    if (!merges && !uncopied) {
      undo_.push_back(std::move(before_));
      trim_history();
    }
    last_merge_key_ = merge_key;
  }
  if (drag_layers > 0) {
    recompute_layers(state_, resources_, drag_layers);
    dragged_since_catch_up_ = true;
    last_drag_step_ = std::chrono::steady_clock::now();
  } else {
    recompute(state_, resources_);
  }
  // A selection recomputes nothing, but a lesson goal on the selected head (a guess) reads it.
  if (std::holds_alternative<SelectHead>(action) && !layers_lag(state_)) update_goal(state_, resources_);
  return result;
}

bool Controller::catch_up(double budget_seconds, double settle_seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  // A drag still moving: its next step would throw this work away.
  if (std::exchange(dragged_since_catch_up_, false) || !layers_lag(state_)) return false;
  if (std::chrono::duration<double>(start - last_drag_step_).count() < settle_seconds) return false;
  do {
    recompute_layers(state_, resources_, state_.current_layers + 1);
  } while (layers_lag(state_) && std::chrono::duration<double>(Clock::now() - start).count() < budget_seconds);
  return true;
}

void Controller::notify(NoticeLevel level, std::string text) { push_notice(state_, level, std::move(text)); }

void Controller::notify(NoticeLevel level, const char* key, std::vector<std::string> args) {
  push_notice(state_, resources_.ui_text, level, key, std::move(args));
}

void Controller::trim_history() {
  std::size_t bytes = 0;
  for (const Document& document : undo_) bytes += document_bytes(document);
  for (const Document& document : redo_) bytes += document_bytes(document);
  while (undo_.size() > kUndoDepth || (undo_.size() > 1 && bytes > kHistoryBytes)) {
    bytes -= document_bytes(undo_.front());
    undo_.pop_front();
  }
}

bool Controller::undo() {
  if (undo_.empty()) return false;
  redo_.push_back(std::move(state_.document));
  state_.document = std::move(undo_.back());
  undo_.pop_back();
  last_merge_key_ = 0;
  state_.dirty = true;
  recompute(state_, resources_);
  return true;
}

bool Controller::redo() {
  if (redo_.empty()) return false;
  undo_.push_back(std::move(state_.document));
  state_.document = std::move(redo_.back());
  redo_.pop_back();
  trim_history();
  last_merge_key_ = 0;
  state_.dirty = true;
  recompute(state_, resources_);
  return true;
}

void Controller::observe_training(lessons::TrainingReading reading) {
  state_.training = std::move(reading);
  refresh_goal();
}

}  // namespace headlab::app
