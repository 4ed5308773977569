#pragma once
// Scores to attention weights, for each AttentionNormalization (engine/model.h has the formulas
// and sources). The forward pass and the trainer both call these, so a trained model reads the
// same in the lab as it did in training.
#include "matrix.h"
#include "model.h"

namespace headlab {

// Row-wise `kind` of `logits` (n, m) into `out` (same shape). -inf marks a key the query does not
// see (the causal mask): it gets weight 0 and does not count among the keys m_i of the sigmoid's
// bias. Robust to any float: softmax as softmax_rows (forward.h); softmax + 1 gives +inf entries
// the row in equal shares and a row with nothing finite all zeros (all on the zero logit); sigmoid
// maps +inf to 1 and NaN to 0.
void normalize_attention_rows(const Matrix& logits, AttentionNormalization kind, Matrix& out);

// One row of scores, the first `visible` of `row` (the rest are masked and set to 0), in place:
// scores in, weights out. The trainer's form (training/ops.cpp): finite scores only.
void normalize_attention_row(float* row, long visible, long length, AttentionNormalization kind);

// The bias of sigmoid attention for a query that sees `visible` keys: -ln(visible).
float sigmoid_attention_bias(long visible);

}  // namespace headlab
