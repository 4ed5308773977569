#include "platform/key_event_trickle.h"

#include <bitset>
#include <cstddef>

namespace headlab::platform {

namespace {

// Far more than a hand produces between two frames; a flood beyond it is delivered at once rather
// than queued without bound.
constexpr std::size_t kMaxPending = 1024;

bool is_key_event(const SDL_Event& event) { return event.type == SDL_KEYDOWN || event.type == SDL_KEYUP; }

}  // namespace

const std::vector<SDL_Event>& KeyEventTrickle::next_frame() {
  SDL_Event event;
  while (SDL_PollEvent(&event)) pending_.push_back(event);
  frame_.clear();
  if (pending_.size() > kMaxPending) {
    frame_.assign(pending_.begin(), pending_.end());
    pending_.clear();
    return frame_;
  }
  std::bitset<SDL_NUM_SCANCODES> changed;  // keys that already went up or down this frame
  while (!pending_.empty()) {
    const SDL_Event& next = pending_.front();
    if (is_key_event(next)) {
      const SDL_Scancode key = next.key.keysym.scancode;
      if (changed[key]) {
        // An auto-repeat adds nothing ImGui does not do itself from the held state: drop it
        // rather than let a held key pile up events on a slow page.
        if (next.type == SDL_KEYDOWN && next.key.repeat) {
          pending_.pop_front();
          continue;
        }
        break;  // this and everything after it wait for the next frame, keeping their order
      }
      changed[key] = true;
    }
    frame_.push_back(next);
    pending_.pop_front();
  }
  return frame_;
}

}  // namespace headlab::platform
