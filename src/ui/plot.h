#pragma once
// A line plot for training curves: thousands of noisy per-step losses are averaged into one point
// per couple of pixels, sparse series (held-out samples) are drawn as markers, and hovering shows
// every series' value at that step. Drawing only: the values come from the engine.
#include <vector>

#include "imgui.h"

namespace headlab::ui {

struct PlotSeries {
  const float* y = nullptr;
  const float* x = nullptr;  // null: x = 1, 2, 3, ... (one value per training step)
  int count = 0;
  ImU32 colour = 0;
  const char* name = "";     // "": no legend entry of its own (e.g. the upper end of a range)
  bool markers = false;      // dots instead of a line (a few samples)
};

struct PlotOptions {
  const char* x_label = "step";
  const char* y_label = "";     // what the y axis measures, written above it ("held-out loss")
  float x_min = 0.0f;        // the x axis spans at least [x_min, x_max_at_least]
  float x_max_at_least = 1.0f;
  bool y_from_zero = true;   // losses: the y axis starts at 0 so falling curves compare honestly
  float y_max_at_least = 0.0f;  // scores in [0, 1]: 1, so a score near 0 does not fill the plot
  float mark_x = -1.0f;         // >= 0: a labelled vertical line at this step (the phase change)
  const char* mark_label = "";
  float guide_y = -1.0f;        // >= 0: a dashed horizontal line at this value (a threshold)
  bool whole_x = false;         // x counts things (heads): no ticks between whole numbers
  bool x_powers_of_two = false;  // x values are log2 of what they count: tick t reads 2^t (1, 2, 4, 8, 16)
};

// About `target` round tick values (steps of 1, 2 or 5 x 10^k) within [lo, hi].
std::vector<float> nice_ticks(float lo, float hi, int target);
// Means of `count` values over `buckets` equal slices (count buckets when count <= buckets),
// skipping non-finite values; out[i] is NaN for a slice with none.
void bucket_means(const float* values, int count, int buckets, std::vector<float>& out);

// Draws the plot into a `size` box at the cursor: the y axis title and the legend in rows above
// the data (wrapping as the width asks), so neither covers a curve. Returns true while hovered.
bool line_plot(const char* id, const std::vector<PlotSeries>& series, ImVec2 size, const PlotOptions& options = {});

}  // namespace headlab::ui
