#pragma once
// Sliders whose value is never under the grab. ImGui centres a slider's value text, so the grab
// covers it whenever the value sits mid-range; these draw the value on the side of the frame away
// from the grab instead. Same arguments and result as ImGui::SliderInt / SliderFloat.
#include "imgui.h"

namespace headlab::ui {

bool value_slider_int(const char* label, int* value, int min, int max, const char* format = "%d",
                      ImGuiSliderFlags flags = 0);
bool value_slider_float(const char* label, float* value, float min, float max, const char* format = "%.3f",
                        ImGuiSliderFlags flags = 0);

// An integer dragged rather than placed: a slider jumps to where it is clicked, so on a narrow one
// a unit is a few pixels. Here a unit is at least 8 px of horizontal drag (a range too long for that
// is crossed in 400 px), Shift drags 10x coarser and Alt 100x finer; double-click or Ctrl-click
// types a value. The frame fills up to the value, so it still reads like a slider.
bool value_drag_int(const char* label, int* value, int min, int max, const char* format = "%d");

}  // namespace headlab::ui
