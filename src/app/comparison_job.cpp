#include "app/comparison_job.h"

#include <algorithm>

#include "app/step_clock.h"
#include "app/worker_messages.h"

namespace headlab::app {
namespace {

std::string restore_comparison(training::HeadComparison& comparison, const std::vector<std::uint8_t>& state) {
  const ComparisonState parts = unpack_comparison_state(state);
  if (!parts.error.empty()) return parts.error;
  if (std::string e = comparison.many.restore_state(parts.many.data(), parts.many.size()); !e.empty()) return e;
  return comparison.one.restore_state(parts.one.data(), parts.one.size());
}

std::vector<std::uint8_t> save_comparison(const training::HeadComparison& comparison) {
  return pack_comparison_state(comparison.many.save_state(), comparison.one.save_state());
}

}  // namespace

std::string ComparisonJob::start(std::uint32_t seed, float learning_rate) {
  training::TrainerConfig config;
  config.seed = seed;
  config.learning_rate = learning_rate;
  Result<training::HeadComparison> comparison = training::make_head_comparison(config, *grammar_);
  if (!comparison.ok()) return comparison.error();
  comparison_ = std::move(comparison).value();
  set_running(true);
  return {};
}

int ComparisonJob::step(int steps) {
  training::step_comparison(*comparison_, std::max(steps, 0));
  return std::max(steps, 0);
}

bool ComparisonJob::step_once() {
  comparison_->many.step(1);
  comparison_->one.step(1);
  return comparison_->many.steps_done() % kComparisonTargetSteps != 0;
}

void ComparisonJob::train_until(double deadline) {
  double pair_seconds = 0.0;
  do {
    const double before = clock_->now_seconds();
    set_running(step_once());
    average_in(pair_seconds, clock_->now_seconds() - before);
  } while (running() && clock_->now_seconds() + pair_seconds <= deadline);
}

WorkerRun ComparisonJob::hand_over() const {
  WorkerRun run;
  run.seed = comparison_->many.config().seed;
  run.state = save_comparison(*comparison_);
  return run;
}

std::string ComparisonJob::adopt_update(const WorkerUpdate& update) {
  if (std::string e = restore_comparison(*comparison_, update.comparison_state); !e.empty()) return e;
  if (update.comparison_paused) set_running(false);  // the worker stopped it at its target, as the page would have
  return {};
}

std::string ComparisonJob::take_over(const WorkerRun& run) {
  training::TrainerConfig config;  // as start(); the state brings the rest
  config.seed = run.seed;
  Result<training::HeadComparison> comparison = training::make_head_comparison(config, *grammar_);
  if (!comparison.ok()) return comparison.error();
  if (std::string e = restore_comparison(comparison.value(), run.state); !e.empty()) return e;
  comparison_ = std::move(comparison).value();
  taken_over(true);
  return {};
}

void ComparisonJob::write_update(WorkerUpdate& update, bool paused) const {
  update.comparison_state = save_comparison(*comparison_);
  update.comparison_paused = paused;
}

}  // namespace headlab::app
