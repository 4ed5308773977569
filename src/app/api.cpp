#include "app/api.h"

#include <nlohmann/json.hpp>

#include "app/actions.h"
#include "app/benchmark_api.h"
#include "app/lesson_runner.h"
#include "app/matrix_actions.h"
#include "app/model_actions.h"
#include "app/saved_state.h"
#include "app/share_link.h"
#include "app/state_json.h"
#include "app/training_api.h"
#include "engine/analysis/importance.h"
#include "engine/model_file.h"
#include "engine/presets.h"

namespace headlab::app {
namespace {

using nlohmann::json;

json failure(const std::string& message) { return {{"ok", false}, {"error", message}}; }
json success(json result = nullptr) { return {{"ok", true}, {"result", std::move(result)}}; }
json from_edit(const std::string& error) { return error.empty() ? success() : failure(error); }

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

json dispatch(Controller& controller, TrainingSession* training, const json& request) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string())
    return failure("request: expected {\"op\": ...}");
  const std::string op = request["op"].get<std::string>();
  std::string error;
  if (op == "state") return success(json::parse(state_json(controller.state())));
  if (is_training_op(op)) return training ? handle_training_op(*training, controller, request) : failure("training is not available here");
  if (is_benchmark_op(op)) return handle_benchmark_op(controller, request);
  if (op == "setText") {
    if (!request.contains("text") || !request["text"].is_string()) return failure("text: expected a string");
    const std::string text = request["text"].get<std::string>();
    return from_edit(controller.apply([&](AppState& s) { return set_text(s, text); }));
  }
  if (op == "setHeadCount") {
    int count = 0, layer = -1;
    if (!int_field(request, "count", count, error)) return failure(error);
    if (request.contains("layer") && !int_field(request, "layer", layer, error)) return failure(error);
    return from_edit(controller.apply([&](AppState& s) {
      if (layer >= 0) return set_head_count(s, layer, count);
      for (int l = 0; l < static_cast<int>(s.document.model.layers.size()); ++l)
        if (auto e = set_head_count(s, l, count); !e.empty()) return e;
      return std::string();
    }));
  }
  if (op == "setLayerCount") {
    int count = 0;
    if (!int_field(request, "count", count, error)) return failure(error);
    return from_edit(controller.apply([&](AppState& s) { return set_layer_count(s, count); }));
  }
  if (op == "setWeight") {
    int layer = 0, head = 0, row = 0, col = 0;
    if (!int_field(request, "layer", layer, error) || !int_field(request, "head", head, error) ||
        !int_field(request, "row", row, error) || !int_field(request, "col", col, error))
      return failure(error);
    WeightMatrix which;
    if (!request.contains("which") || !request["which"].is_string() ||
        !weight_matrix_from_string(request["which"].get<std::string>(), which))
      return failure("which: expected \"W_Q\", \"W_K\", \"W_V\" or \"W_O\"");
    if (!request.contains("value")) return failure("value: expected a number");
    const json& v = request["value"];
    // Non-finite numbers cannot travel as JSON numbers; the JS side sends them as strings.
    if (!v.is_number())
      return failure("value: weights must be finite numbers (got " + (v.is_string() ? v.get<std::string>() : v.dump()) + ")");
    const double value = v.get<double>();
    return from_edit(controller.apply([&](AppState& s) { return set_weight(s, layer, head, which, row, col, value); }));
  }
  if (op == "selectHead") {
    int layer = 0, head = 0;
    if (!int_field(request, "layer", layer, error) || !int_field(request, "head", head, error)) return failure(error);
    return from_edit(controller.apply_without_history([&](AppState& s) { return select_head(s, layer, head); }));
  }
  if (op == "setPruned") {
    int layer = 0, head = 0;
    if (!int_field(request, "layer", layer, error) || !int_field(request, "head", head, error)) return failure(error);
    if (!request.contains("pruned") || !request["pruned"].is_boolean()) return failure("pruned: expected true or false");
    const bool pruned = request["pruned"].get<bool>();
    return from_edit(controller.apply([&](AppState& s) -> std::string {
      const auto& layers = s.document.model.layers;
      if (layer < 0 || layer >= static_cast<int>(layers.size())) return "layer " + std::to_string(layer) + " does not exist";
      if (head < 0 || head >= layers[layer].head_count())
        return "head " + std::to_string(head) + " does not exist in layer " + std::to_string(layer);
      s.document.model.layers[layer].heads[head].pruned = pruned;
      s.dirty = true;
      return {};
    }));
  }
  if (op == "pruneLeastImportant") {
    int layer = 0, k = 0;
    if (!int_field(request, "layer", layer, error) || !int_field(request, "k", k, error)) return failure(error);
    json pruned_heads = json::array();
    const std::string result = controller.apply([&](AppState& s) -> std::string {
      recompute(s, controller.lexicon());  // importance must describe the current model
      if (layer < 0 || layer >= static_cast<int>(s.analysis.layers.size()))
        return "layer " + std::to_string(layer) + " does not exist";
      std::vector<float> importance;
      for (const analysis::HeadAnalysis& h : s.analysis.layers[layer].heads) importance.push_back(h.importance);
      Result<std::vector<int>> done = analysis::prune_least_important(s.document.model, layer, k, importance);
      if (!done.ok()) return done.error();
      pruned_heads = done.value();
      s.dirty = true;
      return {};
    });
    return result.empty() ? success(pruned_heads) : failure(result);
  }
  if (op == "applyPreset") {
    int layer = 0, head = 0;
    if (!int_field(request, "layer", layer, error) || !int_field(request, "head", head, error)) return failure(error);
    if (!request.contains("preset") || !request["preset"].is_string()) return failure("preset: expected a preset id");
    const std::string id = request["preset"].get<std::string>();
    // Read on demand: applying a preset is a click, not a per-frame cost.
    Result<std::vector<Preset>> presets = load_presets();
    if (!presets.ok()) return failure(presets.error());
    const Preset* preset = find_preset(presets.value(), id);
    if (!preset) return failure("preset: unknown preset \"" + id + "\" (assets/presets/index.json)");
    return from_edit(controller.apply([&](AppState& s) {
      std::string e = apply_preset(s.document.model, layer, head, *preset);
      if (e.empty()) s.dirty = true;
      return e;
    }));
  }
  if (op == "reset") return from_edit(controller.apply([](AppState& s) {
    s.document = default_document();
    return std::string();
  }));
  if (op == "setSpecialTokens" || op == "setCausal") {
    if (!request.contains("on") || !request["on"].is_boolean()) return failure("on: expected true or false");
    const bool on = request["on"].get<bool>();
    return from_edit(controller.apply([&](AppState& s) { return op == "setCausal" ? set_causal(s, on) : set_special_tokens(s, on); }));
  }
  if (op == "setHeadDim") {
    int layer = 0, d_k = 0, d_v = 0;
    if (!int_field(request, "layer", layer, error) || !int_field(request, "d_k", d_k, error)) return failure(error);
    d_v = d_k;
    if (request.contains("d_v") && !int_field(request, "d_v", d_v, error)) return failure(error);
    return from_edit(controller.apply([&](AppState& s) { return set_head_dim(s, layer, d_k, d_v); }));
  }
  if (op == "setDModel") {
    int d_model = 0;
    if (!int_field(request, "d_model", d_model, error)) return failure(error);
    return from_edit(controller.apply([&](AppState& s) { return set_d_model(s, d_model); }));
  }
  if (op == "setLayerOptions") {
    int layer = 0;
    if (!int_field(request, "layer", layer, error)) return failure(error);
    const auto& layers = controller.state().document.model.layers;
    if (layer < 0 || layer >= static_cast<int>(layers.size())) return failure("layer " + std::to_string(layer) + " does not exist");
    const Layer& current = layers[layer];
    const bool residual = request.contains("residual") && request["residual"].is_boolean() ? request["residual"].get<bool>() : current.residual;
    const bool ffn = request.contains("ffn") && request["ffn"].is_boolean() ? request["ffn"].get<bool>() : current.has_ffn;
    Norm norm = current.norm;
    if (request.contains("norm")) {
      const std::string name = request["norm"].is_string() ? request["norm"].get<std::string>() : "";
      if (name == "none") norm = Norm::none;
      else if (name == "pre") norm = Norm::pre;
      else if (name == "post") norm = Norm::post;
      else return failure("norm: expected \"none\", \"pre\" or \"post\"");
    }
    return from_edit(controller.apply([&](AppState& s) { return set_layer_options(s, layer, residual, norm, ffn); }));
  }
  if (op == "zeroOutputBlock" || op == "zeroOutputBlockAll") {
    int layer = 0, head = -1;
    if (!int_field(request, "layer", layer, error)) return failure(error);
    if (op == "zeroOutputBlock" && !int_field(request, "head", head, error)) return failure(error);
    return from_edit(controller.apply([&](AppState& s) { return zero_output_block(s, layer, head); }));
  }
  if (op == "scaleLine") {
    int layer = 0, head = 0, index = 0;
    if (!int_field(request, "layer", layer, error) || !int_field(request, "index", index, error)) return failure(error);
    if (request.contains("head") && !int_field(request, "head", head, error)) return failure(error);
    WeightMatrix which;
    if (!request.contains("which") || !request["which"].is_string() ||
        !weight_matrix_from_string(request["which"].get<std::string>(), which))
      return failure("which: expected \"W_Q\", \"W_K\", \"W_V\" or \"W_O\"");
    const std::string axis = request.value("axis", std::string("row"));
    if (axis != "row" && axis != "column") return failure("axis: expected \"row\" or \"column\"");
    if (!request.contains("factor") || !request["factor"].is_number()) return failure("factor: expected a number");
    const double factor = request["factor"].get<double>();
    return from_edit(controller.apply([&](AppState& s) {
      return scale_line(s, {layer, head, which}, axis == "row" ? Axis::row : Axis::column, index, factor);
    }));
  }
  // Persistence (web/persistence.js): the whole lab state, strict on the way in.
  if (op == "saveState") return success(save_state(controller.state()));
  if (op == "loadState") {
    if (!request.contains("json") || !request["json"].is_string()) return failure("json: expected the saved state text");
    return from_edit(load_state(controller, request["json"].get<std::string>()));
  }
  // Share links (docs/saving-and-sharing.md): the fragment "#s=..." for the current lab, and back.
  if (op == "shareLink") return success(std::string(kShareLinkPrefix) + encode_share_payload(save_state(controller.state())));
  if (op == "openShareLink") {
    if (!request.contains("fragment") || !request["fragment"].is_string()) return failure("fragment: expected the link's \"#s=...\" part");
    const Result<std::string> text = decode_share_payload(request["fragment"].get<std::string>());
    if (!text.ok()) return failure(text.error());
    // A link may hold a saved lab or a bare model file; both loaders leave the state untouched on refusal.
    const json parsed = json::parse(text.value(), nullptr, false);
    if (parsed.is_object() && parsed.value("format", std::string()) == "headlab-model")
      return from_edit(controller.apply([&](AppState& s) { return load_model(s, text.value()); }));
    return from_edit(load_state(controller, text.value()));
  }
  // A cheap fingerprint of everything saveState writes: autosave only serializes when it changes.
  if (op == "stateKey") {
    const AppState& s = controller.state();
    return success(std::to_string(s.revision) + ":" + std::to_string(s.progress.lesson) + ":" + std::to_string(s.progress.step) +
                   ":" + std::to_string(s.progress.completed.size()) + ":" + std::to_string(static_cast<int>(s.progress.language)) +
                   ":" + s.preferences.theme + ":" + std::to_string(s.selection.layer) + ":" + std::to_string(s.selection.head));
  }
  if (op == "notify") {
    const std::string level = request.value("level", std::string("info"));
    if (!request.contains("text") || !request["text"].is_string()) return failure("text: expected a string");
    controller.apply_without_history([&](AppState& s) {
      push_notice(s, level == "error" ? NoticeLevel::error : level == "warning" ? NoticeLevel::warning : NoticeLevel::info,
                  request["text"].get<std::string>().substr(0, 500));
      return std::string();
    });
    return success();
  }
  // Lessons.
  if (op == "startLesson") {
    int lesson = 0, step = 0;
    if (!int_field(request, "lesson", lesson, error)) return failure(error);
    if (request.contains("step") && !int_field(request, "step", step, error)) return failure(error);
    return from_edit(start_step(controller, lesson, step));
  }
  if (op == "showMe") return from_edit(show_me(controller));
  if (op == "nextStep") return from_edit(next_step(controller));
  if (op == "previousStep") return from_edit(previous_step(controller));
  if (op == "resetStep") return from_edit(reset_step(controller));
  if (op == "leaveLesson") {
    leave_lesson(controller);
    return success();
  }
  if (op == "resumeLesson") return from_edit(resume_lesson(controller));
  if (op == "hint") {
    reveal_hint(controller);
    return success();
  }
  if (op == "setLanguage") {
    const std::string language = request.value("language", std::string());
    if (language != "en" && language != "zh") return failure("language: expected \"en\" or \"zh\"");
    set_language(controller, language == "zh" ? Language::zh : Language::en);
    return success();
  }
  if (op == "resetProgress") {
    reset_progress(controller);
    return success();
  }
  if (op == "lessons") {
    json list = json::array();
    if (controller.state().lessons)
      for (const lessons::Lesson& lesson : *controller.state().lessons) {
        json steps = json::array();
        for (const lessons::Step& step : lesson.steps) steps.push_back(step.id);
        list.push_back({{"id", lesson.id}, {"title", lesson.title.en}, {"title_zh", lesson.title.zh}, {"steps", steps}});
      }
    return success(list);
  }
  if (op == "exportModel") return success(serialize_model_file(controller.state().document));
  if (op == "loadModel") {
    if (!request.contains("json") || !request["json"].is_string()) return failure("json: expected the model file text");
    const std::string text = request["json"].get<std::string>();
    return from_edit(controller.apply([&](AppState& s) { return load_model(s, text); }));
  }
  if (op == "undo") return success(controller.undo());
  if (op == "redo") return success(controller.redo());
  return failure("op: unknown operation \"" + op + "\"");
}

}  // namespace

std::string handle_request(Controller& controller, const std::string& request_json, TrainingSession* training) {
  const json request = json::parse(request_json, nullptr, false);
  if (request.is_discarded()) return failure("request: not valid JSON").dump();
  return dispatch(controller, training, request).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace headlab::app
