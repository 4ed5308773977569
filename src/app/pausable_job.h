#pragma once
// A job the learner starts, runs, pauses and steps by hand beside the run, and that can stop
// itself: the comparison pauses at its target, the experiment ends with its last run. The worker
// says so in its next update; the page, adopting it, stops running it too.
#include <string>

#include "app/training_job.h"

namespace headlab::app {

class PausableJob : public TrainingJob {
 public:
  virtual bool started() const = 0;
  // Running it would take steps (the experiment ends with its last run; the comparison only pauses).
  virtual bool can_go_on() const = 0;
  // `steps` steps now; returns how many it took.
  virtual int step(int steps) = 0;
  // On the worker's side, running means it has steps to take there.
  void set_running(bool running) { running_ = running; }
  bool running() const { return running_; }

  bool under_way() const override { return running_ && started(); }
  void stop() override {
    running_ = false;
    stopped_itself_ = false;
  }
  bool busy() const override { return running_ && started(); }
  void step_in_worker() override {
    if (step_once()) return;
    running_ = false;
    stopped_itself_ = true;
  }
  bool update_due() const override { return stopped_itself_; }
  bool make_update(WorkerUpdate& update) override {
    if (!started() || (!running_ && !stopped_itself_)) return false;
    write_update(update, stopped_itself_);
    stopped_itself_ = false;
    return true;
  }

 protected:
  // One step in the worker; false when that stopped it.
  virtual bool step_once() = 0;
  // Its state in `update`, and whether it stopped itself since the last one.
  virtual void write_update(WorkerUpdate& update, bool stopped_itself) const = 0;
  // Taken over by the worker: it runs there unless `running` is false (nothing left to do).
  void taken_over(bool running) {
    running_ = running;
    stopped_itself_ = false;
  }

 private:
  bool running_ = false;
  bool stopped_itself_ = false;  // the worker's side: since the last update
};

}  // namespace headlab::app
