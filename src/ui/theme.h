#pragma once
// Fonts and colours. HeadLab bundles a TTF (the default ImGui bitmap font is too small on HiDPI)
// and rasterises it at the device pixel ratio so text stays crisp.
#include <string>

namespace headlab::ui {

enum class Theme { dark, light };

// Loads the UI font from `font_path` at `size_px` CSS pixels for a display with `pixel_ratio`
// device pixels per CSS pixel. Falls back to ImGui's built-in font when the file is missing.
// Returns false on fallback.
bool load_fonts(const std::string& font_path, float size_px, float pixel_ratio);

void apply_theme(Theme theme);

}  // namespace headlab::ui
