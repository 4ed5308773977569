#pragma once
// Geometry of a heatmap, free of ImGui so it can be unit-tested: where the grid sits inside the
// widget and which cell a point falls in.
#include <algorithm>
#include <cmath>

namespace headlab::ui {

struct HeatmapGeometry {
  float grid_x = 0, grid_y = 0;  // top-left corner of cell (0, 0), in screen pixels
  float cell = 0;                // cells are square
  int rows = 0, cols = 0;

  // Row/column under the point, or -1 when outside the grid.
  int row_at(float y) const { return index_at(y, grid_y, rows); }
  int col_at(float x) const { return index_at(x, grid_x, cols); }
  float width() const { return cell * cols; }
  float height() const { return cell * rows; }

 private:
  int index_at(float p, float origin, int count) const {
    if (cell <= 0 || p < origin) return -1;
    const int i = static_cast<int>(std::floor((p - origin) / cell));
    return i < count ? i : -1;
  }
};

// Fits an rows x cols grid into a box, leaving `label_left` and `label_top` pixels for the token
// labels; cells are square and never larger than max_cell.
inline HeatmapGeometry fit_heatmap(float x, float y, float width, float height, int rows, int cols,
                                   float label_left, float label_top, float max_cell) {
  HeatmapGeometry g;
  g.rows = rows;
  g.cols = cols;
  g.grid_x = x + label_left;
  g.grid_y = y + label_top;
  if (rows <= 0 || cols <= 0) return g;
  const float cell_w = (width - label_left) / static_cast<float>(cols);
  const float cell_h = (height - label_top) / static_cast<float>(rows);
  g.cell = std::max(0.0f, std::min({cell_w, cell_h, max_cell}));
  return g;
}

}  // namespace headlab::ui
