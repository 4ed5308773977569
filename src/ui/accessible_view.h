#pragma once
// What a sighted learner reads on the canvas, as data for the page's accessibility tree
// (web/accessible-view.js renders it as headings, paragraphs and lists a screen reader can read):
// the lesson step's text, goal, live numbers and hints; the selected head's label, explanation and
// closest roles; the notices. In the learner's language (head explanations are English-only; in
// Chinese the role's own description stands in).
#include <nlohmann/json.hpp>

#include "app/app_state.h"
#include "app/resources.h"

namespace headlab::ui {

nlohmann::json accessible_view(const app::AppState& state, const app::Resources& resources);

}  // namespace headlab::ui
