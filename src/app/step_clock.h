#pragma once
// A training step timed against a Clock, and the moving average that plans how many more fit.
#include "app/clock.h"
#include "engine/training/trainer.h"

namespace headlab::app {

// Folds one duration into a moving average of them, which plans how many more fit a frame or chunk.
inline void average_in(double& average_seconds, double took) {
  average_seconds = average_seconds <= 0.0 ? took : 0.9 * average_seconds + 0.1 * took;
}

// Trainer::step(1), keeping a moving average of a step's duration.
inline void timed_step(training::Trainer& trainer, double& step_seconds, const Clock& clock) {
  const double start = clock.now_seconds();
  trainer.step(1);
  average_in(step_seconds, clock.now_seconds() - start);
}

}  // namespace headlab::app
