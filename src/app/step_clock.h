#pragma once
// The wall clock the training session plans its frames and the worker's chunks with, and a
// training step timed against it.
#include <chrono>

#include "engine/training/trainer.h"

namespace headlab::app {

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Trainer::step(1), keeping a moving average of a step's duration to plan the next ones with.
inline void timed_step(training::Trainer& trainer, double& step_seconds) {
  const double start = now_seconds();
  trainer.step(1);
  const double took = now_seconds() - start;
  step_seconds = step_seconds <= 0.0 ? took : 0.9 * step_seconds + 0.1 * took;
}

}  // namespace headlab::app
