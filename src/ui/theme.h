#pragma once
// Fonts and colours. HeadLab bundles a TTF (the default ImGui bitmap font is too small on HiDPI)
// and rasterises it at the device pixel ratio so text stays crisp.
#include <string>
#include <vector>

#include "imgui.h"

namespace headlab::ui {

// Font files and the storage ImGui needs while building the atlas (ranges must outlive it).
struct FontFiles {
  std::string ui_path;     // Latin UI font (DejaVu Sans subset)
  // The Chinese subset (Noto Sans CJK SC cut to the characters of the assets), merged into the UI
  // font. The page fetches it (fonts/cjk.ttf): empty until it has arrived.
  std::vector<unsigned char> cjk_font;
  std::string cjk_chars;   // UTF-8 list of the characters the subset holds
  ImVector<ImWchar> cjk_ranges;
  // What an English lab draws in Chinese before the subset is needed (the 中文 language button), from
  // a font of those characters alone (embedded, so the first frame waits for no download).
  // Rasterising the whole subset (outline fonts, ~700 characters) is the slowest part of building
  // the atlas, so `cjk_everything` turns it on only once a text needs Chinese.
  std::string cjk_startup_path;
  std::string cjk_startup_chars;
  ImVector<ImWchar> cjk_startup_ranges;
  bool cjk_everything = false;
  // The common Chinese characters the subset lacks (lazy-fonts/cjk-common.ttf), once the page has
  // fetched them: empty until a text needs them.
  std::vector<unsigned char> common_font;
  std::string common_chars;
  ImVector<ImWchar> common_ranges;
  // Symbola's emoji, black outlines (lazy-fonts/emoji.ttf), once a text has needed one.
  std::vector<unsigned char> emoji_font;
  std::string emoji_chars;
  ImVector<ImWchar> emoji_ranges;
};

enum class Theme { dark, light };
// The primary pointer: a mouse (fine) or a finger (touch), whose targets must be larger.
enum class Pointer { fine, touch };

// Loads the UI font from `font_path` at `size_px` CSS pixels for a display with `pixel_ratio`
// device pixels per CSS pixel. Falls back to ImGui's built-in font when the file is missing.
// Returns false on fallback.
bool load_fonts(FontFiles& files, float size_px, float pixel_ratio);

// Colours and sizes. With a touch pointer every frame (buttons, fields, checkboxes, sliders) is at
// least 40 CSS pixels high, a finger's width, for text of `font_px`.
void apply_theme(Theme theme, Pointer pointer, float font_px);

}  // namespace headlab::ui
