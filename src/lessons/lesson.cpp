#include "lessons/lesson.h"

#include "engine/assets.h"
#include "engine/json_reader.h"

namespace headlab::lessons {
namespace {

using nlohmann::json;

bool text_field(JsonReader& r, const json& object, const char* key, const std::string& path, LocalizedText& out) {
  const json* value = JsonReader::optional_field(object, key);
  if (!value || !read_localized_text(*value, out))
    return r.fail(json_path(path, key), "expected {\"en\": \"...\", \"zh\": \"...\"} with both languages");
  return true;
}

// The requests a step replays (setup, solution): objects with an "op".
bool request_list(JsonReader& r, const json& object, const char* key, const std::string& path, json& out) {
  const json* value = JsonReader::optional_field(object, key);
  if (!value) return true;
  const std::string at = json_path(path, key);
  const json* list = r.array(value, at, 0, static_cast<std::size_t>(-1), "requests");
  if (!list) return false;
  for (std::size_t i = 0; i < list->size(); ++i) {
    std::string op;
    const json& request = (*list)[i];
    if (!r.object(&request, json_path(at, i)) || !r.string(r.field(request, json_path(at, i), "op"), json_path(json_path(at, i), "op"), op, true))
      return false;
  }
  out = *list;
  return true;
}

}  // namespace

Result<Lesson> parse_lesson(const std::string& json_text) {
  using R = Result<Lesson>;
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("lesson: not a JSON object");
  if (!doc.contains("format") || doc["format"] != "headlab-lesson") return R::failure("format: expected \"headlab-lesson\"");
  Lesson lesson;
  JsonReader r;
  if (!r.string(r.field(doc, "", "id"), "id", lesson.id, true)) return R::failure(r.error());
  const std::string base = lesson.id;
  if (!text_field(r, doc, "title", base, lesson.title) || !text_field(r, doc, "summary", base, lesson.summary))
    return R::failure(r.error());
  const json* steps = JsonReader::optional_field(doc, "steps");
  if (!steps || !steps->is_array() || steps->empty()) return R::failure(base + ".steps: expected a non-empty array");
  for (std::size_t s = 0; s < steps->size(); ++s) {
    const json& value = (*steps)[s];
    const std::string path = json_path(json_path(base, "steps"), s);
    if (!r.object(&value, path)) return R::failure(r.error());
    Step step;
    step.id = std::to_string(s);
    if (const json* id = JsonReader::optional_field(value, "id"); id && !r.string(id, path + ".id", step.id, true))
      return R::failure(r.error());
    if (!text_field(r, value, "title", path, step.title) || !text_field(r, value, "text", path, step.text) ||
        !text_field(r, value, "goal_text", path, step.goal_text))
      return R::failure(r.error());
    if (const json* hints = JsonReader::optional_field(value, "hints")) {
      if (!r.array(hints, path + ".hints", 0, static_cast<std::size_t>(-1), "hints")) return R::failure(r.error());
      for (std::size_t h = 0; h < hints->size(); ++h) {
        LocalizedText hint;
        if (!read_localized_text((*hints)[h], hint))
          return R::failure(path + ".hints[" + std::to_string(h) + "]: expected both languages");
        step.hints.push_back(std::move(hint));
      }
    }
    if (!request_list(r, value, "setup", path, step.setup) || !request_list(r, value, "solution", path, step.solution))
      return R::failure(r.error());
    if (!r.field(value, path, "goal")) return R::failure(r.error());
    Result<Goal> goal = parse_goal(value["goal"], path + ".goal");
    if (!goal.ok()) return R::failure(goal.error());
    step.goal = std::move(goal).value();
    if (const json* highlight = JsonReader::optional_field(value, "highlight")) {
      if (!r.array(highlight, path + ".highlight", 0, static_cast<std::size_t>(-1), "widget ids"))
        return R::failure(r.error());
      for (std::size_t k = 0; k < highlight->size(); ++k) {
        std::string id;
        if (!r.string(&(*highlight)[k], json_path(path + ".highlight", k), id, true)) return R::failure(r.error());
        step.highlight.push_back(std::move(id));
      }
    }
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
