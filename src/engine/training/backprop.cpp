#include "backprop.h"

#include <algorithm>
#include <cmath>

#include "engine/tokenizer.h"
#include "ops.h"

namespace headlab::training {
namespace {

// A backward buffer that is neither `a` nor `b`.
Matrix& other(Workspace& ws, const Matrix* a, const Matrix* b) {
  for (Matrix* m : {&ws.d_a, &ws.d_b, &ws.d_c})
    if (m != a && m != b) return *m;
  return ws.d_c;  // unreachable: three candidates, two excluded at most
}

// Where head h's Q, K and V sit in the packed columns of LayerCache::W_QKV and QKV.
struct PackedHead {
  int q, k, v;
};
PackedHead packed_head(const Layer& layer, int h) {
  const int first = h * (2 * layer.d_k + layer.d_v);
  return {first, first + layer.d_k, first + 2 * layer.d_k};
}

void embed_batch(const Model& model, const Batch& batch, Workspace& ws) {
  const int T = batch.token_count(), d = model.d_model;
  if (model.positional == Positional::sinusoidal && ws.sinusoid.cols() != d) {
    // Same values as engine/embedding.cpp (Vaswani et al. 2017, section 3.5).
    ws.sinusoid.resize(static_cast<Eigen::Index>(kMaxTokens) + 2, d);
    for (Eigen::Index i = 0; i < ws.sinusoid.rows(); ++i)
      for (int c = 0; c < d; ++c) {
        const double angle = static_cast<double>(i) / std::pow(10000.0, 2.0 * (c / 2) / d);
        ws.sinusoid(i, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
      }
  }
  ws.X.resize(T, d);
  for (int t = 0; t < T; ++t) {
    ws.X.row(t) = model.token_embedding.row(batch.input[t]);
    if (model.positional == Positional::learned) ws.X.row(t) += model.positional_table.row(batch.position[t]);
    else if (model.positional == Positional::sinusoidal) ws.X.row(t) += ws.sinusoid.row(batch.position[t]);
  }
}

void layer_forward(const Layer& layer, bool causal, AttentionNormalization normalization, const Batch& batch, const std::vector<int>& attention_offset,
                   const Matrix& x, LayerCache& c) {
  const int T = batch.token_count(), dv = layer.d_v;
  const Matrix* heads_input = &x;
  if (layer.norm == Norm::pre) {
    layer_norm_forward(x, layer.ln_gamma, layer.ln_beta, c.heads_input, c.ln1_xhat, c.ln1_rstd);
    heads_input = &c.heads_input;
  }
  c.heads.resize(layer.heads.size());
  c.concat.resize(T, layer.head_count() * dv);
  const int attention_size = attention_offset.empty() ? 0
      : attention_offset.back() + batch.length.back() * batch.length.back();
  const int dk = layer.d_k;
  c.W_QKV.resize(x.cols(), layer.head_count() * (2 * dk + dv));
  for (int h = 0; h < layer.head_count(); ++h) {
    const HeadWeights& w = layer.heads[h];
    const PackedHead p = packed_head(layer, h);
    c.W_QKV.middleCols(p.q, dk) = w.W_Q;
    c.W_QKV.middleCols(p.k, dk) = w.W_K;
    c.W_QKV.middleCols(p.v, dv) = w.W_V;
  }
  c.QKV.noalias() = *heads_input * c.W_QKV;
  for (int h = 0; h < layer.head_count(); ++h) {
    HeadCache& hc = c.heads[h];
    const PackedHead p = packed_head(layer, h);
    hc.attention.resize(attention_size);
    for (int b = 0; b < batch.sentence_count(); ++b) {
      const int o = batch.offset[b], n = batch.length[b];
      MatrixMap A(hc.attention.data() + attention_offset[b], n, n);
      attention_forward(c.QKV.block(o, p.q, n, dk), c.QKV.block(o, p.k, n, dk), c.QKV.block(o, p.v, n, dv), causal, normalization, A,
                        c.concat.block(o, h * dv, n, dv));
    }
    if (layer.heads[h].pruned) c.concat.middleCols(h * dv, dv).setZero();
  }
  // Attention sub-layer: concat W_O, residual, post-norm.
  Matrix& sum = c.ffn_out;  // scratch until the FFN needs it
  sum.noalias() = c.concat * layer.W_O;
  if (layer.residual) sum += x;
  if (layer.norm == Norm::post) layer_norm_forward(sum, layer.ln_gamma, layer.ln_beta, c.hidden, c.ln1_xhat, c.ln1_rstd);
  else c.hidden = sum;
  if (!layer.has_ffn) {
    c.output = c.hidden;
    return;
  }
  const Matrix* ffn_input = &c.hidden;
  if (layer.norm == Norm::pre) {
    layer_norm_forward(c.hidden, layer.ln2_gamma, layer.ln2_beta, c.ffn_input, c.ln2_xhat, c.ln2_rstd);
    ffn_input = &c.ffn_input;
  }
  ffn_forward(*ffn_input, layer.ffn.W_1, layer.ffn.b_1, layer.ffn.W_2, layer.ffn.b_2, c.ffn_pre, c.ffn_act, c.ffn_out);
  if (layer.residual) c.ffn_out += c.hidden;
  if (layer.norm == Norm::post) layer_norm_forward(c.ffn_out, layer.ln2_gamma, layer.ln2_beta, c.output, c.ln2_xhat, c.ln2_rstd);
  else c.output = c.ffn_out;
}

// On entry ws.d_out = dL/d(layer output); on exit dL/d(layer input) x.
void layer_backward(const Layer& layer, AttentionNormalization normalization, Layer& grad, const Batch& batch, const std::vector<int>& attention_offset,
                    const Matrix& x, const LayerCache& c, Workspace& ws) {
  const int T = batch.token_count(), dv = layer.d_v, dk = layer.d_k;
  const bool pre = layer.norm == Norm::pre, post = layer.norm == Norm::post;
  // FFN sub-layer: output = [post LN2](ffn(input') + [residual] hidden), input' = [pre LN2](hidden).
  const Matrix* d_hidden = &ws.d_out;
  if (layer.has_ffn) {
    const Matrix* d_sum = &ws.d_out;
    if (post) {
      layer_norm_backward(ws.d_out, c.ln2_xhat, c.ln2_rstd, layer.ln2_gamma, ws.d_a, grad.ln2_gamma, grad.ln2_beta);
      d_sum = &ws.d_a;
    }
    const Matrix& ffn_input = pre ? c.ffn_input : c.hidden;
    ffn_backward(*d_sum, ffn_input, c.ffn_pre, c.ffn_act, layer.ffn.W_1, layer.ffn.W_2, ws.d_ffn_pre, ws.d_b,
                 grad.ffn.W_1, grad.ffn.b_1, grad.ffn.W_2, grad.ffn.b_2);
    Matrix* dh = &ws.d_b;
    if (pre) {
      dh = &other(ws, d_sum, &ws.d_b);
      layer_norm_backward(ws.d_b, c.ln2_xhat, c.ln2_rstd, layer.ln2_gamma, *dh, grad.ln2_gamma, grad.ln2_beta);
    }
    if (layer.residual) *dh += *d_sum;
    d_hidden = dh;
  }
  // Attention sub-layer: hidden = [post LN1](concat W_O + [residual] x).
  const Matrix* d_sum = d_hidden;
  if (post) {
    Matrix& d = other(ws, d_hidden, nullptr);
    layer_norm_backward(*d_hidden, c.ln1_xhat, c.ln1_rstd, layer.ln_gamma, d, grad.ln_gamma, grad.ln_beta);
    d_sum = &d;
  }
  grad.W_O.noalias() += c.concat.transpose() * *d_sum;
  ws.d_concat.noalias() = *d_sum * layer.W_O.transpose();  // (T, h d_v)
  const Matrix& heads_input = pre ? c.heads_input : x;
  // A pruned head's projections get no gradient: its columns of d_QKV stay zero.
  ws.d_QKV.setZero(T, c.QKV.cols());
  for (int h = 0; h < layer.head_count(); ++h) {
    if (layer.heads[h].pruned) continue;
    const HeadCache& hc = c.heads[h];
    const PackedHead p = packed_head(layer, h);
    for (int b = 0; b < batch.sentence_count(); ++b) {
      const int o = batch.offset[b], n = batch.length[b];
      const MatrixMap A(const_cast<float*>(hc.attention.data()) + attention_offset[b], n, n);
      attention_backward(c.QKV.block(o, p.q, n, dk), c.QKV.block(o, p.k, n, dk), c.QKV.block(o, p.v, n, dv), normalization, A,
                         ws.d_concat.block(o, h * dv, n, dv), ws.scratch.data(), ws.d_QKV.block(o, p.q, n, dk),
                         ws.d_QKV.block(o, p.k, n, dk), ws.d_QKV.block(o, p.v, n, dv));
    }
  }
  // dW_QKV (d, h (2 d_k + d_v)) = heads_input^T d_QKV, one product, then into each head's W_Q,
  // W_K, W_V (every element sums over the same tokens in the same order as per-head products).
  ws.d_W_QKV.noalias() = heads_input.transpose() * ws.d_QKV;
  // d(heads_input) = d_QKV W_QKV^T, but summed head by head as before rather than in one product:
  // one product would add the same terms in another order and change the trained weights' bits.
  ws.d_heads_input.setZero(T, x.cols());
  for (int h = 0; h < layer.head_count(); ++h) {
    if (layer.heads[h].pruned) continue;
    const HeadWeights& w = layer.heads[h];
    HeadWeights& gw = grad.heads[h];
    const PackedHead p = packed_head(layer, h);
    gw.W_Q += ws.d_W_QKV.middleCols(p.q, dk);
    gw.W_K += ws.d_W_QKV.middleCols(p.k, dk);
    gw.W_V += ws.d_W_QKV.middleCols(p.v, dv);
    ws.d_heads_input.noalias() += ws.d_QKV.middleCols(p.q, dk) * w.W_Q.transpose();
    ws.d_heads_input.noalias() += ws.d_QKV.middleCols(p.k, dk) * w.W_K.transpose();
    ws.d_heads_input.noalias() += ws.d_QKV.middleCols(p.v, dv) * w.W_V.transpose();
  }
  Matrix& dx = other(ws, d_sum, nullptr);
  if (pre) layer_norm_backward(ws.d_heads_input, c.ln1_xhat, c.ln1_rstd, layer.ln_gamma, dx, grad.ln_gamma, grad.ln_beta);
  else dx = ws.d_heads_input;
  if (layer.residual) dx += *d_sum;
  ws.d_out.swap(dx);
}

}  // namespace

float forward_batch(const Model& model, const Batch& batch, Workspace& ws) {
  ws.attention_offset.resize(batch.sentence_count());
  int offset = 0, longest = 0;
  for (int b = 0; b < batch.sentence_count(); ++b) {
    ws.attention_offset[b] = offset;
    offset += batch.length[b] * batch.length[b];
    longest = std::max(longest, batch.length[b]);
  }
  if (static_cast<int>(ws.scratch.size()) < longest * longest) ws.scratch.resize(longest * longest);
  embed_batch(model, batch, ws);
  ws.layers.resize(model.layers.size());
  const Matrix* x = &ws.X;
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    layer_forward(model.layers[l], model.causal, model.attention, batch, ws.attention_offset, *x, ws.layers[l]);
    x = &ws.layers[l].output;
  }
  // Output head over the target rows.
  const int M = static_cast<int>(batch.target_row.size());
  ws.target_hidden.resize(M, model.d_model);
  for (int m = 0; m < M; ++m) ws.target_hidden.row(m) = x->row(batch.target_row[m]);
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(model.d_model));
  ws.logits.noalias() = inv_sqrt_d * (ws.target_hidden * model.token_embedding.transpose());
  ws.logits.rowwise() += model.output_bias;
  return softmax_cross_entropy(ws.logits, batch.target_token, ws.logits);  // logits := dL/dlogits
}

void backward_batch(const Model& model, const Batch& batch, Workspace& ws, Model& grad) {
  const int T = batch.token_count();
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(model.d_model));
  // Output head: logits = H E^T / sqrt(d) + b.
  ws.d_target_hidden.noalias() = inv_sqrt_d * (ws.logits * model.token_embedding);
  grad.token_embedding.noalias() += inv_sqrt_d * (ws.logits.transpose() * ws.target_hidden);
  grad.output_bias += ws.logits.colwise().sum();
  ws.d_out.setZero(T, model.d_model);
  for (int m = 0; m < static_cast<int>(batch.target_row.size()); ++m)
    ws.d_out.row(batch.target_row[m]) += ws.d_target_hidden.row(m);
  for (int l = static_cast<int>(model.layers.size()) - 1; l >= 0; --l) {
    const Matrix& x = l == 0 ? ws.X : ws.layers[l - 1].output;
    layer_backward(model.layers[l], model.attention, grad.layers[l], batch, ws.attention_offset, x, ws.layers[l], ws);
  }
  // Embedding: X row t = E[input t] + P[position t].
  for (int t = 0; t < T; ++t) {
    grad.token_embedding.row(batch.input[t]) += ws.d_out.row(t);
    if (model.positional == Positional::learned) grad.positional_table.row(batch.position[t]) += ws.d_out.row(t);
  }
}

float loss_and_gradient(const Model& model, const Batch& batch, Workspace& ws, Model& grad) {
  collect_parameters(grad, ws.parameter_views);
  for (const ParameterView& p : ws.parameter_views) std::fill(p.data, p.data + p.size, 0.0f);
  const float loss = forward_batch(model, batch, ws);
  backward_batch(model, batch, ws, grad);
  return loss;
}

Matrix batch_attention(const Workspace& ws, const Batch& batch, int layer, int head, int sentence) {
  const int n = batch.length[sentence];
  return Eigen::Map<const Matrix>(ws.layers[layer].heads[head].attention.data() + ws.attention_offset[sentence], n, n);
}

}  // namespace headlab::training
