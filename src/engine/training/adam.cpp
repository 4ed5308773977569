#include "adam.h"

#include <cmath>

namespace headlab::training {

AdamState make_adam_state(const Model& model) {
  AdamState state;
  state.first_moment = zero_like(model);
  state.second_moment = zero_like(model);
  return state;
}

float adam_step(Model& model, Model& grad, AdamState& state, const AdamConfig& config, float learning_rate) {
  collect_parameters(model, state.params);
  collect_parameters(grad, state.grads);
  collect_parameters(state.first_moment, state.m);
  collect_parameters(state.second_moment, state.v);
  double squared = 0.0;
  for (const ParameterView& g : state.grads)
    for (Eigen::Index i = 0; i < g.size; ++i) squared += static_cast<double>(g.data[i]) * g.data[i];
  const float norm = static_cast<float>(std::sqrt(squared));
  const float clip = config.clip_norm > 0.0f && norm > config.clip_norm ? config.clip_norm / norm : 1.0f;

  ++state.step;
  const float b1 = config.beta1, b2 = config.beta2;
  const float correction1 = 1.0f - std::pow(b1, static_cast<float>(state.step));
  const float correction2 = 1.0f - std::pow(b2, static_cast<float>(state.step));
  const float step_size = learning_rate / correction1;
  const float decay = 1.0f - learning_rate * config.weight_decay;
  for (std::size_t p = 0; p < state.params.size(); ++p) {
    float* w = state.params[p].data;
    const float* g = state.grads[p].data;
    float* m = state.m[p].data;
    float* v = state.v[p].data;
    const bool decayed = state.params[p].is_matrix;  // LayerNorm gains and biases are not decayed
    for (Eigen::Index i = 0; i < state.params[p].size; ++i) {
      const float gi = g[i] * clip;
      m[i] = b1 * m[i] + (1.0f - b1) * gi;
      v[i] = b2 * v[i] + (1.0f - b2) * gi * gi;
      if (decayed) w[i] *= decay;
      w[i] -= step_size * m[i] / (std::sqrt(v[i] / correction2) + config.epsilon);
    }
  }
  return norm;
}

}  // namespace headlab::training
