#pragma once
// Small reusable widgets: help marker, splitter, registered widget rectangles, tooltips.
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/ui_state.h"
#include "ui/words.h"

namespace headlab::ui {

// A "(?)" that explains a control on hover.
void help_marker(const char* text);
// Tooltip for the last item, wrapped to a readable width.
void item_tooltip(const char* text);
// "updating…" beside a layer that still shows the model from before a drag (AppState::current_layers),
// with the reason on hover.
void lagging_layer_note(const Words& words);
// Records the last item's screen rectangle under `name` (for window.headlab.widgetRect).
void register_item(LabUiState& ui, const std::string& name);
void register_rect(LabUiState& ui, const std::string& name, ImVec2 min, ImVec2 max);
// A vertical splitter bar of the given size: dragging it changes `fraction` of `total` width.
// Returns true while dragged.
bool vertical_splitter(const char* id, float& fraction, float total, float min_fraction, float max_fraction,
                       float height, bool invert);
// The horizontal counterpart: dragging changes `fraction` of `total` height.
bool horizontal_splitter(const char* id, float& fraction, float total, float min_fraction, float max_fraction, float width);
// `utf8` with every character the loaded fonts cannot draw written as its code point ("U+1F642"),
// so an emoji or a rare character in a token stays readable instead of becoming a box.
std::string drawable_text(const std::string& utf8);
// `text` cut to fit `width` pixels, ending in "..." when cut (whole characters only).
std::string fit_text(std::string text, float width);
// True when `utf8` holds a Chinese character or CJK punctuation the loaded fonts cannot draw.
bool lacks_cjk_glyph(const std::string& utf8);
// True when `utf8` holds an emoji or pictograph (the symbol blocks emoji live in) no loaded font can draw.
bool lacks_emoji_glyph(const std::string& utf8);
// True when `utf8` holds a Chinese character or CJK punctuation.
bool has_cjk_character(const std::string& utf8);
// The Chinese language button's label, drawn in either language.
inline constexpr const char* kLanguageButtonChinese = "\xE4\xB8\xAD\xE6\x96\x87";  // "中文"
// The matrix a weight editor tab id names ("editor/tab/W_K"); false for other ids.
bool editor_tab_matrix(const std::string& id, app::WeightMatrix& matrix);
// A small coloured pill with text (labels).
void badge(const char* text, ImU32 background, ImU32 foreground);

// Made inside a popup, combo or menu: its items as tall as a button, with no gap between them, so a
// finger can pick one (the theme pads buttons to 40 px on touch screens). end() (or leaving the
// scope) restores the spacing; call it before EndPopup/EndCombo, which check the style stack.
class TallItems {
 public:
  TallItems();
  ~TallItems() { end(); }
  void end();
  TallItems(const TallItems&) = delete;
  TallItems& operator=(const TallItems&) = delete;

 private:
  bool pushed_ = true;
};
// A combo box of `names` (already in the learner's language) whose list items are TallItems.
// Returns true when the choice changed.
bool choice_combo(const char* label, int& current, const std::vector<std::string>& names);

}  // namespace headlab::ui

namespace headlab::ui {
// A row of toggle buttons; returns true when the choice changed. `ids` (optional) registers each
// button's rectangle under that name.
bool segmented(const char* id, const char* const* labels, int count, int& current, LabUiState* ui = nullptr,
               const char* const* ids = nullptr);
}  // namespace headlab::ui

namespace headlab::ui {
// Puts the next item on the same line when `next_width` pixels still fit, else on a new line, so
// toolbars wrap on narrow screens instead of running off the edge.
void flow_same_line(float next_width, float spacing = -1.0f);
}  // namespace headlab::ui
