#include "gl_image_uploader.h"

#include <SDL_opengles2.h>

#include <cstdint>

namespace headlab::platform {
namespace {

// ImGui's OpenGL backend reads a texture's name back from ImTextureID the same way.
GLuint name_of(ImTextureID texture) { return static_cast<GLuint>(reinterpret_cast<std::intptr_t>(texture)); }

}  // namespace

ImTextureID GlImageUploader::create(int width, int height) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  if (texture == 0) return nullptr;
  ++changes_;
  glBindTexture(GL_TEXTURE_2D, texture);
  // Nearest: a cell is one texel and stays a sharp square at any zoom, as the rectangles were.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture));
}

void GlImageUploader::update(ImTextureID texture, const std::uint32_t* pixels, int width, int height) {
  ++changes_;
  glBindTexture(GL_TEXTURE_2D, name_of(texture));
  // IM_COL32 packs R in the low byte, so on little-endian WebAssembly the bytes are R, G, B, A.
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
}

void GlImageUploader::destroy(ImTextureID texture) {
  const GLuint name = name_of(texture);
  if (name != 0) glDeleteTextures(1, &name);
  ++changes_;
}

}  // namespace headlab::platform
