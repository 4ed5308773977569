#pragma once
// Specialization analysis of every head, recomputed with every forward pass:
// role scores and a label per head (head_scores.h, syntactic.h, head_label.h), importance by
// ablation (importance.h) and a per-layer summary. docs/labels.md defines every number. The
// redundancy between the heads of a layer is not part of it: it cost about half of a drag frame's
// analysis and is on screen only in the Labels tab, so whoever shows or exports it computes it
// (layer_redundancy in redundancy.h).
//
// Usage: load the Resources once, keep one Analysis next to the Trace and call analyze() after
// forward(); buffers are reused, so recomputing at the same sizes allocates little. A head whose
// attention matrix is bit-equal to the last call's (same tokens, options and resources) keeps its
// scores and label: an edit to one head rescores that head (and the layers after it) only. The
// result is always what a fresh Analysis would give.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "engine/analysis/gold.h"
#include "engine/analysis/head_label.h"
#include "engine/analysis/head_scores.h"
#include "engine/analysis/importance.h"
#include "engine/analysis/label_config.h"
#include "engine/analysis/sentence_context.h"
#include "engine/forward.h"
#include "engine/model.h"

namespace headlab::analysis {

// The data the analysis reads: thresholds and gold annotations, loaded once.
struct Resources {
  LabelConfig config;
  GoldCorpus gold;
  std::vector<std::string> errors;  // files that could not be used (defaults were taken instead)
};

// Reads assets/labels.json and assets/sentences.json; never fails (see Resources::errors).
Resources load_resources();

struct HeadAnalysis {
  HeadScores scores;
  HeadLabel label;
  float importance = 0.0f;  // ||out - out_without_head|| / ||out|| (importance.h)
  int importance_rank = -1; // 0 = least important unpruned head of the layer, -1 when pruned
};

// Per layer: how many heads carry each primary label and the mean score of every role.
struct LayerSummary {
  std::array<int, kRoleCount> label_counts{};  // by primary role ("syntactic:*" counts as syntactic)
  int mixed_count = 0;
  std::array<float, kRoleCount> mean_scores{};  // NaN for syntactic without a gold parse
};

struct LayerAnalysis {
  std::vector<HeadAnalysis> heads;
  std::vector<int> importance_ranking;              // unpruned heads, least important first
  LayerSummary summary;
};

struct GoldStatus {
  bool has_gold = false;    // the input is an annotated sentence: syntactic scores are on
  std::string reason;       // plain-English status for the UI
  std::string sentence_id;  // the matched example sentence, "" when none
};

struct Analysis {
  std::vector<LayerAnalysis> layers;
  GoldStatus gold;
  // Buffers reused between recomputes (one importance workspace per layer), and what the last
  // call was given, to know which heads need rescoring.
  SentenceContext sentence;
  Tokens previous_tokens;
  const Resources* previous_resources = nullptr;
  int previous_window = -1;
  bool previous_causal = false;
  int heads_scored = 0;  // heads the last call (re)scored (tests and benchmarks)
  // Per layer, (h * n, n): the attention each head was last scored on, heads stacked.
  std::vector<Matrix> scored_attention;
  std::vector<unsigned char> changed_heads;  // (h) of the layer being analysed: attention differs
  std::vector<ImportanceWorkspace> importance_workspaces;
  std::vector<float> importance_buffer;
};

// Analyses every head of `trace` (the forward pass of `model` on an input with `tokens`).
void analyze(const Model& model, const Tokens& tokens, const Trace& trace, const Resources& resources,
             const AnalysisOptions& options, Analysis& out);

// The same for the first `layer_count` layers only (forward_layers computed just those): the later
// layers keep their last analysis, which matches their trace. A new input analyses every layer.
void analyze_layers(const Model& model, const Tokens& tokens, const Trace& trace, const Resources& resources,
                    const AnalysisOptions& options, Analysis& out, std::size_t layer_count);

}  // namespace headlab::analysis
