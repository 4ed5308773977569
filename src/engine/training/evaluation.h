#pragma once
// Held-out evaluation: the engine's own forward pass (the one the page shows) on generated
// sentences with gold structure, and per-head scores against that structure:
//   arc accuracy (Clark et al. 2019, section 4.2): for the arcs of a relation, the share
//     whose partner is the query's row argmax, excluding the query itself, [CLS] and [SEP]; in both
//     directions (the dependent attending to its head, the head attending to its dependent);
//   baseline: the best fixed offset (partner = query + k, the most frequent k) for the same arcs;
//   positional and delimiter scores (previous/next token, [CLS], punctuation + [SEP]).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/forward.h"
#include "engine/token.h"
#include "batch.h"
#include "generator.h"

namespace headlab::training {

struct HeldOutSet {
  std::vector<Sentence> sentences;  // gold tokens, POS and arcs
  std::vector<Tokens> tokens;       // engine tokens (text, gold POS, special/punctuation flags)
  std::vector<Trace> traces;        // engine forward() per sentence: per head Q, K, V, attention (n, n), Z
};

// `count` sentences from a stream of `seed` that training never draws from.
std::vector<Sentence> held_out_sentences(const Grammar& grammar, std::uint32_t seed, int count, bool special_tokens);
// Mean loss of the objective on `sentences` (one batch, masks drawn from `seed`): the held-out loss.
float held_out_loss(const Model& model, const Grammar& grammar, const std::vector<Sentence>& sentences,
                    Objective objective, const MaskingConfig& masking, std::uint32_t seed);
// The same for any task, given its vocabulary's size (the text task's windows, say).
float held_out_loss(const Model& model, int vocabulary_size, const std::vector<Sentence>& sentences,
                    Objective objective, const MaskingConfig& masking, std::uint32_t seed);
// Embeds each sentence with the model's learned embedding and runs engine forward().
HeldOutSet evaluate_sentences(const Model& model, const Grammar& grammar, std::vector<Sentence> sentences);

enum ArcDirection : int { kDependentToHead = 0, kHeadToDependent = 1 };

// One head's row of the arc report (the CLI's per-relation best heads and manifest). Head labels
// are the lab's, pooled over sentences: analysis/pooled_labels.h.
struct HeadArcScores {
  int layer = 0;
  int head = 0;
  std::vector<float> arc_accuracy[2];  // [direction][relation]
  float previous_token = 0.0f;         // mean_i A[i, i-1]
  float previous_argmax = 0.0f;        // share of rows whose argmax is i-1
  float next_token = 0.0f;             // mean_i A[i, i+1]
  float next_argmax = 0.0f;
  float self = 0.0f;                   // mean_i A[i, i]
  float cls = 0.0f;                    // mean_i A[i, [CLS]]
  float delimiter = 0.0f;              // mean_i of the attention on punctuation and [SEP]
};

struct RelationBaseline {
  int arcs = 0;
  float accuracy[2] = {0.0f, 0.0f};  // [direction]
  int offset[2] = {0, 0};
};

struct ArcReport {
  std::vector<std::string> relations;  // Grammar::relations
  std::vector<bool> control;           // per relation: uninformative by design (a control)
  std::vector<HeadArcScores> heads;    // layer-major
  std::vector<RelationBaseline> baselines;
};

ArcReport arc_report(const HeldOutSet& held_out, const Grammar& grammar);

struct BestHead {
  int layer = -1;
  int head = -1;
  ArcDirection direction = kDependentToHead;
  float accuracy = 0.0f;
  float baseline = 0.0f;  // best fixed offset, same direction
  int baseline_offset = 0;
};
// The head and direction with the highest accuracy on a relation.
BestHead best_head(const ArcReport& report, int relation);
// The head with the highest mean attention on the previous token (accuracy = that mean, baseline
// = 0.5, the previous_token label's threshold).
BestHead best_previous_token_head(const ArcReport& report);

}  // namespace headlab::training
