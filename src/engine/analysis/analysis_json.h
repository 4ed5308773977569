#pragma once
// The JSON view of the analysis shared by window.headlab.state() and `headlab-cli forward`, so
// both spell the same ids (docs/js-api.md, docs/labels.md). Non-finite numbers become null.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "engine/analysis/analysis.h"
#include "engine/analysis/attention_spread.h"
#include "engine/analysis/redundancy.h"

namespace headlab::analysis {

// {"label", "scores": {role id: number|null}, "details": {...}, "explanation", "explanation_template",
//  "explanation_values", "confidence", "runners_up", "syntactic_relation", "importance", "importance_rank"}
nlohmann::json head_json(const HeadAnalysis& head, const GoldCorpus& corpus);

// {"redundancy": (h, h) rows, "near_duplicates": [[a, b], ...], "importance_ranking": [...],
//  "summary": {"label_counts": {id: count, "mixed": count}, "mean_scores": {id: number|null}}}
// The analysis of an edit has no redundancy: the caller computes it (layer_redundancy).
nlohmann::json layer_json(const LayerAnalysis& layer, const LayerRedundancy& redundancy);

// Layer dependence, one entry per layer: {"layer", "mean_distance", "mean_entropy",
// "uniform_entropy", "rows", "heads", "role_shares": {role id or "syntactic" or "mixed": share}}.
// labels[l] holds the labels of layer l's unpruned heads ("syntactic:<rel>" counts as syntactic).
nlohmann::json layer_profile_json(const std::vector<AttentionSpread>& spreads,
                                  const std::vector<std::vector<Label>>& labels);

// A matrix as rows of numbers (row i is m's row i); non-finite entries become null.
nlohmann::json matrix_json(const Matrix& m);

// {"has_gold", "reason", "sentence_id"}
nlohmann::json gold_json(const GoldStatus& gold);

}  // namespace headlab::analysis
