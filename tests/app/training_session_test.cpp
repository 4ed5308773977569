// The training session without a page: it trains within a frame budget (against a clock the test
// drives), samples the role timeline, probes on demand, compares one head with several, follows
// the lab's training requests and hands its model to the lab as one undoable edit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "api/api.h"
#include "app/training_session.h"
#include "engine/assets.h"
#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/training/gold_corpus.h"
#include "fake_clock.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

using nlohmann::json;

std::string lower_ascii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// ---- the session ----------------------------------------------------------------------------------

TEST(TrainingSession, StepsSampleTheTimelineAndTheLossFalls) {
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.ensure_started(), "");
  ASSERT_EQ(session.timeline().size(), 1u);  // step 0
  EXPECT_EQ(session.timeline()[0].step, 0);
  EXPECT_EQ(session.timeline()[0].heads.size(), 8u);  // 2 layers x 4 heads
  // Fresh heads attend almost evenly: no role yet but the lab's catch-all "broad".
  for (const HeadRole& role : session.timeline()[0].heads) EXPECT_TRUE(role.label.is(analysis::Role::broad) || role.label.mixed()) << role.label.text();
  EXPECT_EQ(session.reading().distinct_roles, 0) << "the blur every fresh head starts with is no learned role";
  session.step(300);
  EXPECT_EQ(session.trainer()->steps_done(), 300);
  ASSERT_EQ(session.timeline().size(), 4u);
  EXPECT_EQ(session.timeline()[3].step, 300);
  EXPECT_LT(session.timeline()[3].held_out_loss, session.timeline()[0].held_out_loss - 1.0f);
  EXPECT_LT(session.timeline()[3].train_loss, session.timeline()[1].train_loss);
}

TEST(TrainingSession, SameSeedSameRunOtherSeedOtherRun) {
  FakeClock clock;
  TrainingSession a(test_resources(), clock), b(test_resources(), clock);
  ASSERT_EQ(a.reset(3, 3e-3f), "");
  ASSERT_EQ(b.reset(3, 3e-3f), "");
  a.step(5);
  b.step(5);
  EXPECT_EQ(a.trainer()->loss_history(), b.trainer()->loss_history());
  ASSERT_EQ(b.reset(4, 3e-3f), "");
  b.step(5);
  EXPECT_NE(a.trainer()->loss_history(), b.trainer()->loss_history());
  EXPECT_EQ(b.settings().seed, 4u);
  EXPECT_EQ(b.timeline().size(), 1u);  // a new run starts a new timeline
}

TEST(TrainingSession, FramesTrainOnlyWhileRunning) {
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.ensure_started(), "");
  session.advance_frame();
  EXPECT_EQ(session.trainer()->steps_done(), 0);
  session.set_speed(0.5f);
  session.set_running(true);
  for (int frame = 0; frame < 30; ++frame) session.advance_frame();
  const int steps = session.trainer()->steps_done();
  EXPECT_GE(steps, 30);  // at least one step per frame, however slow the machine
  // How long a frame takes is measured by scripts/bench, not asserted here.
  EXPECT_LE(session.frame_budget_seconds(), kMaxFrameBudgetSeconds);
  session.set_running(false);
  session.advance_frame();
  EXPECT_EQ(session.trainer()->steps_done(), steps);
  EXPECT_EQ(session.frames(), 32u);
}

TEST(TrainingSession, LearningRateAndBudgetAreClamped) {
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  session.set_learning_rate(1.0f);
  EXPECT_FLOAT_EQ(session.settings().learning_rate, kMaxLearningRate);
  session.set_speed(0.0f);
  EXPECT_FLOAT_EQ(session.settings().speed, kMinSpeed);
}

TEST(TrainingSession, ProbesOneHeadPerFrame) {
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.ensure_started(), "");
  session.step(100);
  ASSERT_EQ(session.start_probes(), "");
  EXPECT_TRUE(session.probes().running());
  session.advance_frame();
  EXPECT_EQ(session.probes().heads.size(), 1u);
  session.finish_probes();
  ASSERT_EQ(session.probes().heads.size(), 8u);
  EXPECT_EQ(session.probes().step, 100);
  EXPECT_EQ(session.probes().heads[5].layer, 1);
  EXPECT_EQ(session.probes().heads[5].head, 1);
  for (const auto& h : session.probes().heads) {
    EXPECT_GE(h.pos_accuracy, 0.0f);
    EXPECT_LE(h.pos_accuracy, 1.0f);
    EXPECT_NEAR(h.pos_selectivity, h.pos_accuracy - h.pos_control_accuracy, 1e-5);
  }
}

TEST(TrainingSession, ComparisonTrainsOneBigAndSeveralSmallHeads) {
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.step_comparison(20), 20);
  EXPECT_FALSE(session.comparison_running());
  const training::HeadComparison* c = session.comparison();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->many.model().layers[0].head_count(), 4);
  EXPECT_EQ(c->many.model().layers[0].d_k, 16);
  EXPECT_EQ(c->one.model().layers[0].head_count(), 1);
  EXPECT_EQ(c->one.model().layers[0].d_k, 64);
  EXPECT_EQ(c->one.loss_history().size(), 20u);
  session.set_comparison_running(true);
  session.advance_frame();
  EXPECT_GT(c->many.steps_done(), 20);
  EXPECT_EQ(c->many.steps_done(), c->one.steps_done());
}

TEST(TrainingSession, UseInLabIsOneUndoableEditOnAnAnnotatedSentence) {
  AppState state;
  Controller controller(state, test_resources());
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  EXPECT_NE(session.use_in_lab(controller), "");  // nothing trained yet
  ASSERT_EQ(session.ensure_started(), "");
  session.step(10);
  ASSERT_EQ(session.use_in_lab(controller), "");
  EXPECT_EQ(state.document.model.layers.size(), 2u);
  EXPECT_FALSE(state.document.model.vocab.empty());
  EXPECT_TRUE(state.analysis.gold.has_gold) << state.document.input.text << ": " << state.analysis.gold.reason;
  ASSERT_TRUE(controller.undo());
  EXPECT_TRUE(state.document.model.vocab.empty());
}

TEST(TrainingSession, TheHeadsOverviewFollowsTrainingOnAPickedInput) {
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.ensure_started(), "");
  const HeadsSnapshot& snapshot = session.snapshot();
  EXPECT_EQ(snapshot.step, 0);
  ASSERT_EQ(snapshot.trace.layers.size(), 2u);
  EXPECT_EQ(snapshot.trace.layers[1].heads.size(), 4u);
  session.step(10);
  EXPECT_EQ(snapshot.step, 10);
  // The trace is the engine's forward pass of the trained model on the picked held-out sentence.
  session.set_snapshot_input(3);
  EXPECT_EQ(snapshot.input, 3);
  EXPECT_EQ(snapshot.texts.size(), snapshot.tokens.size());
  std::string joined;
  for (const std::string& text : snapshot.texts)
    if (text != "[CLS]" && text != "[SEP]") joined += (joined.empty() ? "" : " ") + text;
  EXPECT_EQ(lower_ascii(joined), lower_ascii(session.snapshot_input_text(3))) << "the input shown is the one picked";
  Trace expected;
  forward(session.trainer()->model(), embed(snapshot.tokens, session.trainer()->model()), expected);
  EXPECT_TRUE(expected.layers[1].heads[2].attention.isApprox(snapshot.trace.layers[1].heads[2].attention));
  session.set_snapshot_input(100000);
  EXPECT_EQ(snapshot.input, session.snapshot_input_count() - 1);
  // While it trains, frames refresh it, at most every kSnapshotSeconds.
  session.set_running(true);
  session.advance_frame();
  EXPECT_EQ(snapshot.step, 10);  // a few milliseconds since the last refresh
  clock.advance(kSnapshotSeconds);
  session.advance_frame();
  EXPECT_GT(snapshot.step, 10);
  EXPECT_LE(snapshot.step, session.trainer()->steps_done());
}

// One truth about a head: after "Use in lab", the lab's held-out label of every head (the labels
// panel's "On 60 held-out sentences" line) is the timeline's last entry for it.
TEST(TrainingSession, TheLabsHeldOutLabelsAreTheTimelinesLastEntry) {
  AppState state;
  Controller controller(state, test_resources());
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.ensure_started(), "");
  session.step(1000);
  const std::vector<HeadRole>& timeline = session.timeline().back().heads;
  ASSERT_EQ(session.timeline().back().step, 1000);
  ASSERT_EQ(session.use_in_lab(controller), "");
  const Model& lab_model = state.document.model;
  ASSERT_TRUE(trained_on_grammar(lab_model, test_resources().grammar));
  const HeldOutLabeller labeller =
      HeldOutLabeller::make(test_resources().grammar, test_resources().analysis.config, lab_model.special_tokens);
  const HeldOutReading lab = read_held_out(lab_model, test_resources().grammar, labeller);
  ASSERT_EQ(lab.heads.size(), timeline.size());
  int labelled = 0;
  for (std::size_t k = 0; k < timeline.size(); ++k) {
    EXPECT_EQ(lab.heads[k].label, timeline[k].label) << "head " << k;
    EXPECT_NEAR(lab.heads[k].score, timeline[k].score, 1e-4) << "head " << k;
    labelled += !timeline[k].label.mixed();
  }
  EXPECT_GE(labelled, 2) << "the comparison is about heads that have roles";
}

// ---- the induction task --------------------------------------------------------------------------

TEST(TrainingSession, InductionTaskSamplesEveryHeadsScoresOnRepeatedSequences) {
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.reset(1, 3e-3f, training::Task::induction), "");
  EXPECT_EQ(session.settings().task, training::Task::induction);
  const training::TrainerConfig expected = training::default_trainer_config(training::Task::induction);
  EXPECT_TRUE(session.trainer()->model().causal);
  EXPECT_FALSE(session.trainer()->model().layers[0].has_ffn);
  session.step(100);
  ASSERT_EQ(session.timeline().size(), 2u);  // steps 0 and 100
  const TimelineSample& sample = session.timeline().back();
  ASSERT_EQ(sample.induction.size(), 8u);
  ASSERT_EQ(sample.heads.size(), 8u);
  EXPECT_GT(sample.repeat_loss, 1.0f);  // no induction head yet: near ln 26
  for (const training::InductionHeadScores& head : sample.induction) {
    EXPECT_GE(head.prefix_matching, 0.0f);
    EXPECT_LT(head.prefix_matching, training::kInductionFormedScore);
  }
  EXPECT_EQ(session.phase_change_step(), -1);
  // The reading lesson goals see is the sample's.
  const lessons::TrainingReading reading = session.reading();
  EXPECT_EQ(reading.task, training::Task::induction);
  EXPECT_EQ(reading.steps, 100);
  ASSERT_EQ(reading.heads.size(), 8u);
  EXPECT_EQ(reading.heads[5].layer, 1);
  EXPECT_EQ(reading.heads[5].head, 1);
  EXPECT_FLOAT_EQ(reading.heads[5].prefix_matching, sample.induction[5].prefix_matching);
  // The same numbers as the CLI's report on the same held-out sequences.
  const training::RepeatedSequences held_out = training::held_out_repeated_segments(
      expected.induction, 1, session.settings().induction_held_out_count, expected.architecture.special_tokens);
  const training::InductionReport report = training::induction_report(session.trainer()->model(), held_out);
  for (std::size_t k = 0; k < report.heads.size(); ++k)
    EXPECT_FLOAT_EQ(sample.induction[k].prefix_matching, report.heads[k].prefix_matching);
  EXPECT_NE(session.start_probes(), "");  // random symbols have no parts of speech
}

TEST(TrainingSession, FollowsEachTrainingRequestOnceAndGoalsReadIt) {
  AppState state;
  Controller controller(state, test_resources());
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_TRUE(controller.apply(RequestTraining{training::Task::induction, 4, true, false}).ok());
  EXPECT_FALSE(controller.can_undo()) << "a training request is no edit";
  sync_training(controller, session);
  EXPECT_EQ(session.settings().task, training::Task::induction);
  EXPECT_EQ(session.settings().seed, 4u);
  EXPECT_TRUE(session.running());
  ASSERT_TRUE(state.training.has_value());
  EXPECT_EQ(state.training->task, training::Task::induction);
  EXPECT_EQ(state.training->steps, 0);
  session.step(100);
  session.set_running(false);
  sync_training(controller, session);  // the same request is not carried out again
  EXPECT_FALSE(session.running());
  EXPECT_EQ(session.trainer()->steps_done(), 100);
  EXPECT_EQ(state.training->steps, 100);
  // Same task and seed without `fresh` go on with the run; `fresh` starts over.
  controller.apply(RequestTraining{training::Task::induction, 4, true, false});
  sync_training(controller, session);
  EXPECT_EQ(session.trainer()->steps_done(), 100);
  EXPECT_TRUE(session.running());
  controller.apply(RequestTraining{training::Task::induction, 4, false, true});
  sync_training(controller, session);
  EXPECT_EQ(session.trainer()->steps_done(), 0);
  EXPECT_FALSE(session.running());
  controller.apply(RequestTraining{training::Task::grammar, 4, false, false});
  sync_training(controller, session);
  EXPECT_EQ(session.settings().task, training::Task::grammar);
  EXPECT_EQ(state.training->task, training::Task::grammar);
}

TEST(TrainingSession, UseInLabBringsTheInductionModelWithASymbolSequence) {
  AppState state;
  Controller controller(state, test_resources());
  FakeClock clock;
  TrainingSession session(test_resources(), clock);
  ASSERT_EQ(session.reset(1, 3e-3f, training::Task::induction), "");
  session.step(20);
  ASSERT_EQ(session.use_in_lab(controller), "");
  const Model& model = state.document.model;
  EXPECT_TRUE(model.causal);
  EXPECT_EQ(model.vocab.size(), 4u + 26u);
  // "F A J C ... F A J C": every token is a symbol the trained embedding knows, and one repeats.
  int unknown = 0, repeated = 0;
  std::set<std::string> seen;
  for (const Token& token : state.input.tokens) {
    if (token.is_special) continue;
    unknown += std::find(model.vocab.begin(), model.vocab.end(), token.key) == model.vocab.end();
    repeated += !seen.insert(token.key).second;
  }
  EXPECT_EQ(unknown, 0) << state.document.input.text;
  EXPECT_EQ(repeated, 10) << state.document.input.text;  // ten different symbols, written twice
  EXPECT_EQ(state.selection.layer, 1) << "the strongest induction head is selected";
  // The lab scores the induction roles on it.
  EXPECT_GT(state.analysis.layers[1].heads[0].scores.induction.rows, 0);
  EXPECT_TRUE(controller.undo());
}

// The claim of the training page, natively: after 3,000 steps (about 30 s in WebAssembly) distinct
// heads hold distinct, correct roles under the lab's labelling rules, and another seed hands the
// roles to other heads. (The lab's single-sentence guards, selectivity and sink, also apply to the
// held-out batch, so seed 2's verb -> subject head, accurate but attending sharply elsewhere too,
// is not labelled nsubj; seed 1's is.)
TEST(TrainingSession, HeadsSpecialiseAndSeedsAssignRolesDifferently) {
  std::vector<std::string> labels[2];
  for (int run = 0; run < 2; ++run) {
    FakeClock clock;
    TrainingSession session(test_resources(), clock);
    ASSERT_EQ(session.reset(run == 0 ? 1 : 2, 3e-3f), "");
    session.step(3000);
    for (const HeadRole& role : session.timeline().back().heads) labels[run].push_back(role.label.text());
    const auto has = [&](const char* label) {
      return std::find(labels[run].begin(), labels[run].end(), label) != labels[run].end();
    };
    const bool syntactic = std::any_of(labels[run].begin(), labels[run].end(),
                                       [](const std::string& l) { return l.rfind("syntactic:", 0) == 0; });
    if (run == 0) {
      EXPECT_TRUE(has("syntactic:nsubj"));
    }
    EXPECT_TRUE(syntactic) << "seed " << run + 1;
    EXPECT_TRUE(has("previous_token")) << "seed " << run + 1;
    int labelled = 0;
    for (const std::string& label : labels[run]) labelled += label != "mixed";
    EXPECT_GE(labelled, 4) << "seed " << run + 1;
  }
  EXPECT_NE(labels[0], labels[1]);
}

}  // namespace
}  // namespace headlab::app
