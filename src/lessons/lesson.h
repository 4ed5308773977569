#pragma once
// Guided lessons, as data: one file per lesson under assets/lessons/ (listed in index.json, format
// in docs/lessons.md). A step has text in English and Simplified Chinese, a setup and a "show me"
// solution (both lists of window.headlab requests, run by the app), a goal checked every frame,
// hints, and the widgets to highlight. Setup and solution stay JSON here: they are app actions,
// which the app decodes when it loads the lessons (app/lesson_actions.h).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/localized_text.h"
#include "engine/result.h"
#include "lessons/goal.h"

namespace headlab::lessons {

struct Step {
  std::string id;
  LocalizedText title;
  LocalizedText text;
  LocalizedText goal_text;  // what to achieve, in one sentence
  std::vector<LocalizedText> hints;
  nlohmann::json setup = nlohmann::json::array();     // requests run when the step starts (as JSON)
  nlohmann::json solution = nlohmann::json::array();  // requests that reach the goal ("show me")
  Goal goal;
  std::vector<std::string> highlight;  // widget ids (ui/widget_ids.h) drawn with a glow
};

struct Lesson {
  std::string id;
  LocalizedText title;
  LocalizedText summary;
  std::vector<Step> steps;
};

Result<Lesson> parse_lesson(const std::string& json_text);

// The lesson file names assets/lessons/index.json lists, in order.
Result<std::vector<std::string>> lesson_files();
// Reads assets/lessons/index.json and every lesson it lists, in order.
Result<std::vector<Lesson>> load_lessons();

}  // namespace headlab::lessons
