#include "app/lesson_actions.h"

#include "app/action_codec.h"

namespace headlab::app {

Result<std::vector<Action>> decode_action_list(const nlohmann::json& requests, const std::string& path) {
  std::vector<Action> actions;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Result<Action> action = decode_action(requests[i], path + "[" + std::to_string(i) + "].");
    if (!action.ok()) return Result<std::vector<Action>>::failure(action.error());
    actions.push_back(std::move(action).value());
  }
  return actions;
}

Result<std::vector<StepActions>> decode_lesson_actions(const lessons::Lesson& lesson) {
  using R = Result<std::vector<StepActions>>;
  std::vector<StepActions> steps;
  for (std::size_t s = 0; s < lesson.steps.size(); ++s) {
    const std::string path = lesson.id + ".steps[" + std::to_string(s) + "]";
    Result<std::vector<Action>> setup = decode_action_list(lesson.steps[s].setup, path + ".setup");
    if (!setup.ok()) return R::failure(setup.error());
    Result<std::vector<Action>> solution = decode_action_list(lesson.steps[s].solution, path + ".solution");
    if (!solution.ok()) return R::failure(solution.error());
    steps.push_back({std::move(setup).value(), std::move(solution).value()});
  }
  return steps;
}

Result<LoadedLesson> parse_lesson_file(const std::string& json_text) {
  Result<lessons::Lesson> lesson = lessons::parse_lesson(json_text);
  if (!lesson.ok()) return Result<LoadedLesson>::failure(lesson.error());
  Result<std::vector<StepActions>> actions = decode_lesson_actions(lesson.value());
  if (!actions.ok()) return Result<LoadedLesson>::failure(actions.error());
  return LoadedLesson{std::move(lesson).value(), std::move(actions).value()};
}

}  // namespace headlab::app
