#include "app/worker_link.h"

#include <algorithm>
#include <string>

namespace headlab::app {

void WorkerLink::prepare() {
  if (usable()) worker_->prepare();
}

void WorkerLink::hand_over(const TrainingJob& job) {
  HandedOverJob& handed_job = handed(job.kind());
  WorkerRun run = job.hand_over();
  run.job = job.kind();
  run.generation = ++handed_job.generation;
  handed_job.active = true;
  worker_->start(run);
}

void WorkerLink::recall(WorkerJob kind) {
  if (!handed(kind).active) return;
  worker_->stop(kind);  // also a worker that refused: it may have other jobs under way
  handed(kind).end();
}

void WorkerLink::forget_if_lost() {
  if (usable()) return;
  for (HandedOverJob& handed_job : handed_) handed_job.active = false;
}

void WorkerLink::set_learning_rate(float learning_rate) {
  if (has(WorkerJob::run)) worker_->set_learning_rate(learning_rate);
}

WorkerLink::Received WorkerLink::receive(const WorkerUpdate& update, const Jobs& jobs) {
  // Which parts name a job's latest hand-over, read before adopting any of them.
  std::array<bool, kWorkerJobCount> speaks{};
  for (const TrainingJob* job : jobs)
    speaks[static_cast<int>(job->kind())] = handed(job->kind()).speaks_for(generation_of(update, job->kind()));
  Received received;
  if (std::find(speaks.begin(), speaks.end(), true) == speaks.end()) return received;  // about jobs recalled since
  std::string error = update.error;
  for (TrainingJob* job : jobs) {
    const int index = static_cast<int>(job->kind());
    if (!error.empty() || !speaks[index]) continue;
    error = job->adopt_update(update);
    received.adopted[index] = error.empty();
  }
  if (!error.empty()) {
    // The page trains on from what it has; the worker is not asked again.
    refused_ = received.refused = true;
    for (const TrainingJob* job : jobs) recall(job->kind());
    return received;
  }
  for (const TrainingJob* job : jobs)  // a job the worker stopped itself is back in the page
    if (speaks[static_cast<int>(job->kind())] && !job->under_way()) handed(job->kind()).end();
  return received;
}

}  // namespace headlab::app
