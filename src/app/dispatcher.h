#pragma once
// The one place an Action is applied, whoever made it (a panel, the JS API, the platform). Edits,
// the selection, the theme and training requests go to the Controller (undo history, recompute);
// undo and redo to its history; lesson moves and the language to the lesson runner; play, pause,
// steps, new runs, rates, probes, the comparison, the experiment and "use in lab" to the page's
// TrainingSession, which lives beside the AppState and never enters the undo history.
#include <cstdint>

#include "app/action.h"
#include "app/controller.h"
#include "app/training_session.h"

namespace headlab::app {

class Dispatcher {
 public:
  // `training` may be null (no training here: training actions are refused). Both must outlive it.
  Dispatcher(Controller& controller, TrainingSession* training) : controller_(controller), training_(training) {}

  // Applies `action`; `merge_key` as Controller::apply. A refused action changes nothing but
  // (for edits) posting a notice; the error names the field.
  ActionResult apply(const Action& action, std::uint64_t merge_key = 0);

  Controller& controller() { return controller_; }
  const Controller& controller() const { return controller_; }
  const AppState& state() const { return controller_.state(); }
  const Resources& resources() const { return controller_.resources(); }
  const TrainingSession* training() const { return training_; }

 private:
  ActionResult apply_to_training(const Action& action);
  ActionResult apply_to_progress(const Action& action);

  Controller& controller_;
  TrainingSession* training_;
};

}  // namespace headlab::app
