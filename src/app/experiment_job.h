#pragma once
// One vs many as an experiment (training/head_count_experiment.h) as a job: the same model with
// several head counts at one width, 3 seeds each, scored by held-out loss, on the grammar's
// language or on real text (training::head_count_plan says which counts and how long). It trains
// one run after another, in the page's frames or in the worker, and ends with its last run.
#include <memory>
#include <optional>
#include <string>

#include "app/clock.h"
#include "app/pausable_job.h"
#include "app/resources.h"
#include "engine/training/head_count_experiment.h"

namespace headlab::app {

class ExperimentJob final : public PausableJob {
 public:
  // `resources` (the grammar, the text sample) and `clock` must outlive the job.
  ExperimentJob(const Resources& resources, const Clock& clock) : resources_(&resources), clock_(&clock) {}

  // A new experiment of `task` (grammar or lm), running or paused as `run` says; the grammar's trains at `learning_rate`,
  // the text's at its plan's. "" or why not (then the one it had stays). On real text before the
  // page's text sample has arrived, it asks for the sample and waits (waiting()); the one it had
  // stays until the sample arrives.
  std::string start(training::Task task, float learning_rate, bool run = true);
  // Starts the text experiment it waits for once the sample is there; "" or why it cannot (then it
  // waits no longer). Called every frame.
  std::string start_when_ready();
  bool waiting() const { return waiting_; }
  // Steps while the next would still end within `seconds` from now; stops running when it is done.
  void train_for(double seconds);
  const training::HeadCountExperiment* experiment() const { return experiment_ ? &*experiment_ : nullptr; }
  training::Task task() const { return task_; }

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
  Result<training::HeadCountExperiment> make(training::Task task, float learning_rate) const;

  const Resources* resources_;
  const Clock* clock_;
  training::Task task_ = training::Task::grammar;
  bool waiting_ = false;
  float waiting_learning_rate_ = 0.0f;
  bool waiting_run_ = true;
  // The text task's sample: the page's (Resources::text_corpus), or in the worker what came with the run.
  std::shared_ptr<const training::TextCorpus> train_, held_out_;
  std::optional<training::HeadCountExperiment> experiment_;
};

}  // namespace headlab::app
