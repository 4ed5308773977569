#pragma once
// The short text under a head's thumbnail and in lists: its specialization label when known.
#include <string>

#include "app/app_state.h"

namespace headlab::ui {

std::string head_caption(const app::AppState& state, int layer, int head);

}  // namespace headlab::ui
