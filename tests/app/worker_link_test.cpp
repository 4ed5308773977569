// The page's link to the worker on its own, with jobs that only count what is asked of them: it
// reaches every kind of job through the same verbs.
#include <gtest/gtest.h>

#include <vector>

#include "app/worker_link.h"

namespace headlab::app {
namespace {

class CountingJob final : public TrainingJob {
 public:
  explicit CountingJob(WorkerJob kind) : kind_(kind) {}
  WorkerJob kind() const override { return kind_; }
  bool under_way() const override { return under_way_; }
  WorkerRun hand_over() const override { return {}; }
  std::string adopt_update(const WorkerUpdate&) override {
    ++adopted;
    return {};
  }
  std::string take_over(const WorkerRun&) override { return {}; }
  void stop() override {}
  bool busy() const override { return false; }
  void step_in_worker() override {}
  bool update_due() const override { return false; }
  bool make_update(WorkerUpdate&) override { return false; }

  bool under_way_ = true;
  int adopted = 0;

 private:
  WorkerJob kind_;
};

class RecordingWorker final : public TrainingWorker {
 public:
  bool available() const override { return true; }
  void start(const WorkerRun& run) override { started.push_back(run); }
  void stop(WorkerJob job) override { stopped.push_back(job); }
  void set_learning_rate(float) override {}
  std::vector<WorkerRun> started;
  std::vector<WorkerJob> stopped;
};

struct LinkWithJobs {
  CountingJob run{WorkerJob::run}, comparison{WorkerJob::comparison}, probes{WorkerJob::probes},
      experiment{WorkerJob::experiment};
  WorkerLink::Jobs jobs{&run, &comparison, &probes, &experiment};
  RecordingWorker worker;
  WorkerLink link;
  LinkWithJobs() { link.attach(&worker); }
};

TEST(WorkerLink, AnUpdateIsAdoptedOnlyByTheJobsWhoseLatestHandOverItNames) {
  LinkWithJobs page;
  page.link.hand_over(page.comparison);
  page.link.hand_over(page.experiment);
  ASSERT_EQ(page.worker.started.size(), 2u);
  EXPECT_EQ(page.worker.started[0].job, WorkerJob::comparison);
  const std::uint64_t first = page.worker.started[1].generation;

  page.link.recall(WorkerJob::experiment);
  page.link.hand_over(page.experiment);
  WorkerUpdate update;
  update.comparison_generation = page.worker.started[0].generation;
  update.experiment_generation = first;  // of the hand-over the recall ended
  const WorkerLink::Received received = page.link.receive(update, page.jobs);
  EXPECT_TRUE(received.adopted_part(WorkerJob::comparison));
  EXPECT_FALSE(received.adopted_part(WorkerJob::experiment));
  EXPECT_EQ(page.comparison.adopted, 1);
  EXPECT_EQ(page.experiment.adopted, 0);
  EXPECT_EQ(page.run.adopted, 0);
}

TEST(WorkerLink, AJobThatStoppedItselfInTheWorkerIsBackInThePageWithoutARecall) {
  LinkWithJobs page;
  page.link.hand_over(page.comparison);
  page.comparison.under_way_ = false;  // the update it adopts pauses it
  WorkerUpdate update;
  update.comparison_generation = page.worker.started[0].generation;
  page.link.receive(update, page.jobs);
  EXPECT_FALSE(page.link.has(WorkerJob::comparison));
  EXPECT_TRUE(page.worker.stopped.empty());
}

TEST(WorkerLink, AJobTheWorkerCannotTakeBringsEveryJobBackAndTheWorkerIsNotAskedAgain) {
  LinkWithJobs page;
  page.link.hand_over(page.run);
  page.link.hand_over(page.probes);
  WorkerUpdate update;
  update.generation = page.worker.started[0].generation;
  update.error = "out of memory";
  const WorkerLink::Received received = page.link.receive(update, page.jobs);
  EXPECT_TRUE(received.refused);
  EXPECT_FALSE(page.link.has(WorkerJob::run));
  EXPECT_FALSE(page.link.has(WorkerJob::probes));
  EXPECT_EQ(page.worker.stopped.size(), 2u);
  EXPECT_FALSE(page.link.usable());
}

}  // namespace
}  // namespace headlab::app
