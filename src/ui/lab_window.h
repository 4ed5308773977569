#pragma once
// The lab screen: lays out the panels (wide: three columns with splitters; phone: stacked) and
// handles keyboard shortcuts. Draws the AppState; panels send every change as an Action (action_sink.h).
#include <string>
#include <vector>

#include "app/controller.h"
#include "app/dispatcher.h"
#include "ui/cell_textures.h"
#include "ui/ui_state.h"

namespace headlab::app {
class TrainingSession;
}

namespace headlab::ui {

// Width (in CSS pixels) below which panels stack in one scrolling column.
inline constexpr float kPhoneWidth = 760.0f;

// Every control hands its action to `dispatcher`, whose training session (if any) the Training tab
// draws; `cell_textures` (optional) holds the heatmaps' and matrix views' cells on the GPU. Texts,
// presets and example sentences come from the controller's Resources.
void draw_lab_window(app::Dispatcher& dispatcher, LabUiState& ui, CellTextures* cell_textures = nullptr);
// The lab without training (the Training tab says so).
void draw_lab_window(app::Controller& controller, LabUiState& ui, CellTextures* cell_textures = nullptr);

}  // namespace headlab::ui
