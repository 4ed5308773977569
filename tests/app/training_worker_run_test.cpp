// Training the run in a worker, without a page: a session hands its run to a worker (a second
// session in this process, reached only through the message codec the page uses), adopts what the
// worker reaches, and ends up with exactly the run it would have trained itself. Pause, steps by
// hand, a changed learning rate and a worker that fails or refuses all leave the page with a run it
// can go on with.
#include <gtest/gtest.h>

#include <cmath>

#include "in_process_worker.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

TEST(TrainingWorker, ARunTrainedInTheWorkerIsTheRunThePageWouldHaveTrained) {
  for (training::Task task : {training::Task::grammar, training::Task::induction}) {
    PageWithWorker in_worker;
    TrainingSession &page = in_worker.page, &alone = in_worker.alone;
    InProcessWorker& worker = in_worker.worker;
    ASSERT_EQ(page.reset(2, 3e-3f, task), "");
    ASSERT_EQ(alone.reset(2, 3e-3f, task), "");
    page.step(30);  // a run already under way moves with everything it has
    alone.step(30);

    page.set_running(true);
    page.advance_frame();
    ASSERT_TRUE(page.training_in_worker());
    EXPECT_EQ(worker.starts, 1);
    EXPECT_EQ(page.trainer()->steps_done(), 30);  // the page itself took no step
    for (int steps : {50, 70, 70}) page.receive(worker.train(steps));  // updates at 80, 150, 220
    alone.step(190);

    EXPECT_EQ(page.trainer()->steps_done(), 220);
    EXPECT_EQ(page.trainer()->loss_history(), alone.trainer()->loss_history());
    EXPECT_EQ(weights(page), weights(alone));
    expect_same_timeline(page, alone);  // samples at 0, 100, 200
    EXPECT_EQ(page.samples_taken(), alone.samples_taken());
    EXPECT_EQ(page.snapshot().step, 220);  // the heads overview shows the adopted model
  }
}

// A run on real text waits, paused, for the page's text sample; once it is there the run starts as
// it was asked to (here running), goes to the worker with the text it trains on, and its timeline
// reads the text report's scores; what comes back is the run the page would have trained. A sample that cannot be had ends the wait with why and leaves
// the run the learner had.
TEST(TrainingWorker, ARealTextRunWaitsForItsSampleThenGoesToTheWorkerWithIt) {
  PageWithWorker in_worker;
  TrainingSession &page = in_worker.page, &alone = in_worker.alone;
  InProcessWorker& worker = in_worker.worker;
  ASSERT_EQ(page.reset(1, 3e-3f, training::Task::induction), "");
  page.step(10);
  *test_resources().text_corpus = LateCorpus{};
  ASSERT_EQ(page.reset(1, 1e-2f, training::Task::lm), "");
  EXPECT_TRUE(page.run_waiting());
  EXPECT_EQ(page.run_task(), training::Task::lm);
  EXPECT_TRUE(test_resources().text_corpus->requested);
  page.set_running(true);  // Play pressed while waiting: the run starts running
  EXPECT_FALSE(page.running());
  EXPECT_EQ(page.step(5), 0);  // nothing to step yet; the induction run stays as it was
  EXPECT_EQ(page.settings().task, training::Task::induction);
  EXPECT_EQ(page.trainer()->steps_done(), 10);
  page.advance_frame();
  EXPECT_TRUE(page.run_waiting());
  give_test_text_sample();
  page.advance_frame();  // starts it; the next frame hands it over
  EXPECT_FALSE(page.run_waiting());
  EXPECT_EQ(page.settings().task, training::Task::lm);
  EXPECT_TRUE(page.running());
  page.advance_frame();
  ASSERT_TRUE(page.training_in_worker());
  EXPECT_EQ(worker.error, "");
  page.receive(worker.train(12));
  ASSERT_EQ(page.trainer()->steps_done(), 12);
  ASSERT_EQ(alone.reset(1, 1e-2f, training::Task::lm), "");
  alone.step(12);
  EXPECT_EQ(page.trainer()->loss_history(), alone.trainer()->loss_history());
  EXPECT_EQ(weights(page), weights(alone));
  const TimelineSample& sample = page.timeline().front();  // step 0
  EXPECT_EQ(sample.induction.size(), 8u);  // 2 layers x 4 heads, every score of the text report
  EXPECT_GT(sample.held_out_loss, std::log(6144.0f) - 0.5f);  // no better than an even guess at the start
  for (const training::InductionHeadScores& head : sample.induction) {
    EXPECT_GE(head.first_token, 0.0f);
    EXPECT_LE(head.first_token, 0.2f);  // no sink at step 0
  }
  EXPECT_EQ(page.snapshot_input_count(), 60);  // the held-out windows the timeline reads
  EXPECT_FALSE(page.snapshot_input_text(0).empty());
  for (const Token& token : page.snapshot().tokens) EXPECT_FALSE(token.text.empty());  // readable labels, "␣the"
  EXPECT_EQ(page.snapshot().tokens.size(), 64u);
  EXPECT_EQ(page.reading().task, training::Task::lm);
  // A failed download ends the wait with why; the real-text run stays.
  page.set_running(false);
  *test_resources().text_corpus = LateCorpus{};
  TrainingSession other{test_resources(), in_worker.clock};
  ASSERT_EQ(other.reset(1, 3e-3f, training::Task::grammar), "");
  ASSERT_EQ(other.reset(1, 1e-2f, training::Task::lm), "");
  test_resources().text_corpus->error = "The text sample could not be downloaded: HTTP 404";
  other.advance_frame();
  EXPECT_FALSE(other.run_waiting());
  EXPECT_EQ(other.run_wait_error(), "The text sample could not be downloaded: HTTP 404");
  EXPECT_EQ(other.settings().task, training::Task::grammar);
  give_test_text_sample();
}

TEST(TrainingWorker, TheWorkerGetsReadyWhenTheFirstRunIsMade) {
  PageWithWorker in_worker;
  TrainingSession& page = in_worker.page;
  InProcessWorker& worker = in_worker.worker;
  EXPECT_EQ(worker.prepares, 0);  // a page that never trains never loads it
  ASSERT_EQ(page.ensure_started(), "");  // the Training tab opened
  EXPECT_EQ(worker.prepares, 1);
  EXPECT_EQ(worker.starts, 0);  // Play not pressed yet
}

TEST(TrainingWorker, PauseKeepsTheLastUpdateAndIgnoresWhatTheRecalledRunStillSends) {
  PageTrainingInWorker in_worker;
  TrainingSession& page = in_worker.page;
  page.receive(in_worker.worker.train(40));
  const WorkerUpdate late = in_worker.worker.train(40);  // sent just before the pause reached the worker
  page.set_running(false);
  EXPECT_FALSE(page.training_in_worker());
  EXPECT_EQ(in_worker.worker.stops, 1);
  page.receive(late);
  EXPECT_EQ(page.trainer()->steps_done(), 40);
  page.advance_frame();
  EXPECT_EQ(page.trainer()->steps_done(), 40);  // paused: nothing trains anywhere
}

TEST(TrainingWorker, AStepByHandGoesOnFromThePageAndTheNextFrameHandsTheRunBack) {
  PageTrainingInWorker in_worker;
  TrainingSession& page = in_worker.page;
  InProcessWorker& worker = in_worker.worker;
  page.receive(worker.train(20));
  const WorkerUpdate stale = worker.train(5);
  page.step(3);
  EXPECT_EQ(page.trainer()->steps_done(), 23);
  page.receive(stale);  // of the run the step recalled
  EXPECT_EQ(page.trainer()->steps_done(), 23);
  page.advance_frame();  // still running: the run goes back to the worker, from step 23
  EXPECT_EQ(worker.starts, 2);
  EXPECT_EQ(worker.host.run().trainer()->steps_done(), 23);
  page.receive(worker.train(2));
  EXPECT_EQ(page.trainer()->steps_done(), 25);
}

TEST(TrainingWorker, TheLearningRateReachesTheRunInTheWorker) {
  PageTrainingInWorker in_worker;
  in_worker.page.set_learning_rate(1e-3f);
  in_worker.page.receive(in_worker.worker.train(1));
  EXPECT_FLOAT_EQ(in_worker.page.trainer()->config().learning_rate, 1e-3f);
}

TEST(TrainingWorker, AWorkerThatFailsOrRefusesLeavesThePageTrainingItself) {
  {
    PageTrainingInWorker in_worker;
    in_worker.page.receive(in_worker.worker.train(10));
    in_worker.worker.alive = false;  // the Worker's script failed to load, or it crashed
    in_worker.page.advance_frame();
    EXPECT_FALSE(in_worker.page.training_in_worker());
    EXPECT_GT(in_worker.page.trainer()->steps_done(), 10);  // on from step 10, in the page
  }
  {
    PageTrainingInWorker in_worker;
    in_worker.worker.error = "out of memory";
    in_worker.page.receive(in_worker.worker.train(10));
    EXPECT_FALSE(in_worker.page.training_in_worker());
    in_worker.page.advance_frame();
    EXPECT_FALSE(in_worker.page.training_in_worker());  // not asked again
    EXPECT_GT(in_worker.page.trainer()->steps_done(), 0);
  }
}

// The learning rate changed while the worker trains, and Play paused soon after: an update the
// worker sent before the new rate reached it carries the old rate in its state. Adopting it must not
// take the page's run back to the old rate, or the next Play hands the old rate to the worker.
TEST(TrainingWorker, AnUpdateSentBeforeTheNewLearningRateReachedTheWorkerKeepsTheNewRate) {
  PageTrainingInWorker in_worker;
  TrainingSession& page = in_worker.page;
  InProcessWorker& worker = in_worker.worker;
  page.receive(worker.train(10));
  worker.hold_learning_rate = true;  // the new rate is still on its way to the worker
  page.set_learning_rate(1.23e-2f);
  page.receive(worker.train(10));  // trained and sent at the old rate
  EXPECT_EQ(page.trainer()->steps_done(), 20);
  EXPECT_FLOAT_EQ(page.settings().learning_rate, 1.23e-2f);
  EXPECT_FLOAT_EQ(page.trainer()->config().learning_rate, 1.23e-2f);
  page.set_running(false);  // paused before the worker saw the rate
  EXPECT_FLOAT_EQ(page.trainer()->config().learning_rate, 1.23e-2f);

  page.set_running(true);  // the next Play ships the page's rate
  page.advance_frame();
  ASSERT_TRUE(page.training_in_worker());
  EXPECT_FLOAT_EQ(worker.host.run().trainer()->config().learning_rate, 1.23e-2f);
  page.receive(worker.train(5));
  EXPECT_EQ(page.trainer()->steps_done(), 25);
  EXPECT_FLOAT_EQ(page.trainer()->config().learning_rate, 1.23e-2f);
}

}  // namespace
}  // namespace headlab::app
