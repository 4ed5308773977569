#pragma once
// The wall clock the training session plans its frames and the worker's chunks with, and a
// training step timed against it.
#include <chrono>

#include "engine/training/trainer.h"

namespace headlab::app {

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Folds one duration into a moving average of them, which plans how many more fit a frame or chunk.
inline void average_in(double& average_seconds, double took) {
  average_seconds = average_seconds <= 0.0 ? took : 0.9 * average_seconds + 0.1 * took;
}

// Trainer::step(1), keeping a moving average of a step's duration.
inline void timed_step(training::Trainer& trainer, double& step_seconds) {
  const double start = now_seconds();
  trainer.step(1);
  average_in(step_seconds, now_seconds() - start);
}

}  // namespace headlab::app
