#pragma once
// The short text under a head's thumbnail and in lists: its specialization label when known, in
// the learner's language.
#include <string>

#include "app/app_state.h"
#include "engine/analysis/label.h"
#include "ui/words.h"

namespace headlab::ui {

// The head's primary label in words ("previous token", "nsubj (syntax)", "mixed", "pruned").
std::string head_caption(const app::AppState& state, int layer, int head, const Words& words);
// A label in words: "previous token", "nsubj (syntax)", "mixed".
std::string label_display_name(const analysis::Label& label, const Words& words);
std::string role_display_name(analysis::Role role, const Words& words);

}  // namespace headlab::ui
