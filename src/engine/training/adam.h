#pragma once
// Adam (Kingma & Ba 2015, algorithm 1) with decoupled weight decay (AdamW, Loshchilov & Hutter
// 2019) and clipping of the global gradient norm (Pascanu et al. 2013).
#include <vector>

#include "engine/model.h"
#include "parameters.h"

namespace headlab::training {

struct AdamConfig {
  float beta1 = 0.9f;
  float beta2 = 0.98f;   // as Vaswani et al. 2017, section 5.3
  float epsilon = 1e-8f;
  float weight_decay = 0.0f;
  float clip_norm = 1.0f;  // <= 0: no clipping
};

struct AdamState {
  Model first_moment;   // m, same shapes as the model
  Model second_moment;  // v
  long step = 0;
  // Reused views (no allocation per step).
  std::vector<ParameterView> params, grads, m, v;
};

AdamState make_adam_state(const Model& model);

// One update of `model` from `grad` (which may be scaled by the clipping). Returns the gradient's
// global L2 norm before clipping.
float adam_step(Model& model, Model& grad, AdamState& state, const AdamConfig& config, float learning_rate);

}  // namespace headlab::training
