// TrainingSession's one-vs-many comparisons: one big head against several small ones
// (training/compare.h), and the head-count experiment (training/head_count_experiment.h). Started,
// run, paused and stepped by hand here; trained in the worker or by frames (advance_frame).
#include <algorithm>

#include "app/training_session.h"

namespace headlab::app {

std::string TrainingSession::start_comparison() {
  if (std::string e = ensure_started(); !e.empty()) return e;
  recall(WorkerJob::comparison);
  training::TrainerConfig config;
  config.seed = settings_.seed;
  config.learning_rate = settings_.learning_rate;
  Result<training::HeadComparison> comparison = training::make_head_comparison(config, *grammar_);
  if (!comparison.ok()) return comparison.error();
  comparison_ = std::move(comparison).value();
  comparison_running_ = true;
  return {};
}

void TrainingSession::set_comparison_running(bool running) {
  if (running && !comparison_ && !start_comparison().empty()) return;
  if (!running) recall(WorkerJob::comparison);  // it goes on from the last update the page adopted
  comparison_running_ = running;
}

Result<training::HeadCountExperiment> TrainingSession::make_experiment(float learning_rate) const {
  training::TrainerConfig config;
  config.learning_rate = learning_rate;
  return training::HeadCountExperiment::create(config, *grammar_, {1, 2, 4, 8}, {1, 2, 3}, kExperimentStepsPerRun);
}

std::string TrainingSession::start_experiment() {
  recall(WorkerJob::experiment);
  Result<training::HeadCountExperiment> experiment = make_experiment(settings_.learning_rate);
  if (!experiment.ok()) return experiment.error();
  experiment_ = std::move(experiment).value();
  experiment_running_ = true;
  return {};
}

void TrainingSession::set_experiment_running(bool running) {
  if (running && (!experiment_ || experiment_->done()) && !start_experiment().empty()) return;
  if (!running) recall(WorkerJob::experiment);  // it goes on from the last update the page adopted
  experiment_running_ = running;
}

int TrainingSession::step_experiment(int steps) {
  if (!experiment_) {
    if (!start_experiment().empty()) return 0;
    experiment_running_ = false;  // stepping by hand does not also start it running
  }
  recall(WorkerJob::experiment);  // steps by hand go on from what the page has; a running one goes back next frame
  return experiment_->step(std::max(steps, 0));
}

int TrainingSession::step_comparison(int steps) {
  if (!comparison_) {
    if (!start_comparison().empty()) return 0;
    comparison_running_ = false;  // stepping by hand does not also start it running
  }
  recall(WorkerJob::comparison);  // steps by hand go on from what the page has; a running one goes back next frame
  training::step_comparison(*comparison_, std::max(steps, 0));
  return std::max(steps, 0);
}

bool TrainingSession::step_comparison_pair() {
  comparison_->many.step(1);
  comparison_->one.step(1);
  return comparison_->many.steps_done() % kComparisonTargetSteps != 0;
}

}  // namespace headlab::app
