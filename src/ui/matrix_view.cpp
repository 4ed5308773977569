#include "ui/matrix_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/colormap.h"

namespace headlab::ui {

void matrix_view(const char* id, const Matrix& m, ImVec2 size, float scale, int* hovered_row, int* hovered_col,
                 CellTextures* textures) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, size.x), std::max(1.0f, size.y)));
  if (hovered_row) *hovered_row = -1;
  if (hovered_col) *hovered_col = -1;
  if (m.rows() == 0 || m.cols() == 0 || !ImGui::IsItemVisible()) return;
  if (scale <= 0.0f) scale = std::max(1e-6f, m.cwiseAbs().maxCoeff());
  if (!std::isfinite(scale)) scale = 1.0f;
  const float cw = size.x / m.cols(), ch = size.y / m.rows();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImTextureID texture = textures ? textures->texture_for(ImGui::GetItemID(), m, CellColours::diverging, scale) : nullptr;
  if (texture)
    draw->AddImage(texture, origin, ImVec2(origin.x + size.x, origin.y + size.y));
  else
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      for (Eigen::Index j = 0; j < m.cols(); ++j)
        draw->AddRectFilled(ImVec2(origin.x + j * cw, origin.y + i * ch), ImVec2(origin.x + (j + 1) * cw, origin.y + (i + 1) * ch),
                            diverging_u32(m(i, j) / scale));
  draw->AddRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), ImGui::GetColorU32(ImGuiCol_Border));
  if (ImGui::IsItemHovered()) {
    const ImVec2 p = ImGui::GetIO().MousePos;
    const int r = std::clamp(static_cast<int>((p.y - origin.y) / ch), 0, static_cast<int>(m.rows()) - 1);
    const int c = std::clamp(static_cast<int>((p.x - origin.x) / cw), 0, static_cast<int>(m.cols()) - 1);
    if (hovered_row) *hovered_row = r;
    if (hovered_col) *hovered_col = c;
  }
}

float diverging_legend(const Matrix& m, float scale, float width) {
  if (scale <= 0.0f) scale = m.size() > 0 ? std::max(1e-6f, m.cwiseAbs().maxCoeff()) : 1.0f;
  if (!std::isfinite(scale)) scale = 1.0f;
  const float font = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float bar_h = font * 0.45f;
  width = std::max(width, font * 6.0f);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  constexpr int kSteps = 32;
  for (int s = 0; s < kSteps; ++s) {
    const float t0 = static_cast<float>(s) / kSteps, t1 = static_cast<float>(s + 1) / kSteps;
    draw->AddRectFilled(ImVec2(origin.x + width * t0, origin.y), ImVec2(origin.x + width * t1 + 0.5f, origin.y + bar_h),
                        diverging_u32((t0 + t1) - 1.0f));  // the middle of the step, in [-1, 1]
  }
  draw->AddRect(origin, ImVec2(origin.x + width, origin.y + bar_h), ImGui::GetColorU32(ImGuiCol_Border));
  char low[32], high[32];
  std::snprintf(low, sizeof low, "%+.3g", -scale);
  std::snprintf(high, sizeof high, "%+.3g", scale);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float y = origin.y + bar_h + 1.0f;
  draw->AddText(ImVec2(origin.x, y), text, low);
  draw->AddText(ImVec2(origin.x + (width - ImGui::CalcTextSize("0").x) * 0.5f, y), text, "0");
  draw->AddText(ImVec2(origin.x + width - ImGui::CalcTextSize(high).x, y), text, high);
  ImGui::Dummy(ImVec2(width, bar_h + font + 2.0f));
  return scale;
}

}  // namespace headlab::ui
