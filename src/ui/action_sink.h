#pragma once
// The one way a panel changes the app: it hands over Action values (app/action.h) and asks for
// undo, redo or a lesson move. Panels read the AppState only as const; they never write the model
// and never call engine functions that change it. An action is applied at once, so the views drawn
// after the control in the same frame already show it.
#include <cstdint>
#include <string>

#include "app/action.h"
#include "app/controller.h"
#include "app/lesson_runner.h"
#include "app/training_session.h"

namespace headlab::ui {

class ActionSink {
 public:
  explicit ActionSink(app::Controller& controller) : controller_(controller) {}

  const app::AppState& state() const { return controller_.state(); }
  const app::Resources& resources() const { return controller_.resources(); }

  // Applies `action`; actions sharing a non-zero merge_key in a row (one drag) are one undo step.
  app::ActionResult emit(const app::Action& action, std::uint64_t merge_key = 0) {
    return controller_.apply(action, merge_key);
  }
  void end_merge() { controller_.end_merge(); }

  bool can_undo() const { return controller_.can_undo(); }
  bool can_redo() const { return controller_.can_redo(); }
  void undo() { controller_.undo(); }
  void redo() { controller_.redo(); }

  // Lesson moves (app/lesson_runner.h): the setup and solution they run are actions too.
  void start_lesson(int lesson, int step) { app::start_step(controller_, lesson, step); }
  void show_me() { app::show_me(controller_); }
  void next_step() { app::next_step(controller_); }
  void previous_step() { app::previous_step(controller_); }
  void reset_step() { app::reset_step(controller_); }
  void leave_lesson() { app::leave_lesson(controller_); }
  void resume_lesson() { app::resume_lesson(controller_); }
  void reveal_hint() { app::reveal_hint(controller_); }
  void set_language(app::Language language) { app::set_language(controller_, language); }
  void reset_progress() { app::reset_progress(controller_); }

  // The training tab's "use in the lab": one LoadModel action. "" or why not.
  std::string use_trained_model(const app::TrainingSession& session) { return session.use_in_lab(controller_); }

 private:
  app::Controller& controller_;
};

}  // namespace headlab::ui
