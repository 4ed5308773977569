#pragma once
// The lab screen: sentence bar, model controls and one heatmap per head. Draws the AppState and
// sends every change through the Controller.
#include <string>
#include <vector>

#include "app/controller.h"

namespace headlab::ui {

// UI-only state: never part of the document, never saved.
struct LabUiState {
  std::string text_buffer;        // what the sentence field shows while being edited
  bool text_active = false;       // the field has focus: do not overwrite what is being typed
  int hovered_token = -1;         // highlighted in every view
  int next_hovered_token = -1;    // collected during this frame, shown next frame
};

void draw_lab_window(app::Controller& controller, LabUiState& ui);

}  // namespace headlab::ui
