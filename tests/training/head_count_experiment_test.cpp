// One vs many as an experiment (head_count_experiment.h): the runs are the trainers they claim to
// be (same config, seed and held-out sentences give the same loss), the numbers reproduce, and the
// full experiment's numbers (docs/training.md) are printed by the Emergence run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "engine/training/evaluation.h"
#include "engine/training/head_count_experiment.h"
#include "engine/training/text_task.h"

namespace headlab::training {
namespace {

const Grammar& grammar() {
  static const Grammar g = load_grammar().value();
  return g;
}

TEST(HeadCountExperiment, RunsAreReproducibleTrainersOfTheSameWidth) {
  Result<HeadCountExperiment> made = HeadCountExperiment::create(TrainerConfig{}, grammar(), {1, 4}, {1, 2}, 15);
  ASSERT_TRUE(made.ok()) << made.error();
  HeadCountExperiment a = std::move(made).value();
  HeadCountExperiment b = HeadCountExperiment::create(TrainerConfig{}, grammar(), {1, 4}, {1, 2}, 15).value();
  EXPECT_EQ(a.steps_total(), 60);
  // Frames of odd sizes cross run boundaries; the results do not depend on them.
  while (!a.done()) a.step(7);
  EXPECT_EQ(b.step(1000), 60);
  EXPECT_EQ(b.step(10), 0);
  ASSERT_EQ(a.runs().size(), 4u);
  for (std::size_t r = 0; r < a.runs().size(); ++r) {
    EXPECT_TRUE(a.runs()[r].done);
    EXPECT_EQ(a.runs()[r].held_out_loss, b.runs()[r].held_out_loss);
  }
  // A run is the trainer of its head count and seed, scored on the Training tab's held-out set.
  TrainerConfig config;
  config.architecture.head_count = 4;
  config.seed = 2;
  Trainer trainer = Trainer::create(config, grammar()).value();
  trainer.step(15);
  EXPECT_EQ(trainer.model().layers[0].d_k, 16);
  const std::vector<Sentence> held_out = held_out_sentences(grammar(), 7, 60, config.architecture.special_tokens);
  EXPECT_EQ(a.runs()[3].heads, 4);  // seed-major: 1 and 4 heads of seed 1, then of seed 2
  EXPECT_EQ(a.runs()[3].seed, 2u);
  EXPECT_FLOAT_EQ(a.runs()[3].held_out_loss,
                  held_out_loss(trainer.model(), grammar(), held_out, config.objective, config.masking, 7));
  const std::vector<HeadCountPoint> points = a.points();
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[1].heads, 4);
  EXPECT_EQ(points[1].runs, 2);
  EXPECT_FLOAT_EQ(points[1].mean, (a.runs()[1].held_out_loss + a.runs()[3].held_out_loss) / 2);
  EXPECT_EQ(points[1].min, std::min(a.runs()[1].held_out_loss, a.runs()[3].held_out_loss));
  EXPECT_FALSE(HeadCountExperiment::create(TrainerConfig{}, grammar(), {3}, {1}, 10).ok()) << "3 does not divide 64";
}

// An experiment saved part-way (inside a run and between runs) and restored into a fresh one goes
// on exactly as if it had never stopped; bytes that do not fit are refused with a reason.
TEST(HeadCountExperiment, AnExperimentSavedPartWayGoesOnExactlyWhereItWas) {
  const auto make = [] { return HeadCountExperiment::create(TrainerConfig{}, grammar(), {1, 4}, {1}, 12).value(); };
  for (int first : {5, 12, 17}) {  // inside run 1, at its end, inside run 2
    HeadCountExperiment alone = make(), saved = make(), restored = make();
    saved.step(first);
    const std::vector<std::uint8_t> bytes = saved.save_state();
    ASSERT_EQ(restored.restore_state(bytes.data(), bytes.size()), "") << "after " << first;
    EXPECT_EQ(restored.steps_done(), first);
    EXPECT_EQ(restored.save_state(), bytes);
    restored.step(100);
    alone.step(100);
    ASSERT_TRUE(restored.done());
    for (std::size_t r = 0; r < alone.runs().size(); ++r)
      EXPECT_EQ(restored.runs()[r].held_out_loss, alone.runs()[r].held_out_loss) << "run " << r << ", saved after " << first;
  }
  HeadCountExperiment other = HeadCountExperiment::create(TrainerConfig{}, grammar(), {1, 2, 4}, {1}, 12).value();
  const std::vector<std::uint8_t> bytes = make().save_state();
  EXPECT_EQ(other.restore_state(bytes.data(), bytes.size()), "experiment state: 2 runs, this experiment has 3");
  EXPECT_EQ(other.restore_state(bytes.data(), 3), "experiment state: too short for its header");
  std::vector<std::uint8_t> broken = bytes;
  broken[0] ^= 1;
  EXPECT_EQ(other.restore_state(broken.data(), broken.size()), "experiment state: not an experiment state of this version");
}

// A corpus of `size` tokens cycling through `count` ids, with a few repeats so that there is
// something to learn beyond the unigram.
std::shared_ptr<TextCorpus> cycling_text(int size, int count) {
  auto corpus = std::make_shared<TextCorpus>();
  corpus->tokenizer = "test";
  for (int v = 0; v < size; ++v) corpus->vocabulary.push_back("t" + std::to_string(v));
  for (int i = 0; i < count; ++i) corpus->ids.push_back((i * 7 + i / 13) % size);
  return corpus;
}

// On real text a run is the text task's trainer of its head count and seed, scored by its loss on
// the held-out windows; the experiment saved part-way goes on exactly where it was.
TEST(HeadCountExperiment, OnTextEachRunIsTheTextTrainerScoredOnHeldOutWindows) {
  const HeadCountPlan plan = head_count_plan(Task::lm);
  EXPECT_EQ(plan.head_counts, (std::vector<int>{1, 2, 4, 8, 16}));
  EXPECT_EQ(plan.base.architecture.d_model, 64);
  const auto corpus = cycling_text(11, 3000);
  const std::vector<Sentence> held_out = held_out_text_windows(*cycling_text(11, 500), plan.base.text, 6);
  ASSERT_EQ(held_out.size(), 6u);
  const auto make = [&] { return HeadCountExperiment::create(plan.base, corpus, held_out, {1, 16}, {3}, 6).value(); };
  HeadCountExperiment e = make();
  HeadCountExperiment saved = make();
  saved.step(8);  // inside the second run
  const std::vector<std::uint8_t> bytes = saved.save_state();
  HeadCountExperiment restored = make();
  ASSERT_EQ(restored.restore_state(bytes.data(), bytes.size()), "");
  EXPECT_EQ(e.step(100), 12);
  restored.step(100);
  TrainerConfig config = head_count_run_config(plan.base, e.runs()[1]);
  EXPECT_EQ(config.architecture.head_count, 16);
  Trainer trainer = Trainer::create(config, corpus).value();
  EXPECT_EQ(trainer.model().layers[0].d_k, 4);
  trainer.step(6);
  EXPECT_FLOAT_EQ(e.runs()[1].held_out_loss, held_out_loss(trainer.model(), 11, held_out, config.objective, config.masking, 7));
  for (std::size_t r = 0; r < e.runs().size(); ++r) {
    EXPECT_TRUE(std::isfinite(e.runs()[r].held_out_loss));
    EXPECT_EQ(restored.runs()[r].held_out_loss, e.runs()[r].held_out_loss) << "run " << r;
  }
  EXPECT_FALSE(HeadCountExperiment::create(plan.base, corpus, {}, {1}, {1}, 5).ok()) << "no held-out windows";
  EXPECT_FALSE(HeadCountExperiment::create(TrainerConfig{}, corpus, held_out, {1}, {1}, 5).ok()) << "not the text task";
}

// The page's experiment, natively: the numbers docs/training.md reports.
TEST(EmergenceHeadCounts, TheFullExperiment) {
  const HeadCountPlan plan = head_count_plan(Task::grammar);
  HeadCountExperiment e = HeadCountExperiment::create(plan.base, grammar(), plan.head_counts, plan.seeds, plan.steps_per_run).value();
  while (!e.done()) e.step(500);
  for (const HeadCountRun& run : e.runs()) std::printf("heads %d seed %u: held-out loss %.3f\n", run.heads, run.seed, run.held_out_loss);
  for (const HeadCountPoint& p : e.points()) {
    std::printf("%d heads: mean %.3f, range %.3f to %.3f\n", p.heads, p.mean, p.min, p.max);
    EXPECT_EQ(p.runs, 3);
    EXPECT_TRUE(std::isfinite(p.mean));
    EXPECT_LT(p.max, 4.2f) << "every run learns something (uniform guessing over 67 words: ln 67 = 4.2)";
  }
}

}  // namespace
}  // namespace headlab::training
