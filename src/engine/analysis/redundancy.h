#pragma once
// Redundancy between the heads of one layer (Clark et al. 2019, sec. 6 compare heads by the
// Jensen-Shannon divergence of their attention distributions).
//
// distance(a, b) = mean over queries i of sqrt(JS(A'_a[i], A'_b[i])), natural log, rows smoothed
// as A' = (1 - s) A + s / k over the k visible keys. Range [0, sqrt(ln 2)] ~ [0, 0.833]; 0 means
// the two heads attend identically (identical heads come out exactly 0). Float arithmetic with a
// fast logarithm (jensen_shannon.h), and keys whose attention is negligible next to the smoothing
// floor (below ~3e-9 for 32 keys) taken as at the floor: within 2e-5 of a double-precision
// computation, also for nearly identical heads. Pruned heads are compared like any other.
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/analysis/label_config.h"
#include "engine/forward.h"

namespace headlab::analysis {

// One layer's buffers, kept between recomputes. Besides avoiding allocation they remember what the
// last call saw, so a recompute only redoes the pairs that involve a head whose attention changed
// (an edit of one head's weights changes 15 of a 16-head layer's 120 pairs). The result is the
// same as computing from scratch: unchanged inputs give bit-equal distances.
//
// A row's support is the keys where it rises above its smoothing floor s / k. Peaked heads have a
// few such keys per row, and where two rows' supports do not meet, their JS is the sum of what
// each support contributes against the other row's floor, computed once per head (solo_blocks).
struct RedundancyWorkspace {
  struct KeyBlock {
    int row;  // query
    int key;  // first of 4 keys
  };
  int stride = 0;                     // floats per stored row: n rounded up to blocks of 4 keys
  int words = 0;                      // 64-bit support words per row
  std::vector<float> smoothed;        // (h * n, stride) smoothed rows, head-major; masked and
                                      // padding keys hold the row's floor
  std::vector<std::uint64_t> support; // (h * n, words) bit j: key j is above the row's floor
  std::vector<float> solo_blocks;     // (h * n, stride / 4) 2 JS of each block of 4 keys of the row
                                      // against keys at the row's floor
  std::vector<float> solo_sums;       // (h * n) their sum over the row
  std::vector<float> pair_sums;       // (stride) 2 JS of each row of one head pair
  std::vector<float> floors;          // (n) s / k of each row
  // (n) Per row, the attention excess (1 - s) A over the floor f = s / k at or below which a key is
  // stored at the floor, so that it joins no support. sqrt(JS) is a metric (Endres and Schindelin
  // 2003), also key by key, so a row R and its copy R' with such keys moved to the floor change
  // any distance by at most sqrt(JS(R, R')) <= sqrt(k ln 2 / (2 f)) * excess: below kRowShift
  // (redundancy.cpp) for excess <= kRowShift * sqrt(2 f / (k ln 2)). Peaked heads have many keys
  // of 1e-12 .. 1e-9, which would otherwise put shared blocks into most row pairs.
  std::vector<float> negligible;
  std::vector<int> meeting_rows;      // (n) rows of that pair whose supports meet
  std::vector<float> row_lanes;       // (n, 4) per meeting row, its key terms' 4 lane sums
  std::vector<KeyBlock> block_list;   // (n * stride / 4) blocks of a head or pair to sum; for a
                                      // pair, `row` indexes meeting_rows
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

// One layer's redundancy with the lab's thresholds (config.redundancy_smoothing and
// config.near_duplicate_distance). The analysis of an edit leaves it out, since a drag frame would
// pay for matrices nobody looks at: whoever shows, exports or checks them computes them here.
struct LayerRedundancy {
  Matrix distance;                                   // (h, h) as redundancy() fills it
  std::vector<std::pair<int, int>> near_duplicates;  // pairs (a < b) below the threshold
};

// From nothing (a goal, an export, an API call).
LayerRedundancy layer_redundancy(const LayerTrace& layer, bool causal, const LabelConfig& config);

// Into `out`, redoing only the pairs of heads whose attention changed since `workspace` last saw
// this layer (a view that follows the edits); the same numbers as from nothing.
void layer_redundancy(const LayerTrace& layer, bool causal, const LabelConfig& config, RedundancyWorkspace& workspace,
                      LayerRedundancy& out);

}  // namespace headlab::analysis
