#include "app/worker_host.h"

#include "app/step_clock.h"

namespace headlab::app {

WorkerHost::WorkerHost(const Resources& resources, const Clock& clock)
    : clock_(&clock),
      run_(resources, clock),
      comparison_(resources.grammar, clock),
      probes_(resources.grammar, run_),
      experiment_(resources, clock),
      jobs_{&run_, &comparison_, &probes_, &experiment_} {}

std::string WorkerHost::take_over(const WorkerRun& run) {
  generations_[static_cast<int>(run.job)] = run.generation;
  return jobs_[static_cast<int>(run.job)]->take_over(run);
}

void WorkerHost::stop_job(WorkerJob job) { jobs_[static_cast<int>(job)]->stop(); }

bool WorkerHost::has_jobs() const {
  for (const TrainingJob* job : jobs_)
    if (job->busy()) return true;
  return false;
}

bool WorkerHost::has_round_jobs() const {
  for (const TrainingJob* job : jobs_)
    if (!job->steps_once_per_chunk() && job->busy()) return true;
  return false;
}

int WorkerHost::train_for(double seconds, int rounds) {
  // A head's probe is longer than a chunk: one before the chunk's training, so the run slows down
  // while the probes are made but does not stop.
  for (TrainingJob* job : jobs_)
    if (job->steps_once_per_chunk() && job->busy()) job->step_in_worker();
  const double deadline = clock_->now_seconds() + seconds;
  double round_seconds = 0.0;
  int done = 0;
  while (has_round_jobs() && done < rounds) {
    const double before = clock_->now_seconds();
    for (TrainingJob* job : jobs_)
      if (!job->steps_once_per_chunk() && job->busy()) job->step_in_worker();
    ++done;
    const double now = clock_->now_seconds();
    average_in(round_seconds, now - before);
    if (now + round_seconds > deadline) break;
  }
  return done;
}

bool WorkerHost::update_due() const {
  for (const TrainingJob* job : jobs_)
    if (job->update_due()) return true;
  return false;
}

WorkerUpdate WorkerHost::take_update() {
  WorkerUpdate update;
  for (TrainingJob* job : jobs_)
    if (job->make_update(update)) generation_of(update, job->kind()) = generation(job->kind());
  return update;
}

}  // namespace headlab::app
