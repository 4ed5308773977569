#include "induction_evaluation.h"

#include "backprop.h"
#include "batch.h"
#include "engine/analysis/head_scores.h"
#include "engine/analysis/sentence_context.h"
#include "engine/embedding.h"
#include "engine/forward.h"
#include "text_evaluation.h"

namespace headlab::training {
namespace {

// Mean next-token loss of every target, and of the targets inside the second copies.
void held_out_losses(const Model& model, const RepeatedSequences& held_out, InductionReport& report) {
  Batch batch;
  Rng unused(1);  // next-token batches draw nothing
  make_batch(held_out.sequences, Objective::next_token, MaskingConfig{}, static_cast<int>(model.vocab.size()), unused,
             batch);
  Workspace ws;
  report.loss = forward_batch(model, batch, ws);
  // Row second + k predicts symbol k + 1 of the second copy: the symbol after the current one's
  // earlier copy.
  batch.target_row.clear();
  batch.target_token.clear();
  for (std::size_t s = 0; s < held_out.sequences.size(); ++s) {
    const RepeatLayout& layout = held_out.layouts[s];
    for (int k = 0; k + 1 < layout.length; ++k) {
      batch.target_row.push_back(batch.offset[s] + layout.second + k);
      batch.target_token.push_back(held_out.sequences[s].tokens[layout.second + k + 1]);
    }
  }
  report.repeat_loss = batch.target_row.empty() ? 0.0f : forward_batch(model, batch, ws);
}

}  // namespace

InductionReport induction_report(const Model& model, const RepeatedSequences& held_out, std::vector<Trace>* traces) {
  InductionReport report;
  const int layer_count = static_cast<int>(model.layers.size());
  report.head_count = layer_count > 0 ? model.layers[0].head_count() : 0;
  std::vector<double> prefix(layer_count * report.head_count), previous(prefix.size()), duplicate(prefix.size());
  std::vector<int> repeat_sequences(prefix.size()), previous_sequences(prefix.size());
  std::vector<TextHeadScores> sinks(prefix.size());
  long sink_rows = 0;
  const analysis::GoldCorpus no_gold;  // random symbols have no parse
  const analysis::LabelConfig label_config;
  const analysis::AnalysisOptions options;
  analysis::SentenceContext context;
  analysis::HeadScores scores;
  Trace local;
  if (traces) traces->resize(held_out.sequences.size());
  for (std::size_t s = 0; s < held_out.sequences.size(); ++s) {
    Trace& trace = traces ? (*traces)[s] : local;
    const Tokens tokens = symbol_tokens(held_out.sequences[s]);
    forward(model, embed(tokens, model), trace);
    analysis::make_sentence_context(tokens, model.causal, no_gold, context);
    add_sink_sums(trace, std::vector<bool>(tokens.size(), false), sinks);  // symbols are no punctuation
    sink_rows += static_cast<long>(tokens.size()) - 1;
    for (int l = 0; l < layer_count; ++l)
      for (int h = 0; h < report.head_count; ++h) {
        analysis::score_head(trace.layers[l].heads[h].attention, context, label_config, options, scores);
        const std::size_t index = static_cast<std::size_t>(l * report.head_count + h);
        if (scores.induction.rows > 0) {
          prefix[index] += scores.induction.mass;
          duplicate[index] += scores.duplicate_token.mass;
          ++repeat_sequences[index];
        }
        if (scores.previous_token.rows > 0) {
          previous[index] += scores.previous_token.mass;
          ++previous_sequences[index];
        }
      }
  }
  for (int l = 0; l < layer_count; ++l)
    for (int h = 0; h < report.head_count; ++h) {
      const std::size_t index = static_cast<std::size_t>(l * report.head_count + h);
      InductionHeadScores head;
      head.layer = l;
      head.head = h;
      if (repeat_sequences[index] > 0) {
        head.prefix_matching = static_cast<float>(prefix[index] / repeat_sequences[index]);
        head.duplicate_token = static_cast<float>(duplicate[index] / repeat_sequences[index]);
      }
      if (previous_sequences[index] > 0) head.previous_token = static_cast<float>(previous[index] / previous_sequences[index]);
      if (sink_rows > 0) head.first_token = sinks[index].first_token / static_cast<float>(sink_rows);
      report.heads.push_back(head);
    }
  held_out_losses(model, held_out, report);
  return report;
}

namespace {

// The head of `layer` with the largest `score` (the first on a tie); head -1 when the layer has none.
InductionHeadScores strongest_head(const InductionReport& report, int layer, float InductionHeadScores::*score) {
  InductionHeadScores best{layer, -1};
  for (const InductionHeadScores& h : report.heads)
    if (h.layer == layer && (best.head < 0 || h.*score > best.*score)) best = h;
  return best;
}

}  // namespace

InductionHeadScores strongest_induction_head(const InductionReport& report, int layer) {
  return strongest_head(report, layer, &InductionHeadScores::prefix_matching);
}

InductionHeadScores strongest_induction_head(const InductionReport& report) {
  const int layer_count = report.head_count > 0 ? static_cast<int>(report.heads.size()) / report.head_count : 0;
  if (layer_count <= 1) return strongest_induction_head(report, 0);
  InductionHeadScores best = strongest_induction_head(report, 1);
  for (int l = 2; l < layer_count; ++l) {
    const InductionHeadScores candidate = strongest_induction_head(report, l);
    if (candidate.prefix_matching > best.prefix_matching) best = candidate;
  }
  return best;
}

InductionHeadScores strongest_previous_token_head(const InductionReport& report, int layer) {
  return strongest_head(report, layer, &InductionHeadScores::previous_token);
}

InductionAblation ablate_layer0_head(const Model& model, const RepeatedSequences& held_out, int layer0_head) {
  InductionAblation ablation;
  if (model.layers.size() < 2 || layer0_head < 0 || layer0_head >= model.layers[0].head_count()) return ablation;
  const InductionReport before = induction_report(model, held_out);
  const InductionHeadScores reader = strongest_induction_head(before, 1);
  Model pruned = model;
  pruned.layers[0].heads[layer0_head].pruned = true;
  const InductionReport after = induction_report(pruned, held_out);
  ablation.pruned_head = layer0_head;
  ablation.pruned_previous_token = before.at(0, layer0_head).previous_token;
  ablation.pruned_duplicate_token = before.at(0, layer0_head).duplicate_token;
  ablation.induction_head = reader.head;
  ablation.before = reader.prefix_matching;
  ablation.after = after.at(1, reader.head).prefix_matching;
  ablation.repeat_loss_before = before.repeat_loss;
  ablation.repeat_loss_after = after.repeat_loss;
  return ablation;
}

InductionAblation ablate_previous_token_head(const Model& model, const RepeatedSequences& held_out) {
  if (model.layers.size() < 2) return {};
  return ablate_layer0_head(model, held_out, strongest_previous_token_head(induction_report(model, held_out), 0).head);
}

}  // namespace headlab::training
