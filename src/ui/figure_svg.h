#pragma once
// The heatmap and the arc view as SVG, the vector form papers and slides want: the same numbers,
// colours and line styles as the figures on screen, every label as text (selectable, any script).
// Free of ImGui: a view fills the figure from what it draws, and these write it out.
#include <string>
#include <vector>

#include "engine/matrix.h"
#include "ui/arc_geometry.h"

namespace headlab::ui {

struct HeatmapFigure {
  std::string title;                  // "Layer 0, head 1: previous token"
  std::string sentence;               // the input, under the title
  std::vector<std::string> tokens;    // row and column labels, as the axes show them
  std::vector<char> unknown;          // per token, non-zero for a word the model does not know; may be empty
  Matrix attention;                   // rows: queries, columns: keys
  std::string key_title, query_title, legend_title;
};

struct ArcFigure {
  std::string title;                    // "Layer 0, threshold 0.10"
  std::vector<std::string> tokens;
  std::vector<Arc> arcs;                // as the view draws them (already capped)
  std::vector<int> heads;               // the heads shown, in the legend's order
  std::vector<std::string> head_names;  // per entry of `heads`: "H0 previous token"
};

std::string heatmap_svg(const HeatmapFigure& figure);
std::string arcs_svg(const ArcFigure& figure);

// `text` with &, <, >, " and ' written as XML entities, and bytes that are not UTF-8 or characters
// XML forbids (controls) dropped, so any token makes a well-formed file.
std::string xml_text(const std::string& text);

}  // namespace headlab::ui
