#include "text_evaluation.h"

#include <algorithm>
#include <cmath>

#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/next_token.h"
#include "engine/tokenizer.h"
#include "rng.h"

namespace headlab::training {
namespace {

constexpr int kEdgePredictions = 8;  // the early and the late predictions of a window

Trace run(const Model& model, const std::vector<int>& ids) {
  Trace trace;
  forward(model, embed_token_ids(ids, model), trace);
  return trace;
}

// -log p(next token) of each prediction (positions 0..n-2).
std::vector<double> prediction_losses(const Model& model, const Trace& trace, const std::vector<int>& ids) {
  const Matrix logits = next_token_logits(model, trace);
  std::vector<double> losses;
  for (Eigen::Index r = 0; r + 1 < logits.rows(); ++r)
    losses.push_back(row_log_sum_exp(logits, r) - logits(r, ids[static_cast<std::size_t>(r) + 1]));
  return losses;
}

}  // namespace

void add_sink_sums(const Trace& trace, const std::vector<bool>& punctuation_at, std::vector<TextHeadScores>& heads) {
  std::size_t index = 0;
  for (const LayerTrace& layer : trace.layers)
    for (const HeadTrace& head : layer.heads) {
      if (index >= heads.size()) return;
      TextHeadScores& s = heads[index++];
      const Eigen::Index n = std::min<Eigen::Index>(head.attention.rows(), static_cast<Eigen::Index>(punctuation_at.size()));
      for (Eigen::Index i = 1; i < n; ++i) {
        s.first_token += head.attention(i, 0);
        // Every key, not only j <= i: the lab's toy models may see the future.
        for (Eigen::Index j = 0; j < n; ++j)
          if (punctuation_at[static_cast<std::size_t>(j)]) s.punctuation += head.attention(i, j);
      }
    }
}

std::vector<TextHeadScores> sink_shares(const Trace& trace, const std::vector<bool>& punctuation_at) {
  std::vector<TextHeadScores> heads;
  for (std::size_t l = 0; l < trace.layers.size(); ++l)
    for (std::size_t h = 0; h < trace.layers[l].heads.size(); ++h) heads.push_back({static_cast<int>(l), static_cast<int>(h)});
  add_sink_sums(trace, punctuation_at, heads);
  const Eigen::Index n = trace.layers.empty() || trace.layers.front().heads.empty()
      ? 0 : std::min<Eigen::Index>(trace.layers.front().heads.front().attention.rows(), static_cast<Eigen::Index>(punctuation_at.size()));
  for (TextHeadScores& s : heads)
    if (n > 1) {
      s.first_token /= static_cast<float>(n - 1);
      s.punctuation /= static_cast<float>(n - 1);
    }
  return heads;
}

std::vector<TextHeadScores> sink_shares(const Trace& trace, const Tokens& tokens) {
  std::vector<bool> punctuation_at(tokens.size());
  for (std::size_t j = 0; j < tokens.size(); ++j) punctuation_at[j] = tokens[j].is_punctuation;
  return sink_shares(trace, punctuation_at);
}

TextEvaluation evaluate_text(const Model& model, const std::vector<Sentence>& held_out, const std::vector<bool>& punctuation,
                             std::uint32_t seed, int repeats) {
  TextEvaluation out;
  for (std::size_t l = 0; l < model.layers.size(); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h) out.heads.push_back({static_cast<int>(l), h});
  const auto is_punctuation = [&](int id) { return id >= 0 && static_cast<std::size_t>(id) < punctuation.size() && punctuation[id]; };

  // Held-out text: loss, early and late loss, previous-token, first-token and punctuation shares.
  double loss = 0.0, early = 0.0, late = 0.0;
  long predictions = 0, early_count = 0, late_count = 0, rows = 0;
  for (const Sentence& window : held_out) {
    const Trace trace = run(model, window.tokens);
    const std::vector<double> losses = prediction_losses(model, trace, window.tokens);
    for (std::size_t p = 0; p < losses.size(); ++p) {
      loss += losses[p];
      ++predictions;
      if (p < kEdgePredictions) early += losses[p], ++early_count;
      if (p + kEdgePredictions >= losses.size()) late += losses[p], ++late_count;
    }
    const int n = window.size();
    rows += n - 1;
    std::size_t index = 0;
    for (const LayerTrace& layer : trace.layers)
      for (const HeadTrace& head : layer.heads) {
        TextHeadScores& s = out.heads[index++];
        for (int i = 1; i < n; ++i) s.previous_token += head.attention(i, i - 1);
      }
    std::vector<bool> punctuation_at(window.tokens.size());
    for (std::size_t j = 0; j < window.tokens.size(); ++j) punctuation_at[j] = is_punctuation(window.tokens[j]);
    add_sink_sums(trace, punctuation_at, out.heads);
  }
  if (predictions > 0) out.held_out_loss = static_cast<float>(loss / predictions);
  if (early_count > 0) out.early_loss = static_cast<float>(early / early_count);
  if (late_count > 0) out.late_loss = static_cast<float>(late / late_count);
  for (TextHeadScores& s : out.heads)
    if (rows > 0) {
      s.previous_token /= static_cast<float>(rows);
      s.first_token /= static_cast<float>(rows);
      s.punctuation /= static_cast<float>(rows);
    }

  // Repeated random tokens: duplicate-token and induction scores in the second copy.
  const int length = held_out.empty() ? static_cast<int>(kMaxTokens) : held_out.front().size();
  const int half = std::max(1, length / 2);
  const int vocabulary = static_cast<int>(model.token_embedding.rows());
  Rng rng(stream_seed(seed, 0x12EC));
  long queries = 0;
  for (int r = 0; r < repeats && vocabulary > 0; ++r) {
    std::vector<int> ids(static_cast<std::size_t>(half));
    for (int& id : ids) id = rng.below(vocabulary);
    ids.insert(ids.end(), ids.begin(), ids.end());
    const Trace trace = run(model, ids);
    std::size_t index = 0;
    for (const LayerTrace& layer : trace.layers)
      for (const HeadTrace& head : layer.heads) {
        TextHeadScores& s = out.heads[index++];
        for (int i = half; i < 2 * half; ++i) {
          s.duplicate_token += head.attention(i, i - half);
          s.induction += head.attention(i, i - half + 1);
        }
      }
    queries += half;
  }
  for (TextHeadScores& s : out.heads)
    if (queries > 0) {
      s.duplicate_token /= static_cast<float>(queries);
      s.induction /= static_cast<float>(queries);
    }
  return out;
}

}  // namespace headlab::training
