#pragma once
// The saved lab state: what autosave keeps in localStorage and what share links carry.
//   {"format": "headlab-state", "version": 1, "model": {<model file, docs/model-format.md>},
//    "selection": {"layer", "head"}, "lesson": {"index", "step", "completed": [...], "paused_lesson",
//    "paused_step"}, "language": "en" | "zh", "theme": "dark" | "light"}
// Loading is strict (it is untrusted input: storage can be corrupt, links can be hostile) and
// all-or-nothing: on any error the current state is untouched and the message names the field.
// Older forms are migrated: a bare model file (what version 0 of autosave stored) loads as a state
// with default selection and progress.
#include <string>

#include "app/controller.h"

namespace headlab::app {

inline constexpr const char* kStateFormat = "headlab-state";
inline constexpr int kStateVersion = 1;
inline constexpr std::size_t kMaxStateBytes = 32u << 20;  // refuse anything larger before parsing

// Why the lab's state is too large to save ("" when it is not): as JSON text its weights would pass
// kMaxStateBytes, so it could not be restored, and building that text takes more memory than the
// page has (the largest model, 25 MB of weights, needed over 1.5 GB of the 2 GB WASM heap).
std::string state_too_large(const AppState& state);
std::string save_state(const AppState& state);
// Replaces document, selection, lesson progress and preferences. "" or why it was refused.
std::string load_state(Controller& controller, const std::string& json_text);

}  // namespace headlab::app
