#include "app/actions.h"

#include <cmath>

#include "engine/model_file.h"

namespace headlab::app {
namespace {

std::string check_layer(const AppState& state, int layer) {
  const int layers = static_cast<int>(state.document.model.layers.size());
  if (layer < 0 || layer >= layers)
    return "layer " + std::to_string(layer) + " does not exist (0.." + std::to_string(layers - 1) + ")";
  return {};
}

std::string check_head(const AppState& state, int layer, int head) {
  if (auto error = check_layer(state, layer); !error.empty()) return error;
  const int heads = state.document.model.layers[layer].head_count();
  if (head < 0 || head >= heads)
    return "head " + std::to_string(head) + " does not exist in layer " + std::to_string(layer) + " (0.." +
           std::to_string(heads - 1) + ")";
  return {};
}

}  // namespace

std::string set_text(AppState& state, const std::string& text) {
  constexpr std::size_t kMaxTextBytes = 200000;
  Input& input = state.document.input;
  input.kind = InputKind::text;
  input.text = text.size() > kMaxTextBytes ? text.substr(0, kMaxTextBytes) : text;
  input.tokens.clear();
  input.X.resize(0, 0);
  state.dirty = true;
  return {};
}

std::string set_head_count(AppState& state, int layer, int head_count) {
  if (auto error = check_layer(state, layer); !error.empty()) return error;
  if (head_count < 1 || head_count > kMaxHeads)
    return "head count must be between 1 and " + std::to_string(kMaxHeads);
  headlab::set_head_count(state.document.model, layer, head_count);
  state.dirty = true;
  return {};
}

std::string set_layer_count(AppState& state, int layer_count) {
  if (layer_count < 1 || layer_count > kMaxLayers)
    return "layer count must be between 1 and " + std::to_string(kMaxLayers);
  const int heads = state.document.model.layers.back().head_count();
  headlab::set_layer_count(state.document.model, layer_count, heads);
  state.dirty = true;
  return {};
}

std::string set_weight(AppState& state, int layer, int head, WeightMatrix which, int row, int col, double value) {
  if (!std::isfinite(value)) return "weights must be finite numbers (got " + std::to_string(value) + ")";
  if (std::fabs(value) > 1e30) return "weights must be at most 1e30 in size";
  Layer* l = nullptr;
  Matrix* m = nullptr;
  if (which == WeightMatrix::W_O) {
    if (auto error = check_layer(state, layer); !error.empty()) return error;
    l = &state.document.model.layers[layer];
    m = &l->W_O;
  } else {
    if (auto error = check_head(state, layer, head); !error.empty()) return error;
    HeadWeights& h = state.document.model.layers[layer].heads[head];
    m = which == WeightMatrix::W_Q ? &h.W_Q : which == WeightMatrix::W_K ? &h.W_K : &h.W_V;
  }
  if (row < 0 || row >= m->rows() || col < 0 || col >= m->cols())
    return "cell (" + std::to_string(row) + ", " + std::to_string(col) + ") is outside the " +
           std::to_string(m->rows()) + "x" + std::to_string(m->cols()) + " matrix";
  (*m)(row, col) = static_cast<float>(value);
  state.dirty = true;
  return {};
}

std::string select_head(AppState& state, int layer, int head) {
  if (auto error = check_head(state, layer, head); !error.empty()) return error;
  state.selection = {layer, head};
  return {};
}

std::string load_model(AppState& state, const std::string& json_text) {
  Result<Document> parsed = parse_model_file(json_text);
  if (!parsed.ok()) return parsed.error();
  state.document = std::move(parsed).value();
  state.dirty = true;
  return {};
}

}  // namespace headlab::app
