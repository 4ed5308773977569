#pragma once
// ImGui 1.86 keeps one up/down state per key per frame (the input queue came in 1.87), so a key
// pressed and released between two frames, by a quick tap, a slow frame on a loaded machine or a
// script, is never seen: Enter in the exact-entry field, Ctrl+A, Ctrl held for a Ctrl-click.
// KeyEventTrickle hands each frame at most one transition per key and keeps the rest, in order,
// for the following frames, so every press reaches ImGui as a press.
#include <SDL.h>

#include <deque>
#include <vector>

namespace headlab::platform {

class KeyEventTrickle {
 public:
  // All newly polled SDL events are appended; returns this frame's share, oldest first, valid
  // until the next call.
  const std::vector<SDL_Event>& next_frame();

 private:
  std::deque<SDL_Event> pending_;
  std::vector<SDL_Event> frame_;  // kept between frames so a frame allocates nothing
};

}  // namespace headlab::platform
