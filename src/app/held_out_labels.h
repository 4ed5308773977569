#pragma once
// What the heads of a model trained on the grammar do, measured on the held-out sentences the
// Training tab samples its timeline on: the lab's labels pooled over those sentences with their gold
// arcs (analysis/pooled_labels.h). The timeline and the lab (for a model brought in with "Use in
// lab") both label through here, so after "Use in lab" the lab's held-out label of a head is the
// timeline's last entry for it, not a second opinion from another labeller.
#include <string>
#include <vector>

#include "engine/analysis/attention_spread.h"
#include "engine/analysis/label.h"
#include "engine/analysis/pooled_labels.h"
#include "engine/model.h"
#include "engine/training/evaluation.h"
#include "engine/training/grammar.h"
#include "lessons/goal.h"

namespace headlab::app {

// The held-out sentences: one fixed stream, so every seed and the lab are measured on the same
// sentences and their baselines agree.
inline constexpr std::uint32_t kHeldOutSeed = 7;
inline constexpr int kHeldOutCount = 60;

// HeadRole::direction of a syntactic head whose two ends look at each other about equally often
// (analysis::RelationScore::both_ways).
inline constexpr int kBothWays = 2;

// What one head does at one moment: its label over the held-out sentences.
struct HeadRole {
  analysis::Label label;        // mixed by default
  float score = 0.0f;           // the role's score (syntactic: arc accuracy); mixed: 0
  float baseline = 0.0f;        // syntactic: the best fixed offset's accuracy; else the role's threshold
  int direction = training::kDependentToHead;  // syntactic: which end of the arc attends, or kBothWays
  // A role the head has learned: "broad" is the blur every untrained head starts with, so it is
  // no more a role than mixed.
  bool learned() const { return !label.mixed() && !label.is(analysis::Role::broad); }
};

// The HeadRole form of one pooled head label; `config` gives the threshold of non-syntactic roles.
HeadRole head_role(const analysis::PooledHead& head, const analysis::LabelConfig& config);

// The sentences and what labelling them needs, built once.
struct HeldOutLabeller {
  std::vector<training::Sentence> sentences;
  analysis::Resources resources;  // the lab's thresholds adapted to the grammar; the sentences as gold

  static HeldOutLabeller make(const training::Grammar& grammar, const analysis::LabelConfig& lab, bool special_tokens,
                              int count = kHeldOutCount);
};

struct HeldOutReading {
  std::vector<HeadRole> heads;                       // layer-major
  std::vector<analysis::AttentionSpread> spreads;    // per layer (attention_spread.h)
};

// Every head of `model` (trained on `grammar`'s vocabulary) on the labeller's sentences.
HeldOutReading read_held_out(const Model& model, const training::Grammar& grammar, const HeldOutLabeller& labeller);

// The loss and the layer profile of `model` on `sentences`, without labelling the heads (what
// held-out lesson goals read).
lessons::HeldOutMeasures measure_held_out(const Model& model, const training::Grammar& grammar,
                                          const std::vector<training::Sentence>& sentences);

// The held-out loss of `model` on `sentences`: the masked-word loss, or for a causal model the
// next-word loss (the objective it trains with), masks drawn from kHeldOutSeed so every
// measurement of the same model agrees.
float held_out_model_loss(const Model& model, const training::Grammar& grammar, const std::vector<training::Sentence>& sentences);

// True for a model whose vocabulary is the grammar's: one "Use in lab" brought from the Training
// tab (or the shipped trained model), which the held-out sentences can be fed to.
bool trained_on_grammar(const Model& model, const training::Grammar& grammar);

}  // namespace headlab::app
