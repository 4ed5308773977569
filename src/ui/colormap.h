#pragma once
// Viridis, the perceptually uniform, colour-blind-safe sequential colormap of matplotlib
// (van der Walt & Smith, 2015). Nine published anchor colours, interpolated linearly.
#include <cstdint>

namespace headlab::ui {

struct Rgb {
  float r, g, b;  // 0..1
};

// t in [0, 1] (clamped; NaN maps to 0).
Rgb viridis(float t);
// Packed as ImGui's ABGR ImU32.
std::uint32_t viridis_u32(float t, float alpha = 1.0f);
// A diverging blue-white-red colour for signed values in [-1, 1] (weight cells).
std::uint32_t diverging_u32(float t);
// Black or white, whichever reads better on top of the colour.
std::uint32_t contrasting_text_u32(Rgb background);

}  // namespace headlab::ui
