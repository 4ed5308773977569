#pragma once
// Edits of the model configuration. Each returns "" or why it was refused (state unchanged).
#include <cstdint>
#include <string>

#include "app/app_state.h"

namespace headlab::app {

std::string set_d_model(AppState& state, int d_model);
// d_k and d_v of one layer (d_v follows d_k unless given).
std::string set_head_dim(AppState& state, int layer, int d_k, int d_v);
std::string set_causal(AppState& state, bool causal);
std::string set_special_tokens(AppState& state, bool special_tokens);
std::string set_positional(AppState& state, Positional positional);
// Switching to the named embedding raises d_model to the number of named features if needed.
std::string set_embedding(AppState& state, Embedding embedding);
std::string set_layer_options(AppState& state, int layer, bool residual, Norm norm, bool ffn);
// Re-seeds every weight with `seed` (same shapes): "randomize".
std::string randomize_model(AppState& state, std::uint32_t seed);
// Back to the default model, keeping the current input text.
std::string reset_model(AppState& state);
// Fresh seeded weights for one head.
std::string reset_head(AppState& state, int layer, int head, std::uint32_t seed);

}  // namespace headlab::app
