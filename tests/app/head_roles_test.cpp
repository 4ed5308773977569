// Head roles as the training timeline reads them: the lab's labeller on hand-made attention, and the
// pooled labels of training equal to the lab's own on the same sentences.
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
    if (role.label.is(analysis::Role::syntactic)) {
      EXPECT_EQ(role.direction, c.direction) << c.name;
      EXPECT_FLOAT_EQ(role.baseline, 0.5f) << c.name;
    } else if (!role.label.mixed()) {
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
    EXPECT_FALSE(role.label.is(analysis::Role::syntactic)) << role.label.text();
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

}  // namespace
}  // namespace headlab::app
