#pragma once
// The UI's images (ui/image_uploader.h) as WebGL2 textures of the page's one GL context.
#include <cstdint>

#include "ui/image_uploader.h"

namespace headlab::platform {

class GlImageUploader final : public ui::ImageUploader {
 public:
  ImTextureID create(int width, int height) override;
  void update(ImTextureID texture, const std::uint32_t* pixels, int width, int height) override;
  void destroy(ImTextureID texture) override;
  // Bumped whenever a texture's pixels may have changed, so an unchanged frame can be told apart
  // from one that draws the same triangles over new pixels (ui/frame_memory.h).
  std::uint64_t changes() const { return changes_; }

 private:
  std::uint64_t changes_ = 0;
};

}  // namespace headlab::platform
