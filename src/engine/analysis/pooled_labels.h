#pragma once
// One label per head from several sentences at once: the training page labels the heads of the
// model it trains on held-out sentences with the same scores, thresholds and rules as the lab
// labels one sentence (docs/labels.md).
//
// Every score is a mean over rows (or arcs); pooling sums each score's counts and masses over the
// sentences, so every row of every sentence weighs the same, as if the sentences were one long
// input with no attention between them. The syntactic baseline is the corpus's (gold.h), i.e. the
// best fixed offset over the sentences being labelled when the corpus is made of them. On a single
// sentence the pooled scores are exactly the lab's (analyze()), and so is the label.
#include <vector>

#include "engine/analysis/analysis.h"

namespace headlab::analysis {

struct PooledHead {
  HeadScores scores;  // pooled; `argmax` and `column_mass` are left empty
  HeadLabel label;    // explanation examples ("jumps" -> "fox") come from one of the sentences
};

// traces[s] is the forward pass of one model on inputs[s]; every sentence is matched against
// resources.gold as the lab matches its input. Returns the heads layer-major.
std::vector<PooledHead> label_heads_pooled(const std::vector<Tokens>& inputs, const std::vector<Trace>& traces,
                                           bool causal, const Resources& resources,
                                           const AnalysisOptions& options = {});

}  // namespace headlab::analysis
