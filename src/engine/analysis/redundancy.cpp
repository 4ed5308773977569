#include "engine/analysis/redundancy.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "engine/analysis/jensen_shannon.h"

namespace headlab::analysis {
namespace {

constexpr int kBlock = 4;                    // keys per vector block
constexpr float kLn2 = 0.693147181f;
// The most that treating a row's negligible keys as at its floor may move sqrt(JS) of that row
// against any other (see RedundancyWorkspace::negligible); a pair moves by at most twice this.
constexpr float kRowShift = 5e-6f;
constexpr int kBlocksPerWord = 64 / kBlock;  // support bits are grouped by block

// Bit 4k of the result is set where block k (bits 4k..4k+3) of `bits` has any bit set.
std::uint64_t any_in_block(std::uint64_t bits) {
  return (bits | bits >> 1 | bits >> 2 | bits >> 3) & 0x1111111111111111u;
}

// The loops below list work without branching on the data, then do it in one loop: which blocks
// of a row rise above the floor is random to the branch predictor, and a mispredicted branch per
// row or block cost as much as the arithmetic. The exception is a meeting row of a pair, whose few
// blocks above the floor are found by their set bits: a mispredicted loop exit or two per meeting
// row cost less than visiting every block of it.

// Smooths one head's rows, marks their support and keeps, per block of 4 keys, what the row's
// support there contributes to JS against the row's floor: every key of a row outside the other
// row's support is at that floor.
void prepare_head(const Matrix& attention, bool causal, float smoothing, RedundancyWorkspace& w, int head) {
  const int n = static_cast<int>(attention.rows()), stride = w.stride, words = w.words, blocks = stride / kBlock;
  const float keep = 1.0f - smoothing;
  const std::ptrdiff_t first = static_cast<std::ptrdiff_t>(head) * n;  // the head's first stacked row
  int listed = 0;
  for (int i = 0; i < n; ++i) {
    const int visible = causal ? i + 1 : n;
    float* row = w.smoothed.data() + (first + i) * stride;
    const float* a = attention.data() + static_cast<std::ptrdiff_t>(i) * n;  // (n) query i
    int j = 0;
#ifdef HEADLAB_VECTOR_LOG
    const float floor = w.floors[i], negligible = w.negligible[i];
    const Float4 floors = {floor, floor, floor, floor}, zero = {0.0f, 0.0f, 0.0f, 0.0f};
    for (; j + kBlock <= visible; j += kBlock) {  // a select, not a branch on random data
      // Denormal attention is far below `negligible` (>= 1e-25) anyway; read as 0, it spares the
      // multiply a ~100-cycle microcode assist, natively and in WASM.
      Float4 attention4 = load4(a + j);
      attention4 = attention4 < FLT_MIN ? zero : attention4;
      const Float4 excess = keep * attention4;
      const Float4 smoothed = excess > negligible ? excess + floor : floors;
      std::memcpy(row + j, &smoothed, sizeof smoothed);
    }
#endif
    for (; j < visible; ++j) {
      const float excess = keep * a[j];
      row[j] = excess > w.negligible[i] ? excess + w.floors[i] : w.floors[i];
    }
    std::fill(row + visible, row + stride, w.floors[i]);
    std::uint64_t* support = w.support.data() + (first + i) * words;
    float* solo = w.solo_blocks.data() + (first + i) * blocks;
    // (Loops rather than std::fill: those become a memset call per row.)
    for (int k = 0; k < words; ++k) {
      std::uint64_t word = 0;
      for (int b = k * kBlocksPerWord; b < std::min(blocks, (k + 1) * kBlocksPerWord); ++b) {
        const unsigned bits = above_floor_bits(row + b * kBlock, w.floors[i]);
        word |= static_cast<std::uint64_t>(bits) << (b % kBlocksPerWord * kBlock);
        solo[b] = 0.0f;
        w.block_list[listed] = {i, b * kBlock};
        listed += bits != 0;
      }
      support[k] = word;
    }
    w.solo_sums[first + i] = 0.0f;
  }
  for (int k = 0; k < listed; ++k) {
    const RedundancyWorkspace::KeyBlock block = w.block_list[k];
    const std::ptrdiff_t r = first + block.row;
    KeyTermSum terms;
    terms.add(w.smoothed.data() + r * stride + block.key, w.floors[block.row]);
    const float total = terms.total();
    w.solo_blocks[r * blocks + block.key / kBlock] = total;
    w.solo_sums[r] += total;
  }
}

// Mean over rows of sqrt(JS) between heads a and b. Where two rows' supports do not meet, 2 JS is
// the sum of their solo sums. Where they meet: the key terms of the blocks where both rise above
// the floor plus the solo sums of the blocks where one does (both rows have the same floor).
// Meeting rows visit only the set bits of those block masks (a few of n / 4 blocks), and a row's
// key terms are summed across lanes once, not once per block.
float pair_distance(RedundancyWorkspace& w, int n, int a, int b) {
  const int stride = w.stride, words = w.words, blocks = stride / kBlock;
  const std::ptrdiff_t first_a = static_cast<std::ptrdiff_t>(a) * n, first_b = static_cast<std::ptrdiff_t>(b) * n;
  const float* solo_sums_a = w.solo_sums.data() + first_a;
  const float* solo_sums_b = w.solo_sums.data() + first_b;
  int meeting = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t* sa = w.support.data() + (first_a + i) * words;
    const std::uint64_t* sb = w.support.data() + (first_b + i) * words;
    std::uint64_t meet = 0;
    for (int k = 0; k < words; ++k) meet |= sa[k] & sb[k];
    w.meeting_rows[meeting] = i;
    meeting += meet != 0;
    w.pair_sums[i] = solo_sums_a[i] + solo_sums_b[i];
  }
  int listed = 0;
  for (int m = 0; m < meeting; ++m) {
    const int i = w.meeting_rows[m];
    const std::uint64_t* sa = w.support.data() + (first_a + i) * words;
    const std::uint64_t* sb = w.support.data() + (first_b + i) * words;
    const float* solo_a = w.solo_blocks.data() + (first_a + i) * blocks;
    const float* solo_b = w.solo_blocks.data() + (first_b + i) * blocks;
    float solo = 0.0f;
    for (int k = 0; k < words; ++k) {
      std::uint64_t both = any_in_block(sa[k] & sb[k]);
      for (std::uint64_t one = any_in_block(sa[k] | sb[k]) & ~both; one != 0; one &= one - 1) {
        const int c = k * kBlocksPerWord + lowest_bit(one) / kBlock;
        solo += solo_a[c] + solo_b[c];  // one of the two is 0
      }
      for (; both != 0; both &= both - 1) w.block_list[listed++] = {m, (k * kBlocksPerWord + lowest_bit(both) / kBlock) * kBlock};
    }
    w.pair_sums[i] = solo;
    std::fill(w.row_lanes.data() + 4 * m, w.row_lanes.data() + 4 * m + 4, 0.0f);
  }
  for (int k = 0; k < listed; ++k) {
    const RedundancyWorkspace::KeyBlock block = w.block_list[k];  // row: index into meeting_rows
    const std::ptrdiff_t row = w.meeting_rows[block.row];
    add_key_terms(w.row_lanes.data() + 4 * block.row, w.smoothed.data() + (first_a + row) * stride + block.key,
                  w.smoothed.data() + (first_b + row) * stride + block.key);
  }
  for (int m = 0; m < meeting; ++m) w.pair_sums[w.meeting_rows[m]] += lane_total(w.row_lanes.data() + 4 * m);
  return sum_scaled_sqrt(w.pair_sums.data(), 0.5f, stride) / static_cast<float>(n);  // padding rows hold 0
}

}  // namespace

void redundancy(const LayerTrace& layer, bool causal, float smoothing, float near_duplicate_distance,
                RedundancyWorkspace& w, Matrix& distance, std::vector<std::pair<int, int>>& near_duplicates) {
  const int heads = static_cast<int>(layer.heads.size());
  near_duplicates.clear();
  distance.setZero(heads, heads);
  w.pairs_computed = 0;
  w.changed.assign(heads, 1);
  const int n = heads > 0 ? static_cast<int>(layer.heads[0].attention.rows()) : 0;
  if (n == 0) {
    w.previous_smoothing = -1.0f;  // nothing to remember
    return;
  }
  const Eigen::Index stacked_rows = static_cast<Eigen::Index>(heads) * n;
  const bool same_shape = w.previous_smoothing == smoothing && w.previous_causal == causal &&
                          w.previous_attention.rows() == stacked_rows && w.previous_attention.cols() == n &&
                          w.previous_distance.rows() == heads;
  if (!same_shape) {
    w.stride = (n + kBlock - 1) / kBlock * kBlock;
    w.words = (n + 63) / 64;
    w.smoothed.resize(static_cast<std::size_t>(stacked_rows) * w.stride);
    w.support.resize(static_cast<std::size_t>(stacked_rows) * w.words);
    w.solo_blocks.resize(static_cast<std::size_t>(stacked_rows) * (w.stride / kBlock));
    w.solo_sums.resize(static_cast<std::size_t>(stacked_rows));
    w.pair_sums.assign(static_cast<std::size_t>(w.stride), 0.0f);
    w.meeting_rows.resize(static_cast<std::size_t>(n));
    w.row_lanes.resize(static_cast<std::size_t>(4 * n));
    w.block_list.resize(static_cast<std::size_t>(n) * (w.stride / kBlock));
    w.floors.resize(static_cast<std::size_t>(n));
    // A floor of 0 (smoothing 0) would put 0/0 into js_key_term; FLT_MIN changes no sum.
    w.negligible.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const int visible = causal ? i + 1 : n;
      w.floors[i] = std::max(smoothing / static_cast<float>(visible), FLT_MIN);
      w.negligible[i] = kRowShift * std::sqrt(2.0f * w.floors[i] / (static_cast<float>(visible) * kLn2));
    }
    w.previous_attention.resize(stacked_rows, n);
    w.previous_distance.setZero(heads, heads);
    w.previous_causal = causal;
    w.previous_smoothing = smoothing;
  }
  w.changed.assign(heads, same_shape ? 0 : 1);
  for (int h = 0; h < heads; ++h) {
    const Matrix& attention = layer.heads[h].attention;  // (n, n)
    auto previous = w.previous_attention.middleRows(static_cast<Eigen::Index>(h) * n, n);
    if (!w.changed[h] && previous == attention) continue;
    w.changed[h] = 1;
    previous = attention;
    prepare_head(attention, causal, smoothing, w, h);
  }
  for (int a = 0; a < heads; ++a)
    for (int b = a + 1; b < heads; ++b) {
      float d = w.previous_distance(a, b);
      if (w.changed[a] || w.changed[b]) {
        d = pair_distance(w, n, a, b);
        ++w.pairs_computed;
      }
      distance(a, b) = distance(b, a) = d;
      if (d < near_duplicate_distance) near_duplicates.emplace_back(a, b);
    }
  w.previous_distance = distance;
}

LayerRedundancy layer_redundancy(const LayerTrace& layer, bool causal, const LabelConfig& config) {
  RedundancyWorkspace workspace;
  LayerRedundancy out;
  layer_redundancy(layer, causal, config, workspace, out);
  return out;
}

void layer_redundancy(const LayerTrace& layer, bool causal, const LabelConfig& config, RedundancyWorkspace& workspace,
                      LayerRedundancy& out) {
  redundancy(layer, causal, config.redundancy_smoothing, config.near_duplicate_distance, workspace, out.distance,
             out.near_duplicates);
}

}  // namespace headlab::analysis
