#pragma once
// A lesson step's setup and "show me" solution as actions. Lesson files hold them as window.headlab
// requests; they are decoded with the one request codec (action_codec.h) when the lessons load,
// so a bad op or field in a lesson file is a load error naming the file, step and field (and the
// asset lint test fails), never a surprise in the middle of a lesson.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/action.h"
#include "app/lesson_progress.h"
#include "engine/result.h"

namespace headlab::app {

struct StepActions {
  std::vector<Action> setup;     // run when the step starts
  std::vector<Action> solution;  // run by "show me"
};

// A list of requests, as lesson steps and assets/starting_model.json hold them; errors name
// "<path>[i].<field>".
Result<std::vector<Action>> decode_action_list(const nlohmann::json& requests, const std::string& path);

// One entry per step of `lesson`; errors read "<lesson id>.steps[2].setup[0].layer: ...".
Result<std::vector<StepActions>> decode_lesson_actions(const lessons::Lesson& lesson);

struct LoadedLesson {
  lessons::Lesson lesson;
  std::vector<StepActions> actions;
};

// Parses one lesson file and decodes its steps' actions.
Result<LoadedLesson> parse_lesson_file(const std::string& json_text);

}  // namespace headlab::app
