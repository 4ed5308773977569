// TrainingSession's probes of every head (training/probe.h): started in the worker when there is
// one, else prepared here and made a head per frame; made all at once when the API waits.
#include "app/training_session.h"

namespace headlab::app {
namespace {

int total_heads(const Model& model) {
  int total = 0;
  for (const Layer& layer : model.layers) total += layer.head_count();
  return total;
}

}  // namespace

std::string TrainingSession::start_probes() {
  if (std::string e = ensure_started(); !e.empty()) return e;
  if (settings_.task != training::Task::grammar)
    return "Probes read parts of speech and relations, which random symbols do not have: train the grammar task to probe.";
  if (!worker_usable()) {
    probe_here();
    return {};
  }
  recall(WorkerJob::probes);
  begin_probes(trainer_->model(), trainer_->steps_done());
  hand_over_probes();
  return {};
}

void TrainingSession::finish_probes() {
  if (probes_job_.active) probe_here();
  while (probes_.running()) probe_next_head();
}

void TrainingSession::probe_here() {
  recall(WorkerJob::probes);
  begin_probes(trainer_->model(), trainer_->steps_done());
  probe_data_ = training::prepare_probes(trainer_->model(), *grammar_, probe_config_);
}

void TrainingSession::begin_probes(const Model& model, int step) {
  probe_data_.reset();
  probes_ = {};
  probes_.step = step;
  probes_.total = total_heads(model);
  probed_head_counts_.clear();
  for (const Layer& layer : model.layers) probed_head_counts_.push_back(layer.head_count());
}

void TrainingSession::probe_next_head() {
  int layer = 0, head = static_cast<int>(probes_.heads.size());
  while (head >= probed_head_counts_[layer]) head -= probed_head_counts_[layer++];
  probes_.heads.push_back(training::probe_head(*probe_data_, layer, head, probe_config_));
  if (!probes_.running()) probe_data_.reset();  // the forward passes are large; keep only the scores
}

}  // namespace headlab::app
