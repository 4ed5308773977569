#pragma once
// The per-head role timeline of the Training tab: one row per head, one cell per held-out sample,
// coloured by the head's role then, so the learner sees heads start alike and diverge.
#include <string>

#include "app/training_session.h"
#include "engine/analysis/label.h"
#include "imgui.h"
#include "ui/ui_state.h"
#include "ui/words.h"

namespace headlab::ui {

// A colour per role, colour-blind safe where it can be (Okabe & Ito 2008); "mixed" is neutral.
ImU32 role_colour(const analysis::Label& label);
// "subject -> verb (nsubj)" ("subject -> verb" without `relation`), "previous token", "mixed".
std::string role_text(const app::HeadRole& role, const Words& words, bool relation = true);

// Draws the timeline (registered as ids::kTrainTimeline) `width` wide; rows grow with the heads.
void draw_role_timeline(const app::TrainingSession& session, LabUiState& ui, float width, const Words& words);

}  // namespace headlab::ui
