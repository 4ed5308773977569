#pragma once
// Applies edits to the AppState: validates, records undo history, recomputes the trace at once
// so whatever is drawn after an edit in the same frame already shows its effect.
#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "app/app_state.h"

namespace headlab::app {

using Edit = std::function<std::string(AppState&)>;  // returns "" or why it was refused

class Controller {
 public:
  static constexpr std::size_t kUndoDepth = 256;

  Controller(AppState& state, const Lexicon& lexicon);

  const AppState& state() const { return state_; }
  const Lexicon& lexicon() const { return lexicon_; }

  // Applies `edit`; a refused edit leaves the state untouched and posts a notice. Edits that
  // share a non-zero `merge_key` in a row (one drag of one cell) make a single undo step.
  std::string apply(const Edit& edit, std::uint64_t merge_key = 0);
  // Changes that are not model edits (selection): no undo step.
  std::string apply_without_history(const Edit& edit);

  // Lesson progress is not part of the document: moving between steps records no undo step.
  LessonProgress& progress() { return state_.progress; }
  void refresh_goal() { update_goal(state_, lexicon_); }

  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }
  bool undo();
  bool redo();
  // Ends the current merge group (e.g. on mouse release).
  void end_merge() { last_merge_key_ = 0; }

 private:
  AppState& state_;
  const Lexicon& lexicon_;
  Document before_;  // the document before the edit being applied (undo step, or rollback)
  std::deque<Document> undo_;
  std::deque<Document> redo_;
  std::uint64_t last_merge_key_ = 0;
};

}  // namespace headlab::app
