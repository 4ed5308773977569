#include "api/benchmark_api.h"

// [SECTION] Arguments: strict, with messages that name the field and the allowed range
// [SECTION] Timing: steady_clock (performance.now() in WASM), samples of at least kMinSampleMs
// [SECTION] benchmark: attention-only forward at a given size
// [SECTION] benchmarkLesson: one weight edit on the lesson-size model, as the app does it
// [SECTION] benchmarkAnalysis: the analysis of a drag frame at 4 layers x 16 heads, and the redundancy alone
// [SECTION] benchmarkModel: the lab's own model on its own input (a GPT-2 checkpoint, say)
// [SECTION] benchmarkBlock: one GPT-2 block at a given size

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include "api/analysis_workload.h"
#include "api/reply.h"
#include "app/request_fields.h"
#include "engine/analysis/importance.h"
#include "engine/analysis/redundancy.h"
#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/training/trainer.h"

namespace headlab::api {

// The handlers drive the app layer and speak its vocabulary throughout.
using namespace headlab::app;
namespace {

using nlohmann::json;

//-----------------------------------------------------------------------------
// [SECTION] Arguments
//-----------------------------------------------------------------------------

//-----------------------------------------------------------------------------
// [SECTION] Timing
//-----------------------------------------------------------------------------

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

double measure_training_steps_per_second(const training::Grammar& grammar, double seconds) {
  Result<training::Trainer> trainer = training::Trainer::create(training::TrainerConfig{}, grammar);
  if (!trainer.ok()) return 0.0;
  trainer.value().step(3);  // buffers sized, caches warm
  const Clock::time_point start = Clock::now();
  const int steps = trainer.value().step_for(seconds);
  return steps / std::max(1e-6, ms_since(start) / 1000.0);
}

namespace {

struct Timing {
  double median_ms = 0.0;  // per run
  double min_ms = 0.0;     // per run, fastest sample
  int reps = 0;            // samples taken
  int batch = 1;           // runs per sample
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// Warms up untimed (the first run allocates its buffers; in the browser, code starts in the
// baseline WASM compiler until the optimizing one has finished), doubles the runs per sample until a
// sample lasts kMinSampleMs, then times `reps` samples.
template <typename Run>
Timing time_runs(int reps, Run&& run) {
  constexpr int kMaxBatch = 1 << 16;
  constexpr double kWarmUpMs = 100.0;
  const Clock::time_point warm_up = Clock::now();
  for (int i = 0; i < 3 || ms_since(warm_up) < kWarmUpMs; ++i) run();
  Timing t;
  t.reps = reps;
  for (;;) {
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < t.batch; ++i) run();
    if (ms_since(start) >= kMinSampleMs || t.batch >= kMaxBatch) break;
    t.batch *= 2;
  }
  std::vector<double> per_run(reps);
  for (double& sample : per_run) {
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < t.batch; ++i) run();
    sample = ms_since(start) / t.batch;
  }
  t.min_ms = *std::min_element(per_run.begin(), per_run.end());
  t.median_ms = median(std::move(per_run));
  return t;
}

json timing_json(const Timing& t) {
  return {{"median_ms", t.median_ms}, {"min_ms", t.min_ms}, {"reps", t.reps}, {"batch", t.batch}};
}

//-----------------------------------------------------------------------------
// [SECTION] benchmark
//-----------------------------------------------------------------------------

json benchmark_attention(const json& request) {
  RequestFields fields(request, {"n", "d_model", "heads", "reps", "seed"});
  int n = 0, d_model = 0, heads = 0, reps = 50, seed = 1;
  if (!fields.integer("n", 1, kMaxBenchmarkTokens, n, true) || !fields.integer("d_model", kMinDModel, kMaxDModel, d_model, true) ||
      !fields.integer("heads", 1, kMaxHeads, heads, true) || !fields.integer("reps", 1, kMaxBenchmarkReps, reps) ||
      !fields.integer("seed", 0, 1 << 30, seed))
    return failure(fields.error());
  if (d_model % heads != 0)
    return failure("d_model: " + std::to_string(d_model) + " is not divisible by heads (" + std::to_string(heads) +
                   "); d_k = d_model / heads must be a whole number");

  // One attention-only layer (no residual, norm or FFN), as bench/attention_bench.cpp times natively.
  const Model model = make_model(d_model, 1, heads, static_cast<std::uint32_t>(seed), Embedding::random);
  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  std::normal_distribution<float> normal;
  // Two inputs (n, d_model) in turn: forward() keeps heads whose input did not change, and every
  // head must run.
  Matrix X[2] = {Matrix(n, d_model), Matrix(n, d_model)};
  for (Matrix& x : X)
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) = normal(rng);
  Trace trace;
  int turn = 0;
  const Timing t = time_runs(reps, [&] { forward(model, X[turn ^= 1], trace); });

  json result = timing_json(t);
  const double flops = attention_flops(n, d_model, heads);
  result.update({{"n", n}, {"d_model", d_model}, {"heads", heads}, {"d_k", d_model / heads}, {"flops", flops},
                 {"gflops", flops / (t.median_ms * 1e6)}});
  return success(std::move(result));
}

//-----------------------------------------------------------------------------
// [SECTION] benchmarkLesson
//-----------------------------------------------------------------------------

// No annotated sentence has 32 tokens: `gold` takes the longest one (16 tokens) instead.
constexpr const char* kLessonText =
    "The quick brown fox jumps over the lazy dog. The dog with the red ball sleeps. "
    "The cat chased the mouse, and the aardvark ate the apple slowly.";
constexpr const char* kGoldText = "A big black dog and a small white cat sat in the old green house.";
constexpr std::uint32_t kLessonSeed = 1;
constexpr int kEditedRow = kFeatureBias;  // every token has bias 1: every query of the head moves
constexpr std::uint64_t kDragMergeKey = 0xbe4c;  // consecutive edits merge, as one drag does

// Free play: no lesson goal to evaluate. Text past the token cap is cut, as in the lab.
AppState lesson_state(bool gold, LessonEdit::Shape shape) {
  AppState state;
  state.document.model = make_model(shape.d_model, shape.layers, shape.heads, kLessonSeed);
  std::string& text = state.document.input.text;
  text = gold ? kGoldText : kLessonText;
  for (int i = 1; i < shape.text_repeats && !gold; ++i) text += std::string(" ") + kLessonText;
  return state;
}

json benchmark_lesson(const Controller& lab, const json& request) {
  RequestFields fields(request, {"reps", "gold", "layer", "size"});
  int reps = 50, layer = 0;
  bool gold = false;
  enum class Size { lesson, largest } size = Size::lesson;
  if (!fields.integer("reps", 1, kMaxBenchmarkReps, reps) || !fields.boolean("gold", gold) ||
      !fields.one_of<Size>("size", {{"lesson", Size::lesson}, {"largest", Size::largest}}, size))
    return failure(fields.error());
  const LessonEdit::Shape shape = size == Size::largest ? LessonEdit::kLargestShape : LessonEdit::kLessonShape;
  if (!fields.integer("layer", 0, shape.layers - 1, layer)) return failure(fields.error());

  LessonEdit edit(lab.resources(), gold, layer, shape);
  if (const std::string error = edit(); !error.empty()) return failure("benchmarkLesson: the edit was refused: " + error);
  const Timing total = time_runs(reps, [&] { edit(); });
  const AppState& state = edit.state();
  const int heads_rescored = state.analysis.heads_scored;
  const int layers_recomputed = state.current_layers;
  // The same edit followed by the catch-up of the later layers: what one edit costs in all, spread
  // over the frames after a drag pauses (and what an edit cost before drags left layers behind).
  const Timing with_catch_up = time_runs(reps, [&] {
    edit();
    edit.catch_up();
  });

  // The two big parts of a drag step on their own, on the same two models the edits alternate
  // between (forward and analysis both redo only what the edit changed, in the layers it computes).
  const Model& model_a = state.document.model;
  const Model model_b = edit.next_model();
  const Matrix& X = state.input.X;
  const auto drawn_layers = static_cast<std::size_t>(layers_recomputed);
  Trace trace_a, trace_b, scratch;
  forward(model_a, X, trace_a);
  trace_b = trace_a;
  forward_layers(model_b, X, trace_b, drawn_layers);
  forward(model_a, X, scratch);
  bool forward_b = false;
  const Timing forward_only =
      time_runs(reps, [&] { forward_layers((forward_b = !forward_b) ? model_b : model_a, X, scratch, drawn_layers); });
  analysis::Analysis analysis;
  analysis::analyze(model_a, state.input.tokens, trace_a, lab.resources().analysis, state.analysis_options, analysis);
  bool use_b = false;
  const Timing analysis_only = time_runs(reps, [&] {
    use_b = !use_b;
    analysis::analyze_layers(use_b ? model_b : model_a, state.input.tokens, use_b ? trace_b : trace_a,
                             lab.resources().analysis, state.analysis_options, analysis, drawn_layers);
  });

  json result = timing_json(total);
  result.update({{"n", static_cast<int>(state.input.tokens.size())}, {"d_model", shape.d_model},
                 {"heads", shape.heads}, {"layers", shape.layers}, {"edited_layer", layer},
                 {"has_gold", state.analysis.gold.has_gold}, {"heads_rescored", heads_rescored},
                 {"layers_recomputed", layers_recomputed},
                 {"with_catch_up", timing_json(with_catch_up)},
                 {"parts", {{"forward_ms", forward_only.median_ms}, {"analysis_ms", analysis_only.median_ms}}}});
  return success(std::move(result));
}

//-----------------------------------------------------------------------------
// [SECTION] benchmarkAnalysis
//-----------------------------------------------------------------------------

json benchmark_analysis(const Controller& lab, const json& request) {
  RequestFields fields(request, {"reps", "d_model", "gold", "change"});
  int reps = 50, d_model = 64;
  bool gold = false;
  using Change = AnalysisWorkload::Change;
  Change change = Change::every_head;
  if (!fields.integer("reps", 1, kMaxBenchmarkReps, reps) ||
      !fields.integer("d_model", AnalysisWorkload::kHeads, kMaxDModel, d_model) || !fields.boolean("gold", gold) ||
      !fields.one_of<Change>("change", {{"every_head", Change::every_head}, {"one_head", Change::one_head}}, change))
    return failure(fields.error());
  if (d_model % AnalysisWorkload::kHeads != 0)
    return failure("d_model: expected a multiple of 16 (the workload has 16 heads per layer; got " + std::to_string(d_model) + ")");
  const bool one_head = change == Change::one_head;

  const analysis::Resources& resources = lab.resources().analysis;
  AnalysisWorkload workload(lab.lexicon(), resources, d_model, gold,
                            one_head ? AnalysisWorkload::Change::one_head : AnalysisWorkload::Change::every_head);
  const Timing total = time_runs(reps, [&] { workload(); });

  // Two parts alone, recomputing everything each run (one workspace shared by all layers never
  // matches the previous layer), on the first model's forward pass: the redundancy, which the
  // analysis of an edit leaves to whoever shows or exports it (the Labels tab, state()), and the
  // importance, part of every frame.
  const Trace& trace = workload.trace(0);
  analysis::RedundancyWorkspace redundancy_workspace;
  Matrix distance;
  std::vector<std::pair<int, int>> near_duplicates;
  const float smoothing = resources.config.redundancy_smoothing, duplicate = resources.config.near_duplicate_distance;
  const Timing redundancy_only = time_runs(reps, [&] {
    for (const LayerTrace& layer : trace.layers)
      analysis::redundancy(layer, false, smoothing, duplicate, redundancy_workspace, distance, near_duplicates);
  });
  analysis::ImportanceWorkspace importance_workspace;
  std::vector<float> importance;
  const Timing importance_only = time_runs(reps, [&] {
    for (int l = 0; l < AnalysisWorkload::kLayers; ++l)
      analysis::layer_importance(workload.model(0), l, trace, importance_workspace, importance);
  });

  json result = timing_json(total);
  result.update({{"n", static_cast<int>(workload.input().tokens.size())}, {"d_model", d_model},
                 {"layers", AnalysisWorkload::kLayers}, {"heads", AnalysisWorkload::kHeads},
                 {"change", one_head ? "one_head" : "every_head"}, {"has_gold", workload.analysis().gold.has_gold},
                 {"heads_rescored", workload.analysis().heads_scored},
                 {"parts", {{"redundancy_ms", redundancy_only.median_ms}, {"importance_ms", importance_only.median_ms}}}});
  return success(std::move(result));
}

//-----------------------------------------------------------------------------
// [SECTION] benchmarkModel
//-----------------------------------------------------------------------------

json benchmark_model(const Controller& controller, const json& request) {
  RequestFields fields(request, {"reps"});
  int reps = 5;
  if (!fields.integer("reps", 1, kMaxBenchmarkReps, reps)) return failure(fields.error());
  const AppState& state = controller.state();
  const Model& model = state.document.model;
  const Resources& resources = controller.resources();
  // Copies of the lab's input and analysis options; the state itself is read, never written.
  Trace trace;
  const Timing forward_time = time_runs(reps, [&] {
    trace = Trace{};  // from nothing: forward() would keep unchanged heads
    forward_layers(model, state.input.X, trace, model.layers.size());
  });
  analysis::Analysis analysis;
  const Timing analysis_time = time_runs(reps, [&] {
    analysis = analysis::Analysis{};  // every head scored, as after an edit of layer 0
    analysis::analyze_layers(model, state.input.tokens, trace, resources.analysis, state.analysis_options, analysis,
                             model.layers.size());
  });
  int heads = 0;
  for (const Layer& layer : model.layers) heads += layer.head_count();
  return success({{"tokens", static_cast<int>(state.input.tokens.size())}, {"layers", static_cast<int>(model.layers.size())},
                  {"heads", heads}, {"d_model", model.d_model}, {"forward", timing_json(forward_time)},
                  {"analysis", timing_json(analysis_time)}, {"heads_scored", analysis.heads_scored}});
}

//-----------------------------------------------------------------------------
// [SECTION] benchmarkBlock
//-----------------------------------------------------------------------------

// A one-layer model shaped like a GPT-2 block: pre-LayerNorm, Q/K/V/O with biases, causal, and a
// GELU (tanh) MLP of 4 d_model; weights N(0, 0.02) as GPT-2's initialisation, gains 1, biases of
// the norms 0. bench/peer/gpt2_block_tfjs.js builds the same block in tfjs.
Model gpt2_block_model(int d_model, int heads, std::uint32_t seed) {
  Model model = make_model(d_model, 1, heads, seed, Embedding::random);
  model.causal = true;
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 0.02f);
  const auto fill = [&](auto& m) {
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  };
  Layer& layer = model.layers[0];
  layer.residual = true;
  layer.norm = Norm::pre;
  for (RowVector* gain : {&layer.ln_gamma, &layer.ln2_gamma}) gain->setOnes(d_model);
  for (RowVector* bias : {&layer.ln_beta, &layer.ln2_beta}) bias->setZero(d_model);
  for (HeadWeights& head : layer.heads) {
    for (Matrix* W : {&head.W_Q, &head.W_K, &head.W_V}) fill(*W);
    for (RowVector* b : {&head.b_Q, &head.b_K, &head.b_V}) {
      b->resize(layer.d_k);
      fill(*b);
    }
  }
  fill(layer.W_O);
  layer.b_O.resize(d_model);
  fill(layer.b_O);
  layer.has_ffn = true;
  FeedForward& ffn = layer.ffn;
  ffn.activation = Activation::gelu_tanh;
  ffn.W_1.resize(d_model, 4 * d_model);
  ffn.b_1.resize(4 * d_model);
  ffn.W_2.resize(4 * d_model, d_model);
  ffn.b_2.resize(d_model);
  fill(ffn.W_1);
  fill(ffn.b_1);
  fill(ffn.W_2);
  fill(ffn.b_2);
  return model;
}

json benchmark_block(const json& request) {
  RequestFields fields(request, {"n", "d_model", "heads", "reps", "seed"});
  int n = 0, d_model = 0, heads = 0, reps = 20, seed = 1;
  if (!fields.integer("n", 1, kMaxBenchmarkTokens, n, true) ||
      !fields.integer("d_model", kMinDModel, kMaxCheckpointDModel, d_model, true) ||
      !fields.integer("heads", 1, kMaxCheckpointHeads, heads, true) || !fields.integer("reps", 1, kMaxBenchmarkReps, reps) ||
      !fields.integer("seed", 0, 1 << 30, seed))
    return failure(fields.error());
  if (d_model % heads != 0)
    return failure("d_model: " + std::to_string(d_model) + " is not divisible by heads (" + std::to_string(heads) + ")");
  const Model model = gpt2_block_model(d_model, heads, static_cast<std::uint32_t>(seed));
  std::mt19937 rng(static_cast<std::uint32_t>(seed) + 1);
  std::normal_distribution<float> normal;
  Matrix X[2] = {Matrix(n, d_model), Matrix(n, d_model)};
  for (Matrix& x : X)
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = normal(rng);
  Trace trace;
  int turn = 0;
  const Timing t = time_runs(reps, [&] { forward(model, X[turn ^= 1], trace); });
  json result = timing_json(t);
  const double flops = gpt2_block_flops(n, d_model, heads);
  result.update({{"n", n}, {"d_model", d_model}, {"heads", heads}, {"d_ff", 4 * d_model}, {"flops", flops},
                 {"gflops", flops / (t.median_ms * 1e6)}});
  return success(std::move(result));
}

}  // namespace

LessonEdit::LessonEdit(const Resources& resources, bool gold, int edited_layer, Shape shape)
    : state_(lesson_state(gold, shape)),
      controller_(state_, resources),
      layer_(std::clamp(edited_layer, 0, shape.layers - 1)) {
  original_ = state_.document.model.layers[layer_].heads[0].W_Q(kEditedRow, 0);
}

std::string LessonEdit::operator()() {
  flipped_ = !flipped_;
  const double value = flipped_ ? original_ + 1.0 : original_;
  return controller_.apply(SetWeight{layer_, 0, WeightMatrix::W_Q, kEditedRow, 0, value}, kDragMergeKey).error;
}

Model LessonEdit::next_model() const {
  Model model = state_.document.model;
  model.layers[layer_].heads[0].W_Q(kEditedRow, 0) = flipped_ ? original_ : static_cast<float>(original_ + 1.0);
  return model;
}

double attention_flops(int n, int d_model, int heads) {
  const double d_k = d_model / heads, d_v = d_k;
  return heads * (3 * 2.0 * n * d_model * d_k + 2.0 * n * n * d_k + 2.0 * n * n * d_v) + 2.0 * n * (heads * d_v) * d_model;
}

double gpt2_block_flops(int n, int d_model, int heads) {
  return attention_flops(n, d_model, heads) + 2 * 2.0 * n * d_model * (4.0 * d_model);
}

const std::vector<std::string>& benchmark_op_names() {
  static const std::vector<std::string> kOps = {"benchmark", "benchmarkLesson", "benchmarkAnalysis", "benchmarkModel",
                                                "benchmarkBlock"};
  return kOps;
}

bool is_benchmark_op(const std::string& op) {
  const auto& ops = benchmark_op_names();
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

json handle_benchmark_op(const Controller& controller, const json& request) {
  const std::string op = request.value("op", std::string());
  if (op == "benchmark") return benchmark_attention(request);
  if (op == "benchmarkAnalysis") return benchmark_analysis(controller, request);
  if (op == "benchmarkModel") return benchmark_model(controller, request);
  if (op == "benchmarkBlock") return benchmark_block(request);
  return benchmark_lesson(controller, request);
}

}  // namespace headlab::api
