// Specialization analysis at the size issue 4 budgets (4 layers x 16 heads x 32 tokens): every
// label with its scores, the redundancy matrices and ablation importance, after one forward pass.
// Split into parts so a regression points at its cause (the parts run with one workspace for all
// layers, so they always recompute everything). Budget: < 0.5 ms for everything in WASM.
#include <benchmark/benchmark.h>

#include <random>

#include "engine/analysis/analysis.h"
#include "engine/analysis/syntactic.h"
#include "engine/assets.h"
#include "engine/document.h"
#include "engine/forward.h"

namespace {

using namespace headlab;

// Loaded once for the whole run, as the app does; a head keeps its scores only when the same
// Resources object analyses it again.
const analysis::Resources& shared_resources() {
  static const analysis::Resources resources = analysis::load_resources();
  return resources;
}

struct Setup {
  Document document;
  PreparedInput input;
  Trace trace;
  const analysis::Resources& resources = shared_resources();
};

// 4 layers of 16 heads on 32 tokens of example sentences; weights scaled up so rows are peaked
// (near-uniform rows would make every entry cost the same anyway).
Setup make_setup(int d_model, bool with_gold, std::uint32_t seed = 1) {
  Setup s;
  std::string error;
  const Lexicon lexicon = load_lexicon(&error);
  s.document.model = make_model(d_model, 4, 16, seed);
  for (Layer& layer : s.document.model.layers)
    for (HeadWeights& w : layer.heads) w.W_Q *= 4.0f;
  if (with_gold) {
    s.document.input.text = "A big black dog and a small white cat sat in the old green house.";
  } else {
    s.document.input.kind = InputKind::tokens;
    const char* words[] = {"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", ".",
                           "The", "dog",   "with",  "the", "red",   "ball", "sleeps", ".", "The", "cat",
                           "chased", "the", "mouse", ",", "and", "the", "aardvark", "ate", "the", "apple",
                           "slowly", "."};
    s.document.input.tokens.assign(std::begin(words), std::end(words));
  }
  s.input = prepare_input(s.document, lexicon);
  forward(s.document.model, s.input.X, s.trace);
  return s;
}

// Everything recomputed: two models with different seeds alternate, so every head of every layer
// changes between calls (the worst case, as after an edit in layer 0).
void BM_AnalysisAll(benchmark::State& state) {
  const Setup a = make_setup(static_cast<int>(state.range(0)), state.range(1) != 0, 1);
  const Setup b = make_setup(static_cast<int>(state.range(0)), state.range(1) != 0, 2);
  analysis::Analysis out;
  bool flip = false;
  for (auto _ : state) {
    const Setup& s = flip ? b : a;
    flip = !flip;
    analysis::analyze(s.document.model, s.input.tokens, s.trace, s.resources, {}, out);
    benchmark::DoNotOptimize(out.layers.data());
  }
  state.counters["tokens"] = static_cast<double>(a.input.tokens.size());
}

// The usual frame while dragging a weight: one head of the last layer changes between calls, so
// redundancy redoes 15 of that layer's 120 pairs and importance keeps its W_O products.
void BM_AnalysisOneHeadEdited(benchmark::State& state) {
  const Setup a = make_setup(static_cast<int>(state.range(0)), false, 1);
  Setup b = make_setup(static_cast<int>(state.range(0)), false, 1);
  b.document.model.layers[3].heads[5].W_Q *= 1.5f;
  forward(b.document.model, b.input.X, b.trace);
  analysis::Analysis out;
  bool flip = false;
  for (auto _ : state) {
    const Setup& s = flip ? b : a;
    flip = !flip;
    analysis::analyze(s.document.model, s.input.tokens, s.trace, s.resources, {}, out);
    benchmark::DoNotOptimize(out.layers.data());
  }
}

void BM_HeadScoresAndLabels(benchmark::State& state) {
  const Setup s = make_setup(static_cast<int>(state.range(0)), state.range(1) != 0);
  analysis::SentenceContext sentence;
  analysis::HeadScores scores;
  analysis::HeadLabel label;
  for (auto _ : state) {
    analysis::make_sentence_context(s.input.tokens, false, s.resources.gold, sentence);
    for (const LayerTrace& lt : s.trace.layers)
      for (const HeadTrace& ht : lt.heads) {
        analysis::score_head(ht.attention, sentence, s.resources.config, {}, scores);
        analysis::score_syntactic(ht.attention, sentence, s.resources.gold, s.resources.config, scores.syntactic);
        analysis::label_head(scores, sentence, s.resources.gold, s.input.tokens, s.resources.config, label);
      }
    benchmark::DoNotOptimize(label.confidence);
  }
}

void BM_Redundancy(benchmark::State& state) {
  const Setup s = make_setup(static_cast<int>(state.range(0)), false);
  analysis::RedundancyWorkspace workspace;
  Matrix distance;
  std::vector<std::pair<int, int>> pairs;
  for (auto _ : state) {
    for (const LayerTrace& lt : s.trace.layers) analysis::redundancy(lt, false, 1e-4f, 0.1f, workspace, distance, pairs);
    benchmark::DoNotOptimize(distance.data());
  }
}

void BM_Importance(benchmark::State& state) {
  const Setup s = make_setup(static_cast<int>(state.range(0)), false);
  analysis::ImportanceWorkspace workspace;
  std::vector<float> importance;
  for (auto _ : state) {
    for (int l = 0; l < 4; ++l) analysis::layer_importance(s.document.model, l, s.trace, workspace, importance);
    benchmark::DoNotOptimize(importance.data());
  }
}

// Two models in turn: forward() keeps heads whose input and weights did not change.
void BM_ForwardForComparison(benchmark::State& state) {
  Setup a = make_setup(static_cast<int>(state.range(0)), false, 1);
  const Setup b = make_setup(static_cast<int>(state.range(0)), false, 2);
  bool flip = false;
  for (auto _ : state) {
    forward((flip = !flip) ? b.document.model : a.document.model, a.input.X, a.trace);
    benchmark::DoNotOptimize(a.trace.layers.back().output.data());
  }
}

// Args: d_model, gold (1: the 16-token annotated sentence, 0: 32 tokens without a parse).
BENCHMARK(BM_AnalysisAll)->Args({64, 0})->Args({128, 0})->Args({64, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AnalysisOneHeadEdited)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HeadScoresAndLabels)->Args({64, 0})->Args({64, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Redundancy)->Arg(64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Importance)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ForwardForComparison)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
