#pragma once
// How far and how widely heads look, per layer: the measures behind "what a head does depends on
// its layer". Vig & Belinkov 2019 ("Analyzing the Structure of Attention in a Transformer Language
// Model", sec. 4.3) report the mean attention distance, sum_j A_ij |i - j| averaged over positions,
// growing with depth in GPT-2; Clark et al. 2019 (sec. 3.3) report the mean entropy of each
// head's attention rows, high (broad) in the lowest layers of BERT. Here both are means over every
// query row of every unpruned head of a layer (and of every sentence, when several are given), so
// each row weighs the same; the role shares per layer are in analysis.h's LayerSummary.
#include <vector>

#include "engine/forward.h"
#include "engine/model.h"

namespace headlab::analysis {

struct AttentionSpread {
  double distance = 0.0;         // mean over rows of sum_j A_ij |i - j|, in tokens
  double entropy = 0.0;          // mean over rows of -sum_j A_ij ln A_ij, in nats
  double uniform_entropy = 0.0;  // mean over rows of ln(keys the row can see): the most spread possible
  int rows = 0;                  // rows measured (0: nothing to measure, e.g. every head pruned)
};

// One attention matrix (rows sum to 1; a causal row i sees keys 0..i).
AttentionSpread attention_spread(const Matrix& A, bool causal);

// Per layer of `model`, over its unpruned heads in every trace (forward passes of `model`).
std::vector<AttentionSpread> layer_spreads(const Model& model, const std::vector<const Trace*>& traces);

}  // namespace headlab::analysis
