#pragma once
// The short text under a head's thumbnail and in lists: its specialization label when known, in
// the learner's language.
#include <string>

#include "app/app_state.h"
#include "ui/words.h"

namespace headlab::ui {

// The head's primary label in words ("previous token", "nsubj (syntax)", "mixed", "pruned").
std::string head_caption(const app::AppState& state, int layer, int head, const Words& words);
// A label id ("previous_token", "syntactic:nsubj", "mixed") in words.
std::string label_display_name(const std::string& label, const Words& words);

}  // namespace headlab::ui
