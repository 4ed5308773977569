#include "app/experiment_job.h"

#include "app/corpus_hand_over.h"

namespace headlab::app {

Result<training::HeadCountExperiment> ExperimentJob::make(training::Task task, float learning_rate) const {
  const training::HeadCountPlan plan = training::head_count_plan(task);
  if (task != training::Task::lm) {
    training::TrainerConfig config = plan.base;
    config.learning_rate = learning_rate;
    return training::HeadCountExperiment::create(config, resources_->grammar, plan.head_counts, plan.seeds, plan.steps_per_run);
  }
  if (!train_ || !held_out_) return Result<training::HeadCountExperiment>::failure("the text sample has not arrived");
  return training::HeadCountExperiment::create(plan.base, train_, training::held_out_text_windows(*held_out_, plan.base.text, plan.held_out_windows),
                                               plan.head_counts, plan.seeds, plan.steps_per_run);
}

std::string ExperimentJob::start(training::Task task, float learning_rate, bool run) {
  waiting_ = false;
  if (task == training::Task::induction) return "The experiment trains on the grammar's language or on real text.";
  if (task == training::Task::lm) {
    LateCorpus& sample = *resources_->text_corpus;
    if (!sample.arrived()) {
      sample.ask();
      waiting_ = true;
      waiting_learning_rate_ = learning_rate;
      waiting_run_ = run;
      return {};
    }
    train_ = sample.train;
    held_out_ = sample.held_out;
  }
  Result<training::HeadCountExperiment> experiment = make(task, learning_rate);
  if (!experiment.ok()) return experiment.error();
  experiment_ = std::move(experiment).value();
  task_ = task;
  set_running(run);
  return {};
}

std::string ExperimentJob::start_when_ready() {
  if (!waiting_) return {};
  const LateCorpus& sample = *resources_->text_corpus;
  if (!sample.error.empty()) {
    waiting_ = false;
    return sample.error;
  }
  return sample.arrived() ? start(training::Task::lm, waiting_learning_rate_, waiting_run_) : std::string();
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
  run.task = task_;
  run.learning_rate = experiment_->base().learning_rate;
  if (task_ == training::Task::lm) append_corpus_bytes(*train_, *held_out_, run.state);
  const std::vector<std::uint8_t> state = experiment_->save_state();
  run.state.insert(run.state.end(), state.begin(), state.end());
  return run;
}

std::string ExperimentJob::adopt_update(const WorkerUpdate& update) {
  const std::vector<std::uint8_t>& state = update.experiment_state;
  if (std::string e = experiment_->restore_state(state.data(), state.size()); !e.empty()) return e;
  if (experiment_->done()) set_running(false);  // the worker ended it with its last run
  return {};
}

std::string ExperimentJob::take_over(const WorkerRun& run) {
  std::size_t at = 0;
  if (run.task == training::Task::lm) {
    const Result<std::size_t> read = read_corpus_bytes(run.state, train_, held_out_);
    if (!read.ok()) return read.error();
    at = read.value();
  }
  Result<training::HeadCountExperiment> experiment = make(run.task, run.learning_rate);
  if (!experiment.ok()) return experiment.error();
  if (std::string e = experiment.value().restore_state(run.state.data() + at, run.state.size() - at); !e.empty()) return e;
  experiment_ = std::move(experiment).value();
  task_ = run.task;
  taken_over(!experiment_->done());
  return {};
}

bool ExperimentJob::step_once() {
  experiment_->step(1);
  return !experiment_->done();
}

void ExperimentJob::write_update(WorkerUpdate& update, bool) const { update.experiment_state = experiment_->save_state(); }

}  // namespace headlab::app
