#include "ui/frame_memory.h"

#include <cstring>

namespace headlab::ui {
namespace {

bool same(ImVec2 a, ImVec2 b) { return a.x == b.x && a.y == b.y; }
bool same(ImVec4 a, ImVec4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

// Byte for byte: ImDrawVert (two ImVec2 and an ImU32) and ImDrawIdx have no padding.
template <class T>
bool same_items(const std::vector<T>& kept, const ImVector<T>& drawn) {
  return kept.size() == static_cast<std::size_t>(drawn.Size) &&
         (kept.empty() || std::memcmp(kept.data(), drawn.Data, kept.size() * sizeof(T)) == 0);
}

template <class T>
void keep(std::vector<T>& kept, const ImVector<T>& drawn) {
  kept.assign(drawn.Data, drawn.Data + drawn.Size);
}

}  // namespace

FrameMemory::Command FrameMemory::Command::of(const ImDrawCmd& c) {
  return {c.ClipRect, c.TextureId, c.VtxOffset, c.IdxOffset, c.ElemCount, c.UserCallback, c.UserCallbackData};
}

bool FrameMemory::Command::operator==(const Command& other) const {
  return same(clip, other.clip) && texture == other.texture && vtx_offset == other.vtx_offset &&
         idx_offset == other.idx_offset && elem_count == other.elem_count && callback == other.callback &&
         callback_data == other.callback_data;
}

bool FrameMemory::same_list(const List& list, const ImDrawList& drawn) {
  if (list.commands.size() != static_cast<std::size_t>(drawn.CmdBuffer.Size)) return false;
  for (int i = 0; i < drawn.CmdBuffer.Size; ++i)
    if (!(list.commands[static_cast<std::size_t>(i)] == Command::of(drawn.CmdBuffer[i]))) return false;
  return same_items(list.indices, drawn.IdxBuffer) && same_items(list.vertices, drawn.VtxBuffer);
}

bool FrameMemory::same_frame(const ImDrawData& frame, std::uint64_t texture_generation) const {
  if (!remembered_ || texture_generation != texture_generation_ || !same(frame.DisplayPos, display_pos_) ||
      !same(frame.DisplaySize, display_size_) || !same(frame.FramebufferScale, framebuffer_scale_) ||
      lists_.size() != static_cast<std::size_t>(frame.CmdListsCount))
    return false;
  for (int i = 0; i < frame.CmdListsCount; ++i)
    if (!same_list(lists_[static_cast<std::size_t>(i)], *frame.CmdLists[i])) return false;
  return true;
}

bool FrameMemory::differs(const ImDrawData& frame, std::uint64_t texture_generation) {
  if (same_frame(frame, texture_generation)) return false;
  remembered_ = true;
  display_pos_ = frame.DisplayPos;
  display_size_ = frame.DisplaySize;
  framebuffer_scale_ = frame.FramebufferScale;
  texture_generation_ = texture_generation;
  lists_.resize(static_cast<std::size_t>(frame.CmdListsCount));
  for (int i = 0; i < frame.CmdListsCount; ++i) {
    const ImDrawList& drawn = *frame.CmdLists[i];
    List& list = lists_[static_cast<std::size_t>(i)];
    keep(list.vertices, drawn.VtxBuffer);
    keep(list.indices, drawn.IdxBuffer);
    list.commands.clear();
    for (const ImDrawCmd& command : drawn.CmdBuffer) list.commands.push_back(Command::of(command));
  }
  return true;
}

}  // namespace headlab::ui
