#include "init.h"

#include <algorithm>
#include <cmath>

#include "engine/tokenizer.h"
#include "parameters.h"
#include "rng.h"

namespace headlab::training {
namespace {

void fill_normal(float* data, Eigen::Index size, float stddev, Rng& rng) {
  for (Eigen::Index i = 0; i < size; ++i) data[i] = stddev * rng.normal();
}

}  // namespace

Model make_trainable_model(const Architecture& a, const std::vector<std::string>& vocabulary, std::uint32_t seed) {
  const int d = a.d_model;
  Model model = make_model(d, a.layer_count, a.head_count, seed, Embedding::random);
  model.positional = a.positional;
  model.causal = a.causal;
  model.attention = a.attention;
  model.special_tokens = a.special_tokens;
  model.vocab = vocabulary;
  model.token_embedding = Matrix::Zero(static_cast<Eigen::Index>(vocabulary.size()), d);
  model.output_bias = RowVector::Zero(static_cast<Eigen::Index>(vocabulary.size()));
  model.positional_table = Matrix::Zero(static_cast<Eigen::Index>(kMaxTokens) + 2, d);
  const int head_dim = a.head_dim > 0 ? a.head_dim : std::max(1, d / a.head_count);
  for (int l = 0; l < a.layer_count; ++l) {
    Layer& layer = model.layers[l];
    set_head_dims(model, l, head_dim, head_dim);
    layer.residual = a.residual;
    layer.norm = a.norm;
    layer.has_ffn = a.d_ff > 0;
    if (layer.has_ffn) {
      layer.ffn.W_1 = Matrix::Zero(d, a.d_ff);
      layer.ffn.b_1 = RowVector::Zero(a.d_ff);
      layer.ffn.W_2 = Matrix::Zero(a.d_ff, d);
      layer.ffn.b_2 = RowVector::Zero(d);
    }
  }
  // Every trainable tensor from one stream, in the fixed order of collect_parameters.
  Rng rng(stream_seed(seed, 0x1417));
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(d));
  for (const ParameterView& p : parameters(model)) {
    const std::string name = p.name;
    float stddev = 0.0f;
    if (name == "token_embedding") stddev = 1.0f;
    else if (name == "positional_table") stddev = a.position_init_stddev;
    else if (name == "W_Q" || name == "W_K" || name == "W_V" || name == "W_1") stddev = inv_sqrt_d;
    else if (name == "W_O") stddev = 1.0f / std::sqrt(static_cast<float>(a.head_count * head_dim));
    else if (name == "W_2") stddev = 1.0f / std::sqrt(static_cast<float>(std::max(1, a.d_ff)));
    else if (name == "ln_gamma" || name == "ln2_gamma") {
      std::fill(p.data, p.data + p.size, 1.0f);
      continue;
    }
    if (stddev > 0.0f) fill_normal(p.data, p.size, stddev, rng);
    else std::fill(p.data, p.data + p.size, 0.0f);
  }
  return model;
}

}  // namespace headlab::training
