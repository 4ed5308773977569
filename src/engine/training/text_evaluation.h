#pragma once
// How a language model over real text uses its heads, measured as the literature measures it:
//   previous-token score: mean_i A[i, i-1] on held-out text;
//   duplicate-token and induction (prefix-matching) scores on R random tokens repeated once,
//     t_1..t_R t_1..t_R: for each query i of the second copy, A[i, i-R] (the same token earlier) and
//     A[i, i-R+1] (the token after it), averaged (TransformerLens's definitions; Olsson et al. 2022);
//   the share of attention on the first token (the attention sink: Xiao et al. 2024) and on
//     punctuation;
//   in-context learning score: the mean loss of the late predictions of a window minus that of
//     the early ones (Olsson et al. 2022 use token 500 minus token 50; a window here is 64 tokens).
#include <cstdint>
#include <vector>

#include "engine/forward.h"
#include "engine/model.h"
#include "engine/token.h"
#include "generator.h"

namespace headlab::training {

struct TextHeadScores {
  int layer = 0;
  int head = 0;
  float previous_token = 0.0f;
  float duplicate_token = 0.0f;
  float induction = 0.0f;
  float first_token = 0.0f;  // mean_i A[i, 0], i >= 1
  float punctuation = 0.0f;  // mean_i of the attention on punctuation tokens
};

struct TextEvaluation {
  float held_out_loss = 0.0f;  // mean next-token cross-entropy (nats) over every prediction
  float early_loss = 0.0f;     // predictions from positions 0..7
  float late_loss = 0.0f;      // predictions from the last 8 positions
  float in_context_learning() const { return late_loss - early_loss; }
  std::vector<TextHeadScores> heads;  // layer-major
};

// Where each head of `trace` (layer-major) parks its attention on one input of n tokens: adds
// sum_{i >= 1} A[i, 0] to first_token and sum_{i >= 1} sum_j A[i, j] over the keys j whose
// `punctuation_at[j]` is true to punctuation (query 0 is left out: it sees only itself when causal).
// Sums, not means: divide by the n - 1 queries of every input (sink_shares does for one input).
void add_sink_sums(const Trace& trace, const std::vector<bool>& punctuation_at, std::vector<TextHeadScores>& heads);

// The first-token and punctuation shares of every head (layer-major, the other scores 0) on one
// input: the sums above over its n - 1 queries. All 0 for fewer than 2 tokens. With softmax these
// are shares of each row's 1; with softmax + 1 or sigmoid (engine/model.h) the mean weights as they
// are, not rescaled by the row's sum, so a head that attends to nothing has no sink.
std::vector<TextHeadScores> sink_shares(const Trace& trace, const std::vector<bool>& punctuation_at);
// The same on the lab's input, its punctuation as its tokens say (Token::is_punctuation).
std::vector<TextHeadScores> sink_shares(const Trace& trace, const Tokens& tokens);

// `held_out` windows of real text (text_task.h); `punctuation[id]` says which tokens are
// punctuation; `repeats` sequences of random tokens from `seed`, each repeated once, filling the
// window's length.
TextEvaluation evaluate_text(const Model& model, const std::vector<Sentence>& held_out, const std::vector<bool>& punctuation,
                             std::uint32_t seed, int repeats = 50);

}  // namespace headlab::training
