#include "attention_normalization.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "forward.h"

namespace headlab {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

float sigmoid(float x) {
  // Two forms so that exp() never overflows: for x < 0, e^x / (1 + e^x).
  if (x >= 0.0f) return 1.0f / (1.0f + std::exp(-x));
  const float e = std::exp(x);
  return e / (1.0f + e);
}

// exp(s_j) / (1 + sum exp(s_j)) over the row, written as exp(s_j - c) / (exp(-c) + sum exp(s_j - c))
// with c = max(0, max s) so that no exp() overflows and the zero logit is never lost.
template <class Row>
void softmax_plus_one_row(Row&& row, long length) {
  float max_logit = 0.0f;  // the extra logit
  int positive_infinities = 0;
  for (long j = 0; j < length; ++j) {
    const float v = row(j);
    if (v == kInfinity) ++positive_infinities;
    else if (std::isfinite(v)) max_logit = std::max(max_logit, v);
  }
  if (positive_infinities > 0) {  // the limit: the +inf entries share the row, the zero logit gets nothing
    for (long j = 0; j < length; ++j) row(j) = row(j) == kInfinity ? 1.0f / static_cast<float>(positive_infinities) : 0.0f;
    return;
  }
  float sum = std::exp(-max_logit);
  for (long j = 0; j < length; ++j) {
    const float v = row(j);
    const float e = std::isfinite(v) ? std::exp(v - max_logit) : 0.0f;
    row(j) = e;
    sum += e;
  }
  for (long j = 0; j < length; ++j) row(j) /= sum;
}

template <class Row>
void sigmoid_row(Row&& row, long length) {
  long visible = 0;
  for (long j = 0; j < length; ++j)
    if (row(j) != -kInfinity && !std::isnan(row(j))) ++visible;
  const float bias = sigmoid_attention_bias(visible);
  for (long j = 0; j < length; ++j) {
    const float v = row(j);
    row(j) = std::isnan(v) ? 0.0f : sigmoid(v + bias);  // sigmoid(-inf) = 0, sigmoid(+inf) = 1
  }
}

}  // namespace

float sigmoid_attention_bias(long visible) { return visible > 0 ? -std::log(static_cast<float>(visible)) : 0.0f; }

void normalize_attention_rows(const Matrix& logits, AttentionNormalization kind, Matrix& out) {
  if (kind == AttentionNormalization::softmax) {
    softmax_rows(logits, out);
    return;
  }
  out = logits;
  for (Eigen::Index i = 0; i < out.rows(); ++i) {
    auto row = [&](long j) -> float& { return out(i, j); };
    if (kind == AttentionNormalization::softmax_plus_one) softmax_plus_one_row(row, out.cols());
    else sigmoid_row(row, out.cols());
  }
}

void normalize_attention_row(float* row, long visible, long length, AttentionNormalization kind) {
  auto at = [row](long j) -> float& { return row[j]; };
  if (kind == AttentionNormalization::softmax) {
    float max_logit = row[0];
    for (long j = 1; j < visible; ++j) max_logit = std::max(max_logit, row[j]);
    float sum = 0.0f;
    for (long j = 0; j < visible; ++j) {
      row[j] = std::exp(row[j] - max_logit);
      sum += row[j];
    }
    const float inv = 1.0f / sum;
    for (long j = 0; j < visible; ++j) row[j] *= inv;
  } else if (kind == AttentionNormalization::softmax_plus_one) {
    softmax_plus_one_row(at, visible);
  } else {
    const float bias = sigmoid_attention_bias(visible);
    for (long j = 0; j < visible; ++j) row[j] = sigmoid(row[j] + bias);
  }
  for (long j = visible; j < length; ++j) row[j] = 0.0f;
}

}  // namespace headlab
