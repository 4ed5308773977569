#include "app/lesson_runner.h"

#include "app/action_codec.h"

namespace headlab::app {
namespace {

const LessonList& lesson_list(const Controller& controller) { return controller.resources().lessons; }

const StepActions& step_actions(const Controller& controller, int lesson, int step) {
  return controller.resources().lesson_actions[lesson][step];
}

// Applies each action as its own undo step; stops at the first refusal and reports it.
std::string run_actions(Controller& controller, const std::vector<Action>& actions) {
  for (const Action& action : actions) {
    const ActionResult result = controller.apply(action);
    if (!result.ok())
      return "lesson step: \"" + encode_action(action)["op"].get<std::string>() + "\" failed: " + result.error;
  }
  return {};
}

}  // namespace

std::string start_step(Controller& controller, int lesson, int step) {
  const LessonList& lessons = lesson_list(controller);
  if (lesson < 0 || lesson >= static_cast<int>(lessons.size())) return "lesson " + std::to_string(lesson) + " does not exist";
  if (step < 0 || step >= static_cast<int>(lessons[lesson].steps.size()))
    return "step " + std::to_string(step) + " does not exist in lesson " + lessons[lesson].id;
  // No goal is checked on the way in: a state between two setup actions (or the previous step's
  // end) may meet this step's goal, and would mark the step completed on arrival. Only the state
  // after the whole setup counts.
  controller.progress().lesson = -1;
  const std::string error = run_actions(controller, step_actions(controller, lesson, step).setup);
  LessonProgress& p = controller.progress();
  p.lesson = lesson;
  p.step = step;
  p.hints_shown = 0;
  controller.refresh_goal();
  return error;
}

std::string show_me(Controller& controller) {
  const LessonProgress& p = controller.state().progress;
  const LessonList& lessons = lesson_list(controller);
  if (p.lesson < 0 || p.lesson >= static_cast<int>(lessons.size())) return "no lesson is open";
  const lessons::Step& step = lessons[p.lesson].steps[p.step];
  if (lessons::waits_for_a_checkpoint(step.goal, controller.state().document.model)) {
    // The head it would select is in GPT-2, which only the learner can open: say how instead.
    controller.notify(NoticeLevel::info, "lesson_needs_checkpoint", {});
    return {};
  }
  const std::string error = run_actions(controller, step_actions(controller, p.lesson, p.step).solution);
  controller.refresh_goal();
  return error;
}

std::string reset_step(Controller& controller) {
  const LessonProgress& p = controller.state().progress;
  if (p.lesson < 0) return "no lesson is open";
  return start_step(controller, p.lesson, p.step);
}

std::string next_step(Controller& controller) {
  const LessonProgress& p = controller.state().progress;
  const LessonList& lessons = lesson_list(controller);
  if (p.lesson < 0) return "no lesson is open";
  if (p.step + 1 < static_cast<int>(lessons[p.lesson].steps.size())) return start_step(controller, p.lesson, p.step + 1);
  if (p.lesson + 1 < static_cast<int>(lessons.size())) return start_step(controller, p.lesson + 1, 0);
  controller.progress().lesson = -1;  // the last step of the last lesson: back to free play
  return {};
}

std::string previous_step(Controller& controller) {
  const LessonProgress& p = controller.state().progress;
  const LessonList& lessons = lesson_list(controller);
  if (p.lesson < 0) return "no lesson is open";
  if (p.step > 0) return start_step(controller, p.lesson, p.step - 1);
  if (p.lesson > 0) return start_step(controller, p.lesson - 1, static_cast<int>(lessons[p.lesson - 1].steps.size()) - 1);
  return {};
}

void leave_lesson(Controller& controller) {
  LessonProgress& p = controller.progress();
  if (p.lesson < 0) return;
  p.paused_lesson = p.lesson;
  p.paused_step = p.step;
  p.lesson = -1;
  p.goal_met = false;
}

std::string resume_lesson(Controller& controller) {
  LessonProgress& p = controller.progress();
  if (p.paused_lesson < 0) return "there is no lesson to come back to";
  // The learner's free-play edits stay: only the position in the lesson is restored.
  p.lesson = p.paused_lesson;
  p.step = p.paused_step;
  p.paused_lesson = -1;
  controller.refresh_goal();
  return {};
}

void reveal_hint(Controller& controller) {
  LessonProgress& p = controller.progress();
  const LessonList& lessons = lesson_list(controller);
  if (p.lesson < 0 || p.lesson >= static_cast<int>(lessons.size())) return;
  const int available = static_cast<int>(lessons[p.lesson].steps[p.step].hints.size());
  if (p.hints_shown < available) ++p.hints_shown;
}

void set_language(Controller& controller, Language language) { controller.progress().language = language; }

void reset_progress(Controller& controller) {
  LessonProgress& p = controller.progress();
  const Language language = p.language;
  p = LessonProgress{};
  p.language = language;
}

}  // namespace headlab::app
