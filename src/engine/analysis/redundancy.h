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

// Reusable buffers so a recompute at the same sizes does not allocate.
struct RedundancyWorkspace {
  Matrix smoothed;               // (h * n, n) smoothed rows of every head, head-major
  std::vector<float> entropies;  // (h * n) entropy of each smoothed row
};

// Fills `distance` (h, h), symmetric with a zero diagonal, and lists pairs (a < b) whose distance
// is below `near_duplicate_distance`.
void redundancy(const LayerTrace& layer, bool causal, float smoothing, float near_duplicate_distance,
                RedundancyWorkspace& workspace, Matrix& distance, std::vector<std::pair<int, int>>& near_duplicates);

}  // namespace headlab::analysis
