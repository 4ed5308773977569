#include "page_training_worker.h"

#include <emscripten.h>

#include <algorithm>
#include <string>

#include "app/worker_messages.h"

namespace headlab::platform {
namespace {

PageTrainingWorker* g_worker = nullptr;  // the one the JS replies reach

// web/training-worker-link.js copies the bytes before returning: they live in this module's heap.
EM_JS(void, post_training_run, (const char* header, const unsigned char* state, int size), {
  window.headlabTrainingWorker.start(UTF8ToString(header), HEAPU8.slice(state, state + size));
});
EM_JS(void, post_training_stop, (int job), { window.headlabTrainingWorker.stop(job); });
EM_JS(void, load_training_worker, (), { window.headlabTrainingWorker.load(); });
EM_JS(void, post_training_learning_rate, (float learning_rate), { window.headlabTrainingWorker.setLearningRate(learning_rate); });

}  // namespace

PageTrainingWorker::PageTrainingWorker(app::TrainingSession& session) : session_(session) { g_worker = this; }

PageTrainingWorker::~PageTrainingWorker() {
  if (g_worker == this) g_worker = nullptr;
}

void PageTrainingWorker::start(const app::WorkerRun& run) {
  const std::string header = app::encode_run_header(run);
  post_training_run(header.c_str(), run.state.data(), static_cast<int>(run.state.size()));
}

void PageTrainingWorker::prepare() { load_training_worker(); }

void PageTrainingWorker::stop(app::WorkerJob job) { post_training_stop(static_cast<int>(job)); }

void PageTrainingWorker::set_learning_rate(float learning_rate) { post_training_learning_rate(learning_rate); }

void PageTrainingWorker::receive(const char* header, const unsigned char* bytes, int size) {
  const std::size_t length = bytes ? static_cast<std::size_t>(std::max(size, 0)) : 0;
  Result<app::WorkerUpdate> update = app::decode_update(header ? header : "", bytes, length);
  if (!update.ok()) {
    // The page and the worker are one build, so this is a bug; training goes on in the page.
    emscripten_log(EM_LOG_CONSOLE | EM_LOG_WARN, "HeadLab: %s", update.error().c_str());
    failed();
    return;
  }
  session_.receive(update.value());
}

}  // namespace headlab::platform

extern "C" {

// An update from web/training-worker.js: its JSON header and its states' bytes.
EMSCRIPTEN_KEEPALIVE void headlab_training_update(const char* header, const unsigned char* bytes, int size) {
  if (headlab::platform::g_worker) headlab::platform::g_worker->receive(header, bytes, size);
}

// The worker could not start or stopped (its script failed to load, or it crashed): training goes
// on in the page from the last update.
EMSCRIPTEN_KEEPALIVE void headlab_training_worker_failed() {
  if (headlab::platform::g_worker) headlab::platform::g_worker->failed();
}

}  // extern "C"
