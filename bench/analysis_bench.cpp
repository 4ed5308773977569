// Specialization analysis at the size its budget is set for (4 layers x 16 heads x 32 tokens).
// What a drag frame pays: every label with its scores and ablation importance, after one forward
// pass; budget < 0.5 ms in WASM. The redundancy matrices are not part of it (the Labels tab,
// state() and lesson goals compute them when they need them) and are timed on their own. Split into
// parts so a regression points at its cause (the parts run with one workspace for all layers, so
// they always recompute everything).
#include <benchmark/benchmark.h>

#include <memory>

#include "api/analysis_workload.h"
#include "engine/analysis/redundancy.h"
#include "engine/analysis/syntactic.h"
#include "engine/assets.h"

namespace {

using namespace headlab;
using api::AnalysisWorkload;

// Loaded once for the whole run, as the app does; a head keeps its scores only when the same
// Resources object analyses it again.
std::shared_ptr<const analysis::Resources> shared_resources() {
  static const auto resources = std::make_shared<const analysis::Resources>(analysis::load_resources());
  return resources;
}

AnalysisWorkload make_workload(int d_model, bool gold, AnalysisWorkload::Change change) {
  static const Lexicon lexicon = load_lexicon(nullptr);
  return AnalysisWorkload(lexicon, *shared_resources(), d_model, gold, change);
}

// A drag frame's analysis with every head of every layer changing between calls, as after an edit
// in layer 0 (the budget's case).
void BM_AnalysisAll(benchmark::State& state) {
  AnalysisWorkload w = make_workload(static_cast<int>(state.range(0)), state.range(1) != 0, AnalysisWorkload::Change::every_head);
  for (auto _ : state) {
    w();
    benchmark::DoNotOptimize(w.analysis().layers.data());
  }
  state.counters["tokens"] = static_cast<double>(w.input().tokens.size());
}

// The usual frame while dragging a weight: one head of the last layer changes between calls, so
// one head is rescored and importance keeps its W_O products.
void BM_AnalysisOneHeadEdited(benchmark::State& state) {
  AnalysisWorkload w = make_workload(static_cast<int>(state.range(0)), false, AnalysisWorkload::Change::one_head);
  for (auto _ : state) {
    w();
    benchmark::DoNotOptimize(w.analysis().layers.data());
  }
}

void BM_HeadScoresAndLabels(benchmark::State& state) {
  const AnalysisWorkload w = make_workload(static_cast<int>(state.range(0)), state.range(1) != 0, AnalysisWorkload::Change::one_head);
  const analysis::Resources& r = w.resources();
  const Tokens& tokens = w.input().tokens;
  analysis::SentenceContext sentence;
  analysis::HeadScores scores;
  analysis::HeadLabel label;
  for (auto _ : state) {
    analysis::make_sentence_context(tokens, false, r.gold, sentence);
    for (const LayerTrace& lt : w.trace(0).layers)
      for (const HeadTrace& ht : lt.heads) {
        analysis::score_head(ht.attention, sentence, r.config, {}, scores);
        analysis::score_syntactic(ht.attention, sentence, r.gold, r.config, scores.syntactic);
        analysis::label_head(scores, sentence, r.gold, tokens, r.config, label);
      }
    benchmark::DoNotOptimize(label.confidence);
  }
}

// The redundancy of all four layers on its own, every pair computed (what the Labels tab pays after
// an edit in layer 0, less the pairs of unchanged heads it keeps).
void BM_Redundancy(benchmark::State& state) {
  const AnalysisWorkload w = make_workload(static_cast<int>(state.range(0)), false, AnalysisWorkload::Change::one_head);
  analysis::RedundancyWorkspace workspace;
  Matrix distance;
  std::vector<std::pair<int, int>> pairs;
  for (auto _ : state) {
    for (const LayerTrace& lt : w.trace(0).layers) analysis::redundancy(lt, false, 1e-4f, 0.1f, workspace, distance, pairs);
    benchmark::DoNotOptimize(distance.data());
  }
}

// The same from nothing, as state(), an export or a lesson goal asks for it: fresh buffers each call.
void BM_RedundancyOnDemand(benchmark::State& state) {
  const AnalysisWorkload w = make_workload(static_cast<int>(state.range(0)), false, AnalysisWorkload::Change::one_head);
  const analysis::LabelConfig& config = w.resources().config;
  for (auto _ : state)
    for (const LayerTrace& lt : w.trace(0).layers) {
      const analysis::LayerRedundancy r = analysis::layer_redundancy(lt, false, config);
      benchmark::DoNotOptimize(r.distance.data());
    }
}

void BM_Importance(benchmark::State& state) {
  const AnalysisWorkload w = make_workload(static_cast<int>(state.range(0)), false, AnalysisWorkload::Change::one_head);
  analysis::ImportanceWorkspace workspace;
  std::vector<float> importance;
  for (auto _ : state) {
    for (int l = 0; l < AnalysisWorkload::kLayers; ++l) analysis::layer_importance(w.model(0), l, w.trace(0), workspace, importance);
    benchmark::DoNotOptimize(importance.data());
  }
}

// Two models in turn: forward() keeps heads whose input and weights did not change.
void BM_ForwardForComparison(benchmark::State& state) {
  const AnalysisWorkload w = make_workload(static_cast<int>(state.range(0)), false, AnalysisWorkload::Change::every_head);
  Trace trace;
  bool flip = false;
  for (auto _ : state) {
    forward(w.model((flip = !flip) ? 1 : 0), w.input().X, trace);
    benchmark::DoNotOptimize(trace.layers.back().output.data());
  }
}

// Args: d_model, gold (1: the 16-token annotated sentence, 0: 32 tokens without a parse).
BENCHMARK(BM_AnalysisAll)->Args({64, 0})->Args({128, 0})->Args({64, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AnalysisOneHeadEdited)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HeadScoresAndLabels)->Args({64, 0})->Args({64, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Redundancy)->Arg(64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RedundancyOnDemand)->Arg(64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Importance)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ForwardForComparison)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
