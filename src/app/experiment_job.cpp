#include "app/experiment_job.h"

namespace headlab::app {

Result<training::HeadCountExperiment> ExperimentJob::make(float learning_rate) const {
  training::TrainerConfig config;
  config.learning_rate = learning_rate;
  return training::HeadCountExperiment::create(config, *grammar_, {1, 2, 4, 8}, {1, 2, 3}, kExperimentStepsPerRun);
}

std::string ExperimentJob::start(float learning_rate) {
  Result<training::HeadCountExperiment> experiment = make(learning_rate);
  if (!experiment.ok()) return experiment.error();
  experiment_ = std::move(experiment).value();
  set_running(true);
  return {};
}

void ExperimentJob::train_for(double seconds) {
  const double deadline = clock_->now_seconds() + seconds;
  double step_seconds = 0.0;
  do {
    const double before = clock_->now_seconds();
    experiment_->step(1);
    step_seconds = clock_->now_seconds() - before;
    if (experiment_->done()) set_running(false);
  } while (running() && clock_->now_seconds() + step_seconds <= deadline);
}

WorkerRun ExperimentJob::hand_over() const {
  WorkerRun run;
  run.learning_rate = experiment_->base().learning_rate;
  run.state = experiment_->save_state();
  return run;
}

std::string ExperimentJob::adopt_update(const WorkerUpdate& update) {
  const std::vector<std::uint8_t>& state = update.experiment_state;
  if (std::string e = experiment_->restore_state(state.data(), state.size()); !e.empty()) return e;
  if (experiment_->done()) set_running(false);  // the worker ended it with its last run
  return {};
}

std::string ExperimentJob::take_over(const WorkerRun& run) {
  Result<training::HeadCountExperiment> experiment = make(run.learning_rate);
  if (!experiment.ok()) return experiment.error();
  if (std::string e = experiment.value().restore_state(run.state.data(), run.state.size()); !e.empty()) return e;
  experiment_ = std::move(experiment).value();
  taken_over(!experiment_->done());
  return {};
}

bool ExperimentJob::step_once() {
  experiment_->step(1);
  return !experiment_->done();
}

void ExperimentJob::write_update(WorkerUpdate& update, bool) const { update.experiment_state = experiment_->save_state(); }

}  // namespace headlab::app
