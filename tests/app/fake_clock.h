#pragma once
// A clock the test drives: every reading moves it on by `tick` (so a loop that plans steps against a
// deadline always reaches it), and advance() jumps it. No test waits on wall time.
#include "app/clock.h"

namespace headlab::app {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(double tick_seconds = 0.001) : tick_(tick_seconds) {}
  double now_seconds() const override { return now_ += tick_; }
  void advance(double seconds) { now_ += seconds; }

 private:
  double tick_;
  mutable double now_ = 1000.0;
};

}  // namespace headlab::app
