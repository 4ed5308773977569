#pragma once
// A read-only signed matrix thumbnail (blue-white-orange), used by the concat / W_O view.
#include "engine/matrix.h"
#include "imgui.h"
#include "ui/cell_textures.h"

namespace headlab::ui {

// Draws m into a box of the given size (cells may be non-square); returns the hovered cell via
// out parameters (-1 when none). `scale` is the value drawn at full colour (<= 0: max |m|). With
// `textures` the cells are one texture, else one rectangle each.
void matrix_view(const char* id, const Matrix& m, ImVec2 size, float scale, int* hovered_row, int* hovered_col,
                 CellTextures* textures);

// The colour scale of a matrix_view drawn at `scale` (<= 0: max |m|, as matrix_view takes it): a bar
// from -scale (blue) through 0 (white) to +scale (orange), numbered at both ends and the middle,
// `width` wide. Returns the scale it shows.
float diverging_legend(const Matrix& m, float scale, float width);

}  // namespace headlab::ui
