#include "engine/analysis/analysis.h"

#include <limits>

#include "engine/analysis/syntactic.h"

namespace headlab::analysis {
namespace {

void summarize(LayerAnalysis& layer) {
  LayerSummary& s = layer.summary;
  s = {};
  const float count = static_cast<float>(layer.heads.size());
  for (const HeadAnalysis& head : layer.heads) {
    if (head.label.mixed) ++s.mixed_count;
    else ++s.label_counts[static_cast<int>(head.label.primary)];
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
  make_sentence_context(tokens, model.causal, resources.gold, out.sentence);
  const SentenceContext& sentence = out.sentence;
  out.gold.has_gold = sentence.gold.has_gold;
  out.gold.reason = sentence.gold.reason;
  out.gold.sentence_id = sentence.gold.sentence ? sentence.gold.sentence->id : std::string();

  const std::size_t layer_count = std::min(model.layers.size(), trace.layers.size());
  out.layers.resize(layer_count);
  std::vector<float> importance;
  for (std::size_t l = 0; l < layer_count; ++l) {
    const LayerTrace& lt = trace.layers[l];
    LayerAnalysis& la = out.layers[l];
    la.heads.resize(lt.heads.size());
    for (std::size_t h = 0; h < lt.heads.size(); ++h) {
      HeadAnalysis& ha = la.heads[h];
      const Matrix& attention = lt.heads[h].attention;  // (n, n), row = query
      score_head(attention, sentence, resources.config, options, ha.scores);
      score_syntactic(attention, sentence, resources.gold, resources.config, ha.scores.syntactic);
      label_head(ha.scores, sentence, resources.gold, tokens, resources.config, ha.label);
    }
    redundancy(lt, model.causal, resources.config.redundancy_smoothing, resources.config.near_duplicate_distance,
               out.redundancy_workspace, la.redundancy, la.near_duplicates);
    layer_importance(model, static_cast<int>(l), trace, out.importance_workspace, importance);
    la.importance_ranking = importance_ranking(model.layers[l], importance);
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
