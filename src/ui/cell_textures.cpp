#include "ui/cell_textures.h"

#include <cstring>

#include "ui/colormap.h"

namespace headlab::ui {

CellTextures::~CellTextures() {
  for (auto& [id, entry] : entries_) uploader_.destroy(entry.texture);
}

void CellTextures::new_frame() {
  ++frame_;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (frame_ - it->second.last_frame > kKeepFrames) {
      uploader_.destroy(it->second.texture);
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
}

ImTextureID CellTextures::texture_for(ImGuiID id, const Matrix& values, CellColours colours, float scale) {
  const int rows = static_cast<int>(values.rows()), cols = static_cast<int>(values.cols());
  if (rows == 0 || cols == 0) return nullptr;
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  Entry& entry = entries_[id];
  entry.last_frame = frame_;
  if (entry.texture && (entry.rows != rows || entry.cols != cols)) {
    uploader_.destroy(entry.texture);
    entry.texture = nullptr;
  }
  if (!entry.texture) {
    entry.texture = uploader_.create(cols, rows);
    if (!entry.texture) {
      entries_.erase(id);
      return nullptr;
    }
    entry.rows = rows;
    entry.cols = cols;
    entry.shown.clear();
  }
  // Values compared as bits: NaN equals itself here, so a NaN cell does not recolour every frame.
  if (entry.colours == colours && entry.scale == scale && entry.shown.size() == count &&
      std::memcmp(entry.shown.data(), values.data(), count * sizeof(float)) == 0)
    return entry.texture;
  entry.colours = colours;
  entry.scale = scale;
  entry.shown.assign(values.data(), values.data() + count);  // row-major: texel rows are matrix rows
  pixels_.resize(count);
  if (colours == CellColours::viridis)
    for (std::size_t k = 0; k < count; ++k) pixels_[k] = viridis_u32(entry.shown[k]);
  else
    for (std::size_t k = 0; k < count; ++k) pixels_[k] = diverging_u32(entry.shown[k] / scale);
  uploader_.update(entry.texture, pixels_.data(), cols, rows);
  return entry.texture;
}

}  // namespace headlab::ui
