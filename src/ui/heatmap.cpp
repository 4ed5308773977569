#include "ui/heatmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "ui/colormap.h"
#include "ui/upright_text.h"

namespace headlab::ui {

void add_vertical_text(ImDrawList* draw, ImVec2 bottom_left, ImU32 colour, const char* text) {
  // Draw horizontally at the anchor, then rotate the new vertices by -90 degrees around it.
  const int first = draw->VtxBuffer.Size;
  draw->AddText(bottom_left, colour, text);
  for (int i = first; i < draw->VtxBuffer.Size; ++i) {
    ImVec2& p = draw->VtxBuffer[i].pos;
    const float dx = p.x - bottom_left.x, dy = p.y - bottom_left.y;
    p = ImVec2(bottom_left.x + dy, bottom_left.y - dx);
  }
}

namespace {

// Labels of words the model does not know (HeatmapOptions::unknown).
constexpr ImU32 kUnknownColour = IM_COL32(255, 176, 64, 255);

// The code points of `text`, each as its UTF-8 bytes.
std::vector<std::string> code_points(const std::string& text) {
  std::vector<std::string> out;
  const char* at = text.c_str();
  const char* end = at + text.size();
  while (at < end) {
    unsigned int c = 0;
    const int bytes = std::max(1, ImTextCharFromUtf8(&c, at, end));
    out.emplace_back(at, static_cast<std::size_t>(std::min<std::ptrdiff_t>(bytes, end - at)));
    at += bytes;
  }
  return out;
}

bool has_upright(const std::string& text) {
  const char* at = text.c_str();
  const char* end = at + text.size();
  while (at < end) {
    unsigned int c = 0;
    at += std::max(1, ImTextCharFromUtf8(&c, at, end));
    if (stands_upright(c)) return true;
  }
  return false;
}

float widest_label(const std::vector<std::string>* tokens, float limit) {
  float widest = 0;
  if (tokens)
    for (const auto& t : *tokens) widest = std::max(widest, ImGui::CalcTextSize(t.c_str()).x);
  return std::min(widest, limit);
}

// The height the tallest column label takes: a turned label its text's width, an upright one a
// line per character.
float tallest_column_label(const std::vector<std::string>* tokens, float limit) {
  float tallest = 0;
  if (tokens)
    for (const auto& t : *tokens)
      tallest = std::max(tallest, has_upright(t) ? ImGui::GetFontSize() * static_cast<float>(code_points(t).size())
                                                 : ImGui::CalcTextSize(t.c_str()).x);
  return std::min(tallest, limit);
}

// Shortens a label with an ellipsis so it fits `width` pixels.
std::string fit_label(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::string out = text;
  while (!out.empty() && ImGui::CalcTextSize((out + "…").c_str()).x > width) {
    // Drop a whole UTF-8 code point.
    do out.pop_back(); while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80);
    if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80)) out.pop_back();
  }
  return out + "…";
}

}  // namespace

void add_column_label(ImDrawList* draw, ImVec2 bottom_left, ImU32 colour, const std::string& text, float room) {
  if (!has_upright(text)) {
    add_vertical_text(draw, bottom_left, colour, fit_label(text, room).c_str());
    return;
  }
  // One character per line, the first on top, the last just above the anchor.
  const float line = ImGui::GetFontSize();
  std::vector<std::string> chars = code_points(text);
  const std::size_t fits = static_cast<std::size_t>(std::max(1.0f, std::floor(room / line)));
  if (chars.size() > fits) {
    chars.resize(fits - 1);
    chars.emplace_back("\xE2\x80\xA6");  // the ellipsis
  }
  float y = bottom_left.y - line * static_cast<float>(chars.size());
  for (const std::string& c : chars) {
    const float w = ImGui::CalcTextSize(c.c_str()).x;
    draw->AddText(ImVec2(bottom_left.x + (line - w) * 0.5f, y), colour, c.c_str());
    y += line;
  }
}


HeatmapResult heatmap(const char* id, const Matrix& attention, ImVec2 size, const HeatmapOptions& options) {
  HeatmapResult result;
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // A click is a press and a release on the grid (the button's own rule) without a drag between: a
  // finger that touches a thumbnail to swipe the panel (touch_scroll.h) does not select it.
  const ImGuiIO& io = ImGui::GetIO();
  result.clicked = ImGui::InvisibleButton("##grid", size) &&
                   io.MouseDragMaxDistanceSqr[0] <= io.MouseDragThreshold * io.MouseDragThreshold;
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int n = static_cast<int>(attention.rows());
  const float font = ImGui::GetFontSize();
  const bool labels = options.show_labels && options.tokens && n > 0 && static_cast<int>(options.tokens->size()) >= n;
  const float title = options.show_axis_titles ? font * 1.4f : 0.0f;
  const float label_left = labels ? widest_label(options.tokens, 7.0f * font) + font * 0.5f : 0.0f;
  const float label_top = labels ? tallest_column_label(options.tokens, 7.0f * font) + font * 0.5f : 0.0f;
  HeatmapGeometry g = fit_heatmap(origin.x + title, origin.y + title, size.x - title, size.y - title, n, n,
                                  label_left, label_top, options.max_cell);
  result.geometry = g;
  const ImU32 text_colour = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim_colour = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  if (n == 0) {
    if (options.empty_text) draw->AddText(origin, dim_colour, options.empty_text);
    ImGui::PopID();
    return result;
  }
  // Scrolled out of view: a cell is a rectangle each, and the overview of the largest model has
  // 96 heatmaps of 64 x 64 cells, most of them off screen.
  if (!ImGui::IsItemVisible()) {
    ImGui::PopID();
    return result;
  }
  if (hovered) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    result.hovered_row = g.row_at(mouse.y);
    result.hovered_col = g.col_at(mouse.x);
    if (result.hovered_row < 0 || result.hovered_col < 0) result.hovered_row = result.hovered_col = -1;
  }
  // Cells: one texel each when there is a texture, else one rectangle each; values on top.
  const ImTextureID texture = options.textures ? options.textures->texture_for(ImGui::GetID("##grid"), attention, CellColours::viridis) : nullptr;
  if (texture)
    draw->AddImage(texture, ImVec2(g.grid_x, g.grid_y), ImVec2(g.grid_x + g.width(), g.grid_y + g.height()));
  else
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const ImVec2 a(g.grid_x + j * g.cell, g.grid_y + i * g.cell);
        draw->AddRectFilled(a, ImVec2(a.x + g.cell, a.y + g.cell), viridis_u32(attention(i, j)));
      }
  if (options.show_values && g.cell >= font * 2.2f)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const float v = attention(i, j);
        char buf[16];
        std::snprintf(buf, sizeof buf, "%.2f", v);
        const ImVec2 ts = ImGui::CalcTextSize(buf);
        draw->AddText(ImVec2(g.grid_x + j * g.cell + (g.cell - ts.x) * 0.5f, g.grid_y + i * g.cell + (g.cell - ts.y) * 0.5f),
                      contrasting_text_u32(viridis(v)), buf);
      }
  // Highlights: hovered here, the row and the column under the pointer (that cell's query and key);
  // else the token hovered in another view, its row and its column.
  const ImU32 outline = IM_COL32(255, 64, 160, 255);
  const float thick = std::max(1.5f, g.cell * 0.06f);
  const bool here = result.hovered_row >= 0;
  const int row = here ? result.hovered_row : options.highlight_token;
  const int column = here ? result.hovered_col : options.highlight_token;
  if (row >= 0 && row < n)
    draw->AddRect(ImVec2(g.grid_x, g.grid_y + row * g.cell), ImVec2(g.grid_x + g.width(), g.grid_y + (row + 1) * g.cell),
                  outline, 0, 0, thick * 0.7f);
  if (column >= 0 && column < n)
    draw->AddRect(ImVec2(g.grid_x + column * g.cell, g.grid_y), ImVec2(g.grid_x + (column + 1) * g.cell, g.grid_y + g.height()),
                  outline, 0, 0, thick * 0.7f);
  if (result.hovered_row >= 0) {
    const ImVec2 a(g.grid_x + result.hovered_col * g.cell, g.grid_y + result.hovered_row * g.cell);
    draw->AddRect(a, ImVec2(a.x + g.cell, a.y + g.cell), IM_COL32(255, 255, 255, 255), 0, 0, thick);
  }
  if (options.selected)
    draw->AddRect(ImVec2(g.grid_x - 3, g.grid_y - 3), ImVec2(g.grid_x + g.width() + 3, g.grid_y + g.height() + 3),
                  ImGui::GetColorU32(ImGuiCol_CheckMark), 3.0f, 0, 2.5f);
  // Token labels: queries down the left, keys across the top (reading upwards).
  if (labels) {
    const float label_font_fits = g.cell >= font * 0.85f;
    for (int i = 0; i < n && label_font_fits; ++i) {
      const std::string text = fit_label((*options.tokens)[i], label_left - font * 0.4f);
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      const bool unknown = options.unknown && i < static_cast<int>(options.unknown->size()) && (*options.unknown)[i];
      const ImU32 plain = unknown ? kUnknownColour : text_colour;
      const ImU32 c = i == row ? outline : plain;
      const ImVec2 at(g.grid_x - ts.x - font * 0.3f, g.grid_y + i * g.cell + (g.cell - ts.y) * 0.5f);
      draw->AddText(at, c, text.c_str());
      if (unknown) {  // dotted underline: not by colour alone
        for (float x = at.x; x < at.x + ts.x; x += font * 0.3f)
          draw->AddLine(ImVec2(x, at.y + ts.y), ImVec2(std::min(at.x + ts.x, x + font * 0.15f), at.y + ts.y), plain, 1.0f);
      }
      const ImU32 kc = i == column ? outline : plain;
      add_column_label(draw, ImVec2(g.grid_x + i * g.cell + (g.cell - font) * 0.5f, g.grid_y - font * 0.3f), kc,
                       (*options.tokens)[i], label_top - font * 0.4f);
    }
  }
  if (options.show_axis_titles && options.key_title)
    draw->AddText(ImVec2(g.grid_x, origin.y), dim_colour, options.key_title);
  if (options.show_axis_titles && options.query_title) {  // its leading arrow points down once rotated
    const char* query_title = options.query_title;
    add_vertical_text(draw, ImVec2(origin.x, g.grid_y + ImGui::CalcTextSize(query_title).x), dim_colour, query_title);
  }
  ImGui::PopID();
  return result;
}

void colour_legend(const char* id, float height) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  const float bar_w = font * 0.9f;
  const float top = origin.y + font * 0.5f, bottom = origin.y + height - font * 0.5f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  constexpr int kSteps = 32;
  for (int s = 0; s < kSteps; ++s) {
    const float t0 = static_cast<float>(s) / kSteps, t1 = static_cast<float>(s + 1) / kSteps;
    const float y0 = bottom - (bottom - top) * t1, y1 = bottom - (bottom - top) * t0;
    draw->AddRectFilled(ImVec2(origin.x, y0), ImVec2(origin.x + bar_w, y1 + 0.5f), viridis_u32((t0 + t1) * 0.5f));
  }
  draw->AddRect(ImVec2(origin.x, top), ImVec2(origin.x + bar_w, bottom), ImGui::GetColorU32(ImGuiCol_Border));
  for (int tick = 0; tick <= 4; ++tick) {
    const float t = tick / 4.0f;
    const float y = bottom - (bottom - top) * t;
    char buf[8];
    std::snprintf(buf, sizeof buf, "%.2f", t);
    draw->AddLine(ImVec2(origin.x + bar_w, y), ImVec2(origin.x + bar_w + 4, y), ImGui::GetColorU32(ImGuiCol_Text));
    draw->AddText(ImVec2(origin.x + bar_w + 6, y - font * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), buf);
  }
  ImGui::Dummy(ImVec2(bar_w + ImGui::CalcTextSize("0.00").x + 10, height));
  ImGui::PopID();
}

}  // namespace headlab::ui
