#pragma once
// The forward pass, keeping every intermediate: the attention matrices are the product here.
//
// For each head i of a layer with input X (n, d_model):
//   Q_i = X W_Q_i (n, d_k), K_i = X W_K_i (n, d_k), V_i = X W_V_i (n, d_v)
//   A_i = softmax(Q_i K_i^T / sqrt(d_k))  (n, n), row r = query r, rows sum to 1 (or the model's
//         other AttentionNormalization, model.h: softmax + 1 and sigmoid rows sum to at most 1 and
//         to any sum in [0, m) respectively)
//   Z_i = A_i V_i (n, d_v)
// then Concat(Z_1..Z_h) W_O (n, d_model), followed by the optional residual, LayerNorm and FFN.
// (Vaswani et al. 2017, section 3.2.)
#include <vector>

#include "matrix.h"
#include "model.h"

namespace headlab {

struct HeadTrace {
  Matrix Q;          // (n, d_k)
  Matrix K;          // (n, d_k)
  Matrix V;          // (n, d_v)
  Matrix logits;     // (n, n) q_i . k_j / sqrt(d_k); -inf where the causal mask hides key j
  Matrix attention;  // (n, n) row-wise softmax of logits, rows sum to 1 (model.attention: see above)
  Matrix Z;          // (n, d_v) attention V
  // The weights and mask this trace was computed with (its input is LayerTrace::input): forward()
  // keeps a head whose input, weights and mask are bit-equal to these.
  Matrix source_W_Q, source_W_K, source_W_V;
  RowVector source_b_Q, source_b_K, source_b_V;
  bool source_causal = false;
  AttentionNormalization source_normalization = AttentionNormalization::softmax;
};

struct LayerTrace {
  Matrix input;             // (n, d_model) what the heads read (LayerNorm-ed input when pre-norm)
  std::vector<HeadTrace> heads;
  Matrix mean_attention;    // (n, n) average of the unpruned heads' attention ("summary across heads")
  Matrix concat;            // (n, h d_v) Z_1..Z_h side by side; pruned heads are zero blocks
  Matrix attention_output;  // (n, d_model) concat W_O
  Matrix hidden;            // (n, d_model) after the attention sub-layer's residual/norm
  Matrix output;            // (n, d_model) layer output (after FFN when present)
  Matrix source_W_O;        // the W_O attention_output was computed with
  RowVector source_b_O;
  Matrix next_input;        // scratch: the pre-norm input, compared with `input` before it is replaced
};

struct Trace {
  Matrix X;  // (n, d_model) the model input
  std::vector<LayerTrace> layers;
};

// Numerically stable row softmax into `out` (same shape). Robust to any float input: +inf logits
// share the row equally, NaN and -inf get zero weight, a row with nothing finite becomes uniform.
void softmax_rows(const Matrix& logits, Matrix& out);

// One head of self-attention on X; fills Q, K, V, logits, attention and Z of `out`.
void attention_head(const Matrix& X, const HeadWeights& head, bool causal, HeadTrace& out,
                    AttentionNormalization normalization = AttentionNormalization::softmax);

// The whole model on input X (n, d_model). Reuses the buffers already in `trace`, so calling it
// again at the same sizes does not allocate. A head whose input, weights and mask are bit-equal to
// the last call's keeps its trace, and so does a layer's concat W_O when neither changed: after an
// edit of one head only that head and the layers after it are recomputed. The result is always
// bit-equal to a fresh trace's (the same arithmetic on the same bits).
void forward(const Model& model, const Matrix& X, Trace& trace);

// The same for the first `layer_count` layers only (clamped to the model's). The later layers keep
// the trace of the last call that reached them: a later forward() that does reach them still gives
// a fresh trace's bits. A drag on a weight of layer 0 of a deep model thus shows the layer being
// edited at once and leaves the rest for later frames.
void forward_layers(const Model& model, const Matrix& X, Trace& trace, std::size_t layer_count);

// The feed-forward sub-layer: act(in W_1 + b_1) W_2 + b_2, with the layer's activation. `hidden`
// is (n, d_ff) scratch; `out` may be `in`.
void feed_forward(const FeedForward& ffn, const Matrix& in, Matrix& hidden, Matrix& out);

// LayerNorm of each row: (x - mean) / sqrt(var + 1e-5) * gamma + beta.
void layer_norm(const Matrix& in, const RowVector& gamma, const RowVector& beta, Matrix& out);

// GELU's tanh form in place, 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3))), as GPT-2's "gelu_new".
void gelu_tanh(Matrix& x);

}  // namespace headlab
