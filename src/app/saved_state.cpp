#include "app/saved_state.h"

#include <nlohmann/json.hpp>

#include "engine/json_reader.h"
#include "engine/model_file.h"

namespace headlab::app {
namespace {

using nlohmann::json;

// Reads the progress fields into `out`; false with the reader's error naming the field.
bool read_progress(JsonReader& r, const json& lesson, const LessonList& lessons, LessonProgress& out) {
  if (!r.object(&lesson, "lesson")) return false;
  const int last_lesson = static_cast<int>(lessons.size()) - 1;
  const auto index = [&](const char* key, int lo, int hi, int& target) {
    const json* value = JsonReader::optional_field(lesson, key);
    return !value || r.integer(value, json_path("lesson", key), lo, hi, target);
  };
  if (!index("index", -1, last_lesson, out.lesson) || !index("paused_lesson", -1, last_lesson, out.paused_lesson))
    return false;
  const auto last_step = [&](int l) { return l >= 0 ? static_cast<int>(lessons[l].steps.size()) - 1 : 0; };
  if (!index("step", 0, last_step(out.lesson), out.step) || !index("paused_step", 0, last_step(out.paused_lesson), out.paused_step))
    return false;
  const json* completed = JsonReader::optional_field(lesson, "completed");
  if (completed && !r.array(completed, "lesson.completed", 0, 10000, "step ids")) return false;
  for (std::size_t i = 0; completed && i < completed->size(); ++i) {
    std::string key;
    if (!r.string(&(*completed)[i], json_path("lesson.completed", i), key, true, 200)) return false;
    out.completed.insert(std::move(key));
  }
  return true;
}

}  // namespace

std::string state_too_large(const AppState& state) {
  // A checkpoint is the learner's own file, and even the smallest is far past what a browser keeps:
  // it is opened again from disk, and the last autosave (the lab before it) stays.
  if (is_checkpoint_model(state.document.model))
    return "a model opened from a checkpoint is not saved in the browser or in links: open its file again (your last "
           "autosave, from before it, stays)";
  // The real-text model's 6,144-token embedding alone is about 5 MB as JSON, past what localStorage
  // holds; the model is one click away (Model, "Real-text model").
  if (!state.document.model.tokenizer.empty())
    return "a model that reads subword tokens is not saved in the browser or in links: choose it again under Model (your "
           "last autosave, from before it, stays)";
  // A float is written with up to 9 significant digits: about 12 characters for its 4 bytes.
  constexpr std::size_t kTextPerWeightByte = 3;
  const std::size_t estimate = model_bytes(state.document.model) * kTextPerWeightByte;
  if (estimate <= kMaxStateBytes) return "";
  return "the model is too large to save in this browser (about " + std::to_string(estimate >> 20) +
         " MB as text; at most " + std::to_string(kMaxStateBytes >> 20) +
         " MB): fewer layers or heads, or a smaller d_model, can be saved";
}

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
  JsonReader r;
  long long version = 0;
  if (!r.integer(r.field(doc, "", "version"), "version", 1, kStateVersion, version)) {
    const json& v = doc["version"];
    return v.is_number() && v.get<double>() > kStateVersion ? "version: saved by a newer HeadLab" : r.error();
  }
  const json* model_json = r.field(doc, "", "model");
  if (!model_json) return r.error();
  const Result<Document> document = parse_model_file(model_json->dump());
  if (!document.ok()) return "model." + document.error();
  const Model& model = document.value().model;
  Selection selection;
  if (const json* s = JsonReader::optional_field(doc, "selection")) {
    const int last_layer = static_cast<int>(model.layers.size()) - 1;
    if (!r.object(s, "selection") || !r.integer(r.field(*s, "selection", "layer"), "selection.layer", 0, last_layer, selection.layer) ||
        !r.integer(r.field(*s, "selection", "head"), "selection.head", 0, model.layers[selection.layer].head_count() - 1, selection.head))
      return r.error();
  }
  LessonProgress progress = controller.state().progress;
  if (const json* lesson = JsonReader::optional_field(doc, "lesson")) {
    progress = LessonProgress{};
    if (!read_progress(r, *lesson, controller.resources().lessons, progress)) return r.error();
  }
  if (const json* language = JsonReader::optional_field(doc, "language");
      language && !r.one_of<Language>(language, "language", {{"en", Language::en}, {"zh", Language::zh}}, progress.language))
    return r.error();
  Preferences preferences = controller.state().preferences;
  if (const json* theme = JsonReader::optional_field(doc, "theme");
      theme && !r.one_of<std::string>(theme, "theme", {{"dark", "dark"}, {"light", "light"}}, preferences.theme))
    return r.error();
  // Everything validated: now replace, as one undoable edit for the document.
  const ActionResult loaded = controller.apply(LoadModel{model_json->dump()});
  if (!loaded.ok()) return loaded.error;
  controller.apply(SelectHead{selection.layer, selection.head});
  controller.apply(SetTheme{preferences.theme == "light" ? Theme::light : Theme::dark});
  controller.progress() = progress;
  controller.refresh_goal();
  return {};
}

}  // namespace headlab::app
