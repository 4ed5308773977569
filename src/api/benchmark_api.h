#pragma once
// The speed ops of window.headlab (docs/js-api.md, "Benchmarks"; issue 3, item 8). handle_request
// (api.h) forwards them here. They run synchronously on the caller's thread, on models of their own
// or (benchmarkModel) on copies of what the lab shows: the lab state is never touched.
//   {"op": "benchmark", "n", "d_model", "heads", "reps"}: attention-only forwards of a seeded random
//     one-layer model at that size (d_k = d_v = d_model / heads) on a seeded random X (n, d_model).
//   {"op": "benchmarkLesson", "reps", "gold", "layer", "size"}: one learner's weight edit on the
//     lesson-size model (2 layers x 8 heads, d_model 128, 32 tokens), or with "size": "largest" on the
//     largest model the UI allows (6 layers x 16 heads, d_model 512, 64 tokens), through the
//     Controller, i.e. the forward pass and every analysis recompute the app does per drag step.
//   {"op": "benchmarkModel", "reps"}: the lab's own model on its own input, from nothing: the whole
//     forward, then every head's analysis (a GPT-2 checkpoint's 144 heads, say).
//   {"op": "benchmarkBlock", "n", "d_model", "heads", "reps"}: forwards of one seeded random GPT-2
//     block (pre-LayerNorm, biases, causal attention, GELU MLP of 4 d_model) on a seeded random X.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/controller.h"
#include "engine/model.h"
#include "engine/training/grammar.h"

namespace headlab::api {

// Largest sizes the benchmark accepts. n goes past the lab's 64-token input cap: forward() has no
// cap of its own, and the largest size is 256 tokens.
inline constexpr int kMaxBenchmarkTokens = 256;
inline constexpr int kMaxBenchmarkReps = 1000;
// Each timed sample lasts at least this long (several forwards when one is shorter): without
// cross-origin isolation browsers coarsen performance.now() to 0.1 ms, 2% of a 5 ms sample.
inline constexpr double kMinSampleMs = 5.0;

// FLOPs of one attention-only forward (multiply-adds count 2, softmax ignored), d_k = d_v = d_model / heads:
//   heads * (3 * 2 n d_model d_k   Q, K, V projections
//            + 2 n^2 d_k          Q K^T
//            + 2 n^2 d_v)         A V
//   + 2 n (heads d_v) d_model     Concat(Z) W_O
double attention_flops(int n, int d_model, int heads);
// A GPT-2 block's: attention_flops plus the MLP's two products, 2 * 2 n d_model (4 d_model) (biases,
// LayerNorms, GELU and softmax not counted).
double gpt2_block_flops(int n, int d_model, int heads);

// One learner's edit on the lesson-size model, as benchmarkLesson times it (bench/lesson_bench.cpp
// times it natively): a lab of its own, 2 layers x 8 heads, d_model 128 with named features, on a
// 32-token sentence (`gold`: the longest annotated sentence, 16 tokens, so syntactic scores run too;
// none has 32), and a drag on one W_Q cell of head 0 of `edited_layer`. An edit in layer 0 gives
// that head and every head of layer 1 new attention (the costliest single edit); in layer 1, that
// head only. As in the lab, a drag step computes the layers through the edited one at once and the
// later ones when the drag pauses (catch_up). The value flips between two settings: every edit
// changes the model.
class LessonEdit {
 public:
  struct Shape {
    int d_model, layers, heads;
    int text_repeats;  // the lesson text, this many times over (cut at the lab's token cap)
  };
  static constexpr Shape kLessonShape = {128, 2, 8, 1};
  // The largest model the UI allows (kMaxDModel, kMaxLayers, kMaxHeads), on a 64-token text: the
  // lesson text twice is past the 64-token cap.
  static constexpr Shape kLargestShape = {kMaxDModel, kMaxLayers, kMaxHeads, 2};

  // `resources` (the lab's) must outlive the LessonEdit.
  LessonEdit(const app::Resources& resources, bool gold, int edited_layer = 0, Shape shape = kLessonShape);
  LessonEdit(const LessonEdit&) = delete;
  LessonEdit& operator=(const LessonEdit&) = delete;

  // Applies the next edit through the Controller (undo copy, forward, analysis); "" or why refused.
  // A drag step: the layers after the edited one lag (AppState::current_layers) until catch_up().
  std::string operator()();
  // Recomputes the lagging layers, as the frames after a paused drag do.
  void catch_up() { controller_.catch_up_all(); }
  const app::AppState& state() const { return state_; }
  // The model the next edit will produce (the other of the two settings).
  Model next_model() const;

 private:
  app::AppState state_;
  app::Controller controller_;
  int layer_ = 0;
  float original_ = 0.0f;
  bool flipped_ = false;
};

// True for the ops of benchmark_op_names(): "benchmark", "benchmarkLesson", "benchmarkAnalysis".
// A fresh default trainer's steps per second over about `seconds` of the wall clock (the training
// tab's run is untouched): the trainBenchmark op.
double measure_training_steps_per_second(const training::Grammar& grammar, double seconds);

bool is_benchmark_op(const std::string& op);
const std::vector<std::string>& benchmark_op_names();

// {"ok": true, "result": {median_ms, min_ms, reps, batch, flops, gflops, ...}} or {"ok": false, "error": "why"}.
// `controller` lends its lexicon and loaded analysis resources; its state is not changed.
nlohmann::json handle_benchmark_op(const app::Controller& controller, const nlohmann::json& request);

}  // namespace headlab::api
