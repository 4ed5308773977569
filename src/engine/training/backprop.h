#pragma once
// Forward and backward pass of a whole Model over a packed Batch, for training.
//
// The forward pass computes what engine/forward.cpp computes for each sentence (a test checks it),
// for all sentences of the batch at once: the projections and the FFN run on the (T, d_model)
// stack of every token, attention runs per sentence on its (n, n) block. Then the output head
// (tied to the token embedding, Press & Wolf 2017; scaled as Vaswani et al. 2017, section 3.4):
//   logits (M, V) = H E^T / sqrt(d_model) + output_bias,   H (M, d_model) = last layer's rows of
//   the M target tokens, E (V, d_model) = token_embedding,
// and the mean cross-entropy against the targets. The backward pass walks the same steps in
// reverse and accumulates dL/d(parameter) into a Model-shaped gradient.
#include <vector>

#include "batch.h"
#include "engine/model.h"
#include "parameters.h"

namespace headlab::training {

struct HeadCache {
  std::vector<float> attention;  // sentence b: (n_b, n_b) row-major at Workspace::attention_offset[b]
};

struct LayerCache {
  Matrix input;                   // (T, d) layer input x
  Matrix heads_input;             // (T, d) what the heads read: LN1(x) with pre-norm, else x
  Matrix ln1_xhat;                // (T, d) normalized rows of x (pre) or of x + attention (post)
  Eigen::VectorXf ln1_rstd;       // (T)
  // Every head's projections in one product: W_QKV (d, h (2 d_k + d_v)) holds head h's W_Q, W_K,
  // W_V side by side from column h (2 d_k + d_v), and QKV (T, h (2 d_k + d_v)) = heads_input W_QKV
  // the same way. One product of 192 columns instead of twelve of 16 (default model): small
  // products spend most of their time packing operands.
  Matrix W_QKV;
  Matrix QKV;
  std::vector<HeadCache> heads;
  Matrix concat;                  // (T, h d_v) Z_1..Z_h side by side
  Matrix hidden;                  // (T, d) after the attention sub-layer (residual, norm)
  Matrix ffn_input;               // (T, d) LN2(hidden) with pre-norm, else hidden
  Matrix ln2_xhat;                // (T, d)
  Eigen::VectorXf ln2_rstd;       // (T)
  Matrix ffn_pre, ffn_act;        // (T, d_ff) before / after ReLU
  Matrix ffn_out;                 // (T, d)
  Matrix output;                  // (T, d) layer output
};

// Buffers reused from step to step: after the first batches of a size, a step does not allocate.
struct Workspace {
  std::vector<int> attention_offset;  // (B)
  Matrix X;                           // (T, d) token embedding + positional encoding
  std::vector<LayerCache> layers;
  Matrix target_hidden;               // (M, d)
  Matrix logits;                      // (M, V), dL/dlogits after the loss
  Matrix sinusoid;                    // (kMaxTokens + 2, d) when positional == sinusoidal
  // Backward buffers.
  Matrix d_out, d_a, d_b, d_c, d_concat, d_heads_input, d_QKV, d_W_QKV, d_ffn_pre, d_target_hidden;
  std::vector<float> scratch;         // (n_max^2)
  std::vector<ParameterView> parameter_views;
};

// Mean cross-entropy of the batch targets; fills the workspace caches.
float forward_batch(const Model& model, const Batch& batch, Workspace& ws);
// After forward_batch: adds dL/d(parameter) into `grad` (same shapes as `model`, zero_like).
void backward_batch(const Model& model, const Batch& batch, Workspace& ws, Model& grad);
// Zeroes `grad`, runs both passes and returns the loss.
float loss_and_gradient(const Model& model, const Batch& batch, Workspace& ws, Model& grad);

// Attention of sentence b, head h of layer l after forward_batch: (n_b, n_b), row = query.
Matrix batch_attention(const Workspace& ws, const Batch& batch, int layer, int head, int sentence);

}  // namespace headlab::training
