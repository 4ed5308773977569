#pragma once
// Thresholds that turn head scores into labels. The data lives in assets/labels.json (with the
// paper each number comes from); the defaults below are the same numbers compiled in, so tests
// and the CLI work without the file. A test checks that the file and the defaults agree.
#include <string>
#include <vector>

#include "engine/result.h"

namespace headlab::analysis {

struct LabelConfig {
  // previous_token / next_token: mean attention on the offset > 0.5 (Clark et al. 2019, sec. 3.1);
  // "strict" when the row argmax is on the offset for >= 90% of rows (Voita et al. 2019, sec. 5.1).
  float previous_token = 0.5f;
  float previous_token_strict_share = 0.9f;
  float next_token = 0.5f;
  float next_token_strict_share = 0.9f;
  // local: band mass / uniform share of the band >= 3 (Pande et al. 2021). When the band covers
  // more than a third of the row the ratio cannot reach 3; then band mass >= local_mass_cap fires.
  float local_ratio = 3.0f;
  float local_mass_cap = 0.9f;
  // ... and when the band is more than this share of the row (n = 4, w = 2) "local" says nothing.
  float local_max_band_share = 0.5f;
  // self: mean diagonal mass (no published threshold).
  float self = 0.5f;
  // delimiter / cls: mean mass on punctuation + [SEP], or on [CLS] (Clark et al. 2019, sec. 3.2).
  float delimiter = 0.6f;
  float cls = 0.6f;
  // broad: mean normalized row entropy of the smoothed rows (Clark et al. 2019, sec. 3.3; their
  // 3.8 nats at n = 128 divided by ln 128).
  float broad = 0.78f;
  float broad_smoothing = 1e-4f;  // A' = (1 - s) A + s / n, as in Clark et al.'s released code
  // syntactic: accuracy >= fixed-offset baseline + margin (Clark et al. 2019, sec. 4.2).
  float syntactic_margin = 0.10f;
  // Both directions of a relation count as one "both ways" role when their accuracies are this
  // close (HeadLab's: during training a head that links both ends otherwise flips its arrow).
  float syntactic_direction_tie = 0.10f;
  // HeadLab's guard for argmax-based scores on one short sentence: the mean attention on the
  // predicted token must reach this, or the argmax of a near-uniform row (noise) could fire.
  float syntactic_min_target_mass = 0.3f;
  // ... and the head must be selective: of its confident rows (>= confident_row_mass on one word
  // other than itself and [CLS]/[SEP]), at least min_selectivity must land on a gold dependency
  // neighbour. On one sentence each relation has one or two arcs, so a head that attends sharply
  // at random would otherwise hit some relation by chance (HeadLab's guard, not from a paper).
  float syntactic_confident_row_mass = 0.5f;
  float syntactic_min_selectivity = 0.75f;
  // ... and not a sink: when one word is the (other-word) argmax of more than this share of rows,
  // everything looks at it (often the main verb), and the arcs it completes are no evidence of a
  // relation-specific head (the "attend to the verb" confound of the reference run, docs/training.md).
  float syntactic_max_sink_share = 0.34f;
  // Relations not scored: attention to punctuation is the delimiter role (Clark et al. 2019,
  // sec. 3.2); scoring "punct" as syntax would call every delimiter head syntactic.
  std::vector<std::string> syntactic_excluded_relations = {"punct"};
  // content_similarity: > 0.5 of the achievable maximum (TransformerLens head detector).
  float content_similarity = 0.5f;
  // rare_word: share of rows whose argmax is the rarest token (Voita et al. 2019, sec. 5.3).
  float rare_word = 0.5f;
  float rare_word_min_target_mass = 0.3f;
  // ... and at least this multiple of what a uniform head puts on the rare word (on a 4-token
  // sentence a near-uniform head already puts 0.25 there).
  float rare_word_uniform_multiple = 2.0f;
  // duplicate_token: mean attention on earlier copies of the query's token, over rows that have
  // one; no published threshold, HeadLab uses a majority of the row's mass.
  float duplicate_token = 0.5f;
  // induction: mean attention on the token after an earlier copy (prefix matching), over rows
  // that have one: > 0.5 (Olsson et al. 2022; trained induction heads reach about 0.9).
  float induction = 0.5f;
  // ... and for both, the mass must be at least this multiple of what all rows give the same keys
  // (key_mass): a sink head that sends every row to one word is not matching repeats (HeadLab's
  // guard, like rare_word_uniform_multiple).
  float duplicate_token_key_multiple = 2.0f;
  float induction_key_multiple = 2.0f;
  // redundancy: two heads are near-duplicates below this mean Jensen-Shannon distance.
  float near_duplicate_distance = 0.1f;
  float redundancy_smoothing = 1e-4f;

  bool operator==(const LabelConfig& other) const;
};

// Parses assets/labels.json. Strict: every role must be present; errors name the JSON path
// ("roles[3].threshold: expected a number in [0, 1]").
Result<LabelConfig> parse_label_config(const std::string& json_text);

// Reads assets/labels.json; on failure returns the compiled-in defaults and sets `error`.
LabelConfig load_label_config(std::string* error);

}  // namespace headlab::analysis
