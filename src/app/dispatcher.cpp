#include "app/dispatcher.h"

#include <cmath>
#include <string>

#include "app/lesson_runner.h"
#include "engine/json_reader.h"

namespace headlab::app {
namespace {

ActionResult refused(std::string error) { return ActionResult{std::move(error), {}}; }

// Ranges read the way the codec's other refusals do: "steps: expected an integer in 1..5000 (got 0)".
std::string check_steps(const char* field, int value, int lo, int hi) {
  if (value >= lo && value <= hi) return {};
  return std::string(field) + ": expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + " (got " +
         std::to_string(value) + ")";
}
std::string check_range(const char* field, double value, double lo, double hi) {
  if (value >= lo && value <= hi) return {};
  return std::string(field) + ": expected a number in [" + JsonReader::format_bound(lo) + ", " +
         JsonReader::format_bound(hi) + "] (got " + JsonReader::format_bound(value) + ")";
}

// What each training action does to the session; "" or why not.
struct TrainingApply {
  TrainingSession& session;
  Controller& controller;

  std::string operator()(const PlayTraining& a) {
    if (a.run)
      if (std::string e = session.ensure_started(); !e.empty()) return e;
    session.set_running(a.run);
    return {};
  }
  std::string operator()(const StepTraining& a) {
    if (std::string e = check_steps("steps", a.steps, 1, 5000); !e.empty()) return e;
    if (std::string e = session.ensure_started(); !e.empty()) return e;
    session.step(a.steps);
    return {};
  }
  std::string operator()(const NewTrainingRun& a) {
    return session.reset(a.seed.value_or(session.settings().seed), session.settings().learning_rate, a.task);
  }
  std::string operator()(const SetLearningRate& a) {
    if (std::string e = check_range("learning_rate", a.learning_rate, kMinLearningRate, kMaxLearningRate); !e.empty())
      return e;
    session.set_learning_rate(static_cast<float>(a.learning_rate));
    return {};
  }
  std::string operator()(const SetTrainingSpeed& a) {
    if (std::string e = check_range("speed", a.speed, kMinSpeed, kMaxSpeed); !e.empty()) return e;
    session.set_speed(static_cast<float>(a.speed));
    return {};
  }
  std::string operator()(const StartProbes& a) {
    if (std::string e = session.start_probes(); !e.empty()) return e;
    if (a.wait) session.finish_probes();
    return {};
  }
  std::string operator()(const StartComparison&) { return session.start_comparison(); }
  std::string operator()(const SetComparisonRunning& a) { return set_running(WorkerJob::comparison, a.run); }
  std::string operator()(const StepComparison& a) { return step(WorkerJob::comparison, a.steps, 5000); }
  std::string operator()(const StartExperiment& a) { return session.start_experiment(a.task); }
  std::string operator()(const SetExperimentRunning& a) { return set_running(WorkerJob::experiment, a.run); }
  std::string operator()(const StepExperiment& a) { return step(WorkerJob::experiment, a.steps, 20000); }
  std::string operator()(const UseTrainedModel&) { return session.use_in_lab(controller); }
  std::string operator()(const PrepareTraining&) { return session.ensure_started(); }
  std::string operator()(const SetTrainingInput& a) {
    session.set_snapshot_input(a.input);
    return {};
  }
  template <class Other>
  std::string operator()(const Other&) {
    return "op: not a training action";
  }

  // The comparison and the experiment are run, paused and stepped alike.
  std::string set_running(WorkerJob job, bool run) {
    session.set_job_running(job, run);
    return {};
  }
  std::string step(WorkerJob job, int steps, int most) {
    if (std::string e = check_steps("steps", steps, 1, most); !e.empty()) return e;
    session.step_job(job, steps);
    return {};
  }
};

bool is_training_action(const Action& action) {
  return action.index() >= Action(PlayTraining{}).index() && action.index() <= Action(SetTrainingInput{}).index();
}

}  // namespace

ActionResult Dispatcher::apply(const Action& action, std::uint64_t merge_key) {
  if (applies_to_state(action)) return controller_.apply(action, merge_key);
  if (is_training_action(action)) return apply_to_training(action);
  return apply_to_progress(action);
}

ActionResult Dispatcher::apply_to_training(const Action& action) {
  if (!training_) return refused("training is not available here");
  controller_.catch_up_all();  // training reads the lab's model and goals
  return refused(std::visit(TrainingApply{*training_, controller_}, action));
}

ActionResult Dispatcher::apply_to_progress(const Action& action) {
  controller_.catch_up_all();  // lesson goals and the history read every layer
  ActionResult result;
  if (std::holds_alternative<Undo>(action)) {
    result.changed = controller_.undo();
  } else if (std::holds_alternative<Redo>(action)) {
    result.changed = controller_.redo();
  } else if (const auto* go = std::get_if<GoToLesson>(&action)) {
    result.error = start_step(controller_, go->lesson, go->step);
  } else if (const auto* language = std::get_if<SetLanguage>(&action)) {
    set_language(controller_, language->language);
  } else if (const auto* move = std::get_if<MoveInLesson>(&action)) {
    switch (move->move) {
      case LessonMove::next: result.error = next_step(controller_); break;
      case LessonMove::previous: result.error = previous_step(controller_); break;
      case LessonMove::reset_step: result.error = reset_step(controller_); break;
      case LessonMove::show_me: result.error = show_me(controller_); break;
      case LessonMove::hint: reveal_hint(controller_); break;
      case LessonMove::leave: leave_lesson(controller_); break;
      case LessonMove::resume: result.error = resume_lesson(controller_); break;
      case LessonMove::reset_progress: reset_progress(controller_); break;
    }
  }
  return result;
}

}  // namespace headlab::app
