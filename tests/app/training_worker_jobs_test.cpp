// The worker's other jobs beside the run, without a page: the one-vs-many comparison, the probes of
// every head and the head-count experiment go to the worker the same way, and each ends up exactly
// as the page would have made it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "app/corpus_hand_over.h"
#include "in_process_worker.h"

namespace headlab::app {
namespace {

// Steps of each run of the grammar's experiment.
const int kGrammarExperimentSteps = training::head_count_plan(training::Task::grammar).steps_per_run;

// Every loss of both sides and every weight: a comparison is bit for bit the one the page trains.
void expect_same_comparison(const training::HeadComparison& a, const training::HeadComparison& b) {
  EXPECT_EQ(a.many.loss_history(), b.many.loss_history());
  EXPECT_EQ(a.one.loss_history(), b.one.loss_history());
  EXPECT_EQ(a.many.save_state(), b.many.save_state());
  EXPECT_EQ(a.one.save_state(), b.one.save_state());
}

// The comparison or the experiment started, running, on the page and in the session alone, which
// pauses it; one frame hands the page's to the worker.
void start_in_worker_and_alone(PageWithWorker& in_worker, WorkerJob job) {
  for (TrainingSession* session : {&in_worker.page, &in_worker.alone})
    ASSERT_EQ(job == WorkerJob::comparison ? session->start_comparison() : session->start_experiment(), "");
  in_worker.alone.set_job_running(job, false);
  in_worker.page.advance_frame();
  ASSERT_TRUE(in_worker.page.in_worker(job));
}

TEST(TrainingWorker, AComparisonTrainedInTheWorkerIsTheComparisonThePageWouldHaveTrained) {
  PageWithWorker in_worker;
  TrainingSession &page = in_worker.page, &alone = in_worker.alone;
  InProcessWorker& worker = in_worker.worker;
  ASSERT_NO_FATAL_FAILURE(start_in_worker_and_alone(in_worker, WorkerJob::comparison));
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
  PageWithWorker in_worker;
  TrainingSession& page = in_worker.page;
  InProcessWorker& worker = in_worker.worker;
  ASSERT_NO_FATAL_FAILURE(start_in_worker_and_alone(in_worker, WorkerJob::comparison));
  // The worker's comparison, moved on to five steps before the target.
  WorkerRun near = worker.comparison_run;
  const ComparisonState parts = unpack_comparison_state(near.state);
  ASSERT_EQ(parts.error, "");
  near.state = pack_comparison_state(at_step(parts.many, kComparisonTargetSteps - 5),
                                     at_step(parts.one, kComparisonTargetSteps - 5));
  ASSERT_EQ(worker.host.take_over(near), "");

  const WorkerUpdate update = worker.train(10);  // stops after five rounds
  EXPECT_TRUE(update.comparison_paused);
  EXPECT_FALSE(worker.host.has_jobs());
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
  PageWithWorker in_worker;
  TrainingSession& page = in_worker.page;
  ASSERT_NO_FATAL_FAILURE(start_in_worker_and_alone(in_worker, WorkerJob::comparison));
  page.receive(in_worker.worker.train(6));
  in_worker.worker.alive = false;
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
  PageWithWorker in_worker;
  TrainingSession &page = in_worker.page, &alone = in_worker.alone;
  InProcessWorker& worker = in_worker.worker;
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
  PageWithWorker in_worker;
  TrainingSession& page = in_worker.page;
  page.step(20);
  ASSERT_EQ(page.start_probes(), "");
  page.set_running(true);
  page.advance_frame();  // the run follows the probes to the worker, which had no run yet
  EXPECT_TRUE(page.training_in_worker());
  EXPECT_TRUE(page.probes_in_worker());
  for (int k = 0; k < 10 && page.probes().running(); ++k) page.receive(in_worker.worker.train(3));
  EXPECT_FALSE(page.probes().running());
  EXPECT_EQ(page.probes().heads.size(), 8u);
  EXPECT_EQ(page.probes().step, 20);  // of the model they started on
  EXPECT_EQ(page.trainer()->steps_done(), 20 + 8 * 3);
}

TEST(TrainingWorker, WaitingForProbesMakesThemHereAndAFailedWorkerLeavesThemToThePage) {
  {
    PageWithWorker in_worker;
    TrainingSession &page = in_worker.page, &alone = in_worker.alone;
    page.step(20);
    alone.step(20);
    ASSERT_EQ(page.start_probes(), "");
    page.receive(in_worker.worker.train(1));
    const WorkerUpdate late = in_worker.worker.train(1);
    page.finish_probes();  // the API's wait: all of them, here and now
    EXPECT_FALSE(page.probes_in_worker());
    page.receive(late);  // of the probes that finish_probes took back
    ASSERT_EQ(alone.start_probes(), "");
    alone.finish_probes();
    expect_same_probes(page.probes(), alone.probes());
  }
  {
    PageWithWorker in_worker;
    TrainingSession& page = in_worker.page;
    ASSERT_EQ(page.start_probes(), "");
    page.receive(in_worker.worker.train(1));
    in_worker.worker.alive = false;
    page.advance_frame();  // started over here, one head a frame
    EXPECT_FALSE(page.probes_in_worker());
    EXPECT_EQ(page.probes().heads.size(), 1u);
    for (int k = 0; k < 10 && page.probes().running(); ++k) page.advance_frame();
    EXPECT_EQ(page.probes().heads.size(), 8u);
  }
}

TEST(TrainingWorker, AnExperimentTrainedInTheWorkerIsTheExperimentThePageWouldHaveTrained) {
  PageWithWorker in_worker;
  TrainingSession &page = in_worker.page, &alone = in_worker.alone;
  InProcessWorker& worker = in_worker.worker;
  ASSERT_NO_FATAL_FAILURE(start_in_worker_and_alone(in_worker, WorkerJob::experiment));
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

// On real text the page waits for its sample, then the experiment goes to the worker with the
// text it trains on (the worker has no sample of its own) and comes back as the page would have
// trained it.
TEST(TrainingWorker, ATextExperimentGoesToTheWorkerWithItsText) {
  PageWithWorker in_worker;
  TrainingSession &page = in_worker.page, &alone = in_worker.alone;
  InProcessWorker& worker = in_worker.worker;
  LateCorpus& sample = *test_resources().text_corpus;
  *test_resources().text_corpus = LateCorpus{};
  ASSERT_EQ(page.start_experiment(training::Task::lm), "");
  EXPECT_TRUE(page.experiment_waiting());
  EXPECT_TRUE(sample.requested);
  EXPECT_EQ(page.experiment(), nullptr);
  page.advance_frame();
  EXPECT_TRUE(page.experiment_waiting());
  give_test_text_sample();
  page.advance_frame();  // starts it, then hands it over
  EXPECT_FALSE(page.experiment_waiting());
  ASSERT_NE(page.experiment(), nullptr);
  EXPECT_EQ(page.experiment_task(), training::Task::lm);
  EXPECT_EQ(page.experiment()->runs().size(), 15u);
  ASSERT_TRUE(page.in_worker(WorkerJob::experiment));
  EXPECT_EQ(worker.experiment_run.task, training::Task::lm);
  ASSERT_EQ(alone.start_experiment(training::Task::lm), "");
  alone.set_experiment_running(false);
  page.receive(worker.train(6));
  alone.step_experiment(6);
  EXPECT_EQ(page.experiment()->steps_done(), 6);
  EXPECT_EQ(page.experiment()->save_state(), alone.experiment()->save_state());
  // A sample that could not be had ends the wait with why.
  *test_resources().text_corpus = LateCorpus{};
  ASSERT_EQ(page.start_experiment(training::Task::lm), "");
  sample.error = "The text sample could not be downloaded: HTTP 404";
  page.advance_frame();
  EXPECT_FALSE(page.experiment_waiting());
  EXPECT_EQ(page.experiment_error(), "The text sample could not be downloaded: HTTP 404");
  give_test_text_sample();
}

// The sample's bytes read back to the same corpus; cut or broken bytes are refused.
TEST(TrainingWorker, TheTextSampleCrossesToTheWorkerIntact) {
  training::TextCorpus train, held_out;
  train.tokenizer = "text";
  train.vocabulary = {"a", "\xC4\xA0" "b", "c"};
  train.token_bytes = {"a", " b", "c"};
  train.ids = {0, 1, 2, 2, 1};
  held_out.ids = {2, 0};
  std::vector<std::uint8_t> bytes = {9, 9};
  append_corpus_bytes(train, held_out, bytes);
  training::TextCorpus train_back, held_back;
  const Result<std::size_t> read = read_corpus_bytes(bytes.data() + 2, bytes.size() - 2, train_back, held_back);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value(), bytes.size() - 2);
  EXPECT_EQ(train_back.tokenizer, "text");
  EXPECT_EQ(train_back.vocabulary, train.vocabulary);
  EXPECT_EQ(train_back.ids, train.ids);
  EXPECT_EQ(held_back.ids, held_out.ids);
  EXPECT_EQ(held_back.vocabulary, train.vocabulary);
  EXPECT_EQ(train_back.token_bytes, train.token_bytes);
  EXPECT_EQ(held_back.token_bytes, train.token_bytes);
  for (std::size_t cut = 0; cut + 2 < bytes.size(); ++cut)
    EXPECT_FALSE(read_corpus_bytes(bytes.data() + 2, cut, train_back, held_back).ok()) << cut;
  std::vector<std::uint8_t> out_of_range = bytes;
  out_of_range[out_of_range.size() - 4] = 7;  // the last held-out id: 7 of 3 tokens
  EXPECT_EQ(read_corpus_bytes(out_of_range.data() + 2, out_of_range.size() - 2, train_back, held_back).error(),
            "text sample: cut short or an id out of range");
}

TEST(TrainingWorker, TheWorkerEndsTheExperimentWithItsLastRun) {
  PageWithWorker in_worker;
  TrainingSession& page = in_worker.page;
  InProcessWorker& worker = in_worker.worker;
  ASSERT_NO_FATAL_FAILURE(start_in_worker_and_alone(in_worker, WorkerJob::experiment));
  // The worker's experiment, moved on to 3 steps before its end: every run but the last done
  // (their results made up), the last one's trainer at step 997 (its losses made up).
  WorkerRun near = worker.experiment_run;
  training::HeadCountExperiment e = *page.experiment();
  const std::size_t runs = e.runs().size();
  std::vector<std::uint8_t> state = e.save_state();
  const std::size_t header = 24, record = 12;
  for (std::size_t r = 0; r < runs; ++r) {
    const std::int32_t steps = r + 1 < runs ? kGrammarExperimentSteps : kGrammarExperimentSteps - 3;
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
  const std::vector<std::uint8_t> last_state = at_step(last.save_state(), kGrammarExperimentSteps - 3);
  state.insert(state.end(), last_state.begin(), last_state.end());
  near.state = state;
  ASSERT_EQ(worker.host.take_over(near), "");

  const WorkerUpdate update = worker.train(10);  // ends after three rounds
  EXPECT_FALSE(worker.host.has_jobs());
  page.receive(update);
  EXPECT_TRUE(page.experiment()->done());
  EXPECT_FALSE(page.experiment_running());
  EXPECT_FALSE(page.experiment_in_worker());
  EXPECT_EQ(page.experiment()->points().size(), 4u);
  EXPECT_EQ(page.experiment()->points()[0].runs, 3);
}

}  // namespace
}  // namespace headlab::app
