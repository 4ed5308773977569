#pragma once
// A fresh trainable model: the engine's Model with a learned token embedding over a vocabulary,
// initialised from one seed with the training Rng (identical natively and in WebAssembly).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model.h"

namespace headlab::training {

struct Architecture {
  int layer_count = 2;
  int head_count = 4;
  int d_model = 64;
  int head_dim = 0;          // d_k = d_v; 0 means d_model / head_count
  int d_ff = 128;            // 0: no feed-forward sub-layer
  Norm norm = Norm::post;    // BERT's placement (Devlin et al. 2019)
  bool residual = true;
  Positional positional = Positional::learned;
  // Standard deviation of the learned positions at initialisation. 1 (the token embedding's
  // scale) for the grammar task; small for the induction task, where positions as large as the
  // tokens let layer 0 copy the position of an earlier copy and layer 1 attend one past it,
  // instead of forming the previous-token head of the induction circuit (docs/training.md).
  float position_init_stddev = 1.0f;
  bool causal = false;       // true for the next-token objective
  AttentionNormalization attention = AttentionNormalization::softmax;  // engine/model.h
  bool special_tokens = true;
};

// Initialisation: W_Q, W_K, W_V ~ N(0, 1/d_model); W_O ~ N(0, 1/(h d_v)); W_1 ~ N(0, 1/d_model),
// W_2 ~ N(0, 1/d_ff), biases 0; LayerNorm gain 1, offset 0; token embedding ~ N(0, 1) (the scale
// of LayerNorm-ed rows), learned positions ~ N(0, position_init_stddev^2); output bias 0.
Model make_trainable_model(const Architecture& architecture, const std::vector<std::string>& vocabulary,
                           std::uint32_t seed);

}  // namespace headlab::training
