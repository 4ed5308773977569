#pragma once
// What the last drawn frame asked the GPU to draw, so that a frame asking for exactly the same can
// be left undrawn. A WebGL canvas that is not drawn to keeps showing its last picture, so nothing
// on screen changes; the GPU (and, in browsers that rasterise WebGL in software, a whole CPU core)
// is spared a frame. While a model trains, the picture changes only when an update arrives, a few
// times a second, and the core that redrawing it 60 times a second used goes to training.
#include <cstdint>
#include <vector>

#include "imgui.h"

namespace headlab::ui {

class FrameMemory {
 public:
  // True when `frame`, drawn with textures whose contents are at `texture_generation` (a count the
  // caller bumps whenever any texture's pixels change), would not draw the picture remembered;
  // `frame` is then remembered instead.
  bool differs(const ImDrawData& frame, std::uint64_t texture_generation);
  // The next frame counts as different whatever it holds (after the canvas or the font atlas was
  // replaced, or when its pixels are about to be read).
  void forget() { remembered_ = false; }

 private:
  struct Command {
    ImVec4 clip;
    ImTextureID texture;
    unsigned int vtx_offset, idx_offset, elem_count;
    ImDrawCallback callback;
    void* callback_data;
    static Command of(const ImDrawCmd& command);
    bool operator==(const Command& other) const;
  };
  struct List {
    std::vector<ImDrawVert> vertices;
    std::vector<ImDrawIdx> indices;
    std::vector<Command> commands;
  };
  bool same_frame(const ImDrawData& frame, std::uint64_t texture_generation) const;
  static bool same_list(const List& list, const ImDrawList& drawn);

  bool remembered_ = false;
  ImVec2 display_pos_, display_size_, framebuffer_scale_;
  std::uint64_t texture_generation_ = 0;
  std::vector<List> lists_;
};

}  // namespace headlab::ui
