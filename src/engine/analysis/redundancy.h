#pragma once
// Redundancy between the heads of one layer (Clark et al. 2019, sec. 6 compare heads by the
// Jensen-Shannon divergence of their attention distributions).
//
// distance(a, b) = mean over queries i of sqrt(JS(A'_a[i], A'_b[i])), natural log, rows smoothed
// as A' = (1 - s) A + s / k over the k visible keys. Range [0, sqrt(ln 2)] ~ [0, 0.833]; 0 means
// the two heads attend identically. Pruned heads are compared like any other.
#include <utility>
#include <vector>

#include "engine/forward.h"

namespace headlab::analysis {

// One layer's buffers, kept between recomputes. Besides avoiding allocation they remember what the
// last call saw, so a recompute only redoes the pairs that involve a head whose attention changed
// (an edit of one head's weights changes 15 of a 16-head layer's 120 pairs). The result is the
// same as computing from scratch: unchanged inputs give bit-equal distances.
struct RedundancyWorkspace {
  Matrix smoothed;                    // (h * n, n) smoothed rows of every head, head-major
  std::vector<float> entropies;       // (h * n) entropy of each smoothed row
  std::vector<float> terms;           // (n * n) -m ln m of one head pair's mixture, entry by entry
  std::vector<float> mixture_entropies; // (n) entropy of each row of that mixture
  Matrix previous_attention;          // (h * n, n) the attention the smoothed rows came from
  Matrix previous_distance;           // (h, h) the distances computed from them
  bool previous_causal = false;
  float previous_smoothing = -1.0f;   // < 0: nothing remembered yet
  std::vector<unsigned char> changed; // (h) head's attention differs from the last call
  int pairs_computed = 0;             // pairs the last call recomputed (tests and benchmarks)
};

// Fills `distance` (h, h), symmetric with a zero diagonal, and lists pairs (a < b) whose distance
// is below `near_duplicate_distance`. Use one workspace per layer.
void redundancy(const LayerTrace& layer, bool causal, float smoothing, float near_duplicate_distance,
                RedundancyWorkspace& workspace, Matrix& distance, std::vector<std::pair<int, int>>& near_duplicates);

}  // namespace headlab::analysis
