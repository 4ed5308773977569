#pragma once
// Time as the training session reads it, injected so tests drive it instead of waiting on the wall
// clock. Everything that plans frames, worker chunks or the step-rate meter asks a Clock.
namespace headlab::app {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since an arbitrary start; never goes back.
  virtual double now_seconds() const = 0;
};

// The process's steady clock (performance.now() in the page).
const Clock& steady_clock();

}  // namespace headlab::app
