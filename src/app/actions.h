#pragma once
// The edits behind app::apply (apply_action.h). Each returns an empty string on success or a
// message saying why the edit was refused (the state is then unchanged).
#include <string>

#include "app/action.h"
#include "app/app_state.h"

namespace headlab::app {

std::string set_text(AppState& state, const std::string& text);
std::string set_head_count(AppState& state, int layer, int head_count);
std::string set_layer_count(AppState& state, int layer_count);
std::string set_weight(AppState& state, int layer, int head, WeightMatrix which, int row, int col, double value);
std::string select_head(AppState& state, int layer, int head);
// Replaces the whole document from a model file; on error the current document is untouched.
std::string load_model(AppState& state, const std::string& json_text);

}  // namespace headlab::app
