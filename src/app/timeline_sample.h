#pragma once
// One sample of a training run's timeline: what every head did on the held-out inputs at one step.
#include <vector>

#include "app/held_out_labels.h"
#include "engine/analysis/attention_spread.h"
#include "engine/training/induction_evaluation.h"

namespace headlab::app {

struct TimelineSample {
  int step = 0;
  float train_loss = 0.0f;     // mean over the steps since the previous sample (0 at step 0)
  float held_out_loss = 0.0f;
  std::vector<HeadRole> heads;  // layer-major
  // Induction task: the loss inside the second copies and every head's prefix-matching,
  // previous-token and duplicate-token scores (training/induction_evaluation.h), layer-major.
  float repeat_loss = 0.0f;
  std::vector<training::InductionHeadScores> induction;
  training::InductionHeadScores strongest_induction;  // of the layers that can hold one (layer 1 and up)
  // Layer dependence on the same held-out inputs: per layer, mean attention distance and entropy.
  std::vector<analysis::AttentionSpread> spreads;
};

}  // namespace headlab::app
