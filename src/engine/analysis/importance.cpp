#include "engine/analysis/importance.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace headlab::analysis {
namespace {

// About how many rows of stacked ablations go through the layer's FFN at once.
constexpr Eigen::Index kStackedRows = 192;

// The layer after its attention output: residual, norm and FFN, exactly as forward() does it.
void finish_layer(const Layer& layer, const Matrix& layer_in, const Matrix& attention_output,
                  ImportanceWorkspace& w) {
  if (layer.residual) w.hidden = layer_in + attention_output;
  else w.hidden = attention_output;
  if (layer.norm == Norm::post) {
    w.output = w.hidden;
    layer_norm(w.output, layer.ln_gamma, layer.ln_beta, w.hidden);
  }
  if (!layer.has_ffn) {
    w.output = w.hidden;
    return;
  }
  if (layer.norm == Norm::pre) layer_norm(w.hidden, layer.ln2_gamma, layer.ln2_beta, w.ffn_in);
  else w.ffn_in = w.hidden;
  Matrix& ffn_out = w.ffn_in;  // ffn_in is no longer needed once the hidden layer is computed
  feed_forward(layer.ffn, w.ffn_in, w.ffn_hidden, ffn_out);
  if (layer.residual) ffn_out += w.hidden;
  if (layer.norm == Norm::post) layer_norm(ffn_out, layer.ln2_gamma, layer.ln2_beta, w.output);
  else w.output = ffn_out;
}

}  // namespace

void layer_importance(const Model& model, int layer_index, const Trace& trace, ImportanceWorkspace& w,
                      std::vector<float>& importance) {
  const Layer& layer = model.layers[layer_index];
  const LayerTrace& lt = trace.layers[layer_index];
  const int heads = layer.head_count();
  importance.assign(heads, 0.0f);
  const double out_norm = lt.output.norm();
  if (!(out_norm > 0.0)) return;  // a zero output: nothing to lose
  const bool linear = layer.norm == Norm::none && !layer.has_ffn;
  const Matrix& layer_in = layer_index == 0 ? trace.X : trace.layers[layer_index - 1].output;
  if (linear) {
    const bool same_W_O = w.gram_w_source.rows() == layer.W_O.rows() && w.gram_w_source.cols() == layer.W_O.cols() &&
                          w.gram_w_source == layer.W_O && static_cast<int>(w.gram_w.size()) == heads;
    if (!same_W_O) {
      w.gram_w.resize(heads);
      for (int h = 0; h < heads; ++h) {
        const auto block = layer.W_O.middleRows(static_cast<Eigen::Index>(h) * layer.d_v, layer.d_v);
        w.gram_w[h].noalias() = block * block.transpose();
      }
      w.gram_w_source = layer.W_O;
    }
    for (int h = 0; h < heads; ++h) {
      if (layer.heads[h].pruned) continue;
      // out - out_without_h = Z_h W_O,h (the residual cancels), and
      // ||Z W||_F^2 = trace((Z^T Z)(W W^T)): two (d_v, d_v) products instead of an (n, d_model) one.
      const Matrix& Z = lt.heads[h].Z;  // (n, d_v)
      w.gram_z.noalias() = Z.transpose() * Z;
      const double change = std::sqrt(std::max(0.0, static_cast<double>(w.gram_z.cwiseProduct(w.gram_w[h]).sum())));
      importance[h] = static_cast<float>(change / out_norm);
    }
    return;
  }
  // Otherwise the rest of the layer runs once per head. The heads go through it stacked, several at
  // a time: with a short sentence one head's rows are too few for the FFN's products to pay for
  // packing W_1 and W_2 (GPT-2 small: 144 passes through a 768 x 3072 MLP).
  const Eigen::Index n = lt.output.rows(), d = lt.output.cols();
  const int per_group = static_cast<int>(std::clamp<Eigen::Index>(kStackedRows / std::max<Eigen::Index>(n, 1), 1, heads));
  for (int first = 0; first < heads; first += per_group) {
    w.group.clear();
    for (int h = first; h < std::min(heads, first + per_group); ++h)
      if (!layer.heads[h].pruned) w.group.push_back(h);
    const Eigen::Index rows = static_cast<Eigen::Index>(w.group.size()) * n;
    w.layer_in.resize(rows, d);
    w.ablated.resize(rows, d);
    for (std::size_t k = 0; k < w.group.size(); ++k) {
      const int h = w.group[k];
      const auto W_O_h = layer.W_O.middleRows(static_cast<Eigen::Index>(h) * layer.d_v, layer.d_v);  // (d_v, d_model)
      auto ablated = w.ablated.middleRows(static_cast<Eigen::Index>(k) * n, n);
      ablated = lt.attention_output;
      ablated.noalias() -= lt.heads[h].Z * W_O_h;
      w.layer_in.middleRows(static_cast<Eigen::Index>(k) * n, n) = layer_in;
    }
    finish_layer(layer, w.layer_in, w.ablated, w);
    for (std::size_t k = 0; k < w.group.size(); ++k) {
      const double change = (lt.output - w.output.middleRows(static_cast<Eigen::Index>(k) * n, n)).norm();
      importance[w.group[k]] = static_cast<float>(change / out_norm);
    }
  }
}

std::vector<int> importance_ranking(const Layer& layer, const std::vector<float>& importance) {
  std::vector<int> order;
  importance_ranking(layer, importance, order);
  return order;
}

void importance_ranking(const Layer& layer, const std::vector<float>& importance, std::vector<int>& order) {
  order.clear();
  for (int h = 0; h < layer.head_count(); ++h)
    if (!layer.heads[h].pruned) order.push_back(h);
  // Insertion sort: stable like std::stable_sort, which takes a heap buffer; at most 16 heads.
  for (std::size_t i = 1; i < order.size(); ++i)
    for (std::size_t j = i; j > 0 && importance[order[j]] < importance[order[j - 1]]; --j) std::swap(order[j], order[j - 1]);
}

Result<std::vector<int>> prune_least_important(Model& model, int layer, int k, const std::vector<float>& importance) {
  using R = Result<std::vector<int>>;
  if (layer < 0 || layer >= static_cast<int>(model.layers.size()))
    return R::failure("layer: " + std::to_string(layer) + " does not exist (0.." +
                      std::to_string(static_cast<int>(model.layers.size()) - 1) + ")");
  Layer& l = model.layers[layer];
  if (static_cast<int>(importance.size()) != l.head_count())
    return R::failure("importance: expected " + std::to_string(l.head_count()) + " values, got " +
                      std::to_string(importance.size()));
  std::vector<int> order = importance_ranking(l, importance);
  const int unpruned = static_cast<int>(order.size());
  if (k < 1 || k > unpruned - 1)
    return R::failure("k: layer " + std::to_string(layer) + " has " + std::to_string(unpruned) +
                      " unpruned heads and one must stay, so k must be 1.." + std::to_string(std::max(0, unpruned - 1)));
  order.resize(k);
  for (int h : order) l.heads[h].pruned = true;
  return order;
}

Result<std::vector<int>> prune_least_important(Model& model, const Matrix& X, int layer, int k) {
  if (layer < 0 || layer >= static_cast<int>(model.layers.size()))
    return Result<std::vector<int>>::failure("layer: " + std::to_string(layer) + " does not exist");
  if (X.cols() != model.d_model)
    return Result<std::vector<int>>::failure("X: expected " + std::to_string(model.d_model) + " columns, got " +
                                             std::to_string(X.cols()));
  Trace trace;
  forward(model, X, trace);
  ImportanceWorkspace workspace;
  std::vector<float> importance;
  layer_importance(model, layer, trace, workspace, importance);
  return prune_least_important(model, layer, k, importance);
}

}  // namespace headlab::analysis
