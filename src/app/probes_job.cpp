#include "app/probes_job.h"

namespace headlab::app {
namespace {

int total_heads(const Model& model) {
  int total = 0;
  for (const Layer& layer : model.layers) total += layer.head_count();
  return total;
}

}  // namespace

void ProbesJob::begin(const Model& model, int step, bool prepare_here) {
  clear();
  progress_.step = step;
  progress_.total = total_heads(model);
  head_counts_.clear();
  for (const Layer& layer : model.layers) head_counts_.push_back(layer.head_count());
  if (prepare_here) data_ = training::prepare_probes(model, *grammar_, config_);
}

void ProbesJob::clear() {
  data_.reset();
  progress_ = {};
}

void ProbesJob::probe_next_head() {
  int layer = 0, head = static_cast<int>(progress_.heads.size());
  while (head >= head_counts_[layer]) head -= head_counts_[layer++];
  progress_.heads.push_back(training::probe_head(*data_, layer, head, config_));
  if (!progress_.running()) data_.reset();  // the forward passes are large; keep only the scores
}

WorkerRun ProbesJob::hand_over() const {
  WorkerRun run;
  run.task = run_->settings().task;
  run.attention = run_->settings().attention;
  run.seed = run_->settings().seed;
  run.state = run_->trainer()->save_state();
  return run;
}

std::string ProbesJob::adopt_update(const WorkerUpdate& update) {
  if (update.probes.size() <= static_cast<std::size_t>(progress_.total)) progress_.heads = update.probes;
  return {};
}

std::string ProbesJob::take_over(const WorkerRun& run) {
  training::TrainerConfig config = training::default_trainer_config(run.task);
  config.seed = run.seed;
  config.architecture.attention = run.attention;
  Result<training::Trainer> trainer = training::Trainer::create(config, *grammar_);
  if (!trainer.ok()) return trainer.error();
  if (std::string e = trainer.value().restore_state(run.state.data(), run.state.size()); !e.empty()) return e;
  begin(trainer.value().model(), trainer.value().steps_done(), true);
  heads_sent_ = 0;
  in_worker_ = true;
  return {};
}

void ProbesJob::stop() {
  in_worker_ = false;
  data_.reset();
}

void ProbesJob::step_in_worker() {
  probe_next_head();
  if (!progress_.running()) in_worker_ = false;
}

bool ProbesJob::make_update(WorkerUpdate& update) {
  if (!in_worker_ && !update_due()) return false;
  update.probes = progress_.heads;
  heads_sent_ = progress_.heads.size();
  return true;
}

}  // namespace headlab::app
