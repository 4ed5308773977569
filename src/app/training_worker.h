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
#include <cstdint>
#include <string>
#include <vector>

#include "engine/training/task.h"
#include "app/timeline_sample.h"

namespace headlab::app {

struct WorkerRun {
  std::uint64_t generation = 0;   // this hand-over; updates name it
  training::Task task = training::Task::grammar;
  std::uint32_t seed = 1;
  int sample_every = 100;
  int held_out_count = 60;
  int induction_held_out_count = 100;
  int last_sample_step = 0;         // the session's newest timeline sample
  std::vector<std::uint8_t> state;  // training::Trainer::save_state()
};

struct WorkerUpdate {
  std::uint64_t generation = 0;
  std::vector<std::uint8_t> state;        // the run as the worker has it now
  std::vector<TimelineSample> samples;    // taken since the previous update, oldest first
  std::string error;                      // the worker could not take the run (then nothing else is set)
};

class TrainingWorker {
 public:
  virtual ~TrainingWorker() = default;
  // False once the worker failed to start (the session then trains in the page, as without one).
  virtual bool available() const = 0;
  // A run will probably be handed over soon (the session has just started one): get ready now, so
  // Play does not wait for the worker to load. Does nothing when already ready.
  virtual void prepare() {}
  // Replaces whatever run the worker had.
  virtual void start(const WorkerRun& run) = 0;
  // Ends the current run; updates it already sent may still arrive and are ignored by generation.
  virtual void stop() = 0;
  // The peak learning rate of the current run, from its next step on.
  virtual void set_learning_rate(float learning_rate) = 0;
};

}  // namespace headlab::app
