#pragma once
// Head importance by ablation (Michel et al. 2019, sec. 3): how much the layer output changes when
// one head is masked, relative to the output,
//   importance_h = ||out - out_without_h||_F / ||out||_F.
// Only the layer's own output is measured (later layers are not re-run); the change of the task
// loss comes with training. A pruned head is already masked: its importance is 0.
#include <string>
#include <vector>

#include "engine/forward.h"
#include "engine/model.h"
#include "engine/result.h"

namespace headlab::analysis {

// One layer's buffers, kept between recomputes. With no norm and no FFN the change has a closed
// form that needs only (d_v, d_v) products, and W_O,h W_O,h^T depends on weights alone: it is kept
// until W_O changes. Otherwise the sub-layers are re-run with the head's block removed.
struct ImportanceWorkspace {
  Matrix gram_z;               // (d_v, d_v) Z_h^T Z_h
  std::vector<Matrix> gram_w;  // per head (d_v, d_v) W_O,h W_O,h^T
  Matrix gram_w_source;        // the W_O those were computed from
  // Several heads' ablations stacked, g of them: (g n, d_model), (g n, d_ff) for the FFN.
  Matrix layer_in;    // the layer's input once per head
  Matrix ablated;     // attention output without the head
  Matrix hidden;
  Matrix ffn_in;
  Matrix ffn_hidden;
  Matrix output;
  std::vector<int> group;  // the heads stacked
};

// importance[h] for every head of layer `layer_index` of a model that `trace` was computed with.
// Use one workspace per layer.
void layer_importance(const Model& model, int layer_index, const Trace& trace, ImportanceWorkspace& workspace,
                      std::vector<float>& importance);

// Heads of one layer from least to most important, pruned heads left out.
std::vector<int> importance_ranking(const Layer& layer, const std::vector<float>& importance);
// The same into `order`, reusing its capacity (the per-edit analysis allocates nothing).
void importance_ranking(const Layer& layer, const std::vector<float>& importance, std::vector<int>& order);

// Sets HeadWeights::pruned on the k least important unpruned heads of `layer` and returns them.
// At least one head of the layer stays unpruned; k outside 1..(unpruned - 1) is an error.
Result<std::vector<int>> prune_least_important(Model& model, int layer, int k, const std::vector<float>& importance);

// The same, measuring importance first: runs the model on X (n, d_model).
Result<std::vector<int>> prune_least_important(Model& model, const Matrix& X, int layer, int k);

}  // namespace headlab::analysis
