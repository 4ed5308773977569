#pragma once
// The UI's images (ui/image_uploader.h) as WebGL2 textures of the page's one GL context.
#include "ui/image_uploader.h"

namespace headlab::platform {

class GlImageUploader final : public ui::ImageUploader {
 public:
  ImTextureID create(int width, int height) override;
  void update(ImTextureID texture, const std::uint32_t* pixels, int width, int height) override;
  void destroy(ImTextureID texture) override;
};

}  // namespace headlab::platform
