#pragma once
// A matrix's cells as a texture, one per widget: the heatmaps (attention on viridis) and the matrix
// views (signed values, blue-white-orange). At the largest model the lab shows 16 heatmaps of
// 64 x 64 cells and the circuits view two 512 x 512 matrices; drawn as rectangles that was up to
// half a million quads built, uploaded and rasterised every frame. A texture has one texel per
// cell and is recoloured only when what it shows changes.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/matrix.h"
#include "imgui.h"
#include "ui/image_uploader.h"

namespace headlab::ui {

enum class CellColours {
  viridis,    // attention weights in [0, 1] (viridis_u32)
  diverging,  // signed values, divided by the scale first (diverging_u32)
};

class CellTextures {
 public:
  explicit CellTextures(ImageUploader& uploader) : uploader_(uploader) {}
  ~CellTextures();
  CellTextures(const CellTextures&) = delete;
  CellTextures& operator=(const CellTextures&) = delete;

  // Called before a frame is drawn: the previous frame has been rendered, so textures that no
  // widget has asked for in a while (a thumbnail scrolled away, a tab closed) can go.
  void new_frame();
  // The texture of widget `id` showing `values` in `colours` (diverging: value / scale at full
  // colour), or null when the uploader could not make one: the widget then draws rectangles.
  ImTextureID texture_for(ImGuiID id, const Matrix& values, CellColours colours, float scale = 1.0f);

  int texture_count() const { return static_cast<int>(entries_.size()); }

 private:
  struct Entry {
    ImTextureID texture = nullptr;
    int rows = 0, cols = 0;
    CellColours colours = CellColours::viridis;
    float scale = 1.0f;
    std::vector<float> shown;  // the values the texture was coloured from, bit for bit
    long long last_frame = 0;
  };
  // Frames a texture outlives its last use: scrolling back to a thumbnail does not recolour it.
  static constexpr long long kKeepFrames = 120;

  ImageUploader& uploader_;
  std::unordered_map<ImGuiID, Entry> entries_;
  std::vector<std::uint32_t> pixels_;
  long long frame_ = 0;
};

}  // namespace headlab::ui
