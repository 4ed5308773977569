// Training in a worker, without a page: a session hands its run to a worker (here a second session
// in this process, reached only through the same message codec the page uses), adopts what the
// worker reaches, and ends up with exactly the run it would have trained itself. Pause, steps by
// hand and a worker that fails or refuses all leave the page with a run it can go on with.
#include <gtest/gtest.h>

#include <cmath>

#include "app/training_session.h"
#include "app/worker_messages.h"
#include "engine/training/parameters.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

// The worker of the page, in-process: the run and every update go through the codec, as they do
// through postMessage, and the worker trains only when the test says so (steps, not seconds, so
// runs are comparable step for step).
class InProcessWorker : public TrainingWorker {
 public:
  InProcessWorker() : session(test_resources()) {}
  bool available() const override { return alive; }
  void prepare() override { ++prepares; }
  void start(const WorkerRun& run) override {
    Result<WorkerRun> decoded = decode_run_header(encode_run_header(run));
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    WorkerRun copy = std::move(decoded).value();
    copy.state = run.state;
    generation = copy.generation;
    error = session.take_over(copy);
    ++starts;
  }
  void stop() override { ++stops; }
  void set_learning_rate(float learning_rate) override { session.set_learning_rate(learning_rate); }

  // Trains `steps` and returns the update the page would receive.
  WorkerUpdate train(int steps) {
    WorkerUpdate update;
    if (error.empty()) {
      session.step(steps);
      update = session.take_update(generation);
    } else {
      update.generation = generation;
      update.error = error;
    }
    Result<WorkerUpdate> decoded = decode_update_header(encode_update_header(update));
    EXPECT_TRUE(decoded.ok()) << decoded.error();
    WorkerUpdate received = std::move(decoded).value();
    received.state = update.state;
    return received;
  }

  TrainingSession session;
  bool alive = true;
  std::uint64_t generation = 0;
  std::string error;
  int prepares = 0, starts = 0, stops = 0;
};

std::vector<float> weights(const TrainingSession& session) {
  Model model = session.trainer()->model();
  std::vector<float> out;
  for (const training::ParameterView& view : training::parameters(model)) out.insert(out.end(), view.data, view.data + view.size);
  return out;
}

void expect_same_timeline(const TrainingSession& a, const TrainingSession& b) {
  ASSERT_EQ(a.timeline().size(), b.timeline().size());
  for (std::size_t i = 0; i < a.timeline().size(); ++i) {
    const TimelineSample &x = a.timeline()[i], &y = b.timeline()[i];
    EXPECT_EQ(x.step, y.step);
    EXPECT_EQ(x.train_loss, y.train_loss) << "sample at step " << x.step;
    EXPECT_EQ(x.held_out_loss, y.held_out_loss);
    ASSERT_EQ(x.heads.size(), y.heads.size());
    for (std::size_t k = 0; k < x.heads.size(); ++k) {
      EXPECT_EQ(x.heads[k].label, y.heads[k].label);
      EXPECT_EQ(x.heads[k].score, y.heads[k].score);
    }
    ASSERT_EQ(x.spreads.size(), y.spreads.size());
    for (std::size_t l = 0; l < x.spreads.size(); ++l) EXPECT_EQ(x.spreads[l].entropy, y.spreads[l].entropy);
    ASSERT_EQ(x.induction.size(), y.induction.size());
    for (std::size_t k = 0; k < x.induction.size(); ++k)
      EXPECT_EQ(x.induction[k].prefix_matching, y.induction[k].prefix_matching);
  }
}

TEST(TrainingWorker, ARunTrainedInTheWorkerIsTheRunThePageWouldHaveTrained) {
  for (training::Task task : {training::Task::grammar, training::Task::induction}) {
    InProcessWorker worker;
    TrainingSession page(test_resources()), alone(test_resources());
    page.attach_worker(&worker);
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

// A page whose run is in the worker: started, Play pressed, one frame to hand it over.
struct PageTrainingInWorker {
  InProcessWorker worker;
  TrainingSession page{test_resources()};
  PageTrainingInWorker() {
    page.attach_worker(&worker);
    EXPECT_EQ(page.ensure_started(), "");
    page.set_running(true);
    page.advance_frame();
    EXPECT_TRUE(page.training_in_worker());
  }
};

TEST(TrainingWorker, TheWorkerGetsReadyWhenTheFirstRunIsMade) {
  InProcessWorker worker;
  TrainingSession page(test_resources());
  page.attach_worker(&worker);
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
  EXPECT_EQ(worker.session.trainer()->steps_done(), 23);
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

TEST(WorkerMessages, SamplesRoundTripExactlyAndBrokenMessagesSayWhy) {
  TimelineSample sample;
  sample.step = 300;
  sample.train_loss = 1.0f / 3.0f;
  sample.held_out_loss = NAN;
  sample.heads = {{"syntactic:nsubj", 0.7f, 0.25f, training::kHeadToDependent}, {"mixed", 0.0f, 0.0f, 0}};
  sample.induction = {{1, 2, 0.123456789f, 0.5f, 0.25f}};
  sample.strongest_induction = sample.induction[0];
  sample.spreads = {{1.0 / 7.0, 2.5, 2.7, 9}};
  WorkerUpdate update;
  update.generation = 7;
  update.samples = {sample};
  const Result<WorkerUpdate> back = decode_update_header(encode_update_header(update));
  ASSERT_TRUE(back.ok()) << back.error();
  const TimelineSample& s = back.value().samples.at(0);
  EXPECT_EQ(back.value().generation, 7u);
  EXPECT_EQ(s.train_loss, sample.train_loss);
  EXPECT_TRUE(std::isnan(s.held_out_loss));
  EXPECT_EQ(s.heads[0].label, "syntactic:nsubj");
  EXPECT_EQ(s.heads[0].direction, training::kHeadToDependent);
  EXPECT_EQ(s.induction[0].prefix_matching, sample.induction[0].prefix_matching);
  EXPECT_EQ(s.spreads[0].distance, sample.spreads[0].distance);
  EXPECT_EQ(s.spreads[0].rows, 9);

  EXPECT_EQ(decode_update_header("[1]").error(), "training update: not a JSON object");
  EXPECT_EQ(decode_update_header(R"({"generation": 1, "error": "", "samples": [{"step": "x"}]})").error(),
            "training update: expected an integer");
  EXPECT_FALSE(decode_run_header(R"({"generation": 1})").ok());
}

}  // namespace
}  // namespace headlab::app
