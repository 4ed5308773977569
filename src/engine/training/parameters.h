#pragma once
// The trainable tensors of a Model, listed in one fixed order, so a gradient, the Adam moments and
// the finite-difference tests can walk "every parameter" the same way. Gradients and moments are
// themselves Models of the same shapes (zero_like).
#include <cstdint>
#include <vector>

#include "engine/model.h"

namespace headlab::training {

struct ParameterView {
  const char* name;  // "W_Q", "token_embedding", ...
  int layer;         // -1 for model-level tensors
  int head;          // -1 unless a per-head tensor
  float* data;
  Eigen::Index size;
  bool is_matrix;    // a weight matrix or table (weight decay applies), not a gain or bias
};

// Trainable tensors of `model`, in a fixed order: token_embedding, positional_table (when
// learned), output_bias, then per layer: W_Q, W_K, W_V per head (skipping pruned heads), W_O,
// LayerNorm gamma/beta (when norm != none; the second pair only with an FFN), W_1, b_1, W_2, b_2.
// `out` is cleared and refilled; its capacity is reused.
void collect_parameters(Model& model, std::vector<ParameterView>& out);
std::vector<ParameterView> parameters(Model& model);

// A model of the same shapes with every trainable tensor set to zero (a gradient or Adam moment).
Model zero_like(const Model& model);
void set_zero(Model& model);

// Total number of trainable numbers.
long parameter_count(const Model& model);

}  // namespace headlab::training
