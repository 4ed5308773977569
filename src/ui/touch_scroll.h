#pragma once
// Touch: a swipe scrolls the panel under the finger, as on any phone page. ImGui scrolls only with
// the wheel and the scrollbars (6 px wide), so without this a vertical swipe on a phone would
// select the head under the finger and the page would not move.
#include "ui/ui_state.h"

namespace headlab::ui {

// Once per frame, before the windows are drawn: follows a touch drag that has moved past a small
// threshold (mostly vertically, or horizontally in a window that scrolls that way) and scrolls the
// innermost window under its start that can scroll that way. While it scrolls, the widgets do not
// see the drag (no cell changes, no selection).
void touch_scroll(LabUiState& ui);

}  // namespace headlab::ui
