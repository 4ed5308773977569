#include "lessons/lesson.h"

#include "engine/assets.h"

namespace headlab::lessons {
namespace {

using nlohmann::json;

bool text_field(const json& object, const char* key, const std::string& path, LocalizedText& out, std::string& error) {
  if (!object.contains(key) || !read_localized_text(object[key], out)) {
    error = path + "." + key + ": expected {\"en\": \"...\", \"zh\": \"...\"} with both languages";
    return false;
  }
  return true;
}

bool request_list(const json& object, const char* key, const std::string& path, json& out, std::string& error) {
  if (!object.contains(key)) return true;
  const json& list = object[key];
  if (!list.is_array()) {
    error = path + "." + key + ": expected an array of requests";
    return false;
  }
  for (std::size_t i = 0; i < list.size(); ++i)
    if (!list[i].is_object() || !list[i].contains("op") || !list[i]["op"].is_string()) {
      error = path + "." + key + "[" + std::to_string(i) + "]: expected {\"op\": ...}";
      return false;
    }
  out = list;
  return true;
}

}  // namespace

Result<Lesson> parse_lesson(const std::string& json_text) {
  using R = Result<Lesson>;
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("lesson: not a JSON object");
  if (!doc.contains("format") || doc["format"] != "headlab-lesson") return R::failure("format: expected \"headlab-lesson\"");
  Lesson lesson;
  std::string error;
  if (!doc.contains("id") || !doc["id"].is_string()) return R::failure("id: expected a string");
  lesson.id = doc["id"].get<std::string>();
  const std::string base = lesson.id;
  if (!text_field(doc, "title", base, lesson.title, error) || !text_field(doc, "summary", base, lesson.summary, error))
    return R::failure(error);
  if (!doc.contains("steps") || !doc["steps"].is_array() || doc["steps"].empty())
    return R::failure(base + ".steps: expected a non-empty array");
  for (std::size_t s = 0; s < doc["steps"].size(); ++s) {
    const json& value = doc["steps"][s];
    const std::string path = base + ".steps[" + std::to_string(s) + "]";
    if (!value.is_object()) return R::failure(path + ": expected an object");
    Step step;
    step.id = value.contains("id") && value["id"].is_string() ? value["id"].get<std::string>() : std::to_string(s);
    if (!text_field(value, "title", path, step.title, error) || !text_field(value, "text", path, step.text, error) ||
        !text_field(value, "goal_text", path, step.goal_text, error))
      return R::failure(error);
    if (value.contains("hints")) {
      if (!value["hints"].is_array()) return R::failure(path + ".hints: expected an array");
      for (std::size_t h = 0; h < value["hints"].size(); ++h) {
        LocalizedText hint;
        if (!read_localized_text(value["hints"][h], hint))
          return R::failure(path + ".hints[" + std::to_string(h) + "]: expected both languages");
        step.hints.push_back(std::move(hint));
      }
    }
    if (!request_list(value, "setup", path, step.setup, error) || !request_list(value, "solution", path, step.solution, error))
      return R::failure(error);
    if (!value.contains("goal")) return R::failure(path + ".goal: missing");
    Result<Goal> goal = parse_goal(value["goal"], path + ".goal");
    if (!goal.ok()) return R::failure(goal.error());
    step.goal = std::move(goal).value();
    if (value.contains("highlight") && value["highlight"].is_array())
      for (const json& id : value["highlight"])
        if (id.is_string()) step.highlight.push_back(id.get<std::string>());
    lesson.steps.push_back(std::move(step));
  }
  return lesson;
}

Result<std::vector<std::string>> lesson_files() {
  using R = Result<std::vector<std::string>>;
  const auto index_text = read_asset("lessons/index.json");
  if (!index_text) return R::failure("assets/lessons/index.json could not be read");
  const json index = json::parse(*index_text, nullptr, false);
  if (index.is_discarded() || !index.contains("lessons") || !index["lessons"].is_array())
    return R::failure("assets/lessons/index.json: expected {\"lessons\": [file names]}");
  std::vector<std::string> names;
  for (const json& name : index["lessons"]) {
    if (!name.is_string()) return R::failure("assets/lessons/index.json: lesson names must be strings");
    names.push_back(name.get<std::string>());
  }
  return names;
}

Result<std::vector<Lesson>> load_lessons() {
  using R = Result<std::vector<Lesson>>;
  Result<std::vector<std::string>> names = lesson_files();
  if (!names.ok()) return R::failure(names.error());
  std::vector<Lesson> lessons;
  for (const std::string& name : names.value()) {
    const auto text = read_asset("lessons/" + name);
    if (!text) return R::failure("assets/lessons/" + name + " could not be read");
    Result<Lesson> lesson = parse_lesson(*text);
    if (!lesson.ok()) return R::failure(name + ": " + lesson.error());
    lessons.push_back(std::move(lesson).value());
  }
  return lessons;
}

}  // namespace headlab::lessons
