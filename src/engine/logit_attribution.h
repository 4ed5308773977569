#pragma once
// Why does query i attend to key j? The logit q_i . k_j / sqrt(d_k) splits exactly into one term
// per input feature, on either side:
//   query side: logit = sum_a X(i, a) * (W_Q(a, :) . k_j) / sqrt(d_k)
//   key side:   logit = sum_b X(j, b) * (q_i . W_K(b, :)) / sqrt(d_k)
// With the named-feature embedding each term has a name ("verb", "pos"), which is what the
// heatmap tooltip shows.
#include <vector>

#include "forward.h"
#include "model.h"

namespace headlab {

struct FeatureContribution {
  int feature = 0;
  float value = 0.0f;  // share of the logit this feature carries (terms sum to the logit)
};

struct LogitAttribution {
  float logit = 0.0f;
  std::vector<FeatureContribution> query_side;  // sorted by |value|, largest first, at most top_k
  std::vector<FeatureContribution> key_side;
};

// X is the layer input the head read (LayerTrace::input), head_trace the head's trace.
LogitAttribution attribute_logit(const Matrix& X, const HeadWeights& head, const HeadTrace& head_trace, int query,
                                 int key, int top_k = 4);

}  // namespace headlab
