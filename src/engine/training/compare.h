#pragma once
// One big head against several small heads of the same total width (d_model = h d_k): two
// trainers with the same data, masks and seed, differing only in how each layer splits its
// attention, so a learner can test the claim that several heads help (Vaswani et al. 2017,
// section 3.2.2 and table 3 row A) instead of believing it. Step both incrementally from the UI,
// or train both at once with compare_heads.
#include <vector>

#include "engine/result.h"
#include "trainer.h"

namespace headlab::training {

struct HeadComparison {
  Trainer many;  // config.architecture.head_count heads of d_model / head_count
  Trainer one;   // 1 head of d_k = d_v = d_model
};

// Both trainers from one config (its head_count is the "many" side; head_dim is ignored).
Result<HeadComparison> make_head_comparison(const TrainerConfig& config, const Grammar& grammar);
// `steps` steps of each trainer.
void step_comparison(HeadComparison& comparison, int steps);

struct LossCurves {
  std::vector<float> many_heads;  // loss per step
  std::vector<float> one_head;
  int head_count = 0;             // of the "many" side
  int many_head_dim = 0;
  int one_head_dim = 0;
};

// Trains both for `steps` steps and returns the two loss curves.
Result<LossCurves> compare_heads(const TrainerConfig& config, const Grammar& grammar, int steps);

}  // namespace headlab::training
