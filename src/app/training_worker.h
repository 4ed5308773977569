#pragma once
// The page's training worker as the TrainingSession sees it. The page runs a second engine in a
// Web Worker (src/platform/training_worker_main.cpp), so training does not share the frame with
// drawing; natively and in tests there is none, or one in the same process.
//
// The session stays the owner of the run. While the learner has Play pressed it hands the run to
// the worker (WorkerRun: the trainer's saved state), and the worker sends back what it reached a
// few times a second (WorkerUpdate), which the session adopts as its own. Anything else that
// changes the run (pause, a step by hand, a reset) recalls the worker: the session goes on from
// the last update it adopted and ignores any update of the recalled run still on its way (each
// run carries a new generation number). No memory is shared; messages are copied.
//
// The one-vs-many comparison (training/compare.h) goes to the worker the same way, as a second job
// beside the run: its two trainers travel as one state (pack_comparison_state), it has generations
// of its own, and the worker pauses it by itself at kComparisonTargetSteps, as the page would.
// So do the probes of the model as it is (training/probe.h), a third job: the worker probes one
// head at a time and sends each result as it comes; and the head-count experiment
// (training/head_count_experiment.h), a fourth, which the worker ends itself when its last run is
// done. The page's end of this is a WorkerLink (worker_link.h), the worker's a WorkerHost
// (worker_host.h); each job says how it crosses in its own class (training_job.h).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/training/probe.h"
#include "engine/training/task.h"
#include "app/timeline_sample.h"

namespace headlab::app {

enum class WorkerJob { run = 0, comparison = 1, probes = 2, experiment = 3 };
inline constexpr int kWorkerJobCount = 4;

struct WorkerRun {
  WorkerJob job = WorkerJob::run;
  std::uint64_t generation = 0;   // this hand-over; updates name it
  training::Task task = training::Task::grammar;
  AttentionNormalization attention = AttentionNormalization::softmax;  // the run's and the probes' model
  std::uint32_t seed = 1;
  float learning_rate = 3e-3f;      // the experiment's: every run it has yet to start trains at it
  int sample_every = 100;
  int held_out_count = 60;
  int induction_held_out_count = 100;
  int last_sample_step = 0;         // the session's newest timeline sample
  // training::Trainer::save_state(); of a comparison, both (pack_comparison_state); of the probes,
  // the run whose model they probe; of the experiment, HeadCountExperiment::save_state().
  std::vector<std::uint8_t> state;
};

// What the worker reached since its last update, for each job it has. A part whose generation is 0
// is not in the update.
struct WorkerUpdate {
  std::uint64_t generation = 0;           // the run's
  std::vector<std::uint8_t> state;        // the run as the worker has it now
  std::vector<TimelineSample> samples;    // taken since the previous update, oldest first
  std::uint64_t comparison_generation = 0;
  std::vector<std::uint8_t> comparison_state;  // both trainers (pack_comparison_state)
  bool comparison_paused = false;         // it reached its target and the worker stopped it
  std::uint64_t probes_generation = 0;
  std::vector<training::HeadProbe> probes;  // every head probed so far, layer-major
  std::uint64_t experiment_generation = 0;
  std::vector<std::uint8_t> experiment_state;  // HeadCountExperiment::save_state()
  // The worker could not take the job of that generation (then nothing else is set).
  std::string error;
};

// The generation `update` names for `job`'s part (0: the update has no part of that job).
template <class Update>  // WorkerUpdate, const or not
auto& generation_of(Update& update, WorkerJob job) {
  switch (job) {
    case WorkerJob::run: break;
    case WorkerJob::comparison: return update.comparison_generation;
    case WorkerJob::probes: return update.probes_generation;
    case WorkerJob::experiment: return update.experiment_generation;
  }
  return update.generation;
}

class TrainingWorker {
 public:
  virtual ~TrainingWorker() = default;
  // False once the worker failed to start (the session then trains in the page, as without one).
  virtual bool available() const = 0;
  // A run will probably be handed over soon (the session has just started one): get ready now, so
  // Play does not wait for the worker to load. Does nothing when already ready.
  virtual void prepare() {}
  // Replaces whatever job of run.job the worker had.
  virtual void start(const WorkerRun& run) = 0;
  // Ends that job; updates it already sent may still arrive and are ignored by generation.
  virtual void stop(WorkerJob job) = 0;
  // The peak learning rate of the current run, from its next step on.
  virtual void set_learning_rate(float learning_rate) = 0;
};

}  // namespace headlab::app
