#pragma once
// The attention heatmap widget: row i = query token i, column j = key token j, colour = A(i, j)
// on viridis. Reports the hovered cell; the caller decides what a tooltip says.
#include <string>
#include <vector>

#include "engine/matrix.h"
#include "imgui.h"
#include "ui/heatmap_layout.h"
#include "ui/cell_textures.h"

namespace headlab::ui {

struct HeatmapOptions {
  const std::vector<std::string>* tokens = nullptr;  // labels for rows and columns
  // Per token, non-zero for a word the model does not know (its features are guesses): its labels
  // are drawn in amber and underlined, so the learner sees which rows to trust less.
  const std::vector<char>* unknown = nullptr;
  bool show_labels = true;
  bool show_axis_titles = false;  // key_title across the top, query_title down the left side
  bool show_values = false;       // print weights inside cells when they fit
  int highlight_token = -1;       // outline this token's row and column
  bool selected = false;          // draw a selection frame
  float max_cell = 48.0f;
  // Texts from the string table in the learner's language (heatmap_key_title, heatmap_query_title,
  // heatmap_no_tokens); a null text is not drawn.
  const char* key_title = nullptr;    // "key: attended token ->", above the grid
  const char* query_title = nullptr;  // "<- query: attending token", reads upwards left of the grid
  const char* empty_text = nullptr;   // "(no tokens)", in place of an empty grid
  // Where the cells' texture comes from; without one (or when it cannot make one) each cell is
  // drawn as a rectangle.
  CellTextures* textures = nullptr;
};

struct HeatmapResult {
  int hovered_row = -1;
  int hovered_col = -1;
  bool clicked = false;
  HeatmapGeometry geometry;
};

HeatmapResult heatmap(const char* id, const Matrix& attention, ImVec2 size, const HeatmapOptions& options);

// A vertical colour legend for [0, 1] with tick labels.
void colour_legend(const char* id, float height);

// Text rotated by -90 degrees (reads bottom-up), anchored at its bottom-left corner.
void add_vertical_text(ImDrawList* draw, ImVec2 bottom_left, ImU32 colour, const char* text);

// A column's label in at most `room` pixels above `bottom_left`, shortened with an ellipsis: Latin
// text rotated to read bottom-up, but a label with Chinese, Japanese or Korean characters stands
// upright, one character under the other, as such text is written vertically (a rotated 猫 reads as
// a glyph on its side).
void add_column_label(ImDrawList* draw, ImVec2 bottom_left, ImU32 colour, const std::string& text, float room);

}  // namespace headlab::ui
