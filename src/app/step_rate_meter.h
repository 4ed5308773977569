#pragma once
// Speed as the page shows it: steps per second and frames per second over the last two seconds,
// renewed at most twice a second. A number that changes every frame cannot be read, and would make
// every frame a new picture to draw.
#include <cstdint>
#include <deque>

namespace headlab::app {

class StepRateMeter {
 public:
  // A new run: the rates start from nothing.
  void restart();
  // The end of a frame at `now`, when the run had taken `steps` steps in all.
  void record_frame(double now, int steps);

  double steps_per_second() const { return steps_per_second_; }
  double frames_per_second() const { return frames_per_second_; }
  std::uint64_t frames() const { return frames_; }

 private:
  struct Mark {
    double time;
    int steps;
    std::uint64_t frames;
  };
  std::deque<Mark> marks_;  // the last two seconds of frames
  double renewed_ = -1.0;   // when the two rates last changed
  double steps_per_second_ = 0.0;
  double frames_per_second_ = 0.0;
  std::uint64_t frames_ = 0;
};

}  // namespace headlab::app
