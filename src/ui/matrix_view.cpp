#include "ui/matrix_view.h"

#include <algorithm>
#include <cmath>

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

}  // namespace headlab::ui
