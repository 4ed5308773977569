#pragma once
// One kind of training work as both ends of the worker protocol (training_worker.h) see it. The
// page's TrainingSession trains a job in its frames or hands it to the worker through its
// WorkerLink; in the worker a WorkerHost takes it over, steps it and reports what it reached; the
// page adopts the report. Each kind is one class with these verbs (run_job.h, comparison_job.h,
// probes_job.h, experiment_job.h), so the link and the host never ask which kind they hold.
#include <string>

#include "app/training_worker.h"

namespace headlab::app {

class TrainingJob {
 public:
  virtual ~TrainingJob() = default;
  virtual WorkerJob kind() const = 0;

  // The page's side.
  // It has work left that the page, or the worker in its place, should do now.
  virtual bool under_way() const = 0;
  // What the worker needs to go on from here (the link adds the job and the generation).
  virtual WorkerRun hand_over() const = 0;
  // Adopts this job's part of an update that names its latest hand-over: "" or why it cannot.
  virtual std::string adopt_update(const WorkerUpdate& update) = 0;

  // The worker's side.
  // Replaces whatever it had with the page's job: "" or why it cannot.
  virtual std::string take_over(const WorkerRun& run) = 0;
  virtual void stop() = 0;
  // It has steps to take.
  virtual bool busy() const = 0;
  // A step takes longer than a chunk of the worker's training: one before each chunk, not one per round.
  virtual bool steps_once_per_chunk() const { return false; }
  virtual void step_in_worker() = 0;
  // It reached something the page should hear of now.
  virtual bool update_due() const = 0;
  // Writes its part of the next update, if it has one (the host adds the generation).
  virtual bool make_update(WorkerUpdate& update) = 0;
};

}  // namespace headlab::app
