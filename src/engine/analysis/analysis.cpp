#include "engine/analysis/analysis.h"

#include <limits>

#include "engine/analysis/syntactic.h"

namespace headlab::analysis {
namespace {

bool same_tokens(const Tokens& a, const Tokens& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Token& x = a[i];
    const Token& y = b[i];
    if (x.text != y.text || x.key != y.key || x.is_punctuation != y.is_punctuation || x.is_special != y.is_special ||
        x.pos != y.pos || x.zipf != y.zipf || x.semantic_bits != y.semantic_bits)
      return false;
  }
  return true;
}

// Marks in `changed` the heads of `layer` whose attention differs from `previous` (what they were
// last scored on), and keeps the new attention there. A new shape marks every head.
void find_changed_heads(const LayerTrace& layer, Matrix& previous, std::vector<unsigned char>& changed) {
  const int heads = static_cast<int>(layer.heads.size());
  const Eigen::Index n = heads > 0 ? layer.heads[0].attention.rows() : 0;
  const bool same_shape = n > 0 && previous.rows() == heads * n && previous.cols() == n;
  changed.assign(heads, same_shape ? 0 : 1);
  if (n == 0) {
    previous.resize(0, 0);  // nothing to remember
    return;
  }
  if (!same_shape) previous.resize(heads * n, n);
  for (int h = 0; h < heads; ++h) {
    const Matrix& attention = layer.heads[h].attention;  // (n, n)
    auto rows = previous.middleRows(h * n, n);
    if (!changed[h] && rows == attention) continue;
    changed[h] = 1;
    rows = attention;
  }
}

void summarize(LayerAnalysis& layer) {
  LayerSummary& s = layer.summary;
  s = {};
  const float count = static_cast<float>(layer.heads.size());
  for (const HeadAnalysis& head : layer.heads) {
    if (head.label.mixed()) ++s.mixed_count;
    else ++s.label_counts[static_cast<int>(*head.label.role)];
    for (int r = 0; r < kRoleCount; ++r) s.mean_scores[r] += head.scores.score(static_cast<Role>(r)) / count;
  }
}

}  // namespace

Resources load_resources() {
  Resources resources;
  std::string error;
  resources.config = load_label_config(&error);
  if (!error.empty()) resources.errors.push_back(error);
  resources.gold = load_gold_corpus();
  if (!resources.gold.load_error.empty()) resources.errors.push_back(resources.gold.load_error);
  return resources;
}

void analyze(const Model& model, const Tokens& tokens, const Trace& trace, const Resources& resources,
             const AnalysisOptions& options, Analysis& out) {
  analyze_layers(model, tokens, trace, resources, options, out, model.layers.size());
}

void analyze_layers(const Model& model, const Tokens& tokens, const Trace& trace, const Resources& resources,
                    const AnalysisOptions& options, Analysis& out, std::size_t layer_count) {
  const bool same_input = out.previous_resources == &resources && out.previous_window == options.local_window &&
                          out.previous_causal == model.causal && same_tokens(out.previous_tokens, tokens);
  if (!same_input) {
    make_sentence_context(tokens, model.causal, resources.gold, out.sentence);
    out.previous_tokens = tokens;
    out.previous_resources = &resources;
    out.previous_window = options.local_window;
    out.previous_causal = model.causal;
  }
  const SentenceContext& sentence = out.sentence;
  out.heads_scored = 0;
  out.gold.has_gold = sentence.gold.has_gold;
  out.gold.reason = sentence.gold.reason;
  out.gold.sentence_id = sentence.gold.sentence ? sentence.gold.sentence->id : std::string();

  const std::size_t all_layers = std::min(model.layers.size(), trace.layers.size());
  out.layers.resize(all_layers);
  out.scored_attention.resize(all_layers);
  out.importance_workspaces.resize(all_layers);
  // A layer left out keeps scores of the tokens it was analysed with: with new tokens, none may be.
  if (!same_input) layer_count = all_layers;
  std::vector<float>& importance = out.importance_buffer;
  for (std::size_t l = 0; l < all_layers; ++l) {
    const LayerTrace& lt = trace.layers[l];
    LayerAnalysis& la = out.layers[l];
    // Left out, unless it was never analysed at this head count (then it has nothing to keep).
    if (l >= layer_count && la.heads.size() == lt.heads.size()) continue;
    la.heads.resize(lt.heads.size());
    find_changed_heads(lt, out.scored_attention[l], out.changed_heads);
    for (std::size_t h = 0; h < lt.heads.size(); ++h) {
      if (same_input && !out.changed_heads[h]) continue;  // same attention, same scores
      HeadAnalysis& ha = la.heads[h];
      const Matrix& attention = lt.heads[h].attention;  // (n, n), row = query
      score_head(attention, sentence, resources.config, options, ha.scores);
      score_syntactic(attention, sentence, resources.gold, resources.config, ha.scores.syntactic);
      label_head(ha.scores, sentence, resources.gold, tokens, resources.config, ha.label);
      ++out.heads_scored;
    }
    layer_importance(model, static_cast<int>(l), trace, out.importance_workspaces[l], importance);
    importance_ranking(model.layers[l], importance, la.importance_ranking);
    for (std::size_t h = 0; h < la.heads.size(); ++h) {
      la.heads[h].importance = importance[h];
      la.heads[h].importance_rank = -1;
    }
    for (std::size_t rank = 0; rank < la.importance_ranking.size(); ++rank)
      la.heads[la.importance_ranking[rank]].importance_rank = static_cast<int>(rank);
    summarize(la);
  }
}

}  // namespace headlab::analysis
