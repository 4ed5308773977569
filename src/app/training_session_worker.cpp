// TrainingSession and the training worker (training_worker.h). The page's side: handing a job over
// (the run, the comparison, the probes, the experiment), recalling it, and adopting the worker's
// updates. The worker's side: taking a job over, training the jobs it has in turn, and saying what
// they reached.
#include <algorithm>

#include "app/step_clock.h"
#include "app/training_session.h"
#include "app/worker_messages.h"

namespace headlab::app {
namespace {

// A comparison's two trainers as the one state a job carries, both ways.
std::vector<std::uint8_t> save_comparison(const training::HeadComparison& comparison) {
  return pack_comparison_state(comparison.many.save_state(), comparison.one.save_state());
}

std::string restore_comparison(training::HeadComparison& comparison, const std::vector<std::uint8_t>& state) {
  const ComparisonState parts = unpack_comparison_state(state);
  if (!parts.error.empty()) return parts.error;
  if (std::string e = comparison.many.restore_state(parts.many.data(), parts.many.size()); !e.empty()) return e;
  return comparison.one.restore_state(parts.one.data(), parts.one.size());
}

}  // namespace

// The page's side.

void TrainingSession::hand_over() {
  WorkerRun run;
  run.generation = run_job_.start();
  run.task = settings_.task;
  run.seed = settings_.seed;
  run.sample_every = settings_.sample_every;
  run.held_out_count = settings_.held_out_count;
  run.induction_held_out_count = settings_.induction_held_out_count;
  run.last_sample_step = timeline_.empty() ? 0 : timeline_.back().step;
  run.state = trainer_->save_state();
  worker_->start(run);
}

void TrainingSession::hand_over_comparison() {
  WorkerRun run;
  run.job = WorkerJob::comparison;
  run.generation = comparison_job_.start();
  run.seed = comparison_->many.config().seed;
  run.state = save_comparison(*comparison_);
  worker_->start(run);
}

void TrainingSession::hand_over_probes() {
  WorkerRun run;
  run.job = WorkerJob::probes;
  run.generation = probes_job_.start();
  run.task = settings_.task;
  run.seed = settings_.seed;
  run.state = trainer_->save_state();
  worker_->start(run);
}

void TrainingSession::hand_over_experiment() {
  WorkerRun run;
  run.job = WorkerJob::experiment;
  run.generation = experiment_job_.start();
  run.learning_rate = experiment_->base().learning_rate;
  run.state = experiment_->save_state();
  worker_->start(run);
}

HandedOverJob& TrainingSession::handed_over(WorkerJob job) {
  switch (job) {
    case WorkerJob::run: break;
    case WorkerJob::comparison: return comparison_job_;
    case WorkerJob::probes: return probes_job_;
    case WorkerJob::experiment: return experiment_job_;
  }
  return run_job_;
}

void TrainingSession::recall(WorkerJob job) {
  HandedOverJob& handed = handed_over(job);
  if (!handed.active) return;
  worker_->stop(job);  // also a worker that refused: it may have other jobs under way
  handed.end();
}

void TrainingSession::receive(const WorkerUpdate& update) {
  const bool for_run = trainer_ && run_job_.speaks_for(update.generation);
  const bool for_comparison = comparison_ && comparison_job_.speaks_for(update.comparison_generation);
  const bool for_probes = probes_job_.speaks_for(update.probes_generation);
  const bool for_experiment = experiment_ && experiment_job_.speaks_for(update.experiment_generation);
  std::string error = update.error;
  if (error.empty() && for_run) error = trainer_->restore_state(update.state.data(), update.state.size());
  if (error.empty() && for_comparison) error = restore_comparison(*comparison_, update.comparison_state);
  if (error.empty() && for_experiment)
    error = experiment_->restore_state(update.experiment_state.data(), update.experiment_state.size());
  if (!error.empty()) {
    if (!for_run && !for_comparison && !for_probes && !for_experiment) return;  // about a job recalled since
    // The page trains on from what it has; the worker is not asked again.
    worker_refused_ = true;
    recall(WorkerJob::run);
    recall(WorkerJob::comparison);
    recall(WorkerJob::experiment);
    if (probes_job_.active) probe_here();
    return;
  }
  if (for_experiment && experiment_->done()) {  // the worker ended it with its last run
    experiment_running_ = false;
    experiment_job_.end();
  }
  if (for_probes && update.probes.size() <= static_cast<std::size_t>(probes_.total)) {
    probes_.heads = update.probes;
    if (!probes_.running()) {  // all made: the worker's job has ended
      probes_job_.end();
    }
  }
  if (for_comparison && update.comparison_paused) {
    // The worker stopped it at its target, as the page would have.
    comparison_running_ = false;
    comparison_job_.end();
  }
  if (!for_run) return;
  // The page's learning rate wins: an update the worker sent before a new rate reached it carries
  // the old one, and the next hand-over would ship it back.
  trainer_->set_learning_rate(settings_.learning_rate);
  for (const TimelineSample& sample : update.samples)
    if (timeline_.empty() || sample.step > timeline_.back().step) {
      timeline_.push_back(sample);
      ++samples_taken_;
    }
  refresh_snapshot();
}

// The worker's side.

std::string TrainingSession::take_over(const WorkerRun& run) {
  if (run.job == WorkerJob::comparison) return take_over_comparison(run);
  if (run.job == WorkerJob::probes) return take_over_probes(run);
  if (run.job == WorkerJob::experiment) return take_over_experiment(run);
  settings_.sample_every = std::max(1, run.sample_every);
  settings_.held_out_count = run.held_out_count;
  settings_.induction_held_out_count = run.induction_held_out_count;
  if (!trainer_ || settings_.task != run.task || settings_.seed != run.seed) {
    if (std::string e = reset(run.seed, settings_.learning_rate, run.task); !e.empty()) return e;
  }
  if (std::string e = trainer_->restore_state(run.state.data(), run.state.size()); !e.empty()) return e;
  settings_.learning_rate = trainer_->config().learning_rate;
  timeline_.clear();
  samples_sent_ = 0;
  resumed_sample_step_ = run.last_sample_step;
  worker_run_active_ = true;
  return {};
}

std::string TrainingSession::take_over_comparison(const WorkerRun& run) {
  training::TrainerConfig config;  // as start_comparison; the state brings the rest
  config.seed = run.seed;
  Result<training::HeadComparison> comparison = training::make_head_comparison(config, *grammar_);
  if (!comparison.ok()) return comparison.error();
  if (std::string e = restore_comparison(comparison.value(), run.state); !e.empty()) return e;
  comparison_ = std::move(comparison).value();
  comparison_running_ = true;
  comparison_paused_ = false;
  return {};
}

std::string TrainingSession::take_over_probes(const WorkerRun& run) {
  training::TrainerConfig config = training::default_trainer_config(run.task);
  config.seed = run.seed;
  Result<training::Trainer> trainer = training::Trainer::create(config, *grammar_);
  if (!trainer.ok()) return trainer.error();
  if (std::string e = trainer.value().restore_state(run.state.data(), run.state.size()); !e.empty()) return e;
  begin_probes(trainer.value().model(), trainer.value().steps_done());
  probe_data_ = training::prepare_probes(trainer.value().model(), *grammar_, probe_config_);
  probes_sent_ = 0;
  worker_probes_active_ = true;
  return {};
}

std::string TrainingSession::take_over_experiment(const WorkerRun& run) {
  Result<training::HeadCountExperiment> experiment = make_experiment(run.learning_rate);
  if (!experiment.ok()) return experiment.error();
  if (std::string e = experiment.value().restore_state(run.state.data(), run.state.size()); !e.empty()) return e;
  experiment_ = std::move(experiment).value();
  experiment_running_ = !experiment_->done();
  experiment_finished_ = false;
  return {};
}

void TrainingSession::stop_job(WorkerJob job) {
  if (job == WorkerJob::run) {
    worker_run_active_ = false;
  } else if (job == WorkerJob::comparison) {
    comparison_running_ = false;
    comparison_paused_ = false;
  } else if (job == WorkerJob::probes) {
    worker_probes_active_ = false;
    probe_data_.reset();
  } else {
    experiment_running_ = false;
    experiment_finished_ = false;
  }
}

bool TrainingSession::has_training_jobs() const {
  return (worker_run_active_ && trainer_) || (comparison_running_ && comparison_) ||
         (experiment_running_ && experiment_);
}

bool TrainingSession::has_jobs() const { return has_training_jobs() || (worker_probes_active_ && probes_.running()); }

int TrainingSession::train_for(double seconds, int rounds) {
  if (worker_probes_active_ && probes_.running()) {
    // One head (four regressions, longer than a chunk) and then the chunk's training, so the run
    // slows down while the probes are made but does not stop.
    probe_next_head();
    if (!probes_.running()) worker_probes_active_ = false;
  }
  const double deadline = clock_->now_seconds() + seconds;
  double round_seconds = 0.0;
  int done = 0;
  while (has_training_jobs() && done < rounds) {
    const double before = clock_->now_seconds();
    if (worker_run_active_ && trainer_) {
      timed_step(*trainer_, step_seconds_, *clock_);
      if (trainer_->steps_done() % settings_.sample_every == 0) sample_timeline();
    }
    if (comparison_running_ && comparison_ && !step_comparison_pair()) {
      comparison_running_ = false;
      comparison_paused_ = true;
    }
    if (experiment_running_ && experiment_) {
      experiment_->step(1);
      if (experiment_->done()) {
        experiment_running_ = false;
        experiment_finished_ = true;
      }
    }
    ++done;
    const double now = clock_->now_seconds();
    average_in(round_seconds, now - before);
    if (now + round_seconds > deadline) break;
  }
  return done;
}

WorkerUpdate TrainingSession::take_update(const WorkerGenerations& generations) {
  WorkerUpdate update;
  if (worker_probes_active_ || probes_.heads.size() > probes_sent_) {
    update.probes_generation = generations.probes;
    update.probes = probes_.heads;
    probes_sent_ = probes_.heads.size();
  }
  if (worker_run_active_ && trainer_) {
    update.generation = generations.run;
    update.state = trainer_->save_state();
    update.samples.assign(timeline_.begin() + static_cast<std::ptrdiff_t>(samples_sent_), timeline_.end());
    samples_sent_ = timeline_.size();
  }
  if (comparison_ && (comparison_running_ || comparison_paused_)) {
    update.comparison_generation = generations.comparison;
    update.comparison_state = save_comparison(*comparison_);
    update.comparison_paused = comparison_paused_;
    comparison_paused_ = false;
  }
  if (experiment_ && (experiment_running_ || experiment_finished_)) {
    update.experiment_generation = generations.experiment;
    update.experiment_state = experiment_->save_state();
    experiment_finished_ = false;
  }
  return update;
}

}  // namespace headlab::app
