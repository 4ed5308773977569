#pragma once
// The training worker's side of the protocol (training_worker.h): it takes over the jobs the page
// hands it, trains them in chunks of about a given time (a step of each job in turn, so two running
// jobs share the core), and says what they reached under the generations they came with. Built
// into the worker's module (platform/training_worker_main.cpp) and, in tests, beside a page.
#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "app/clock.h"
#include "app/comparison_job.h"
#include "app/experiment_job.h"
#include "app/probes_job.h"
#include "app/resources.h"
#include "app/run_job.h"
#include "app/training_job.h"
#include "app/training_worker.h"

namespace headlab::app {

class WorkerHost {
 public:
  // `resources` (the grammar, the lab's label thresholds) and `clock` must outlive the host.
  explicit WorkerHost(const Resources& resources, const Clock& clock = steady_clock());
  WorkerHost(const WorkerHost&) = delete;
  WorkerHost& operator=(const WorkerHost&) = delete;

  // Replaces its job of run.job with the page's; "" or why it cannot. Updates name run.generation.
  std::string take_over(const WorkerRun& run);
  void stop_job(WorkerJob job);
  // The run's peak learning rate from its next step on.
  void set_learning_rate(float learning_rate) { run_.set_learning_rate(learning_rate); }
  bool has_jobs() const;
  // A step of each job that takes one before each chunk (a head's probe), then rounds of a step
  // of every other job it has, for about `seconds` or `rounds` rounds. Returns the rounds.
  int train_for(double seconds, int rounds = std::numeric_limits<int>::max());
  // New timeline samples, a comparison that paused itself, a head probed or the experiment done:
  // the page should hear of them now.
  bool update_due() const;
  // The parts of the jobs it has, under the generations they were handed over with.
  WorkerUpdate take_update();

  // The generation `job` was last handed over with (0: it has not had that job).
  std::uint64_t generation(WorkerJob job) const { return generations_[static_cast<int>(job)]; }
  const RunJob& run() const { return run_; }

 private:
  bool has_round_jobs() const;

  const Clock* clock_;
  RunJob run_;
  ComparisonJob comparison_;
  ProbesJob probes_;
  ExperimentJob experiment_;
  std::array<TrainingJob*, kWorkerJobCount> jobs_;  // indexed by WorkerJob
  std::array<std::uint64_t, kWorkerJobCount> generations_{};  // indexed by WorkerJob
};

}  // namespace headlab::app
