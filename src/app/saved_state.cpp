#include "app/saved_state.h"

#include <nlohmann/json.hpp>

#include "engine/model_file.h"

namespace headlab::app {
namespace {

using nlohmann::json;

// Reads the progress fields; false with `error` naming the field.
bool read_progress(const json& lesson, const LessonList* lessons, LessonProgress& out, std::string& error) {
  if (!lesson.is_object()) {
    error = "lesson: expected an object";
    return false;
  }
  const int lesson_count = lessons ? static_cast<int>(lessons->size()) : 0;
  const auto index = [&](const char* key, int lo, int hi, int& target) {
    if (!lesson.contains(key)) return true;
    if (!lesson[key].is_number_integer() || lesson[key].get<long long>() < lo || lesson[key].get<long long>() > hi) {
      error = std::string("lesson.") + key + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
      return false;
    }
    target = lesson[key].get<int>();
    return true;
  };
  if (!index("index", -1, lesson_count - 1, out.lesson) || !index("paused_lesson", -1, lesson_count - 1, out.paused_lesson))
    return false;
  const auto step_limit = [&](int l) { return l >= 0 && lessons ? static_cast<int>((*lessons)[l].steps.size()) - 1 : 0; };
  if (!index("step", 0, step_limit(out.lesson), out.step) || !index("paused_step", 0, step_limit(out.paused_lesson), out.paused_step))
    return false;
  if (lesson.contains("completed")) {
    const json& completed = lesson["completed"];
    if (!completed.is_array() || completed.size() > 10000) {
      error = "lesson.completed: expected an array of step ids";
      return false;
    }
    for (const json& key : completed) {
      if (!key.is_string() || key.get<std::string>().size() > 200) {
        error = "lesson.completed: expected step ids (strings)";
        return false;
      }
      out.completed.insert(key.get<std::string>());
    }
  }
  return true;
}

}  // namespace

std::string save_state(const AppState& state) {
  json out;
  out["format"] = kStateFormat;
  out["version"] = kStateVersion;
  out["model"] = json::parse(serialize_model_file(state.document));
  out["selection"] = {{"layer", state.selection.layer}, {"head", state.selection.head}};
  const LessonProgress& p = state.progress;
  json completed = json::array();
  for (const std::string& key : p.completed) completed.push_back(key);
  out["lesson"] = {{"index", p.lesson}, {"step", p.step}, {"paused_lesson", p.paused_lesson},
                   {"paused_step", p.paused_step}, {"completed", std::move(completed)}};
  out["language"] = p.language == Language::zh ? "zh" : "en";
  out["theme"] = state.preferences.theme;
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string load_state(Controller& controller, const std::string& json_text) {
  if (json_text.size() > kMaxStateBytes) return "the saved state is larger than 32 MB";
  json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) return "not valid JSON";
  if (!doc.is_object()) return "expected a JSON object";
  // Migration: a bare model file is an older saved state.
  if (doc.contains("format") && doc["format"] == kModelFormat) doc = json{{"format", kStateFormat}, {"version", 1}, {"model", doc}};
  if (!doc.contains("format") || doc["format"] != kStateFormat) return "format: expected \"headlab-state\"";
  if (!doc.contains("version") || !doc["version"].is_number_integer()) return "version: expected an integer";
  if (doc["version"].get<long long>() > kStateVersion) return "version: saved by a newer HeadLab";
  if (!doc.contains("model")) return "model: missing";
  const Result<Document> document = parse_model_file(doc["model"].dump());
  if (!document.ok()) return "model." + document.error();
  const Model& model = document.value().model;
  Selection selection;
  if (doc.contains("selection")) {
    const json& s = doc["selection"];
    if (!s.is_object() || !s.value("layer", json()).is_number_integer() || !s.value("head", json()).is_number_integer())
      return "selection: expected {\"layer\": integer, \"head\": integer}";
    selection.layer = s["layer"].get<int>();
    selection.head = s["head"].get<int>();
    if (selection.layer < 0 || selection.layer >= static_cast<int>(model.layers.size()) || selection.head < 0 ||
        selection.head >= model.layers[selection.layer].head_count())
      return "selection: no such head in the model";
  }
  LessonProgress progress = controller.state().progress;
  if (doc.contains("lesson")) {
    progress = LessonProgress{};
    std::string error;
    if (!read_progress(doc["lesson"], &controller.resources().lessons, progress, error)) return error;
  }
  if (doc.contains("language")) {
    if (doc["language"] != "en" && doc["language"] != "zh") return "language: expected \"en\" or \"zh\"";
    progress.language = doc["language"] == "zh" ? Language::zh : Language::en;
  }
  Preferences preferences = controller.state().preferences;
  if (doc.contains("theme")) {
    if (doc["theme"] != "dark" && doc["theme"] != "light") return "theme: expected \"dark\" or \"light\"";
    preferences.theme = doc["theme"].get<std::string>();
  }
  // Everything validated: now replace, as one undoable edit for the document.
  const ActionResult loaded = controller.apply(LoadModel{doc["model"].dump()});
  if (!loaded.ok()) return loaded.error;
  controller.apply(SelectHead{selection.layer, selection.head});
  controller.apply(SetTheme{preferences.theme == "light" ? Theme::light : Theme::dark});
  controller.progress() = progress;
  controller.refresh_goal();
  return {};
}

}  // namespace headlab::app
