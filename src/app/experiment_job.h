#pragma once
// One vs many as an experiment (training/head_count_experiment.h) as a job: 1, 2, 4 and 8 heads at
// the same width, 3 seeds each, kExperimentStepsPerRun steps a run, scored by held-out loss. It
// trains one run after another, in the page's frames or in the worker, and ends with its last run.
#include <optional>
#include <string>

#include "app/clock.h"
#include "app/pausable_job.h"
#include "engine/training/grammar.h"
#include "engine/training/head_count_experiment.h"

namespace headlab::app {

// Steps of each of the experiment's 12 runs: about a minute for all 12 natively or in the training
// worker, a few minutes where the page trains it in its frames (docs/training.md).
inline constexpr int kExperimentStepsPerRun = 1000;

class ExperimentJob final : public PausableJob {
 public:
  // `grammar` and `clock` must outlive the job.
  ExperimentJob(const training::Grammar& grammar, const Clock& clock) : grammar_(&grammar), clock_(&clock) {}

  // A new experiment at `learning_rate`, running; "" or why not (then the one it had stays).
  std::string start(float learning_rate);
  // Steps while the next would still end within `seconds` from now; stops running when it is done.
  void train_for(double seconds);
  const training::HeadCountExperiment* experiment() const { return experiment_ ? &*experiment_ : nullptr; }

  bool started() const override { return experiment_.has_value(); }
  bool can_go_on() const override { return experiment_ && !experiment_->done(); }
  int step(int steps) override { return experiment_->step(steps); }

  WorkerJob kind() const override { return WorkerJob::experiment; }
  WorkerRun hand_over() const override;
  std::string adopt_update(const WorkerUpdate& update) override;
  std::string take_over(const WorkerRun& run) override;

 private:
  // One step; false when that ended its last run.
  bool step_once() override;
  void write_update(WorkerUpdate& update, bool finished) const override;
  Result<training::HeadCountExperiment> make(float learning_rate) const;

  const training::Grammar* grammar_;
  const Clock* clock_;
  std::optional<training::HeadCountExperiment> experiment_;
};

}  // namespace headlab::app
