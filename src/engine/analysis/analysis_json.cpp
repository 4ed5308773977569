#include "engine/analysis/analysis_json.h"

#include <cmath>

#include "engine/analysis/label_families.h"

namespace headlab::analysis {
namespace {

using nlohmann::json;

json number(float v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json details(const HeadScores& s, const GoldCorpus& corpus) {
  json d = {{"previous_token_argmax", number(s.previous_token.argmax_share)},
            {"next_token_argmax", number(s.next_token.argmax_share)},
            {"self_argmax", number(s.self.argmax_share)},
            {"local_window", s.local.window},
            {"local_ratio", number(s.local.ratio)},
            {"local_required_mass", number(s.local.required_mass)},
            {"delimiter_tokens", s.delimiter.keys},
            {"cls_tokens", s.cls.keys},
            {"rare_token", s.rare_word.token},
            {"rare_word_mass", number(s.rare_word.mass)},
            {"content_rows", s.content_similarity.rows},
            {"content_related_share", number(s.content_similarity.related_share)},
            {"syntactic_evaluated", s.syntactic.evaluated},
            {"syntactic_selectivity", number(s.syntactic.selectivity)},
            {"syntactic_confident_rows", s.syntactic.confident_rows},
            {"syntactic_sink_token", s.syntactic.sink_token}};
  if (const RelationScore* r = s.syntactic.best_relation()) {
    d["syntactic_best_relation"] = corpus.relations[r->relation].id;
    d["syntactic_direction"] = r->head_to_dependent ? "head_to_dependent" : "dependent_to_head";
    d["syntactic_both_ways"] = r->both_ways;
    d["syntactic_baseline"] = number(r->baseline);
    d["syntactic_baseline_offset"] = r->baseline_offset;
    d["syntactic_partner_mass"] = number(r->partner_mass);
    d["syntactic_arcs"] = r->arcs;
  }
  if (s.syntactic.column_best >= 0) {
    d["syntactic_column_relation"] = corpus.relations[s.syntactic.relations[s.syntactic.column_best].relation].id;
    d["syntactic_column_accuracy"] = number(s.syntactic.column_accuracy);
    d["syntactic_column_direction"] = s.syntactic.column_head_to_dependent ? "head_to_dependent" : "dependent_to_head";
  }
  return d;
}

}  // namespace

json head_json(const HeadAnalysis& head, const GoldCorpus& corpus) {
  json scores = json::object();
  for (int r = 0; r < kRoleCount; ++r) scores[kRoleIds[r]] = number(head.scores.score(static_cast<Role>(r)));
  json runners_up = json::array();
  for (const Role role : head.label.runners_up) runners_up.push_back(role_id(role));
  return {{"label", head.label.text()},
          {"scores", std::move(scores)},
          {"details", details(head.scores, corpus)},
          {"explanation", head.label.explanation},
          {"explanation_template", head.label.explanation_id},
          {"explanation_values", head.label.explanation_values},
          {"confidence", number(head.label.confidence)},
          {"strict", head.label.strict},
          {"runners_up", std::move(runners_up)},
          {"syntactic_relation", head.label.relation ? json(relation_id(*head.label.relation)) : json(nullptr)},
          {"importance", number(head.importance)},
          {"importance_rank", head.importance_rank}};
}

json matrix_json(const Matrix& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(number(m(i, j)));
    rows.push_back(std::move(row));
  }
  return rows;
}

json layer_json(const LayerAnalysis& layer, const LayerRedundancy& layer_redundancy) {
  json redundancy = matrix_json(layer_redundancy.distance);
  json pairs = json::array();
  for (const auto& [a, b] : layer_redundancy.near_duplicates) pairs.push_back({a, b});
  json counts = json::object(), means = json::object();
  for (int r = 0; r < kRoleCount; ++r) {
    counts[kRoleIds[r]] = layer.summary.label_counts[r];
    means[kRoleIds[r]] = number(layer.summary.mean_scores[r]);
  }
  counts[kMixedLabel] = layer.summary.mixed_count;
  return {{"redundancy", std::move(redundancy)},
          {"near_duplicates", std::move(pairs)},
          {"importance_ranking", layer.importance_ranking},
          {"summary", {{"label_counts", std::move(counts)}, {"mean_scores", std::move(means)}}}};
}

json gold_json(const GoldStatus& gold) {
  return {{"has_gold", gold.has_gold},
          {"reason", gold.reason},
          {"sentence_id", gold.sentence_id.empty() ? json(nullptr) : json(gold.sentence_id)}};
}

nlohmann::json layer_profile_json(const std::vector<AttentionSpread>& spreads,
                                  const std::vector<std::vector<Label>>& labels) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t l = 0; l < spreads.size(); ++l) {
    const AttentionSpread& s = spreads[l];
    nlohmann::json shares = nlohmann::json::object();
    const std::vector<Label> none;
    const std::vector<Label>& layer_labels = l < labels.size() ? labels[l] : none;
    for (const auto& [family, count] : count_label_families(layer_labels))
      shares[family.text()] = static_cast<double>(count) / static_cast<double>(layer_labels.size());
    out.push_back({{"layer", l},
                   {"mean_distance", s.distance},
                   {"mean_entropy", s.entropy},
                   {"uniform_entropy", s.uniform_entropy},
                   {"rows", s.rows},
                   {"heads", layer_labels.size()},
                   {"role_shares", shares}});
  }
  return out;
}

}  // namespace headlab::analysis
