#pragma once
// Moves the learner through the lessons: starting a step runs its setup, "show me" runs its
// solution, both as actions through the Controller (each one undoable, so the learner can inspect
// every edit they made). The actions were decoded when the lessons loaded (lesson_actions.h).
#include <string>

#include "app/controller.h"

namespace headlab::app {

// Starts step `step` of lesson `lesson` (indices); runs the step's setup. "" or why not.
std::string start_step(Controller& controller, int lesson, int step);
// Runs the current step's solution.
std::string show_me(Controller& controller);
// Re-runs the current step's setup.
std::string reset_step(Controller& controller);
// Next / previous step (moving past the last step ends the lesson and returns to free play).
std::string next_step(Controller& controller);
std::string previous_step(Controller& controller);
// Leaves the lesson for free play, remembering where it was; resume_lesson goes back.
void leave_lesson(Controller& controller);
std::string resume_lesson(Controller& controller);
void reveal_hint(Controller& controller);
void set_language(Controller& controller, Language language);
void reset_progress(Controller& controller);

}  // namespace headlab::app
