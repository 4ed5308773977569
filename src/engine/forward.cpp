#include "forward.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "attention_normalization.h"
#include "gemm.h"
#include "vec4.h"

namespace headlab {

void softmax_rows(const Matrix& logits, Matrix& out) {
  out.resize(logits.rows(), logits.cols());
  const Eigen::Index cols = logits.cols();
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    // Subtracting the largest logit keeps exp() in range for any magnitude. Four at a time: a NaN
    // never compares above the running maximum, so it is passed over.
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const float* scores = &logits(i, 0);
    Vec4 maxima = splat4(-kInf);
    Eigen::Index j = 0;
    for (; j + 4 <= cols; j += 4) {
      const Vec4 v = load4(scores + j);
      maxima = select4(maxima < v, v, maxima);
    }
    float max_logit = std::max(std::max(maxima[0], maxima[1]), std::max(maxima[2], maxima[3]));
    for (; j < cols; ++j)
      if (scores[j] > max_logit) max_logit = scores[j];
    if (max_logit == kInf) {  // the limit of softmax: equal share among the +inf entries
      const auto positive_infinities = static_cast<float>((logits.row(i).array() == kInf).count());
      for (Eigen::Index j = 0; j < cols; ++j) out(i, j) = logits(i, j) == kInf ? 1.0f / positive_infinities : 0.0f;
      continue;
    }
    if (max_logit == -kInf) {  // nothing finite in the row (all masked or NaN)
      out.row(i).setConstant(1.0f / static_cast<float>(cols));
      continue;
    }
    // Four entries at a time; a masked (-inf) or NaN logit, or one more than 87 below the largest
    // (whose exp() is under 1.7e-38), gets exactly 0. The last few entries go through the same
    // four-wide code, so an entry's value never depends on where it sits in the row.
    float* out_row = &out(i, 0);
    const Vec4 max4 = splat4(max_logit), floor4 = splat4(-87.0f);
    Vec4 sums{};
    const auto exp_shifted = [&](Vec4 logit) {
      const Vec4 shifted = logit - max4;
      const Vec4 e = select4(shifted > floor4, exp_nonpositive4(shifted), Vec4{});
      sums = sums + e;
      return e;
    };
    j = 0;
    for (; j + 4 <= cols; j += 4) store4(out_row + j, exp_shifted(load4(scores + j)));
    if (j < cols) {
      float lanes[4];
      std::fill(lanes, lanes + 4, -kInf);
      std::copy(scores + j, scores + cols, lanes);
      store4(lanes, exp_shifted(load4(lanes)));
      std::copy(lanes, lanes + (cols - j), out_row + j);
    }
    const Vec4 sum4 = splat4((sums[0] + sums[1]) + (sums[2] + sums[3]));  // >= 1: the max entry contributes exp(0)
    for (j = 0; j + 4 <= cols; j += 4) store4(out_row + j, load4(out_row + j) / sum4);
    for (; j < cols; ++j) out_row[j] /= sum4[0];
  }
}

void layer_norm(const Matrix& in, const RowVector& gamma, const RowVector& beta, Matrix& out) {
  out.resize(in.rows(), in.cols());
  for (Eigen::Index i = 0; i < in.rows(); ++i) {
    const float mean = in.row(i).mean();
    const float var = (in.row(i).array() - mean).square().mean();
    const float inv = 1.0f / std::sqrt(var + 1e-5f);
    out.row(i) = ((in.row(i).array() - mean) * inv * gamma.array() + beta.array()).matrix();
  }
}

// 0.5 (1 + tanh(u)) is the logistic function of 2u, which needs one exp: of -|2u|, so that the
// four-lane exp of the softmax serves, where a libm tanh per entry (196,608 in a GPT-2 block of 64
// tokens) was one call each.
void gelu_tanh(Matrix& x) {
  constexpr float kTwoSqrtTwoOverPi = 2.0f * 0.7978845608028654f;
  const auto gelu4 = [](Vec4 v) {
    const Vec4 two_u = splat4(kTwoSqrtTwoOverPi) * (v + splat4(0.044715f) * v * v * v);
    const Int4 positive = two_u > Vec4{};
    const Vec4 e = exp_nonpositive4(select4(positive, -two_u, two_u));  // e^-|2u|, in (0, 1]
    const Vec4 one = splat4(1.0f);
    return v * (select4(positive, one, e) / (one + e));
  };
  float* values = x.data();
  const Eigen::Index size = x.size();
  Eigen::Index i = 0;
  for (; i + 4 <= size; i += 4) store4(values + i, gelu4(load4(values + i)));
  if (i < size) {  // the last few through the same four-lane code: a value's result never depends on where it sits
    float lanes[4] = {};
    std::copy(values + i, values + size, lanes);
    store4(lanes, gelu4(load4(lanes)));
    std::copy(lanes, lanes + (size - i), values + i);
  }
}

namespace {

// Same shape and the same bits (NaN included): the same arithmetic on them gives the same result.
bool bit_equal(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0);
}

template <typename Block>
bool block_bit_equal(const Block& block, const Matrix& m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    if (std::memcmp(&block(i, 0), m.row(i).data(), sizeof(float) * static_cast<std::size_t>(m.cols())) != 0) return false;
  return true;
}

// +0.0 everywhere, as setZero() writes (a -0.0 left from a copied Z would not be bit-equal).
template <typename Block>
bool block_is_positive_zero(const Block& block) {
  for (Eigen::Index i = 0; i < block.rows(); ++i)
    for (Eigen::Index j = 0; j < block.cols(); ++j)
      if (block(i, j) != 0.0f || std::signbit(block(i, j))) return false;
  return true;
}

bool same_bias(const RowVector& a, const RowVector& b) {
  return a.size() == b.size() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0);
}

// out = X W (+ b when the checkpoint has a bias).
void project(const Matrix& X, const Matrix& W, const RowVector& b, Matrix& out) {
  multiply(X, W, out);
  if (b.size() > 0) out.rowwise() += b;
}

// Q K^T / sqrt(d_k) (masked when causal) into out.logits, normalised into out.attention.
void attend(const HeadWeights& head, bool causal, AttentionNormalization normalization, HeadTrace& out) {
  const float inv_sqrt_dk = 1.0f / std::sqrt(static_cast<float>(head.W_Q.cols()));
  multiply_transposed(out.Q, out.K, out.logits);
  out.logits *= inv_sqrt_dk;
  if (causal) {
    const Eigen::Index n = out.logits.rows();
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = i + 1; j < n; ++j) out.logits(i, j) = -std::numeric_limits<float>::infinity();
  }
  normalize_attention_rows(out.logits, normalization, out.attention);
}

// Brings head `out` up to date with its input X (`same_input`: the X it was computed from), weights
// and mask, redoing only what depends on what changed: a W_V edit keeps the attention, a W_Q edit
// keeps K and V. Each product is computed the same way on every path, so a state reached by any
// sequence of edits has the same bits. Returns whether the head's attention or Z changed.
bool update_head(const Matrix& X, bool same_input, const HeadWeights& head, bool causal, AttentionNormalization normalization,
                 HeadTrace& out) {
  const bool new_Q = !same_input || !bit_equal(out.source_W_Q, head.W_Q) || !same_bias(out.source_b_Q, head.b_Q);
  const bool new_K = !same_input || !bit_equal(out.source_W_K, head.W_K) || !same_bias(out.source_b_K, head.b_K);
  const bool new_V = !same_input || !bit_equal(out.source_W_V, head.W_V) || !same_bias(out.source_b_V, head.b_V);
  const bool new_attention = new_Q || new_K || out.source_causal != causal || out.source_normalization != normalization;
  if (!new_attention && !new_V) return false;
  if (new_Q) project(X, head.W_Q, head.b_Q, out.Q);
  if (new_K) project(X, head.W_K, head.b_K, out.K);
  if (new_V) project(X, head.W_V, head.b_V, out.V);
  if (new_attention) attend(head, causal, normalization, out);
  multiply(out.attention, out.V, out.Z);
  // Copied only when different: after a new input the weights are usually the same, and reading
  // them costs less than writing them.
  for (auto [source, weights] : {std::pair{&out.source_W_Q, &head.W_Q}, {&out.source_W_K, &head.W_K}, {&out.source_W_V, &head.W_V}})
    if (!bit_equal(*source, *weights)) *source = *weights;
  for (auto [source, bias] : {std::pair{&out.source_b_Q, &head.b_Q}, {&out.source_b_K, &head.b_K}, {&out.source_b_V, &head.b_V}})
    if (!same_bias(*source, *bias)) *source = *bias;
  out.source_causal = causal;
  out.source_normalization = normalization;
  return true;
}

}  // namespace

void feed_forward(const FeedForward& ffn, const Matrix& in, Matrix& hidden, Matrix& out) {
  multiply(in, ffn.W_1, hidden);
  hidden.rowwise() += ffn.b_1;
  if (ffn.activation == Activation::gelu_tanh) gelu_tanh(hidden);
  else hidden = hidden.cwiseMax(0.0f);
  multiply(hidden, ffn.W_2, out);
  out.rowwise() += ffn.b_2;
}

void attention_head(const Matrix& X, const HeadWeights& head, bool causal, HeadTrace& out, AttentionNormalization normalization) {
  project(X, head.W_Q, head.b_Q, out.Q);
  project(X, head.W_K, head.b_K, out.K);
  project(X, head.W_V, head.b_V, out.V);
  attend(head, causal, normalization, out);
  multiply(out.attention, out.V, out.Z);
}

void forward(const Model& model, const Matrix& X, Trace& trace) { forward_layers(model, X, trace, model.layers.size()); }

void forward_layers(const Model& model, const Matrix& X, Trace& trace, std::size_t layer_count) {
  if (&trace.X != &X) trace.X = X;
  trace.layers.resize(model.layers.size());
  const Matrix* layer_in = &trace.X;
  for (std::size_t l = 0; l < std::min(layer_count, model.layers.size()); ++l) {
    const Layer& layer = model.layers[l];
    LayerTrace& lt = trace.layers[l];
    const Eigen::Index n = layer_in->rows();
    // The heads' input, and whether it is what they read last time.
    bool same_input = false;
    if (layer.norm == Norm::pre) {
      layer_norm(*layer_in, layer.ln_gamma, layer.ln_beta, lt.next_input);
      same_input = bit_equal(lt.next_input, lt.input);
      if (!same_input) lt.input.swap(lt.next_input);
    } else {
      same_input = bit_equal(*layer_in, lt.input);
      if (!same_input) lt.input = *layer_in;
    }
    lt.heads.resize(layer.heads.size());
    // concat keeps its old values only when its shape stays; then a block that already holds the
    // head's Z (or zeros when pruned) is left as it is.
    bool same_concat = lt.concat.rows() == n && lt.concat.cols() == layer.head_count() * layer.d_v;
    lt.concat.resize(n, layer.head_count() * layer.d_v);
    for (int h = 0; h < layer.head_count(); ++h) {
      const bool recomputed = update_head(lt.input, same_input, layer.heads[h], model.causal, model.attention, lt.heads[h]);
      if (n == 0) continue;  // an empty sentence: a block of a 0-row matrix would offset a null pointer (UB)
      auto block = lt.concat.middleCols(h * layer.d_v, layer.d_v);
      if (layer.heads[h].pruned) {
        if (!same_concat || !block_is_positive_zero(block)) {
          same_concat = false;
          block.setZero();
        }
      } else if (recomputed || !same_concat || !block_bit_equal(block, lt.heads[h].Z)) {
        same_concat = false;
        block = lt.heads[h].Z;
      }
    }
    lt.mean_attention.setZero(n, n);
    int active_heads = 0;
    for (int h = 0; h < layer.head_count(); ++h)
      if (!layer.heads[h].pruned) {
        lt.mean_attention += lt.heads[h].attention;
        ++active_heads;
      }
    if (active_heads > 0) lt.mean_attention /= static_cast<float>(active_heads);
    if (!same_concat || !bit_equal(lt.source_W_O, layer.W_O) || !same_bias(lt.source_b_O, layer.b_O) ||
        lt.attention_output.rows() != n) {
      multiply(lt.concat, layer.W_O, lt.attention_output);
      if (layer.b_O.size() > 0) lt.attention_output.rowwise() += layer.b_O;
      lt.source_W_O = layer.W_O;
      lt.source_b_O = layer.b_O;
    }
    // Attention sub-layer: residual and norm.
    if (layer.residual) lt.hidden = *layer_in + lt.attention_output;
    else lt.hidden = lt.attention_output;
    if (layer.norm == Norm::post) {
      lt.output = lt.hidden;
      layer_norm(lt.output, layer.ln_gamma, layer.ln_beta, lt.hidden);
    }
    // FFN sub-layer.
    if (layer.has_ffn) {
      Matrix ffn_in, ffn_hidden, ffn_out;
      if (layer.norm == Norm::pre) layer_norm(lt.hidden, layer.ln2_gamma, layer.ln2_beta, ffn_in);
      else ffn_in = lt.hidden;
      feed_forward(layer.ffn, ffn_in, ffn_hidden, ffn_out);
      if (layer.residual) ffn_out += lt.hidden;
      if (layer.norm == Norm::post) layer_norm(ffn_out, layer.ln2_gamma, layer.ln2_beta, lt.output);
      else lt.output = std::move(ffn_out);
    } else {
      lt.output = lt.hidden;
    }
    layer_in = &lt.output;
  }
}

}  // namespace headlab
