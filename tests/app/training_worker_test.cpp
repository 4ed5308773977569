// Training in a worker, without a page: a session hands its run to a worker (here a second session
// in this process, reached only through the same message codec the page uses), adopts what the
// worker reaches, and ends up with exactly the run it would have trained itself. Pause, steps by
// hand and a worker that fails or refuses all leave the page with a run it can go on with. The
// one-vs-many comparison and the probes go to the worker beside the run, the same way.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

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
    ++starts;
    switch (copy.job) {
      case WorkerJob::run:
        generations.run = copy.generation;
        error = session.take_over(copy);
        return;
      case WorkerJob::comparison: generations.comparison = copy.generation, comparison_run = copy; break;
      case WorkerJob::probes: generations.probes = copy.generation; break;
      case WorkerJob::experiment: generations.experiment = copy.generation, experiment_run = copy; break;
    }
    ASSERT_EQ(session.take_over(copy), "");
  }
  void stop(WorkerJob job) override {
    ++stops;
    session.stop_job(job);
  }
  void set_learning_rate(float learning_rate) override { session.set_learning_rate(learning_rate); }

  // Probes a head if it has probes to make, trains `rounds` rounds (a step of each job it has) and
  // returns the update the page would receive.
  WorkerUpdate train(int rounds) {
    WorkerUpdate update;
    if (error.empty()) {
      session.train_for(1e9, rounds);
      update = session.take_update(generations);
    } else {
      update.generation = generations.run;
      update.error = error;
    }
    const EncodedUpdate encoded = encode_update(update);
    Result<WorkerUpdate> decoded = decode_update(encoded.header, encoded.bytes.data(), encoded.bytes.size());
    EXPECT_TRUE(decoded.ok()) << decoded.error();
    return std::move(decoded).value();
  }

  TrainingSession session;
  bool alive = true;
  WorkerGenerations generations;
  WorkerRun comparison_run, experiment_run;  // the last of each handed over
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

// Every loss of both sides and every weight: a comparison is bit for bit the one the page trains.
void expect_same_comparison(const training::HeadComparison& a, const training::HeadComparison& b) {
  EXPECT_EQ(a.many.loss_history(), b.many.loss_history());
  EXPECT_EQ(a.one.loss_history(), b.one.loss_history());
  EXPECT_EQ(a.many.save_state(), b.many.save_state());
  EXPECT_EQ(a.one.save_state(), b.one.save_state());
}

TEST(TrainingWorker, AComparisonTrainedInTheWorkerIsTheComparisonThePageWouldHaveTrained) {
  InProcessWorker worker;
  TrainingSession page(test_resources()), alone(test_resources());
  page.attach_worker(&worker);
  ASSERT_EQ(page.start_comparison(), "");  // running
  ASSERT_EQ(alone.start_comparison(), "");
  alone.set_comparison_running(false);

  page.advance_frame();
  ASSERT_TRUE(page.comparison_in_worker());
  EXPECT_EQ(worker.starts, 1);
  EXPECT_EQ(page.comparison()->many.steps_done(), 0);  // the page itself took no step
  for (int rounds : {20, 30, 25}) page.receive(worker.train(rounds));
  alone.step_comparison(75);

  EXPECT_EQ(page.comparison()->many.steps_done(), 75);
  expect_same_comparison(*page.comparison(), *alone.comparison());
  EXPECT_TRUE(page.comparison_running());
  EXPECT_FALSE(page.training_in_worker());  // the run stayed paused
}

// `state` (Trainer::save_state) as if it had taken `steps` steps, its extra losses 0: the
// comparison's target of 1,500 steps a side is too long to train here. The step count is the
// fourth field of the layout (engine/training/trainer_state.cpp), and a step is one loss.
std::vector<std::uint8_t> at_step(std::vector<std::uint8_t> state, std::uint64_t steps) {
  std::uint64_t had = 0;
  std::memcpy(&had, state.data() + 16, sizeof had);
  std::memcpy(state.data() + 16, &steps, sizeof steps);
  state.resize(state.size() + (steps - had) * sizeof(float), 0);
  return state;
}

TEST(TrainingWorker, TheWorkerPausesTheComparisonAtItsTargetAsThePageWould) {
  InProcessWorker worker;
  TrainingSession page(test_resources());
  page.attach_worker(&worker);
  ASSERT_EQ(page.start_comparison(), "");
  page.advance_frame();
  ASSERT_TRUE(page.comparison_in_worker());
  // The worker's comparison, moved on to five steps before the target.
  WorkerRun near = worker.comparison_run;
  const ComparisonState parts = unpack_comparison_state(near.state);
  ASSERT_EQ(parts.error, "");
  near.state = pack_comparison_state(at_step(parts.many, kComparisonTargetSteps - 5),
                                     at_step(parts.one, kComparisonTargetSteps - 5));
  ASSERT_EQ(worker.session.take_over(near), "");

  const WorkerUpdate update = worker.train(10);  // stops after five rounds
  EXPECT_TRUE(update.comparison_paused);
  EXPECT_FALSE(worker.session.has_jobs());
  page.receive(update);
  EXPECT_EQ(page.comparison()->many.steps_done(), kComparisonTargetSteps);
  EXPECT_EQ(page.comparison()->one.steps_done(), kComparisonTargetSteps);
  EXPECT_FALSE(page.comparison_running());
  EXPECT_FALSE(page.comparison_in_worker());
  page.advance_frame();
  EXPECT_EQ(worker.starts, 1);  // paused: not handed over again
  EXPECT_EQ(page.comparison()->many.steps_done(), kComparisonTargetSteps);

  page.set_comparison_running(true);  // the learner goes on past the target
  page.advance_frame();
  EXPECT_TRUE(page.comparison_in_worker());
  page.receive(worker.train(3));
  EXPECT_EQ(page.comparison()->many.steps_done(), kComparisonTargetSteps + 3);
}

TEST(TrainingWorker, PausingTheComparisonKeepsItsLastUpdateAndLeavesTheRunInTheWorker) {
  PageTrainingInWorker in_worker;  // the run is in the worker
  TrainingSession& page = in_worker.page;
  InProcessWorker& worker = in_worker.worker;
  ASSERT_EQ(page.start_comparison(), "");
  page.advance_frame();
  ASSERT_TRUE(page.comparison_in_worker());
  EXPECT_EQ(worker.starts, 2);

  const WorkerUpdate both = worker.train(8);  // a step of each job per round
  EXPECT_NE(both.generation, 0u);
  EXPECT_NE(both.comparison_generation, 0u);
  page.receive(both);
  EXPECT_EQ(page.trainer()->steps_done(), 8);
  EXPECT_EQ(page.comparison()->many.steps_done(), 8);

  const WorkerUpdate late = worker.train(4);  // sent just before the pause reached the worker
  page.set_comparison_running(false);
  EXPECT_FALSE(page.comparison_in_worker());
  EXPECT_TRUE(page.training_in_worker());
  EXPECT_EQ(worker.stops, 1);
  page.receive(late);  // the run's part is taken, the recalled comparison's is not
  EXPECT_EQ(page.trainer()->steps_done(), 12);
  EXPECT_EQ(page.comparison()->many.steps_done(), 8);

  const WorkerUpdate run_only = worker.train(2);
  EXPECT_EQ(run_only.comparison_generation, 0u);
  page.receive(run_only);
  EXPECT_EQ(page.trainer()->steps_done(), 14);
  page.advance_frame();
  EXPECT_EQ(page.comparison()->many.steps_done(), 8);  // paused: nothing trains it anywhere
}

TEST(TrainingWorker, AComparisonGoesOnInThePageWhenTheWorkerFails) {
  InProcessWorker worker;
  TrainingSession page(test_resources());
  page.attach_worker(&worker);
  ASSERT_EQ(page.start_comparison(), "");
  page.advance_frame();
  page.receive(worker.train(6));
  worker.alive = false;
  page.advance_frame();
  EXPECT_FALSE(page.comparison_in_worker());
  EXPECT_GT(page.comparison()->many.steps_done(), 6);  // on from step 6, in the page
  EXPECT_EQ(page.comparison()->many.steps_done(), page.comparison()->one.steps_done());
}

void expect_same_probes(const ProbeProgress& a, const ProbeProgress& b) {
  EXPECT_EQ(a.step, b.step);
  ASSERT_EQ(a.heads.size(), b.heads.size());
  for (std::size_t k = 0; k < a.heads.size(); ++k) {
    const training::HeadProbe &x = a.heads[k], &y = b.heads[k];
    EXPECT_EQ(x.layer, y.layer);
    EXPECT_EQ(x.head, y.head);
    EXPECT_EQ(x.pos_accuracy, y.pos_accuracy) << "head " << k;
    EXPECT_EQ(x.pos_control_accuracy, y.pos_control_accuracy);
    EXPECT_EQ(x.pos_selectivity, y.pos_selectivity);
    EXPECT_EQ(x.relation_accuracy, y.relation_accuracy);
    EXPECT_EQ(x.relation_control_accuracy, y.relation_control_accuracy);
    EXPECT_EQ(x.relation_selectivity, y.relation_selectivity);
  }
}

TEST(TrainingWorker, ProbesMadeInTheWorkerAreTheProbesThePageWouldHaveMade) {
  InProcessWorker worker;
  TrainingSession page(test_resources()), alone(test_resources());
  page.attach_worker(&worker);
  page.step(60);
  alone.step(60);
  ASSERT_EQ(page.start_probes(), "");
  EXPECT_TRUE(page.probes_in_worker());
  EXPECT_EQ(worker.starts, 1);
  EXPECT_TRUE(page.probes().running());
  page.advance_frame();
  EXPECT_TRUE(page.probes().heads.empty());  // the page probes nothing itself
  page.receive(worker.train(1));
  EXPECT_EQ(page.probes().heads.size(), 1u);  // a head at a time, each sent as it comes
  for (int k = 0; k < 10 && page.probes().running(); ++k) page.receive(worker.train(1));
  EXPECT_FALSE(page.probes().running());
  EXPECT_FALSE(page.probes_in_worker());
  EXPECT_EQ(page.probes().heads.size(), 8u);

  ASSERT_EQ(alone.start_probes(), "");
  alone.finish_probes();
  expect_same_probes(page.probes(), alone.probes());
}

TEST(TrainingWorker, PlayPressedWhileTheWorkerProbesLeavesTheProbesGoing) {
  InProcessWorker worker;
  TrainingSession page(test_resources());
  page.attach_worker(&worker);
  page.step(20);
  ASSERT_EQ(page.start_probes(), "");
  page.set_running(true);
  page.advance_frame();  // the run follows the probes to the worker, which had no run yet
  EXPECT_TRUE(page.training_in_worker());
  EXPECT_TRUE(page.probes_in_worker());
  for (int k = 0; k < 10 && page.probes().running(); ++k) page.receive(worker.train(3));
  EXPECT_FALSE(page.probes().running());
  EXPECT_EQ(page.probes().heads.size(), 8u);
  EXPECT_EQ(page.probes().step, 20);  // of the model they started on
  EXPECT_EQ(page.trainer()->steps_done(), 20 + 8 * 3);
}

TEST(TrainingWorker, WaitingForProbesMakesThemHereAndAFailedWorkerLeavesThemToThePage) {
  {
    InProcessWorker worker;
    TrainingSession page(test_resources()), alone(test_resources());
    page.attach_worker(&worker);
    page.step(20);
    alone.step(20);
    ASSERT_EQ(page.start_probes(), "");
    page.receive(worker.train(1));
    const WorkerUpdate late = worker.train(1);
    page.finish_probes();  // the API's wait: all of them, here and now
    EXPECT_FALSE(page.probes_in_worker());
    page.receive(late);  // of the probes that finish_probes took back
    ASSERT_EQ(alone.start_probes(), "");
    alone.finish_probes();
    expect_same_probes(page.probes(), alone.probes());
  }
  {
    InProcessWorker worker;
    TrainingSession page(test_resources());
    page.attach_worker(&worker);
    ASSERT_EQ(page.start_probes(), "");
    page.receive(worker.train(1));
    worker.alive = false;
    page.advance_frame();  // started over here, one head a frame
    EXPECT_FALSE(page.probes_in_worker());
    EXPECT_EQ(page.probes().heads.size(), 1u);
    for (int k = 0; k < 10 && page.probes().running(); ++k) page.advance_frame();
    EXPECT_EQ(page.probes().heads.size(), 8u);
  }
}

TEST(TrainingWorker, AnExperimentTrainedInTheWorkerIsTheExperimentThePageWouldHaveTrained) {
  InProcessWorker worker;
  TrainingSession page(test_resources()), alone(test_resources());
  page.attach_worker(&worker);
  ASSERT_EQ(page.start_experiment(), "");  // running
  ASSERT_EQ(alone.start_experiment(), "");
  alone.set_experiment_running(false);
  page.advance_frame();
  ASSERT_TRUE(page.experiment_in_worker());
  EXPECT_EQ(page.experiment()->steps_done(), 0);  // the page itself took no step
  for (int rounds : {40, 60, 30}) page.receive(worker.train(rounds));
  alone.step_experiment(130);
  EXPECT_EQ(page.experiment()->steps_done(), 130);
  EXPECT_EQ(page.experiment()->save_state(), alone.experiment()->save_state());  // the trainer under way too

  const WorkerUpdate late = worker.train(5);
  page.set_experiment_running(false);  // pause: it goes on later from the last update
  EXPECT_FALSE(page.experiment_in_worker());
  page.receive(late);
  EXPECT_EQ(page.experiment()->steps_done(), 130);
  page.advance_frame();
  EXPECT_EQ(page.experiment()->steps_done(), 130);
}

TEST(TrainingWorker, TheWorkerEndsTheExperimentWithItsLastRun) {
  InProcessWorker worker;
  TrainingSession page(test_resources());
  page.attach_worker(&worker);
  ASSERT_EQ(page.start_experiment(), "");
  page.advance_frame();
  ASSERT_TRUE(page.experiment_in_worker());
  // The worker's experiment, moved on to 3 steps before its end: every run but the last done
  // (their results made up), the last one's trainer at step 997 (its losses made up).
  WorkerRun near = worker.experiment_run;
  training::HeadCountExperiment e = *page.experiment();
  const std::size_t runs = e.runs().size();
  std::vector<std::uint8_t> state = e.save_state();
  const std::size_t header = 24, record = 12;
  for (std::size_t r = 0; r < runs; ++r) {
    const std::int32_t steps = r + 1 < runs ? kExperimentStepsPerRun : kExperimentStepsPerRun - 3;
    const float loss = 3.0f + r;
    const std::uint32_t done = r + 1 < runs;
    std::memcpy(state.data() + header + r * record, &steps, 4);
    std::memcpy(state.data() + header + r * record + 4, &loss, 4);
    std::memcpy(state.data() + header + r * record + 8, &done, 4);
  }
  const std::uint64_t current = runs - 1;
  std::memcpy(state.data() + 16, &current, 8);
  const training::TrainerConfig last_config = training::head_count_run_config(e.base(), e.runs().back());
  training::Trainer last = training::Trainer::create(last_config, test_resources().grammar).value();
  const std::vector<std::uint8_t> last_state = at_step(last.save_state(), kExperimentStepsPerRun - 3);
  state.insert(state.end(), last_state.begin(), last_state.end());
  near.state = state;
  ASSERT_EQ(worker.session.take_over(near), "");

  const WorkerUpdate update = worker.train(10);  // ends after three rounds
  EXPECT_FALSE(worker.session.has_jobs());
  page.receive(update);
  EXPECT_TRUE(page.experiment()->done());
  EXPECT_FALSE(page.experiment_running());
  EXPECT_FALSE(page.experiment_in_worker());
  EXPECT_EQ(page.experiment()->points().size(), 4u);
  EXPECT_EQ(page.experiment()->points()[0].runs, 3);
}

TEST(WorkerMessages, AComparisonTravelsAsOneStateAndTheHeadersOfEveryJobRoundTrip) {
  const std::vector<std::uint8_t> many = {1, 2, 3}, one = {4, 5};
  const ComparisonState parts = unpack_comparison_state(pack_comparison_state(many, one));
  EXPECT_EQ(parts.error, "");
  EXPECT_EQ(parts.many, many);
  EXPECT_EQ(parts.one, one);
  EXPECT_EQ(unpack_comparison_state({1, 2}).error, "comparison state: too short");
  std::vector<std::uint8_t> too_long = pack_comparison_state(many, one);
  too_long[0] = 9;
  EXPECT_EQ(unpack_comparison_state(too_long).error, "comparison state: its first trainer is longer than the state");

  for (WorkerJob job : {WorkerJob::run, WorkerJob::comparison, WorkerJob::probes, WorkerJob::experiment}) {
    WorkerRun run;
    run.job = job;
    run.generation = 3;
    run.seed = 5;
    run.learning_rate = 1.0f / 3000.0f;
    const Result<WorkerRun> run_back = decode_run_header(encode_run_header(run));
    ASSERT_TRUE(run_back.ok()) << run_back.error();
    EXPECT_EQ(run_back.value().job, job);
    EXPECT_EQ(run_back.value().seed, 5u);
    EXPECT_EQ(run_back.value().learning_rate, run.learning_rate);  // exactly
  }
  WorkerUpdate update;
  update.state = {7, 7};
  update.comparison_generation = 4;
  update.comparison_state = {1, 2, 3};
  update.comparison_paused = true;
  update.probes_generation = 6;
  update.probes = {{1, 2, 0.5f, 1.0f / 3.0f, 0.5f - 1.0f / 3.0f, 0.25f, 0.125f, 0.125f}};
  update.experiment_generation = 8;
  update.experiment_state = {9};
  const EncodedUpdate encoded = encode_update(update);
  EXPECT_EQ(encoded.bytes, (std::vector<std::uint8_t>{7, 7, 1, 2, 3, 9}));  // one buffer, in order
  const Result<WorkerUpdate> update_back = decode_update(encoded.header, encoded.bytes.data(), encoded.bytes.size());
  ASSERT_TRUE(update_back.ok()) << update_back.error();
  EXPECT_EQ(update_back.value().state, update.state);
  EXPECT_EQ(update_back.value().comparison_state, update.comparison_state);
  EXPECT_EQ(update_back.value().experiment_state, update.experiment_state);
  EXPECT_EQ(update_back.value().experiment_generation, 8u);
  EXPECT_EQ(decode_update(encoded.header, encoded.bytes.data(), 5).error(),
            "training update: its bytes are shorter than its header says");
  const std::vector<std::uint8_t> longer = {7, 7, 1, 2, 3, 9, 0};
  EXPECT_EQ(decode_update(encoded.header, longer.data(), longer.size()).error(),
            "training update: its bytes are longer than its header says");
  EXPECT_EQ(update_back.value().generation, 0u);
  EXPECT_EQ(update_back.value().comparison_generation, 4u);
  EXPECT_TRUE(update_back.value().comparison_paused);
  EXPECT_EQ(update_back.value().probes_generation, 6u);
  ASSERT_EQ(update_back.value().probes.size(), 1u);
  EXPECT_EQ(update_back.value().probes[0].head, 2);
  EXPECT_EQ(update_back.value().probes[0].pos_control_accuracy, 1.0f / 3.0f);  // exactly
  EXPECT_EQ(update_back.value().probes[0].pos_selectivity, 0.5f - 1.0f / 3.0f);
}

TEST(WorkerMessages, SamplesRoundTripExactlyAndBrokenMessagesSayWhy) {
  TimelineSample sample;
  sample.step = 300;
  sample.train_loss = 1.0f / 3.0f;
  sample.held_out_loss = NAN;
  sample.heads = {{analysis::Label::syntactic(analysis::Relation::nsubj), 0.7f, 0.25f, training::kHeadToDependent},
                  {analysis::Label::mixed_label(), 0.0f, 0.0f, 0}};
  sample.induction = {{1, 2, 0.123456789f, 0.5f, 0.25f}};
  sample.strongest_induction = sample.induction[0];
  sample.spreads = {{1.0 / 7.0, 2.5, 2.7, 9}};
  WorkerUpdate update;
  update.generation = 7;
  update.samples = {sample};
  const EncodedUpdate encoded = encode_update(update);
  const Result<WorkerUpdate> back = decode_update(encoded.header, encoded.bytes.data(), encoded.bytes.size());
  ASSERT_TRUE(back.ok()) << back.error();
  const TimelineSample& s = back.value().samples.at(0);
  EXPECT_EQ(back.value().generation, 7u);
  EXPECT_EQ(s.train_loss, sample.train_loss);
  EXPECT_TRUE(std::isnan(s.held_out_loss));
  EXPECT_EQ(s.heads[0].label.text(), "syntactic:nsubj");
  EXPECT_EQ(s.heads[0].direction, training::kHeadToDependent);
  EXPECT_EQ(s.induction[0].prefix_matching, sample.induction[0].prefix_matching);
  EXPECT_EQ(s.spreads[0].distance, sample.spreads[0].distance);
  EXPECT_EQ(s.spreads[0].rows, 9);

  EXPECT_EQ(decode_update("[1]", nullptr, 0).error(), "training update: not a JSON object");
  EXPECT_EQ(decode_update(R"({"generation": 1, "error": "", "samples": [{"step": "x"}]})", nullptr, 0).error(),
            "training update: expected an integer");
  EXPECT_FALSE(decode_run_header(R"({"generation": 1})").ok());
}

}  // namespace
}  // namespace headlab::app
