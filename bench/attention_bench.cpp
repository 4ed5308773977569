// Attention-only forward at the sizes of the engine issue, natively (Google Benchmark); the page's
// window.headlab.benchmark times the same model in WASM, and scripts/bench prints both side by side.
// FLOP count per head: Q, K, V projections 2 n d_model (2 d_k + d_v), logits 2 n^2 d_k,
// softmax ~5 n^2 (not counted), A V 2 n^2 d_v; output projection 2 n (h d_v) d_model
// (the same formula as api::attention_flops, which scripts/bench checks against this one).
#include <benchmark/benchmark.h>

#include <random>

#include "engine/forward.h"
#include "engine/model.h"

namespace {

double attention_flops(int n, int d_model, int heads) {
  const double d_k = d_model / heads, d_v = d_k;
  return heads * (2.0 * n * d_model * (2 * d_k + d_v) + 2.0 * n * n * d_k + 2.0 * n * n * d_v) +
         2.0 * n * heads * d_v * d_model;
}

void BM_AttentionForward(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), d_model = static_cast<int>(state.range(1)),
            heads = static_cast<int>(state.range(2));
  const headlab::Model model = headlab::make_model(d_model, 1, heads, 1, headlab::Embedding::random);
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  // Two inputs in turn: forward() keeps heads whose input did not change, and every head must run.
  headlab::Matrix X[2] = {headlab::Matrix(n, d_model), headlab::Matrix(n, d_model)};
  for (headlab::Matrix& x : X)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < d_model; ++j) x(i, j) = normal(rng);
  headlab::Trace trace;
  int turn = 0;
  for (auto _ : state) {
    headlab::forward(model, X[turn ^= 1], trace);
    benchmark::DoNotOptimize(trace.layers[0].output.data());
  }
  state.counters["FLOPs"] = attention_flops(n, d_model, heads);
  state.counters["GFLOP/s"] = benchmark::Counter(attention_flops(n, d_model, heads) * 1e-9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_AttentionForward)
    ->Args({9, 64, 4})
    ->Args({32, 128, 8})
    ->Args({64, 256, 8})
    ->Args({128, 256, 8})
    ->Args({256, 512, 16})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
