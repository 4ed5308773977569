#pragma once
// Syntactic scores against the gold parse (Clark et al. 2019, sec. 4.2; Voita et al. 2019, sec. 5.2).
//
// For every relation in the sentence and both directions, the share of arcs where the row argmax
// of one word, ignoring itself, [CLS] and [SEP], is its partner: "dependent -> head" (the adjective
// looks at its noun) and "head -> dependent" (the verb looks at its subject). A relation is
// claimed only when that accuracy beats the best fixed-offset baseline (gold.h) by the margin in
// labels.json, the head's mean attention on the partner reaches min_target_mass, and the head is
// selective: most of its confident rows land on gold dependency neighbours (not at random).
// Clark et al.'s column-argmax variant (the partner is the query attending most to the word) is
// reported alongside; on small inputs the two can disagree a lot. Relations listed in
// labels.json "excluded_relations" (punct) are not scored.
#include "engine/analysis/head_scores.h"

namespace headlab::analysis {

void score_syntactic(const Matrix& attention, const SentenceContext& sentence, const GoldCorpus& corpus,
                     const LabelConfig& config, SyntacticScore& out);

// The decisions score_syntactic takes from its counts: selectivity, sink, each relation's better
// direction, accuracy and claim, the best relation and the column variant. `out` holds the counts
// (hits, arcs, partner masses as means, confident rows, rows, sink rows), for one sentence or
// summed over several (pooled_labels.h).
void decide_syntactic(const LabelConfig& config, SyntacticScore& out);

}  // namespace headlab::analysis
