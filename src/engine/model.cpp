#include "model.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "tokenizer.h"

namespace headlab {
namespace {

// Mixes seed and coordinates into one 32-bit seed (splitmix-style), so weights never depend on
// the order in which heads or layers were created.
std::uint32_t mix_seed(std::uint32_t seed, int a, int b, int c) {
  std::uint64_t x = seed;
  for (int v : {a, b, c}) {
    x ^= static_cast<std::uint64_t>(v + 0x9E37) * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
  }
  return static_cast<std::uint32_t>(x);
}

Matrix gaussian(int rows, int cols, float stddev, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, stddev);
  Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = normal(rng);
  return m;
}

enum Stream { kQ = 0, kK, kV, kO, kFfn1, kFfn2, kPositional };

// Keeps the top-left overlap of `old`, fills the rest from `fresh`.
Matrix overlay(const Matrix& old, Matrix fresh) {
  const Eigen::Index r = std::min(old.rows(), fresh.rows()), c = std::min(old.cols(), fresh.cols());
  fresh.topLeftCorner(r, c) = old.topLeftCorner(r, c);
  return fresh;
}

Layer make_layer(int d_model, int head_count, std::uint32_t seed, int layer_index, float stddev) {
  Layer layer;
  layer.d_k = layer.d_v = std::max(1, d_model / head_count);
  for (int h = 0; h < head_count; ++h)
    layer.heads.push_back(init_head(d_model, layer.d_k, layer.d_v, seed, layer_index, h, stddev));
  layer.W_O = identity_like(head_count * layer.d_v, d_model);
  layer.ln_gamma = RowVector::Ones(d_model);
  layer.ln_beta = RowVector::Zero(d_model);
  layer.ln2_gamma = RowVector::Ones(d_model);
  layer.ln2_beta = RowVector::Zero(d_model);
  return layer;
}

}  // namespace

float init_stddev(const Model& model) {
  // Named features and symbols are sparse 0/1 vectors (a few ones per token), so the dense-input scale
  // would leave fresh heads almost exactly uniform; 0.5 gives logits of order 1 instead.
  return model.embedding == Embedding::random ? 0.0f : 0.5f;
}

Matrix identity_like(int rows, int cols) {
  Matrix m = Matrix::Zero(rows, cols);
  for (int r = 0; r < rows; ++r) m(r, r % cols) = 1.0f;
  return m;
}

HeadWeights init_head(int d_model, int d_k, int d_v, std::uint32_t seed, int layer, int head, float stddev) {
  // Xavier-style scale keeps initial logits O(1) for dense inputs (|x|^2 ~ d_model).
  const float scale = stddev > 0.0f ? stddev : 1.0f / std::sqrt(static_cast<float>(d_model));
  HeadWeights w;
  w.W_Q = gaussian(d_model, d_k, scale, mix_seed(seed, layer, head, kQ));
  w.W_K = gaussian(d_model, d_k, scale, mix_seed(seed, layer, head, kK));
  w.W_V = gaussian(d_model, d_v, scale, mix_seed(seed, layer, head, kV));
  return w;
}

Model make_model(int d_model, int layer_count, int head_count, std::uint32_t seed, Embedding embedding) {
  Model model;
  model.d_model = d_model;
  model.seed = seed;
  model.embedding = embedding;
  const float stddev = embedding == Embedding::random ? 0.0f : 0.5f;  // as init_stddev
  for (int l = 0; l < layer_count; ++l) model.layers.push_back(make_layer(d_model, head_count, seed, l, stddev));
  model.positional_table =
      gaussian(static_cast<int>(kMaxTokens) + 2, d_model, 0.5f, mix_seed(seed, -1, 0, kPositional));
  return model;
}

void set_head_count(Model& model, int layer_index, int head_count) {
  Layer& layer = model.layers.at(layer_index);
  const int old_count = layer.head_count();
  if (head_count == old_count) return;
  const Matrix fresh_O = identity_like(head_count * layer.d_v, model.d_model);
  Matrix W_O = fresh_O;
  const int kept = std::min(old_count, head_count);
  W_O.topRows(kept * layer.d_v) = layer.W_O.topRows(kept * layer.d_v);
  layer.heads.resize(std::min(old_count, head_count));
  for (int h = old_count; h < head_count; ++h)
    layer.heads.push_back(init_head(model.d_model, layer.d_k, layer.d_v, model.seed, layer_index, h, init_stddev(model)));
  layer.W_O = std::move(W_O);
}

void set_layer_count(Model& model, int layer_count, int head_count_for_new_layers) {
  const int old_count = static_cast<int>(model.layers.size());
  model.layers.resize(std::min(old_count, layer_count));
  for (int l = old_count; l < layer_count; ++l)
    model.layers.push_back(make_layer(model.d_model, head_count_for_new_layers, model.seed, l, init_stddev(model)));
}

void set_head_dims(Model& model, int layer_index, int d_k, int d_v) {
  Layer& layer = model.layers.at(layer_index);
  if (d_k == layer.d_k && d_v == layer.d_v) return;
  Matrix W_O = identity_like(layer.head_count() * d_v, model.d_model);
  for (int h = 0; h < layer.head_count(); ++h) {
    HeadWeights& head = layer.heads[h];
    const HeadWeights fresh = init_head(model.d_model, d_k, d_v, model.seed, layer_index, h, init_stddev(model));
    head.W_Q = overlay(head.W_Q, fresh.W_Q);
    head.W_K = overlay(head.W_K, fresh.W_K);
    head.W_V = overlay(head.W_V, fresh.W_V);
    const int rows = std::min(layer.d_v, d_v);
    W_O.middleRows(h * d_v, rows) = layer.W_O.middleRows(h * layer.d_v, rows);
  }
  layer.d_k = d_k;
  layer.d_v = d_v;
  layer.W_O = std::move(W_O);
}

void set_ffn(Model& model, int layer_index, bool enabled) {
  Layer& layer = model.layers.at(layer_index);
  layer.has_ffn = enabled;
  if (!enabled || layer.ffn.W_1.rows() == model.d_model) return;
  const int d_ff = 4 * model.d_model;
  const std::uint32_t seed = model.seed;
  layer.ffn.W_1 = gaussian(model.d_model, d_ff, 1.0f / std::sqrt(float(model.d_model)),
                           mix_seed(seed, layer_index, -1, kFfn1));
  layer.ffn.b_1 = RowVector::Zero(d_ff);
  layer.ffn.W_2 = gaussian(d_ff, model.d_model, 1.0f / std::sqrt(float(d_ff)),
                           mix_seed(seed, layer_index, -1, kFfn2));
  layer.ffn.b_2 = RowVector::Zero(model.d_model);
}

void randomize(Model& model, std::uint32_t seed) {
  model.seed = seed;
  for (int l = 0; l < static_cast<int>(model.layers.size()); ++l) {
    Layer& layer = model.layers[l];
    for (int h = 0; h < layer.head_count(); ++h) {
      const bool pruned = layer.heads[h].pruned;
      layer.heads[h] = init_head(model.d_model, layer.d_k, layer.d_v, seed, l, h, init_stddev(model));
      layer.heads[h].pruned = pruned;
    }
    layer.W_O = identity_like(layer.head_count() * layer.d_v, model.d_model);
    if (layer.has_ffn) {
      layer.ffn.W_1.resize(0, 0);
      set_ffn(model, l, true);
    }
  }
  model.positional_table =
      gaussian(static_cast<int>(kMaxTokens) + 2, model.d_model, 0.5f, mix_seed(seed, -1, 0, kPositional));
}

std::size_t model_bytes(const Model& model) {
  std::size_t numbers = static_cast<std::size_t>(model.positional_table.size() + model.token_embedding.size() + model.output_bias.size());
  for (const Layer& layer : model.layers) {
    numbers += static_cast<std::size_t>(layer.W_O.size() + layer.ln_gamma.size() + layer.ln_beta.size() + layer.ln2_gamma.size() +
                                        layer.ln2_beta.size() + layer.ffn.W_1.size() + layer.ffn.b_1.size() +
                                        layer.ffn.W_2.size() + layer.ffn.b_2.size());
    for (const HeadWeights& head : layer.heads)
      numbers += static_cast<std::size_t>(head.W_Q.size() + head.W_K.size() + head.W_V.size());
  }
  std::size_t bytes = numbers * sizeof(float);
  for (const std::string& word : model.vocab) bytes += sizeof(std::string) + word.size();
  return bytes;
}

}  // namespace headlab
