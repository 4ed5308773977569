#include "app/api.h"

#include <nlohmann/json.hpp>

#include "app/actions.h"
#include "app/state_json.h"
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

json dispatch(Controller& controller, const json& request) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string())
    return failure("request: expected {\"op\": ...}");
  const std::string op = request["op"].get<std::string>();
  std::string error;
  if (op == "state") return success(json::parse(state_json(controller.state())));
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

std::string handle_request(Controller& controller, const std::string& request_json) {
  const json request = json::parse(request_json, nullptr, false);
  if (request.is_discarded()) return failure("request: not valid JSON").dump();
  return dispatch(controller, request).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace headlab::app
