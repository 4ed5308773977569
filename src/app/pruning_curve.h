#pragma once
// Which heads matter (Michel et al. 2019, "Are Sixteen Heads Really Better than One?", sec. 4):
// prune the model's heads one at a time and measure after each step, once in order of importance
// (least important first, the scores of the intact model, as they do) and in random orders; if
// importance ranks heads well, its curve stays low longer than the random ones.
//
// What is measured depends on the model:
//   a model trained on the grammar (its vocabulary is the grammar's): the masked-word loss on 60
//     held-out sentences of the grammar (the Training tab's, same seed), the paper's measure;
//   any other model (hand-built, random, symbols): how much the last layer's output on the current
//     input changes, ||Y - Y_pruned||_F / ||Y||_F, 0 before anything is pruned.
#include <string>
#include <utility>
#include <vector>

#include "app/app_state.h"
#include "app/resources.h"

namespace headlab::app {

// held_out_loss: a model trained on the grammar, on the Training tab's held-out sentences;
// text_loss: a model with predictions (the real-text model), its next-token loss on the learner's
// own text; output_change: any other model (and checkpoints, where 144 ablations with a 50,257-way
// unembedding each would take minutes).
enum class PruningMeasure { held_out_loss, text_loss, output_change };

struct PruningCurve {
  PruningMeasure measure = PruningMeasure::output_change;
  // The unpruned heads in importance order, least important first: for a trained model the
  // held-out loss with the head alone pruned, for others the lab's importance (analysis/importance.h)
  // of the model as it is; and the measure after pruning the first k of them:
  // importance[0] is the model as it is, importance[k] with k more heads pruned, up to all of them.
  std::vector<std::pair<int, int>> importance_order;
  std::vector<float> importance;
  // The same over `random_orders` random orders (seeded, so the curve is the same every time):
  // the mean and the range at each k.
  std::vector<float> random_mean, random_min, random_max;
  int random_orders = 0;
};

// Computes the curve for the state's model and input. Costs (heads + 1) x (random_orders + 1)
// measurements, and one more per head for trained models: milliseconds for hand-built models, up
// to about a second for trained ones in WebAssembly, so it runs on request, not every frame.
PruningCurve pruning_curve(const AppState& state, const Resources& resources, int random_orders = 5);

// "held-out loss" | "output change", the names the JS API and the UI use.
const char* pruning_measure_name(PruningMeasure measure);

}  // namespace headlab::app
