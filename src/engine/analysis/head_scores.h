#pragma once
// Per-head scores in [0, 1] for every role, from one head's attention matrix A (n, n), row i =
// query i, rows sum to 1. Definitions follow the papers cited on each field; docs/labels.md
// gives the formulas, thresholds and caveats.
#include <cmath>
#include <vector>

#include "engine/analysis/label_config.h"
#include "engine/analysis/roles.h"
#include "engine/analysis/sentence_context.h"
#include "engine/matrix.h"

namespace headlab::analysis {

struct AnalysisOptions {
  int local_window = 2;  // the +-w band of the `local` role
};

// Attention at one relative offset (previous token: -1, next: +1, self: 0).
// Clark et al. 2019, sec. 3.1 report the mass; Voita et al. 2019, sec. 5.1 the argmax share.
struct OffsetScore {
  float mass = 0.0f;          // mean over rows that have the offset of A[i, i + offset]
  float argmax_share = 0.0f;  // share of those rows whose (unique) argmax is at i + offset
  int rows = 0;
  int argmax_rows = 0;
};

// Pande et al. 2021: attention inside the band |j - i| <= w against a uniform head's share.
struct LocalScore {
  int window = 2;
  float mass = 0.0f;           // mean band mass
  float uniform_share = 0.0f;  // mean |band| / visible keys: what a uniform head puts there
  float ratio = 0.0f;          // mass / uniform_share
  float required_mass = 1.0f;  // min(ratio threshold * uniform_share, mass cap): the label fires at this mass
};

// Mean attention mass on a set of keys (delimiters, [CLS]); Clark et al. 2019, sec. 3.2.
struct KeySetScore {
  float mass = 0.0f;
  int keys = 0;  // tokens of the set in the sentence; 0 means the score is 0 by absence
};

// Voita et al. 2019, sec. 5.3.
struct RareWordScore {
  float share = 0.0f;  // share of rows whose unique argmax is the rarest word
  float mass = 0.0f;   // mean attention on the rarest word(s)
  float uniform_mass = 0.0f;  // what a uniform head would put there
  int token = -1;      // the rarest word most rows look at (ties: several share the lowest frequency), -1: none
  int tied = 0;        // how many words share the lowest frequency
  int rows = 0;
  int hits = 0;
};

// Attention that follows word relatedness beyond self (TransformerLens-style pattern score).
// For rows i with a related other word: share_i = sum_{j related} A[i, j] / sum_{j != i} A[i, j];
// score = mean share * min(1, 2 * mean off-diagonal mass), so a pure self head scores 0 while a
// head splitting its row between itself and related words can still reach 1.
struct ContentScore {
  float score = 0.0f;
  float related_share = 0.0f;
  float off_diagonal_mass = 0.0f;
  int rows = 0;  // rows with a related other word
};

// Mean attention on a set of earlier keys, over the rows that have such keys: earlier copies of
// the query's token (duplicate_token), or the tokens right after them (induction; Olsson et al.
// 2022, the prefix-matching score of TransformerLens' head detector). A uniform head scores about
// (keys in the set) / (visible keys), so a random head on n tokens scores near 1/n.
// key_mass is what every informative row, repeated or not, gives the same keys on average: a head
// that sends all rows to one key reaches the mass by being a sink, not by matching repeats.
struct RepeatScore {
  float mass = 0.0f;
  float key_mass = 0.0f;
  int rows = 0;  // 0: the sequence has no repeats, and the role is not scored
};

struct RelationScore {
  int relation = -1;  // index into GoldCorpus::relations
  int arcs = 0;
  // Row argmax (excluding self, [CLS], [SEP]) is the partner, per direction (Clark et al. 2019, sec. 4.2).
  int dependent_to_head_hits = 0;
  int head_to_dependent_hits = 0;
  float dependent_to_head_mass = 0.0f;  // mean A[dependent, head]
  float head_to_dependent_mass = 0.0f;  // mean A[head, dependent]
  // Column variant: the partner is the query that attends most to the word.
  int column_dependent_to_head_hits = 0;
  int column_head_to_dependent_hits = 0;
  float baseline = 0.0f;    // corpus accuracy of the best fixed offset for this relation
  int baseline_offset = 0;  // head - dependent
  // The better row direction, its accuracy and mean partner mass.
  bool head_to_dependent = false;
  // The other direction within LabelConfig::syntactic_direction_tie of it, or itself beating the
  // baseline by the claim's margin with the claim's mass: the two words look at each other, and
  // naming one direction would let a near-tie flip the label's arrow.
  bool both_ways = false;
  float accuracy = 0.0f;
  float partner_mass = 0.0f;
  bool claimed = false;  // accuracy >= baseline + margin, partner_mass >= min_target_mass, selective head
};

struct SyntacticScore {
  bool evaluated = false;  // the sentence has a gold parse
  std::vector<RelationScore> relations;  // relations present in the sentence
  int best = -1;           // index into relations: claimed first, then largest accuracy - baseline
  int column_best = -1;    // best relation under the column-argmax variant
  float column_accuracy = 0.0f;
  bool column_head_to_dependent = false;
  // Of the rows with >= confident_row_mass on one word other than themselves and [CLS]/[SEP],
  // the share whose word is a gold dependency neighbour (any relation).
  int confident_rows = 0;
  int confident_on_arcs = 0;  // confident rows whose word is a gold neighbour
  float selectivity = 0.0f;
  // A word that is the other-word argmax of more than max_sink_share of the rows, else -1.
  int sink_token = -1;
  int rows = 0;       // rows with a choice of other words (not [CLS]/[SEP])
  int sink_rows = 0;  // rows whose other-word argmax is the word most rows pick
  std::vector<int> looked_at;  // scratch, kept to avoid allocating per call

  const RelationScore* best_relation() const { return best >= 0 ? &relations[best] : nullptr; }
  bool claimed() const { return best >= 0 && relations[best].claimed; }
};

struct HeadScores {
  OffsetScore previous_token;
  OffsetScore next_token;
  OffsetScore self;
  LocalScore local;
  KeySetScore delimiter;
  KeySetScore cls;
  float broad = 0.0f;  // mean normalized entropy of the smoothed rows (Clark et al. 2019, sec. 3.3)
  ContentScore content_similarity;
  RareWordScore rare_word;
  RepeatScore duplicate_token;
  RepeatScore induction;
  SyntacticScore syntactic;
  std::vector<int> argmax;  // (n) each row's unique argmax key, -1 on a tie or an uninformative row
  RowVector column_mass;    // (1, n) attention each key receives, summed over informative rows
  std::vector<float> shape_scratch;  // (visible) a row over its sum, when it does not sum to 1

  // The [0, 1] number reported for each role id; NaN for syntactic without a gold parse, and for
  // duplicate_token and induction on a sequence without repeats.
  float score(Role role) const;
};

// Fills every score but `syntactic` for one head.
void score_head(const Matrix& attention, const SentenceContext& sentence, const LabelConfig& config,
                const AnalysisOptions& options, HeadScores& out);

// Unique argmax of row i over the keys where `allowed(j)` holds; -1 when the top two are tied
// (a uniform row has no argmax). Used where keys are excluded (syntax ignores self, [CLS], [SEP]).
template <class Allowed>
int unique_argmax(const Matrix& attention, int row, int visible, Allowed allowed) {
  int best = -1;
  float best_value = -1.0f, second_value = -1.0f;
  for (int j = 0; j < visible; ++j) {
    if (!allowed(j)) continue;
    const float v = attention(row, j);
    if (v > best_value) {
      second_value = best_value;
      best_value = v;
      best = j;
    } else if (v > second_value) {
      second_value = v;
    }
  }
  if (best >= 0 && second_value >= 0.0f && best_value - second_value <= 1e-5f * best_value)
    return -1;
  return best;
}

}  // namespace headlab::analysis
