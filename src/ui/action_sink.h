#pragma once
// The one way a panel changes the app: it hands over Action values (app/action.h), which the
// Dispatcher applies: edits and the selection through the Controller, undo, redo, lesson moves and
// the language, and the training tab's controls to the training session. Panels read the AppState
// and the session only as const; an action is applied at once, so the views drawn after the
// control in the same frame already show it.
#include <cstdint>

#include "app/action.h"
#include "app/dispatcher.h"

namespace headlab::ui {

class ActionSink {
 public:
  explicit ActionSink(app::Dispatcher& dispatcher) : dispatcher_(dispatcher) {}

  const app::AppState& state() const { return dispatcher_.state(); }
  const app::Resources& resources() const { return dispatcher_.resources(); }
  // The page's training session, to draw (absent: no training here).
  const app::TrainingSession* training() const { return dispatcher_.training(); }

  // Applies `action`; actions sharing a non-zero merge_key in a row (one drag) are one undo step.
  app::ActionResult emit(const app::Action& action, std::uint64_t merge_key = 0) {
    return dispatcher_.apply(action, merge_key);
  }
  void end_merge() { dispatcher_.controller().end_merge(); }

  bool can_undo() const { return dispatcher_.controller().can_undo(); }
  bool can_redo() const { return dispatcher_.controller().can_redo(); }
  void undo() { emit(app::Undo{}); }
  void redo() { emit(app::Redo{}); }

  // Lesson moves (app/lesson_runner.h): the setup and solution they run are actions too.
  void start_lesson(int lesson, int step) { emit(app::GoToLesson{lesson, step}); }
  void show_me() { emit(app::MoveInLesson{app::LessonMove::show_me}); }
  void next_step() { emit(app::MoveInLesson{app::LessonMove::next}); }
  void previous_step() { emit(app::MoveInLesson{app::LessonMove::previous}); }
  void reset_step() { emit(app::MoveInLesson{app::LessonMove::reset_step}); }
  void leave_lesson() { emit(app::MoveInLesson{app::LessonMove::leave}); }
  void resume_lesson() { emit(app::MoveInLesson{app::LessonMove::resume}); }
  void reveal_hint() { emit(app::MoveInLesson{app::LessonMove::hint}); }
  void set_language(app::Language language) { emit(app::SetLanguage{language}); }
  void reset_progress() { emit(app::MoveInLesson{app::LessonMove::reset_progress}); }

 private:
  app::Dispatcher& dispatcher_;
};

}  // namespace headlab::ui
