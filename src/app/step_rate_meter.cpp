#include "app/step_rate_meter.h"

namespace headlab::app {

void StepRateMeter::restart() {
  marks_.clear();
  renewed_ = -1.0;
  steps_per_second_ = 0.0;
}

void StepRateMeter::record_frame(double now, int steps) {
  ++frames_;
  marks_.push_back({now, steps, frames_});
  while (marks_.size() > 2 && marks_.front().time < now - 2.0) marks_.pop_front();
  const Mark& first = marks_.front();
  const double span = now - first.time;
  if (span < 0.25 || now - renewed_ < 0.5) return;
  renewed_ = now;
  steps_per_second_ = (steps - first.steps) / span;
  frames_per_second_ = static_cast<double>(frames_ - first.frames) / span;
}

}  // namespace headlab::app
