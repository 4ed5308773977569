#pragma once
// Held-out evaluation of the induction task with the engine's own forward() (what the page shows)
// and the lab's own head scores (analysis::score_head on a SentenceContext of the symbols):
//   prefix matching: HeadScores::induction, the attention a repeated symbol pays to the symbol
//     right after its earlier copies (Olsson et al. 2022; TransformerLens' induction detector);
//   previous token: HeadScores::previous_token, mean A[i, i-1] (the layer-0 half of the circuit,
//     Elhage et al. 2021: the induction head's keys read what a previous-token head wrote);
//   duplicate token: HeadScores::duplicate_token, attention to the earlier copies themselves.
// Each is the mean over the held-out sequences. A head attending uniformly scores about 1/n.
#include <vector>

#include "engine/forward.h"
#include "engine/model.h"
#include "induction_task.h"

namespace headlab::training {

// A head "has formed" at this prefix matching: far above chance (about 1/n, 0.03 to 0.1 here) and
// below both the formed level (0.8 to 0.9) and the induction label's threshold 0.5, so the first
// report past it is the step of the jump (Olsson et al. 2022: the phase change is abrupt).
inline constexpr float kInductionFormedScore = 0.4f;

struct InductionHeadScores {
  int layer = 0;
  int head = 0;
  float prefix_matching = 0.0f;
  float previous_token = 0.0f;
  float duplicate_token = 0.0f;
  // The attention sink: mean A[i, 0] over the queries i >= 1 (text_evaluation.h's sink_shares). In
  // the first copy of a sequence no earlier symbol fits; where a head puts that attention shows here.
  float first_token = 0.0f;
};

struct InductionReport {
  std::vector<InductionHeadScores> heads;  // layer-major, every head of the model
  float loss = 0.0f;         // mean next-token loss over every target
  float repeat_loss = 0.0f;  // over the targets inside the second copy (all but its first symbol):
                             // ln(symbol_count) without an induction mechanism, near 0 with one
  int head_count = 0;        // per layer

  const InductionHeadScores& at(int layer, int head) const { return heads[layer * head_count + head]; }
};

// Scores every head of `model` (a causal model over induction_vocabulary) on `held_out`. With
// `traces`, the forward pass of each sequence is kept there (for callers that measure more on them).
InductionReport induction_report(const Model& model, const RepeatedSequences& held_out, std::vector<Trace>* traces = nullptr);

// The head of `layer` with the highest prefix matching / previous-token score.
InductionHeadScores strongest_induction_head(const InductionReport& report, int layer);
// The strongest induction head of the layers that can hold one: layers 1 and up (the circuit
// needs a layer before it, Elhage et al. 2021), or layer 0 of a 1-layer model (the control).
InductionHeadScores strongest_induction_head(const InductionReport& report);
InductionHeadScores strongest_previous_token_head(const InductionReport& report, int layer);

// The circuit test by pruning (Olsson et al. 2022, ablations): a layer-0 head is pruned on a copy
// of the model and the prefix matching of the strongest layer-1 induction head (chosen on the
// intact model) is measured again. An induction head built by K-composition with a previous-token
// head (Elhage et al. 2021) loses most of its score when that head goes; one that finds its keys
// another way does not. Needs at least 2 layers (otherwise every head index is -1).
struct InductionAblation {
  int pruned_head = -1;            // layer 0
  float pruned_previous_token = 0.0f;
  float pruned_duplicate_token = 0.0f;
  int induction_head = -1;         // layer 1
  float before = 0.0f;             // its prefix matching with every head
  float after = 0.0f;              // with the layer-0 head pruned
  float repeat_loss_before = 0.0f;
  float repeat_loss_after = 0.0f;
};
InductionAblation ablate_layer0_head(const Model& model, const RepeatedSequences& held_out, int layer0_head);
// Prunes the layer-0 head with the highest previous-token score.
InductionAblation ablate_previous_token_head(const Model& model, const RepeatedSequences& held_out);

}  // namespace headlab::training
