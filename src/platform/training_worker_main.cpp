// The training worker's engine (web/training-worker.js loads it into a Web Worker): an app
// WorkerHost that takes over the page's run, comparison, probes and experiment, trains them as
// fast as one core allows, and hands back what they reached (app/training_worker.h). No SDL, GL or ImGui; the grammar and the label thresholds are its only
// assets.
#include <emscripten.h>

#include <optional>
#include <string>
#include <vector>

#include "app/worker_host.h"
#include "app/worker_messages.h"
#include "engine/analysis/label_config.h"

namespace {

struct Worker {
  headlab::app::Resources resources;  // only grammar and analysis.config are read
  std::optional<headlab::app::WorkerHost> host;
  std::string text;                   // the last string returned to JS
  std::vector<std::uint8_t> bytes;    // the last update's states
};
Worker g_worker;

}  // namespace

extern "C" {

// Loads the assets; "" or what is missing.
EMSCRIPTEN_KEEPALIVE const char* headlab_worker_init() {
  headlab::Result<headlab::training::Grammar> grammar = headlab::training::load_grammar();
  if (!grammar.ok()) return (g_worker.text = grammar.error()).c_str();
  std::string error;
  g_worker.resources.analysis.config = headlab::analysis::load_label_config(&error);
  if (!error.empty()) return (g_worker.text = error).c_str();
  g_worker.resources.grammar = std::move(grammar).value();
  g_worker.host.emplace(g_worker.resources);
  return "";
}

// Takes over a job (app::encode_run_header and its state's bytes). "" or, when it cannot be taken,
// the update header that tells the page so.
EMSCRIPTEN_KEEPALIVE const char* headlab_worker_start(const char* header, const unsigned char* state, int size) {
  headlab::Result<headlab::app::WorkerRun> run = headlab::app::decode_run_header(header ? header : "");
  headlab::app::WorkerUpdate refusal;
  if (!run.ok()) {
    refusal.error = run.error();
  } else {
    headlab::app::generation_of(refusal, run.value().job) = run.value().generation;
    run.value().state.assign(state, state + size);
    refusal.error = g_worker.host ? g_worker.host->take_over(run.value()) : "the training worker did not start";
  }
  g_worker.text = refusal.error.empty() ? "" : headlab::app::encode_update(refusal).header;
  return g_worker.text.c_str();
}

// Ends a job (app::WorkerJob: 0 the run, 1 the comparison, 2 the probes, 3 the experiment).
EMSCRIPTEN_KEEPALIVE void headlab_worker_stop(int job) {
  if (g_worker.host && job >= 0 && job < headlab::app::kWorkerJobCount)
    g_worker.host->stop_job(static_cast<headlab::app::WorkerJob>(job));
}

// 1 while it has a job to train.
EMSCRIPTEN_KEEPALIVE int headlab_worker_busy() { return g_worker.host && g_worker.host->has_jobs() ? 1 : 0; }

// Trains for about `milliseconds` (after probing a head, when it makes probes); 1 when the page
// should hear now (timeline samples, the comparison paused at its target, a head probed, the
// experiment done).
EMSCRIPTEN_KEEPALIVE int headlab_worker_train(double milliseconds) {
  if (!g_worker.host) return 0;
  g_worker.host->train_for(milliseconds / 1000.0);
  return g_worker.host->update_due() ? 1 : 0;
}

// The update now: its header here, its states' bytes at headlab_worker_update_bytes.
EMSCRIPTEN_KEEPALIVE const char* headlab_worker_update() {
  headlab::app::EncodedUpdate update =
      headlab::app::encode_update(g_worker.host->take_update());
  g_worker.bytes = std::move(update.bytes);
  g_worker.text = std::move(update.header);
  return g_worker.text.c_str();
}
EMSCRIPTEN_KEEPALIVE const unsigned char* headlab_worker_update_bytes() { return g_worker.bytes.data(); }
EMSCRIPTEN_KEEPALIVE int headlab_worker_update_size() { return static_cast<int>(g_worker.bytes.size()); }

EMSCRIPTEN_KEEPALIVE void headlab_worker_set_learning_rate(float learning_rate) {
  if (g_worker.host) g_worker.host->set_learning_rate(learning_rate);
}

}  // extern "C"
