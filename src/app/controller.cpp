#include "app/controller.h"

#include <utility>

namespace headlab::app {

Controller::Controller(AppState& state, const Lexicon& lexicon) : state_(state), lexicon_(lexicon) {
  recompute(state_, lexicon_);
}

std::string Controller::apply(const Edit& edit, std::uint64_t merge_key) {
  // Assigned into a kept buffer: a drag step (merged into the last undo step) copies the document
  // without allocating.
  before_ = state_.document;
  const std::string error = edit(state_);
  if (!error.empty()) {
    std::swap(state_.document, before_);  // an edit that fails half-way changes nothing
    push_notice(state_, NoticeLevel::error, error);
    return error;
  }
  const bool merges = merge_key != 0 && merge_key == last_merge_key_ && !undo_.empty();
  if (!merges) {
    undo_.push_back(std::move(before_));
    if (undo_.size() > kUndoDepth) undo_.pop_front();
  }
  redo_.clear();
  last_merge_key_ = merge_key;
  state_.dirty = true;
  recompute(state_, lexicon_);
  return {};
}

std::string Controller::apply_without_history(const Edit& edit) {
  const std::string error = edit(state_);
  if (!error.empty()) push_notice(state_, NoticeLevel::error, error);
  recompute(state_, lexicon_);
  return error;
}

bool Controller::undo() {
  if (undo_.empty()) return false;
  redo_.push_back(std::move(state_.document));
  state_.document = std::move(undo_.back());
  undo_.pop_back();
  last_merge_key_ = 0;
  state_.dirty = true;
  recompute(state_, lexicon_);
  return true;
}

bool Controller::redo() {
  if (redo_.empty()) return false;
  undo_.push_back(std::move(state_.document));
  state_.document = std::move(redo_.back());
  redo_.pop_back();
  last_merge_key_ = 0;
  state_.dirty = true;
  recompute(state_, lexicon_);
  return true;
}

}  // namespace headlab::app
