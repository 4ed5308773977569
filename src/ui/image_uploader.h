#pragma once
// How the UI puts pixels on the GPU without knowing the graphics API: the platform layer
// implements it with OpenGL. Without one (the UI tests have no GPU) widgets draw shapes instead.
#include <cstdint>

#include "imgui.h"

namespace headlab::ui {

class ImageUploader {
 public:
  virtual ~ImageUploader() = default;
  // A width x height RGBA texture sampled without smoothing (one texel is one sharp square),
  // or null if none could be made.
  virtual ImTextureID create(int width, int height) = 0;
  // Replaces all its pixels: ImGui's packed colours (IM_COL32), row by row from the top.
  virtual void update(ImTextureID texture, const std::uint32_t* pixels, int width, int height) = 0;
  virtual void destroy(ImTextureID texture) = 0;
};

}  // namespace headlab::ui
