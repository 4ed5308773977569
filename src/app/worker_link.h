#pragma once
// The page's link to its training worker (training_worker.h): which jobs the worker has, under
// which generation, and the updates of theirs the page adopts. A hand-over and a recall each move
// a job's generation on, so whatever a recalled job still sends names an older one and is ignored.
#include <array>
#include <cstdint>

#include "app/training_job.h"
#include "app/training_worker.h"

namespace headlab::app {

class WorkerLink {
 public:
  using Jobs = std::array<TrainingJob*, kWorkerJobCount>;

  // None natively and in most tests; `worker` must outlive the link.
  void attach(TrainingWorker* worker) { worker_ = worker; }
  // There is a worker, it started, and it has not refused a job.
  bool usable() const { return worker_ && worker_->available() && !refused_; }
  // The worker has that job now.
  bool has(WorkerJob kind) const { return handed(kind).active; }
  // A run will probably be handed over soon: the worker should load now.
  void prepare();
  void hand_over(const TrainingJob& job);
  // Takes the job back: the page goes on from the last update it adopted.
  void recall(WorkerJob kind);
  // When the worker has failed, every job it had goes on in the page from the last update.
  void forget_if_lost();
  void set_learning_rate(float learning_rate);

  struct Received {
    bool refused = false;  // the worker could not take a job: every job is back in the page
    std::array<bool, kWorkerJobCount> adopted{};
    bool adopted_part(WorkerJob kind) const { return adopted[static_cast<int>(kind)]; }
  };
  // Has each of `jobs` adopt its part of `update` when the part names the job's latest hand-over;
  // a job the worker ended itself (paused, done, every head probed) is back in the page.
  Received receive(const WorkerUpdate& update, const Jobs& jobs);

 private:
  struct HandedOverJob {
    bool active = false;
    std::uint64_t generation = 0;
    bool speaks_for(std::uint64_t update_generation) const { return active && update_generation == generation; }
    void end() {
      active = false;
      ++generation;
    }
  };
  HandedOverJob& handed(WorkerJob kind) { return handed_[static_cast<int>(kind)]; }
  const HandedOverJob& handed(WorkerJob kind) const { return handed_[static_cast<int>(kind)]; }

  TrainingWorker* worker_ = nullptr;
  std::array<HandedOverJob, kWorkerJobCount> handed_{};
  bool refused_ = false;  // the worker could not take a job: everything trains in the page from then on
};

}  // namespace headlab::app
