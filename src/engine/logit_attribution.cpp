#include "logit_attribution.h"

#include <algorithm>
#include <cmath>

namespace headlab {
namespace {

std::vector<FeatureContribution> top_terms(const RowVector& terms, int top_k) {
  std::vector<FeatureContribution> out;
  out.reserve(terms.size());
  for (Eigen::Index a = 0; a < terms.size(); ++a)
    if (terms(a) != 0.0f) out.push_back({static_cast<int>(a), terms(a)});
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return std::fabs(x.value) > std::fabs(y.value); });
  if (static_cast<int>(out.size()) > top_k) out.resize(top_k);
  return out;
}

}  // namespace

LogitAttribution attribute_logit(const Matrix& X, const HeadWeights& head, const HeadTrace& head_trace, int query,
                                 int key, int top_k) {
  LogitAttribution out;
  const float inv_sqrt_dk = 1.0f / std::sqrt(static_cast<float>(head.W_Q.cols()));
  out.logit = head_trace.Q.row(query).dot(head_trace.K.row(key)) * inv_sqrt_dk;
  // (d_model) per-feature terms on each side.
  const RowVector query_terms =
      (X.row(query).array() * (head.W_Q * head_trace.K.row(key).transpose()).transpose().array() * inv_sqrt_dk).matrix();
  const RowVector key_terms =
      (X.row(key).array() * (head.W_K * head_trace.Q.row(query).transpose()).transpose().array() * inv_sqrt_dk).matrix();
  out.query_side = top_terms(query_terms, top_k);
  out.key_side = top_terms(key_terms, top_k);
  return out;
}

}  // namespace headlab
