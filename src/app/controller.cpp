#include "app/controller.h"

#include <utility>

namespace headlab::app {

Controller::Controller(AppState& state, const Resources& resources) : state_(state), resources_(resources) {
  recompute(state_, resources_);
}

ActionResult Controller::apply(const Action& action, std::uint64_t merge_key) {
  const bool edits_document = changes_document(action);
  // Assigned into a kept buffer: a drag step (merged into the last undo step) copies the document
  // without allocating.
  if (edits_document) before_ = state_.document;
  ActionResult result = app::apply(state_, resources_, action);
  if (!result.ok()) {
    push_notice(state_, NoticeLevel::error, result.error);
    return result;
  }
  if (edits_document) {
    const bool merges = merge_key != 0 && merge_key == last_merge_key_ && !undo_.empty();
    if (!merges) {
      undo_.push_back(std::move(before_));
      if (undo_.size() > kUndoDepth) undo_.pop_front();
    }
    redo_.clear();
    last_merge_key_ = merge_key;
  }
  recompute(state_, resources_);
  return result;
}

void Controller::notify(NoticeLevel level, std::string text) { push_notice(state_, level, std::move(text)); }

void Controller::notify(NoticeLevel level, const char* key, std::vector<std::string> args) {
  push_notice(state_, resources_.ui_text, level, key, std::move(args));
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
