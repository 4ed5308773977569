// The SVG exports: every cell and arc the view draws, labels as escaped text in any script, and a
// file that stays well-formed whatever the tokens hold. (The browser suite parses a real export
// with the browser's XML parser.)
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ui/figure_svg.h"

namespace headlab::ui {
namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

HeatmapFigure figure(std::vector<std::string> tokens) {
  HeatmapFigure f;
  f.title = "Layer 0, head 1: previous token";
  f.sentence = "the cat sat";
  f.tokens = std::move(tokens);
  const int n = static_cast<int>(f.tokens.size());
  f.attention = Matrix::Constant(n, n, 1.0f / static_cast<float>(n));
  f.key_title = "key";
  f.query_title = "query";
  f.legend_title = "weight";
  return f;
}

TEST(FigureSvg, TheHeatmapHasACellPerWeightItsTitleAxesAndScale) {
  HeatmapFigure f = figure({"the", "cat", "sat"});
  f.attention(2, 1) = 0.75f;
  const std::string svg = heatmap_svg(f);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(count(svg, "<rect x="), 9);  // the cells; the background and the scale are not "<rect x="
  EXPECT_EQ(count(svg, "<title>"), 9);   // each cell names its query, key and weight when hovered in a viewer
  EXPECT_NE(svg.find("sat \xE2\x86\x92 cat: 0.75"), std::string::npos);
  EXPECT_NE(svg.find(">Layer 0, head 1: previous token</text>"), std::string::npos);
  EXPECT_NE(svg.find("&quot;the cat sat&quot;"), std::string::npos);
  EXPECT_NE(svg.find("url(#viridis)"), std::string::npos);
  EXPECT_EQ(count(svg, "<stop "), 9);
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  EXPECT_EQ(count(svg, "<g"), count(svg, "</g>"));
  // The weights are printed in the cells at this size: viridis(0.75) is light, so dark ink.
  EXPECT_NE(svg.find(">0.75</text>"), std::string::npos);
}

TEST(FigureSvg, TokensAreEscapedChineseStandsUprightAndBrokenNumbersStayValid) {
  HeatmapFigure f = figure({"<b>&\"", "猫咪", std::string("a\x01") + "\xFF" + "b"});
  f.attention(0, 0) = std::nanf("");
  f.unknown = {0, 1, 0};
  const std::string svg = heatmap_svg(f);
  EXPECT_NE(svg.find("&lt;b&gt;&amp;&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find('\x01'), std::string::npos) << "controls are not allowed in XML";
  EXPECT_EQ(svg.find('\xFF'), std::string::npos) << "bytes that are not UTF-8";
  EXPECT_NE(svg.find(">ab</text>"), std::string::npos);
  // 猫咪 as a column label: one upright character under the other, not a rotated word.
  EXPECT_NE(svg.find(">猫</text>"), std::string::npos);
  EXPECT_NE(svg.find(">咪</text>"), std::string::npos);
  EXPECT_NE(svg.find("text-decoration=\"underline\""), std::string::npos) << "the unknown word is marked";
  EXPECT_NE(svg.find("#888888"), std::string::npos) << "a NaN weight is a grey cell";
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(FigureSvg, TheArcsHaveOneCurveEachInTheirHeadsColourAndStyle) {
  ArcFigure f;
  f.title = "Layer 0";
  f.tokens = {"the", "cat", "sat"};
  f.arcs = {{0.9f, 0, 1, 0}, {0.5f, 1, 2, 1}, {0.3f, 1, 2, 2}};
  f.heads = {0, 1};
  f.head_names = {"H0 previous token", "H1 self"};
  const std::string svg = arcs_svg(f);
  EXPECT_EQ(count(svg, "class=\"arc\""), 3);
  EXPECT_EQ(count(svg, "class=\"swatch\""), 2);
  EXPECT_EQ(count(svg, "<polygon"), 2) << "arrowheads, not on the loop of a token attending to itself";
  // Head 0: orange and solid; head 1: sky blue and dashed, in the legend and on its arcs.
  EXPECT_EQ(count(svg, "stroke=\"#E69F00\""), 2);
  EXPECT_EQ(count(svg, "stroke=\"#56B4E9\""), 3);
  EXPECT_EQ(count(svg, "stroke-dasharray"), 3);
  EXPECT_NE(svg.find(">H1 self</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
}

TEST(FigureSvg, AnArcToATokenThatIsNotThereIsLeftOut) {
  ArcFigure f;
  f.tokens = {"a"};
  f.arcs = {{0.9f, 0, 0, 5}, {0.9f, 0, -1, 0}};
  EXPECT_EQ(count(arcs_svg(f), "class=\"arc\""), 0);
}

}  // namespace
}  // namespace headlab::ui
