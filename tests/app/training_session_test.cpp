// Training in the page (issue 7), without a page: the session trains within a frame budget, samples
// the role timeline, probes on demand, compares one head with several, hands its model to the lab
// as one undoable edit, and the API ops behind window.headlab drive all of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
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
#include "test_resources.h"

namespace headlab::app {
namespace {

using nlohmann::json;

std::string lower_ascii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}
// ---- head roles: the lab's labeller on hand-made attention ----------------------------------------
//
// One generated-style sentence, "[CLS] the dog often sees a cat . [SEP]", with its gold arcs; each
// case gives every row of a head one sharp target. The corpus baselines are set to 0.5, as if the
// fixed offsets of many held-out sentences had been counted.

constexpr int kTokens = 9;  // [CLS] the dog often sees a cat . [SEP]
enum : int { kCls, kThe, kDog, kOften, kSees, kA, kCat, kStop, kSep };

struct RoleFixture {
  training::Grammar grammar;
  training::Sentence sentence;
  analysis::Resources resources;
  Tokens tokens;

  RoleFixture() {
    Result<training::Grammar> loaded = training::load_grammar();
    EXPECT_TRUE(loaded.ok()) << loaded.error();
    grammar = std::move(loaded).value();
    const auto word = [&](const std::string& w) {
      const auto it = std::find(grammar.vocabulary.begin(), grammar.vocabulary.end(), w);
      EXPECT_NE(it, grammar.vocabulary.end()) << w;
      return static_cast<int>(it - grammar.vocabulary.begin());
    };
    const auto rel = [&](const char* r) { return grammar.relation_index(r); };
    using P = PartOfSpeech;
    sentence.tokens = {word(kClsToken), word("the"), word("dog"), word("often"), word("sees"),
                       word("a"),       word("cat"), word("."),   word(kSepToken)};
    sentence.pos = {P::special, P::det, P::noun, P::adv, P::verb, P::det, P::noun, P::punct, P::special};
    sentence.head = {-1, kDog, kSees, kSees, -1, kCat, kSees, kSees, -1};
    sentence.relation = {training::kRelationNone, rel("det"), rel("nsubj"), rel("advmod"), training::kRelationRoot,
                         rel("det"), rel("dobj"), rel("punct"), training::kRelationNone};
    resources.config = training::label_config_for(analysis::LabelConfig{}, grammar);
    resources.gold = training::gold_corpus({sentence}, grammar);
    for (analysis::FixedOffsetBaseline& b : resources.gold.baselines) b.accuracy = 0.5f;
    tokens = training::to_tokens(sentence, grammar);
  }

  // Row i puts `mass` on target(i) (itself for kSelf) and spreads the rest evenly; a kUniform row
  // is even throughout.
  static constexpr int kSelf = -1, kUniform = -2;
  HeadRole role(const std::function<int(int)>& target, float mass) const {
    Trace trace;
    trace.layers.resize(1);
    trace.layers[0].heads.resize(1);
    Matrix& A = trace.layers[0].heads[0].attention;  // (n, n), rows sum to 1
    A.resize(kTokens, kTokens);
    for (int i = 0; i < kTokens; ++i) {
      if (target(i) == kUniform) {
        A.row(i).setConstant(1.0f / kTokens);
        continue;
      }
      A.row(i).setConstant((1.0f - mass) / (kTokens - 1));
      A(i, target(i) == kSelf ? i : target(i)) = mass;
    }
    const auto pooled = analysis::label_heads_pooled({tokens}, {trace}, false, resources);
    EXPECT_EQ(pooled.size(), 1u);
    return head_role(pooled[0], resources.config);
  }
};

struct RoleCase {
  const char* name;
  std::function<int(int)> target;
  float mass;
  const char* label;
  int direction;
};

TEST(HeadRoles, TableOfCases) {
  const RoleFixture f;
  constexpr int kSelf = RoleFixture::kSelf, kUniform = RoleFixture::kUniform;
  const auto previous = [](int i) { return i > 0 ? i - 1 : 1; };
  const RoleCase cases[] = {
      {"nothing fires", [](int i) { return (i + 3) % kTokens; }, 0.6f, "mixed", 0},
      {"[CLS] sink", [](int) { return kCls; }, 0.7f, "cls", 0},
      {"delimiter sink", [](int) { return kSep; }, 0.7f, "delimiter", 0},
      {"strict previous token stays positional", previous, 0.8f, "previous_token", 0},
      {"self", [](int) { return kSelf; }, 0.8f, "self", 0},
      {"spread out", [](int) { return kUniform; }, 0.0f, "broad", 0},
      {"verb -> subject beats its baseline", [](int i) { return i == kSees ? kDog : kUniform; }, 0.8f,
       "syntactic:nsubj", training::kHeadToDependent},
      {"determiners -> nouns", [](int i) { return i == kThe ? kDog : i == kA ? kCat : kUniform; }, 0.8f,
       "syntactic:det", training::kDependentToHead},
      // One of two det arcs: 0.5, below 0.5 + 0.10; the even rows make it a broad head.
      {"below baseline + 0.10 is not syntax", [](int i) { return i == kThe ? kDog : i == kA ? kStop : kUniform; }, 0.8f,
       "broad", 0},
  };
  for (const RoleCase& c : cases) {
    const HeadRole role = f.role(c.target, c.mass);
    EXPECT_EQ(role.label.text(), c.label) << c.name;
    if (role.label.text().rfind("syntactic:", 0) == 0) {
      EXPECT_EQ(role.direction, c.direction) << c.name;
      EXPECT_FLOAT_EQ(role.baseline, 0.5f) << c.name;
    } else if (role.label.text() != "mixed") {
      EXPECT_GT(role.score, role.baseline) << c.name << ": the score passes the threshold reported with it";
    }
  }
}

// The lab excludes "punct" from syntax (attention to punctuation is the delimiter role), and the
// grammar's control relation (advmod) is excluded too: a head that only follows those arcs is no
// syntactic head.
TEST(HeadRoles, ExcludedAndControlRelationsNeverCount) {
  const RoleFixture f;
  EXPECT_NE(std::find(f.resources.config.syntactic_excluded_relations.begin(),
                      f.resources.config.syntactic_excluded_relations.end(), "advmod"),
            f.resources.config.syntactic_excluded_relations.end());
  for (const int dependent : {kOften, kStop}) {
    const HeadRole role =
        f.role([&](int i) { return i == dependent ? kSees : (i == kSees ? dependent : RoleFixture::kUniform); }, 0.9f);
    EXPECT_EQ(role.label.text().rfind("syntactic:", 0), std::string::npos) << role.label.text();
  }
}

// The training timeline and the lab label a model's heads with the same code: on one sentence the
// pooled label is exactly the lab's analyze(), and pooling a sentence with itself changes nothing.
TEST(HeadRoles, TrainingLabelsEqualTheLabsOnTheSameSentences) {
  Result<training::Grammar> grammar = training::load_grammar();
  ASSERT_TRUE(grammar.ok()) << grammar.error();
  training::TrainerConfig config;
  config.seed = 1;
  Result<training::Trainer> trainer = training::Trainer::create(config, grammar.value());
  ASSERT_TRUE(trainer.ok()) << trainer.error();
  trainer.value().step(600);
  const Model& model = trainer.value().model();
  const std::vector<training::Sentence> sentences = training::held_out_sentences(grammar.value(), 7, 12, true);
  analysis::Resources resources;
  resources.config = training::label_config_for(analysis::LabelConfig{}, grammar.value());
  resources.gold = training::gold_corpus(sentences, grammar.value());
  const training::HeldOutSet set = training::evaluate_sentences(model, grammar.value(), sentences);
  int labelled = 0;
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    analysis::Analysis lab;
    analysis::analyze(model, set.tokens[s], set.traces[s], resources, {}, lab);
    ASSERT_TRUE(lab.gold.has_gold) << lab.gold.reason;
    const auto pooled = analysis::label_heads_pooled({set.tokens[s]}, {set.traces[s]}, model.causal, resources);
    const auto twice = analysis::label_heads_pooled({set.tokens[s], set.tokens[s]}, {set.traces[s], set.traces[s]},
                                                    model.causal, resources);
    std::size_t k = 0;
    for (const analysis::LayerAnalysis& layer : lab.layers)
      for (const analysis::HeadAnalysis& head : layer.heads) {
        ASSERT_LT(k, pooled.size());
        EXPECT_EQ(pooled[k].label.text(), head.label.text()) << "sentence " << s << " head " << k;
        EXPECT_EQ(pooled[k].label.confidence, head.label.confidence);
        EXPECT_EQ(pooled[k].label.runners_up, head.label.runners_up);
        EXPECT_EQ(pooled[k].label.explanation, head.label.explanation);
        for (int r = 0; r < analysis::kRoleCount; ++r) {
          const auto role = static_cast<analysis::Role>(r);
          const float a = pooled[k].scores.score(role), b = head.scores.score(role);
          if (std::isnan(b)) {
            EXPECT_TRUE(std::isnan(a));
          } else {
            EXPECT_EQ(a, b) << analysis::role_id(role);
          }
          if (std::isnan(a)) {
            EXPECT_TRUE(std::isnan(twice[k].scores.score(role))) << analysis::role_id(role);  // no repeats
          } else {
            EXPECT_NEAR(twice[k].scores.score(role), a, 1e-6f) << analysis::role_id(role);
          }
        }
        EXPECT_EQ(twice[k].label.text(), head.label.text());
        labelled += !head.label.mixed();
        ++k;
      }
    EXPECT_EQ(k, pooled.size());
  }
  EXPECT_GT(labelled, 0);  // the comparison covers labelled heads, not only "mixed"
}

// ---- the session ----------------------------------------------------------------------------------

TEST(TrainingSession, StepsSampleTheTimelineAndTheLossFalls) {
  TrainingSession session(test_resources());
  ASSERT_EQ(session.ensure_started(), "");
  ASSERT_EQ(session.timeline().size(), 1u);  // step 0
  EXPECT_EQ(session.timeline()[0].step, 0);
  EXPECT_EQ(session.timeline()[0].heads.size(), 8u);  // 2 layers x 4 heads
  // Fresh heads attend almost evenly: no role yet but the lab's catch-all "broad".
  for (const HeadRole& role : session.timeline()[0].heads) EXPECT_TRUE(role.label.text() == "broad" || role.label.text() == "mixed") << role.label.text();
  session.step(300);
  EXPECT_EQ(session.trainer()->steps_done(), 300);
  ASSERT_EQ(session.timeline().size(), 4u);
  EXPECT_EQ(session.timeline()[3].step, 300);
  EXPECT_LT(session.timeline()[3].held_out_loss, session.timeline()[0].held_out_loss - 1.0f);
  EXPECT_LT(session.timeline()[3].train_loss, session.timeline()[1].train_loss);
}

TEST(TrainingSession, SameSeedSameRunOtherSeedOtherRun) {
  TrainingSession a(test_resources()), b(test_resources());
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
  TrainingSession session(test_resources());
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
  TrainingSession session(test_resources());
  session.set_learning_rate(1.0f);
  EXPECT_FLOAT_EQ(session.settings().learning_rate, kMaxLearningRate);
  session.set_speed(0.0f);
  EXPECT_FLOAT_EQ(session.settings().speed, kMinSpeed);
}

TEST(TrainingSession, ProbesOneHeadPerFrame) {
  TrainingSession session(test_resources());
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
  TrainingSession session(test_resources());
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
  TrainingSession session(test_resources());
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

// ---- the API ops ------------------------------------------------------------------------------------

json call(Controller& controller, TrainingSession* session, const json& request) {
  return json::parse(api::handle_request(controller, request.dump(), session));
}

TEST(TrainingApi, OpsAndErrors) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
  EXPECT_EQ(call(controller, nullptr, {{"op", "trainState"}})["error"], "training is not available here");
  json r = call(controller, &session, {{"op", "trainState"}});
  EXPECT_EQ(r["result"]["started"], false);
  r = call(controller, &session, {{"op", "trainStep"}, {"steps", 5}, {"losses", true}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["step"], 5);
  EXPECT_EQ(r["result"]["losses"].size(), 5u);
  EXPECT_EQ(r["result"]["roles"].size(), 8u);
  EXPECT_EQ(r["result"]["roles"][7]["layer"], 1);
  EXPECT_EQ(r["result"]["roles"][7]["head"], 3);
  r = call(controller, &session, {{"op", "trainStart"}, {"lr", 0.002}});
  EXPECT_EQ(r["result"]["running"], true);
  EXPECT_EQ(r["result"]["step"], 5);  // goes on with the same run
  EXPECT_FLOAT_EQ(r["result"]["learning_rate"].get<float>(), 0.002f);
  r = call(controller, &session, {{"op", "trainStart"}, {"seed", 9}});
  EXPECT_EQ(r["result"]["step"], 0);  // a seed starts a new run
  EXPECT_EQ(r["result"]["seed"], 9);
  EXPECT_EQ(call(controller, &session, {{"op", "trainPause"}})["result"]["running"], false);
  r = call(controller, &session, {{"op", "trainSettings"}, {"speed", 0.25}});
  EXPECT_FLOAT_EQ(r["result"]["speed"].get<float>(), 0.25f);
  r = call(controller, &session, {{"op", "compareHeads"}, {"steps", 3}, {"losses", true}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["one"]["losses"].size(), 3u);
  EXPECT_EQ(r["result"]["many"]["heads"], 4);
  r = call(controller, &session, {{"op", "probe"}, {"wait", true}});
  EXPECT_EQ(r["result"]["heads"].size(), 8u);
  r = call(controller, &session, {{"op", "trainBenchmark"}, {"seconds", 0.2}});
  EXPECT_GT(r["result"]["steps_per_second"].get<double>(), 1.0);
  EXPECT_TRUE(call(controller, &session, {{"op", "trainUseModel"}})["ok"]);
  EXPECT_EQ(controller.state().document.model.layers.size(), 2u);

  const std::pair<json, const char*> refused[] = {
      {{{"op", "trainStep"}, {"steps", 0}}, "steps: expected an integer in 1..5000"},
      {{{"op", "trainReset"}, {"seed", -1}}, "seed: expected an integer in 0..4294967295"},
      {{{"op", "trainStart"}, {"lr", "fast"}}, "lr: expected a number in"},
      {{{"op", "trainSettings"}, {"speed", 0.95}}, "speed: expected a number in [0.1, 0.8] (got 0.95)"},
      {{{"op", "trainSettings"}, {"seed", 2}}, "seed: a new seed is a new run (trainReset)"},
      {{{"op", "trainBenchmark"}, {"seconds", 100}}, "seconds: expected a number in [0.1, 60]"},
      {{{"op", "compareHeads"}, {"run", 1}}, "run: expected true or false"},
      // A field of the wrong type is refused, never thrown (an exception would abort the page).
      {{{"op", "trainState"}, {"losses", "yes"}}, "losses: expected true or false (got \"yes\")"},
      {{{"op", "trainStep"}, {"steps", 2}, {"loss", true}}, "loss: unknown field (trainStep takes steps, losses)"},
      {{{"op", "probe"}, {"wait", 1}}, "wait: expected true or false (got 1)"},
  };
  for (const auto& [request, message] : refused) {
    r = call(controller, &session, request);
    EXPECT_FALSE(r["ok"]) << request.dump();
    EXPECT_EQ(r["error"].get<std::string>().rfind(message, 0), 0u) << r.dump();
  }
}

TEST(TrainingSession, TheHeadsOverviewFollowsTrainingOnAPickedInput) {
  TrainingSession session(test_resources());
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
  // While it trains, frames refresh it (at most every kSnapshotSeconds).
  session.set_running(true);
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::duration<double>(kSnapshotSeconds * 2.5)) session.advance_frame();
  EXPECT_GT(snapshot.step, 10);
  EXPECT_LE(snapshot.step, session.trainer()->steps_done());
}

TEST(TrainingApi, TheHeadCountExperimentRunsByFramesOrBySteps) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
  json r = call(controller, &session, {{"op", "headCountExperiment"}, {"steps", 5}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["running"], false);
  EXPECT_EQ(r["result"]["step"], 5);
  EXPECT_EQ(r["result"]["total"], 12 * kExperimentStepsPerRun);
  ASSERT_EQ(r["result"]["runs"].size(), 12u);
  EXPECT_EQ(r["result"]["runs"][0]["heads"], 1);
  EXPECT_EQ(r["result"]["runs"][3]["heads"], 8);
  EXPECT_EQ(r["result"]["runs"][11]["heads"], 8);
  EXPECT_EQ(r["result"]["runs"][11]["seed"], 3);
  EXPECT_EQ(r["result"]["points"].size(), 4u);
  EXPECT_TRUE(r["result"]["points"][0]["mean"].is_null()) << "no run has finished";
  r = call(controller, &session, {{"op", "headCountExperiment"}, {"run", true}});
  EXPECT_EQ(r["result"]["running"], true);
  session.advance_frame();
  EXPECT_GT(session.experiment()->steps_done(), 5);
  EXPECT_FALSE(call(controller, &session, {{"op", "headCountExperiment"}, {"steps", 0}})["ok"]);
  EXPECT_TRUE(call(controller, &session, {{"op", "trainState"}})["result"]["experiment"].is_object());
}

// One truth about a head: after "Use in lab", the lab's held-out label of every head (the labels
// panel's "On 60 held-out sentences" line) is the timeline's last entry for it.
TEST(TrainingSession, TheLabsHeldOutLabelsAreTheTimelinesLastEntry) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
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
  TrainingSession session(test_resources());
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
  EXPECT_EQ(reading.task, "induction");
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
  TrainingSession session(test_resources());
  ASSERT_TRUE(controller.apply(RequestTraining{training::Task::induction, 4, true, false}).ok());
  EXPECT_FALSE(controller.can_undo()) << "a training request is no edit";
  sync_training(controller, session);
  EXPECT_EQ(session.settings().task, training::Task::induction);
  EXPECT_EQ(session.settings().seed, 4u);
  EXPECT_TRUE(session.running());
  ASSERT_TRUE(state.training.has_value());
  EXPECT_EQ(state.training->task, "induction");
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
  EXPECT_EQ(state.training->task, "grammar");
}

TEST(TrainingSession, UseInLabBringsTheInductionModelWithASymbolSequence) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
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

TEST(TrainingApi, TheTaskIsAFieldOfStartAndReset) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
  json r = call(controller, &session, {{"op", "trainReset"}, {"task", "induction"}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["task"], "induction");
  r = call(controller, &session, {{"op", "trainStep"}, {"steps", 100}});
  const json& head = r["result"]["timeline"][1]["heads"][4];
  EXPECT_EQ(head["layer"], 1);
  EXPECT_TRUE(head.contains("prefix_matching"));
  EXPECT_TRUE(r["result"]["timeline"][1].contains("repeat_loss"));
  EXPECT_TRUE(r["result"]["phase_change_step"].is_null());
  EXPECT_EQ(call(controller, &session, {{"op", "probe"}})["ok"], false);
  // trainStart with another task starts a new run of it.
  r = call(controller, &session, {{"op", "trainStart"}, {"task", "grammar"}});
  EXPECT_EQ(r["result"]["task"], "grammar");
  EXPECT_EQ(r["result"]["step"], 0);
  r = call(controller, &session, {{"op", "trainReset"}, {"task", "chess"}});
  EXPECT_EQ(r["error"].get<std::string>().rfind("task: expected one of", 0), 0u) << r.dump();
  // The lesson's request reaches the run before the next request.
  r = call(controller, &session, {{"op", "requestTraining"}, {"task", "induction"}, {"seed", 2}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(call(controller, &session, {{"op", "trainState"}})["result"]["task"], "induction");
  EXPECT_EQ(call(controller, &session, {{"op", "trainState"}})["result"]["seed"], 2);
}

// The claim of the training page, natively: after 3,000 steps (about 30 s in WebAssembly) distinct
// heads hold distinct, correct roles under the lab's labelling rules, and another seed hands the
// roles to other heads. (The lab's single-sentence guards, selectivity and sink, also apply to the
// held-out batch, so seed 2's verb -> subject head, accurate but attending sharply elsewhere too,
// is not labelled nsubj; seed 1's is.)
TEST(TrainingSession, HeadsSpecialiseAndSeedsAssignRolesDifferently) {
  std::vector<std::string> labels[2];
  for (int run = 0; run < 2; ++run) {
    TrainingSession session(test_resources());
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
