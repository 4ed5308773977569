#pragma once
// The lab screen: lays out the panels (wide: three columns with splitters; phone: stacked) and
// handles keyboard shortcuts. Draws the AppState and sends every change through the Controller.
#include <string>
#include <vector>

#include "app/controller.h"
#include "engine/presets.h"
#include "ui/ui_state.h"
#include "ui/ui_text.h"

namespace headlab::app {
class TrainingSession;
}

namespace headlab::ui {

// Width (in CSS pixels) below which panels stack in one scrolling column.
inline constexpr float kPhoneWidth = 760.0f;

// `training` (optional) is drawn in the Training tab.
void draw_lab_window(app::Controller& controller, LabUiState& ui, const std::vector<std::string>& example_sentences,
                     const UiText& text, const std::vector<Preset>& presets, app::TrainingSession* training = nullptr);

}  // namespace headlab::ui
