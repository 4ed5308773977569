// Training speed natively (Google Benchmark): Adam steps per second for the default training
// model (2 layers x 4 heads, d_model 64, d_ff 128, post-norm, masked-token objective, batch of 32
// generated sentences), and the parts of a step. The page's budget (issue 7): clearly specialised
// heads after at most 30 s of training on one core.
#include <benchmark/benchmark.h>

#include "engine/training/adam.h"
#include "engine/training/backprop.h"
#include "engine/training/probe.h"
#include "engine/training/trainer.h"

namespace {

using namespace headlab::training;
using headlab::Model;

const Grammar& grammar() {
  static const Grammar g = load_grammar().value();
  return g;
}

void BM_TrainingStep(benchmark::State& state) {
  TrainerConfig config;
  config.batch_size = static_cast<int>(state.range(0));
  Trainer trainer = Trainer::create(config, grammar()).value();
  trainer.step(5);  // warm the buffers
  for (auto _ : state) benchmark::DoNotOptimize(trainer.step(1));
  state.counters["steps/s"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["sentences/s"] = benchmark::Counter(config.batch_size, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_TrainingStep)->Arg(32)->Arg(16)->Unit(benchmark::kMillisecond);

// A batch of `sentences` generated sentences (masked words), seed 1.
Batch generated_batch(int sentences) {
  Rng rng(1);
  Batch batch;
  make_batch(generate_sentences(grammar(), 1, sentences, true), Objective::masked_token, MaskingConfig{},
             grammar().vocabulary_size(), rng, batch);
  return batch;
}

// Forward + backward only (no sentence generation, no Adam).
void BM_ForwardBackward(benchmark::State& state) {
  Model model = Trainer::create(TrainerConfig{}, grammar()).value().model();
  Model grad = zero_like(model);
  const Batch batch = generated_batch(32);
  Workspace ws;
  for (auto _ : state) benchmark::DoNotOptimize(loss_and_gradient(model, batch, ws, grad));
  state.counters["tokens"] = batch.token_count();
}
BENCHMARK(BM_ForwardBackward)->Unit(benchmark::kMillisecond);

// One Adam update of the default model (clipping included), gradients from one real batch.
void BM_AdamStep(benchmark::State& state) {
  Model model = Trainer::create(TrainerConfig{}, grammar()).value().model();
  Model grad = zero_like(model);
  Workspace ws;
  loss_and_gradient(model, generated_batch(16), ws, grad);
  AdamState adam = make_adam_state(model);
  for (auto _ : state) benchmark::DoNotOptimize(adam_step(model, grad, adam, AdamConfig{}, 1e-4f));
  state.counters["parameters"] = static_cast<double>(parameter_count(model));
}
BENCHMARK(BM_AdamStep)->Unit(benchmark::kMicrosecond);

void BM_ProbeAllHeads(benchmark::State& state) {
  Trainer trainer = Trainer::create(TrainerConfig{}, grammar()).value();
  for (auto _ : state) benchmark::DoNotOptimize(probe_heads(trainer.model(), grammar(), ProbeConfig{}).size());
}
BENCHMARK(BM_ProbeAllHeads)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
