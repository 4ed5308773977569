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

}  // namespace headlab::ui
