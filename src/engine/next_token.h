#pragma once
// What a model with a vocabulary predicts after each position: its logits over the vocabulary and
// the most likely next tokens. Only models that carry an unembedding have predictions: HeadLab's
// trained models (logits = h E^T / sqrt(d_model) + output_bias) and checkpoints (GPT-2: logits =
// ln_f(h) E^T, the embedding tied to the output).
#include <vector>

#include "forward.h"
#include "matrix.h"
#include "model.h"

namespace headlab {

struct NextToken {
  int id = 0;
  float probability = 0.0f;
};

// True when `model` has an unembedding (a learned token embedding).
bool has_predictions(const Model& model);
// (n, vocab) logits from the last layer's output of `trace`; empty when the model has no unembedding.
Matrix next_token_logits(const Model& model, const Trace& trace);
// log sum_c exp(logits(row, c)), the softmax's normaliser, summed in double: a 50,257-way sum of
// floats loses the small probabilities' digits. p(c) = exp(logits(row, c) - this).
double row_log_sum_exp(const Matrix& logits, Eigen::Index row);
// Per position, the `count` most likely next tokens, most likely first (ties: lower id first).
std::vector<std::vector<NextToken>> top_next_tokens(const Matrix& logits, int count);

}  // namespace headlab
