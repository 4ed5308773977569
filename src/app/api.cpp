#include "app/api.h"

#include <nlohmann/json.hpp>

#include "app/action_codec.h"
#include "app/benchmark_api.h"
#include "app/lesson_runner.h"
#include "app/saved_state.h"
#include "app/share_link.h"
#include "app/state_json.h"
#include "app/training_api.h"
#include "engine/model_file.h"

namespace headlab::app {
namespace {

using nlohmann::json;

json failure(const std::string& message) { return {{"ok", false}, {"error", message}}; }
json success(json result = nullptr) { return {{"ok", true}, {"result", std::move(result)}}; }
json from_error(const std::string& error) { return error.empty() ? success() : failure(error); }

// Reads an integer field; false (with `error`) when missing or not an integer.
bool int_field(const json& request, const char* key, int& out, std::string& error) {
  if (!request.contains(key) || !request[key].is_number_integer()) {
    error = std::string(key) + ": expected an integer";
    return false;
  }
  const auto v = request[key].get<long long>();
  if (v < -1000000 || v > 1000000) {
    error = std::string(key) + ": out of range";
    return false;
  }
  out = static_cast<int>(v);
  return true;
}

// An edit: decoded by the one action codec (action_codec.h) and applied through the Controller.
json apply_request(Controller& controller, const json& request) {
  Result<Action> action = decode_action(request);
  if (!action.ok()) return failure(action.error());
  const ActionResult result = controller.apply(action.value());
  if (!result.ok()) return failure(result.error);
  if (std::holds_alternative<PruneLeastImportant>(action.value())) return success(result.pruned_heads);
  return success();
}

// [SECTION] The ops that are not edits: reading the lab, persistence, lessons, history, notices.

json op_state(Controller& c, const json&) { return success(json::parse(state_json(c.state(), c.resources()))); }

// Persistence (web/persistence.js): the whole lab state, strict on the way in.
json op_save_state(Controller& c, const json&) { return success(save_state(c.state())); }
json op_load_state(Controller& c, const json& request) {
  if (!request.contains("json") || !request["json"].is_string()) return failure("json: expected the saved state text");
  return from_error(load_state(c, request["json"].get<std::string>()));
}

// Share links (docs/saving-and-sharing.md): the fragment "#s=..." for the current lab, and back.
json op_share_link(Controller& c, const json&) {
  return success(std::string(kShareLinkPrefix) + encode_share_payload(save_state(c.state())));
}
json op_open_share_link(Controller& c, const json& request) {
  if (!request.contains("fragment") || !request["fragment"].is_string()) return failure("fragment: expected the link's \"#s=...\" part");
  const Result<std::string> text = decode_share_payload(request["fragment"].get<std::string>());
  if (!text.ok()) return failure(text.error());
  // A link may hold a saved lab or a bare model file; both loaders leave the state untouched on refusal.
  const json parsed = json::parse(text.value(), nullptr, false);
  if (parsed.is_object() && parsed.value("format", std::string()) == "headlab-model")
    return from_error(c.apply(LoadModel{text.value()}).error);
  return from_error(load_state(c, text.value()));
}

// A cheap fingerprint of everything saveState writes: autosave only serializes when it changes.
json op_state_key(Controller& c, const json&) {
  const AppState& s = c.state();
  return success(std::to_string(s.revision) + ":" + std::to_string(s.progress.lesson) + ":" + std::to_string(s.progress.step) +
                 ":" + std::to_string(s.progress.completed.size()) + ":" + std::to_string(static_cast<int>(s.progress.language)) +
                 ":" + s.preferences.theme + ":" + std::to_string(s.selection.layer) + ":" + std::to_string(s.selection.head));
}

json op_notify(Controller& c, const json& request) {
  const std::string level = request.value("level", std::string("info"));
  if (!request.contains("text") || !request["text"].is_string()) return failure("text: expected a string");
  c.notify(level == "error" ? NoticeLevel::error : level == "warning" ? NoticeLevel::warning : NoticeLevel::info,
           request["text"].get<std::string>().substr(0, 500));
  return success();
}

json op_start_lesson(Controller& c, const json& request) {
  int lesson = 0, step = 0;
  std::string error;
  if (!int_field(request, "lesson", lesson, error)) return failure(error);
  if (request.contains("step") && !int_field(request, "step", step, error)) return failure(error);
  return from_error(start_step(c, lesson, step));
}
json op_show_me(Controller& c, const json&) { return from_error(show_me(c)); }
json op_next_step(Controller& c, const json&) { return from_error(next_step(c)); }
json op_previous_step(Controller& c, const json&) { return from_error(previous_step(c)); }
json op_reset_step(Controller& c, const json&) { return from_error(reset_step(c)); }
json op_leave_lesson(Controller& c, const json&) {
  leave_lesson(c);
  return success();
}
json op_resume_lesson(Controller& c, const json&) { return from_error(resume_lesson(c)); }
json op_hint(Controller& c, const json&) {
  reveal_hint(c);
  return success();
}
json op_set_language(Controller& c, const json& request) {
  const std::string language = request.value("language", std::string());
  if (language != "en" && language != "zh") return failure("language: expected \"en\" or \"zh\"");
  set_language(c, language == "zh" ? Language::zh : Language::en);
  return success();
}
json op_reset_progress(Controller& c, const json&) {
  reset_progress(c);
  return success();
}
json op_lessons(Controller& c, const json&) {
  json list = json::array();
  for (const lessons::Lesson& lesson : c.resources().lessons) {
    json steps = json::array();
    for (const lessons::Step& step : lesson.steps) steps.push_back(step.id);
    list.push_back({{"id", lesson.id}, {"title", lesson.title.en}, {"title_zh", lesson.title.zh}, {"steps", steps}});
  }
  return success(list);
}
json op_export_model(Controller& c, const json&) { return success(serialize_model_file(c.state().document)); }
json op_undo(Controller& c, const json&) { return success(c.undo()); }
json op_redo(Controller& c, const json&) { return success(c.redo()); }

struct Handler {
  const char* op;
  json (*handle)(Controller&, const json&);
};
constexpr Handler kHandlers[] = {
    {"state", op_state},           {"saveState", op_save_state},         {"loadState", op_load_state},
    {"shareLink", op_share_link},  {"openShareLink", op_open_share_link}, {"stateKey", op_state_key},
    {"notify", op_notify},         {"startLesson", op_start_lesson},     {"showMe", op_show_me},
    {"nextStep", op_next_step},    {"previousStep", op_previous_step},   {"resetStep", op_reset_step},
    {"leaveLesson", op_leave_lesson}, {"resumeLesson", op_resume_lesson}, {"hint", op_hint},
    {"setLanguage", op_set_language}, {"resetProgress", op_reset_progress}, {"lessons", op_lessons},
    {"exportModel", op_export_model}, {"undo", op_undo},                 {"redo", op_redo}};

json dispatch(Controller& controller, TrainingSession* training, const json& request) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string())
    return failure("request: expected {\"op\": ...}");
  const std::string op = request["op"].get<std::string>();
  if (is_action_op(op)) return apply_request(controller, request);
  for (const Handler& handler : kHandlers)
    if (op == handler.op) return handler.handle(controller, request);
  if (is_training_op(op)) return training ? handle_training_op(*training, controller, request) : failure("training is not available here");
  if (is_benchmark_op(op)) return handle_benchmark_op(controller, request);
  return failure("op: unknown operation \"" + op + "\"");
}

}  // namespace

std::string handle_request(Controller& controller, const std::string& request_json, TrainingSession* training) {
  const json request = json::parse(request_json, nullptr, false);
  if (request.is_discarded()) return failure("request: not valid JSON").dump();
  return dispatch(controller, training, request).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> api_op_names() {
  std::vector<std::string> names = action_op_names();
  for (const Handler& handler : kHandlers) names.push_back(handler.op);
  for (const std::string& op : training_op_names()) names.push_back(op);
  for (const std::string& op : benchmark_op_names()) names.push_back(op);
  return names;
}

}  // namespace headlab::app
