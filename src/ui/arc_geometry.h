#pragma once
// Geometry of the arc view, free of ImGui: token anchor positions, the curve from a query to a
// key, and dash patterns that keep overlaid heads distinguishable in grey scale.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace headlab::ui {

struct Point {
  float x = 0, y = 0;
};

// One curve: head `head`'s attention from token `query` to token `key`.
struct Arc {
  float weight = 0;
  int head = 0, query = 0, key = 0;
};

// At most `most` arcs, shared fairly among the heads: each head keeps its strongest, and a head
// with fewer arcs than its share leaves the rest to the others (water-filling). One sharp head can
// no longer crowd the others out of the figure. The kept arcs stay in their original order.
inline void keep_strongest_per_head(std::vector<Arc>& arcs, std::size_t most) {
  if (arcs.size() <= most) return;
  std::vector<std::vector<std::size_t>> by_head;  // indices of each head's arcs, strongest first
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    const std::size_t h = static_cast<std::size_t>(std::max(0, arcs[k].head));
    if (h >= by_head.size()) by_head.resize(h + 1);
    by_head[h].push_back(k);
  }
  std::vector<std::size_t> heads;
  for (std::size_t h = 0; h < by_head.size(); ++h) {
    if (by_head[h].empty()) continue;
    std::stable_sort(by_head[h].begin(), by_head[h].end(), [&](std::size_t a, std::size_t b) { return arcs[a].weight > arcs[b].weight; });
    heads.push_back(h);
  }
  std::stable_sort(heads.begin(), heads.end(), [&](std::size_t a, std::size_t b) { return by_head[a].size() < by_head[b].size(); });
  std::vector<std::size_t> kept;
  std::size_t budget = most;
  for (std::size_t i = 0; i < heads.size(); ++i) {
    const std::size_t share = budget / (heads.size() - i);
    const std::vector<std::size_t>& own = by_head[heads[i]];
    const std::size_t take = std::min(own.size(), share);
    kept.insert(kept.end(), own.begin(), own.begin() + static_cast<std::ptrdiff_t>(take));
    budget -= take;
  }
  std::sort(kept.begin(), kept.end());
  std::vector<Arc> out;
  out.reserve(kept.size());
  for (const std::size_t k : kept) out.push_back(arcs[k]);
  arcs = std::move(out);
}

enum class LineStyle { solid, dashed, dotted, dash_dot };

// Each head's colour, 0xRRGGBB: Okabe & Ito's (2008) colour-blind-safe palette, heads h and h + 8
// sharing one.
inline constexpr unsigned int kHeadPalette[8] = {0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442,
                                                 0x0072B2, 0xD55E00, 0xCC79A7, 0xBEBEBE};
inline unsigned int head_rgb(int head) { return kHeadPalette[static_cast<unsigned int>(head) % 8]; }

// Heads h and h + 8 share a colour of the 8-colour palette; their line styles differ, so each of up
// to 16 heads has its own colour and style.
inline LineStyle line_style_for_head(int head) { return static_cast<LineStyle>((head + head / 8) % 4); }

// Quadratic curve above the token row from x0 to x1 at baseline y; higher for longer spans.
// Self-attention (x0 == x1) becomes a small loop.
inline std::vector<Point> arc_points(float x0, float x1, float y, float max_height, float token_spacing, int samples = 24) {
  std::vector<Point> points;
  points.reserve(samples + 1);
  if (std::fabs(x1 - x0) < 0.5f) {  // loop: a small circle above the token
    const float r = token_spacing * 0.18f;
    for (int s = 0; s <= samples; ++s) {
      const float t = 6.2831853f * s / samples;
      points.push_back({x0 + r * std::sin(t), y - r - r * std::cos(t) + r * 0.0f});
    }
    return points;
  }
  const float span = std::fabs(x1 - x0);
  const float height = std::min(max_height, span * 0.45f + token_spacing * 0.25f);
  const Point control{(x0 + x1) * 0.5f, y - 2.0f * height};  // the curve's apex is at y - height
  for (int s = 0; s <= samples; ++s) {
    const float t = static_cast<float>(s) / samples, u = 1.0f - t;
    points.push_back({u * u * x0 + 2 * u * t * control.x + t * t * x1, u * u * y + 2 * u * t * control.y + t * t * y});
  }
  return points;
}

// A line style's dash pattern: on, off, on, off lengths in units of a tenth of the font or so;
// solid is all zeros.
inline std::array<float, 4> dash_pattern(LineStyle style) {
  switch (style) {
    case LineStyle::dashed: return {6, 4, 6, 4};
    case LineStyle::dotted: return {1.5f, 3, 1.5f, 3};
    case LineStyle::dash_dot: return {7, 3, 1.5f, 3};
    case LineStyle::solid: break;
  }
  return {0, 0, 0, 0};
}

// Splits a polyline into drawn pieces following a dash pattern (lengths in pixels, scaled by
// `unit`). Solid returns the whole line.
inline std::vector<std::vector<Point>> dash(const std::vector<Point>& line, LineStyle style, float unit) {
  std::vector<std::vector<Point>> pieces;
  if (style == LineStyle::solid || line.size() < 2) {
    pieces.push_back(line);
    return pieces;
  }
  const std::array<float, 4> pattern = dash_pattern(style);
  int phase = 0;
  float left = pattern[0] * unit;
  std::vector<Point> current{line[0]};
  for (std::size_t i = 1; i < line.size(); ++i) {
    Point a = line[i - 1];
    const Point b = line[i];
    float segment = std::hypot(b.x - a.x, b.y - a.y);
    while (segment > left) {
      const float f = left / segment;
      const Point cut{a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f};
      if (phase % 2 == 0) {
        current.push_back(cut);
        pieces.push_back(current);
        current.clear();
      } else {
        current = {cut};
      }
      segment -= left;
      a = cut;
      phase = (phase + 1) % 4;
      left = pattern[phase] * unit;
    }
    left -= segment;
    if (phase % 2 == 0) current.push_back(b);
  }
  if (phase % 2 == 0 && current.size() >= 2) pieces.push_back(current);
  return pieces;
}

}  // namespace headlab::ui
