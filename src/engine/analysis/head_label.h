#pragma once
// Turns a head's scores into a primary label, a confidence, runners-up and a one-line
// explanation built from the numbers ("8 of 9 tokens put most weight on the previous token").
//
// A role fires when its score passes the threshold of assets/labels.json. When several fire, the
// first of this order wins: cls, delimiter, rare_word (every row looks at the same key: if all
// tokens look at "aardvark", the verb looking at its subject "aardvark" is no evidence of syntax),
// syntactic, content_similarity, previous_token, next_token, self, local, broad (the catch-alls
// last). One exception: a strictly positional head (Voita et al. 2019, sec. 5.1: >= 90% of rows
// have their maximum on the offset) stays positional even when that offset happens to hit gold
// arcs, related words or the rare word. No role firing gives "mixed".
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/analysis/head_scores.h"
#include "engine/analysis/label.h"
#include "engine/token.h"

namespace headlab::analysis {

// The label (role and relation, or mixed) with how sure and why.
struct HeadLabel : Label {
  bool strict = false;              // positional roles: argmax share >= the strict share
  // Labelled: how far the score is past its threshold, (s - t) / (1 - t). Mixed: how far the
  // closest role is from firing, 1 - max(s / t). Both are 0 on the decision boundary.
  float confidence = 0.0f;
  std::vector<Role> runners_up;  // best first: other firing roles, then the closest
  // The explanation in English, and as an assets/labels.json template id with the values that fill
  // it (explanation.h), for the lab to show in the learner's language.
  std::string explanation;
  const char* explanation_id = "mixed";
  std::vector<std::string> explanation_values;
};

// Each role's score against its threshold for one head, as label_head weighs them. The threshold
// is per head for `local` (min(3 x band share, 0.9)) and `syntactic` (baseline + 0.10), so views
// can mark it on a score bar.
// Why a role whose score passes its threshold still does not fire: the first guard (label_config.h)
// that held it back, so the lab can say why instead of showing a passing score on a mixed head.
enum class RoleGuard {
  none,
  weak_partner,  // syntactic: the partner word gets too little of the attention
  unselective,   // syntactic: firm looks mostly land off the parse's arcs
  sink,          // syntactic: most words look at one word
  shared_keys,   // duplicate/induction: every token gives those keys about as much
  weak_target,   // rare word: too little attention on it
  near_uniform,  // rare word: no more than an even spread would give it
};

struct RoleStatus {
  float score = 0.0f;      // HeadScores::score(role), 0 when unavailable
  float threshold = 1.0f;  // the score the role must pass
  bool fires = false;      // passes its threshold and every guard
  bool available = true;   // false: cannot be scored on this input (no gold, no [CLS], no rare word...)
  RoleGuard guard = RoleGuard::none;  // set when the score passes but a guard holds the role back
  float progress() const { return threshold > 0.0f ? score / threshold : 0.0f; }
};
std::array<RoleStatus, kRoleCount> role_status(const HeadScores& scores, const LabelConfig& config);

// The available roles, closest to firing first (score / threshold; ties in the labeller's priority
// order), `first` (a head's label) ahead of all: the order the lab lists a head's roles in.
std::vector<Role> roles_by_progress(const std::array<RoleStatus, kRoleCount>& status, std::optional<Role> first = std::nullopt);

void label_head(const HeadScores& scores, const SentenceContext& sentence, const GoldCorpus& corpus,
                const Tokens& tokens, const LabelConfig& config, HeadLabel& out);

}  // namespace headlab::analysis
