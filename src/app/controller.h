#pragma once
// Applies actions to the AppState: validates (app::apply), records undo history, and recomputes
// the trace at once, so whatever is drawn after an action in the same frame already shows it.
#include <chrono>
#include <cstdint>
#include <deque>
#include <string>

#include "app/action.h"
#include "app/app_state.h"
#include "app/apply_action.h"
#include "app/resources.h"

namespace headlab::app {

class Controller {
 public:
  static constexpr std::size_t kUndoDepth = 256;
  // And at most this much memory for undo and redo together (the oldest steps go first, one always
  // stays): a document of the largest model is 25 MB, so 256 of them would exhaust the page's 2 GB.
  static constexpr std::size_t kHistoryBytes = std::size_t{256} << 20;

  // `resources` must outlive the Controller.
  Controller(AppState& state, const Resources& resources);

  const AppState& state() const { return state_; }
  const Resources& resources() const { return resources_; }
  const Lexicon& lexicon() const { return resources_.lexicon; }

  // Applies `action`. A refused action changes nothing but posting an error notice. Actions that
  // share a non-zero `merge_key` in a row (one drag of one cell) make a single undo step; actions
  // that change no document (selection, theme) make none.
  //
  // A step of a drag on a weight (a SetWeight with a merge key) recomputes only the layers up to
  // the edited and the selected one, so a drag in layer 0 of a 6-layer model keeps the frame rate;
  // the later layers lag until catch_up. Any other action first brings every layer up to date.
  ActionResult apply(const Action& action, std::uint64_t merge_key = 0);

  // Replaces the model by one read from a checkpoint (too large to travel as an Action value), on
  // the same text: one undo step back to the model before. `name` is for the notice.
  void open_checkpoint(Model model, const std::string& name);
  // The same without a notice: for models that read subword tokens, which no Action carries (a
  // model file has no tokenizer), such as a run trained on real text.
  void replace_model(Model model);

  // Documents larger than this are not copied into the undo history by edits that keep their
  // model (a weight, a pruned head): a GPT-2 small checkpoint is 500 MB, and a copy per edit would
  // fill the page's memory in a few steps. Undo then goes back past all of them at once, to the
  // document before (the model the learner had before opening the checkpoint).
  static constexpr std::size_t kCopiedDocumentBytes = std::size_t{64} << 20;

  // Once per frame, before drawing: when layers lag, no drag step came since the last call and the
  // last one is at least `settle_seconds` old, recomputes lagging layers one at a time until
  // `budget_seconds` are spent (at least one), then checks the lesson goal once none lags. Returns
  // whether something was recomputed. The settling time keeps a layer's catch-up, which at the
  // largest model takes several frames' time, out of a drag whose pointer merely skipped a frame.
  bool catch_up(double budget_seconds, double settle_seconds = 0.0);
  // Every lagging layer now (the JS API, whose answers describe the whole document).
  void catch_up_all() { recompute(state_, resources_); }

  // A notice from outside the app (the page, training): no undo step.
  void notify(NoticeLevel level, std::string text);
  // The same, as the text `key` of assets/ui_text.json with its "%s" filled by `args`.
  void notify(NoticeLevel level, const char* key, std::vector<std::string> args);

  // The training run's latest held-out sample (not an edit): training goals are checked again.
  void observe_training(lessons::TrainingReading reading);

  // Lesson progress is not part of the document: moving between steps records no undo step.
  LessonProgress& progress() { return state_.progress; }
  // Goals read every layer: while some lag, the catch-up that ends it checks the goal.
  void refresh_goal() {
    if (!layers_lag(state_)) update_goal(state_, resources_);
  }

  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }
  bool undo();
  bool redo();
  // Ends the current merge group (e.g. on mouse release).
  void end_merge() { last_merge_key_ = 0; }

 private:
  AppState& state_;
  const Resources& resources_;
  Document before_;  // the document before the action being applied (the undo step)
  std::deque<Document> undo_;
  std::deque<Document> redo_;
  std::uint64_t last_merge_key_ = 0;
  bool dragged_since_catch_up_ = false;
  std::chrono::steady_clock::time_point last_drag_step_{};

  // Drops the oldest undo steps past kUndoDepth or kHistoryBytes.
  void trim_history();
};

}  // namespace headlab::app
