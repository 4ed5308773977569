// One learner's edit on the lesson-size model (2 layers x 8 heads, d_model 128, 32 tokens), natively:
// the same api::LessonEdit the page's window.headlab.benchmarkLesson times in WASM (issue 3, item 8:
// forward + every analysis recompute in under 1 ms in WASM). Args: the edited layer (0: that head
// changes, and layer 1 waits for the drag to pause; 1: that head only), and 1 for the annotated
// 16-token sentence, so the syntactic scores run too.
#include <benchmark/benchmark.h>

#include "api/benchmark_api.h"
#include "app/resources.h"

namespace {

using namespace headlab;

const app::Resources& resources() {
  static const app::Resources loaded = app::load_resources().value();
  return loaded;
}

void BM_LessonEdit(benchmark::State& state) {
  api::LessonEdit edit(resources(), state.range(1) != 0, static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const std::string error = edit();
    if (!error.empty()) state.SkipWithError(error.c_str());
  }
  state.counters["tokens"] = static_cast<double>(edit.state().input.tokens.size());
  state.counters["heads_rescored"] = edit.state().analysis.heads_scored;
}

BENCHMARK(BM_LessonEdit)->Args({0, 0})->Args({1, 0})->Args({0, 1})->Unit(benchmark::kMicrosecond);

// The same drag step in layer 0 of the largest model the UI allows (6 layers x 16 heads, d_model
// 512, 64 tokens): layer 0 at once, the 5 later layers when the drag pauses.
void BM_LargestDragStep(benchmark::State& state) {
  api::LessonEdit edit(resources(), false, 0, api::LessonEdit::kLargestShape);
  for (auto _ : state) {
    const std::string error = edit();
    if (!error.empty()) state.SkipWithError(error.c_str());
  }
  state.counters["layers_recomputed"] = edit.state().current_layers;
}

BENCHMARK(BM_LargestDragStep)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
