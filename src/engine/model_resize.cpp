#include "model_resize.h"

#include <algorithm>

#include "tokenizer.h"

namespace headlab {
namespace {

// Keeps the top-left overlap of `old` inside `fresh`.
Matrix keep_overlap(const Matrix& old, Matrix fresh) {
  const Eigen::Index r = std::min(old.rows(), fresh.rows()), c = std::min(old.cols(), fresh.cols());
  fresh.topLeftCorner(r, c) = old.topLeftCorner(r, c);
  return fresh;
}

RowVector keep_prefix(const RowVector& old, RowVector fresh) {
  const Eigen::Index n = std::min(old.size(), fresh.size());
  fresh.head(n) = old.head(n);
  return fresh;
}

}  // namespace

void set_d_model(Model& model, int d_model) {
  if (d_model == model.d_model) return;
  // A fresh model of the new width supplies seeded values for everything new.
  const int heads = model.layers.empty() ? 1 : model.layers[0].head_count();
  Model fresh = make_model(d_model, static_cast<int>(model.layers.size()), heads, model.seed, model.embedding);
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    Layer& layer = model.layers[l];
    for (int h = 0; h < layer.head_count(); ++h) {
      HeadWeights& head = layer.heads[h];
      const HeadWeights seeded = init_head(d_model, layer.d_k, layer.d_v, model.seed, static_cast<int>(l), h, init_stddev(model));
      head.W_Q = keep_overlap(head.W_Q, seeded.W_Q);
      head.W_K = keep_overlap(head.W_K, seeded.W_K);
      head.W_V = keep_overlap(head.W_V, seeded.W_V);
    }
    layer.W_O = keep_overlap(layer.W_O, identity_like(layer.head_count() * layer.d_v, d_model));
    layer.ln_gamma = keep_prefix(layer.ln_gamma, RowVector::Ones(d_model));
    layer.ln_beta = keep_prefix(layer.ln_beta, RowVector::Zero(d_model));
    layer.ln2_gamma = keep_prefix(layer.ln2_gamma, RowVector::Ones(d_model));
    layer.ln2_beta = keep_prefix(layer.ln2_beta, RowVector::Zero(d_model));
    if (layer.has_ffn) {
      const Eigen::Index d_ff = layer.ffn.W_1.cols();
      Model widened = fresh;
      set_ffn(widened, static_cast<int>(l), true);
      Matrix W_1 = widened.layers[l].ffn.W_1;  // (d_model, 4 d_model): keep the old d_ff columns
      layer.ffn.W_1 = keep_overlap(layer.ffn.W_1, Matrix(W_1.leftCols(std::min<Eigen::Index>(d_ff, W_1.cols()))));
      layer.ffn.W_2 = keep_overlap(layer.ffn.W_2, Matrix(widened.layers[l].ffn.W_2.topRows(layer.ffn.W_1.cols())));
      layer.ffn.b_2 = keep_prefix(layer.ffn.b_2, RowVector::Zero(d_model));
    }
  }
  model.positional_table = keep_overlap(model.positional_table, fresh.positional_table);
  model.d_model = d_model;
}

}  // namespace headlab
