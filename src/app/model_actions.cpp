#include "app/model_actions.h"

#include "engine/embedding.h"
#include "engine/model_resize.h"

namespace headlab::app {
namespace {

std::string check_layer(const AppState& state, int layer) {
  if (layer < 0 || layer >= static_cast<int>(state.document.model.layers.size()))
    return "layer " + std::to_string(layer) + " does not exist";
  return {};
}

}  // namespace

std::string set_d_model(AppState& state, int d_model) {
  Model& model = state.document.model;
  const int min_d = min_d_model(model.embedding);
  if (d_model < min_d || d_model > kMaxDModel)
    return "d_model must be between " + std::to_string(min_d) + " and " + std::to_string(kMaxDModel) +
           (model.embedding == Embedding::named_features ? " (the named-feature embedding has 24 features)"
            : model.embedding == Embedding::symbols      ? " (the symbol embedding has 13 fixed dimensions)"
                                                         : "");
  if (state.document.input.kind == InputKind::matrix) return "d_model is fixed by the explicit input X of this model";
  set_d_model(model, d_model);
  return {};
}

std::string set_head_dim(AppState& state, int layer, int d_k, int d_v) {
  if (auto e = check_layer(state, layer); !e.empty()) return e;
  if (d_k < 1 || d_k > kMaxDModel || d_v < 1 || d_v > kMaxDModel)
    return "d_k and d_v must be between 1 and " + std::to_string(kMaxDModel);
  headlab::set_head_dims(state.document.model, layer, d_k, d_v);
  return {};
}

std::string set_causal(AppState& state, bool causal) {
  state.document.model.causal = causal;
  return {};
}

std::string set_special_tokens(AppState& state, bool special_tokens) {
  state.document.model.special_tokens = special_tokens;
  return {};
}

std::string set_positional(AppState& state, Positional positional) {
  state.document.model.positional = positional;
  return {};
}

std::string set_embedding(AppState& state, Embedding embedding) {
  Model& model = state.document.model;
  model.embedding = embedding;
  if (model.d_model < min_d_model(embedding) && state.document.input.kind != InputKind::matrix)
    headlab::set_d_model(model, min_d_model(embedding));
  return {};
}

std::string set_layer_options(AppState& state, int layer, bool residual, Norm norm, bool ffn) {
  if (auto e = check_layer(state, layer); !e.empty()) return e;
  Layer& l = state.document.model.layers[layer];
  l.residual = residual;
  l.norm = norm;
  set_ffn(state.document.model, layer, ffn);
  return {};
}

std::string randomize_model(AppState& state, std::uint32_t seed) {
  randomize(state.document.model, seed);
  return {};
}

std::string reset_model(AppState& state) {
  const Input input = state.document.input;
  state.document = default_document();
  if (input.kind == InputKind::text) state.document.input = input;
  return {};
}

std::string reset_head(AppState& state, int layer, int head, std::uint32_t seed) {
  if (auto e = check_layer(state, layer); !e.empty()) return e;
  Layer& l = state.document.model.layers[layer];
  if (head < 0 || head >= l.head_count()) return "head " + std::to_string(head) + " does not exist";
  const bool pruned = l.heads[head].pruned;
  l.heads[head] = init_head(state.document.model.d_model, l.d_k, l.d_v, seed, layer, head, init_stddev(state.document.model));
  l.heads[head].pruned = pruned;
  return {};
}

}  // namespace headlab::app
