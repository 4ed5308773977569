// Hand-built heads on explicit X inputs (the tokens supply the metadata) get the intended label;
// uniform heads are broad; random heads are not positional; permuting heads permutes labels; a
// subject head beats the fixed-offset baseline only when it really tracks the arc.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>
#include <random>

#include "../app/test_resources.h"
#include "analysis_fixture.h"
#include "app/explanation_text.h"
#include "engine/analysis/explanation.h"
#include "engine/analysis/label.h"
#include "engine/training/task.h"
#include "engine/tokenizer.h"

namespace headlab::analysis {
namespace {

const std::vector<std::string> kFox = {"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", "."};
const std::vector<std::string> kDogBall = {"The", "dog", "with", "the", "red", "ball", "sleeps", "."};

// Logits (n, n) with `strength` where pick(i, j) holds and 0 elsewhere.
template <class Pick>
Matrix logits_where(int n, float strength, Pick pick) {
  Matrix L = Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (pick(i, j)) L(i, j) = strength;
  return L;
}

class LabelsTest : public AnalysisTest {};

struct HandBuilt {
  const char* name;
  std::vector<std::string> tokens;
  std::function<bool(int, int)> pick;  // the key(s) each query should attend to
  const char* label;
};

TEST_F(LabelsTest, HandBuiltHeadsOnExplicitInputsGetTheirLabel) {
  const std::vector<std::string> with_specials = {"[CLS]", "The", "cat", "chased", "the", "mouse", ".", "[SEP]"};
  const std::vector<std::string> rare = {"The", "aardvark", "ate", "the", "apple", "."};
  std::vector<std::string> long_sentence;  // 20 tokens without gold, for the local window
  for (int i = 0; i < 20; ++i) long_sentence.push_back("w" + std::to_string(i));
  const std::vector<HandBuilt> cases = {
      {"previous", kFox, [](int i, int j) { return j == i - 1; }, "previous_token"},
      {"next", kFox, [](int i, int j) { return j == i + 1; }, "next_token"},
      {"self", kFox, [](int i, int j) { return j == i; }, "self"},
      {"delimiter", kFox, [](int, int j) { return j == 9; }, "delimiter"},
      {"cls", with_specials, [](int, int j) { return j == 0; }, "cls"},
      {"sep", with_specials, [](int, int j) { return j == 7; }, "delimiter"},
      {"rare word", rare, [](int, int j) { return j == 1; }, "rare_word"},
      {"fox <-> dog", kFox, [](int i, int j) { return (i == 3 && j == 8) || (i == 8 && j == 3); }, "content_similarity"},
      {"local band", long_sentence, [](int i, int j) { return std::abs(i - j) <= 2; }, "local"},
      {"uniform", kFox, [](int, int) { return false; }, "broad"},
      // Only the verb row is sharp: jumps -> fox (its subject), the rest uniform.
      {"verb -> subject", kFox, [](int i, int j) { return i == 4 && j == 3; }, "syntactic:nsubj"},
      {"subject across a phrase", kDogBall, [](int i, int j) { return i == 6 && j == 1; }, "syntactic:nsubj"},
      // Determiners look at their noun three and two words on: det's fixed offset is +1.
      {"det -> noun", kFox, [](int i, int j) { return (i == 0 && j == 3) || (i == 6 && j == 8); }, "syntactic:det"},
  };
  for (const HandBuilt& c : cases) {
    SCOPED_TRACE(c.name);
    const int n = static_cast<int>(c.tokens.size());
    Document doc = explicit_document(c.tokens, 2);
    set_logits(doc, 1, logits_where(n, 12.0f, c.pick));
    const LabRun r = run(doc);
    const HeadAnalysis& head = r.head(0, 1);
    EXPECT_EQ(head.label.text(), c.label) << head.label.explanation;
    if (!head.label.mixed()) {
      EXPECT_GE(head.scores.score(*head.label.role), 0.9f) << head.label.explanation;
    }
    // Head 0 has zero logits: uniform, hence broad, whatever head 1 does.
    EXPECT_EQ(r.head(0, 0).label.text(), "broad");
  }
}

TEST_F(LabelsTest, ExplicitTokensSupplyTheMetadata) {
  Document doc = explicit_document(kFox, 1);
  const LabRun r = run(doc);
  EXPECT_TRUE(r.analysis.gold.has_gold);
  EXPECT_EQ(r.analysis.gold.sentence_id, "fox");
  EXPECT_EQ(r.analysis.sentence.delimiter_count, 1);
  EXPECT_EQ(r.analysis.sentence.rarest, 4);  // "jumps" has the lowest Zipf frequency
  EXPECT_TRUE(r.analysis.sentence.is_related(3, 8));  // fox, dog: animals
  // Without tokens the rows are t0, t1, ...: no gold, no delimiters, no rare word.
  Document bare = explicit_document(kFox, 1);
  bare.input.tokens.clear();
  const LabRun b = run(bare);
  EXPECT_FALSE(b.analysis.gold.has_gold);
  EXPECT_FALSE(b.analysis.gold.reason.empty());
  EXPECT_EQ(b.analysis.sentence.delimiter_count, 0);
  EXPECT_EQ(b.analysis.sentence.rarest, -1);
  EXPECT_TRUE(std::isnan(b.head(0, 0).scores.score(Role::syntactic)));
}

// "x q m z x q m z": random symbols repeated once (period 4). On the second half, an induction
// head attends to the token after the earlier copy (i - 3), a duplicate-token head to the copy
// itself (i - 4), a previous-token head to i - 1; the first half has no repeats and stays uniform.
TEST_F(LabelsTest, RepeatHeadsOnARepeatedSequenceAreToldApart) {
  const std::vector<std::string> repeated = {"x", "q", "m", "z", "x", "q", "m", "z"};
  constexpr int kPeriod = 4;
  struct Case {
    const char* name;
    std::function<bool(int, int)> pick;
    const char* label;
    float max_induction, max_duplicate;
  };
  const Case cases[] = {
      {"induction", [](int i, int j) { return i >= kPeriod && j == i - kPeriod + 1; }, "induction", 1.0f, 0.05f},
      {"duplicate", [](int i, int j) { return i >= kPeriod && j == i - kPeriod; }, "duplicate_token", 0.05f, 1.0f},
      {"previous", [](int i, int j) { return j == i - 1; }, "previous_token", 0.05f, 0.05f},
  };
  for (bool causal : {false, true}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.name) + (causal ? ", causal" : ""));
      Document doc = explicit_document(repeated, 1);
      doc.model.causal = causal;
      set_logits(doc, 0, logits_where(8, 12.0f, c.pick));
      const LabRun r = run(doc);
      const HeadAnalysis& head = r.head(0, 0);
      EXPECT_EQ(head.label.text(), c.label) << head.label.explanation;
      EXPECT_EQ(head.scores.induction.rows, 4);  // the second x, q, m, z
      EXPECT_LE(head.scores.score(Role::induction), c.max_induction);
      EXPECT_LE(head.scores.score(Role::duplicate_token), c.max_duplicate);
      EXPECT_GE(head.scores.score(*head.label.role), 0.9f);
    }
  }
}

TEST_F(LabelsTest, RepeatRolesAreNotScoredWithoutRepeatsAndNotFooledBySinks) {
  // No token repeats: both roles unavailable (NaN), whatever the head does.
  Document plain = explicit_document({"x", "q", "m", "z"}, 1);
  const LabRun p = run(plain);
  EXPECT_EQ(p.head(0, 0).scores.induction.rows, 0);
  EXPECT_TRUE(std::isnan(p.head(0, 0).scores.score(Role::induction)));
  EXPECT_TRUE(std::isnan(p.head(0, 0).scores.score(Role::duplicate_token)));
  // Every row on "q": the repeated x's induction target is q too, but so is everyone's target.
  Document sink = explicit_document({"x", "q", "m", "z", "x", "w"}, 1);
  set_logits(sink, 0, logits_where(6, 12.0f, [](int, int j) { return j == 1; }));
  const LabRun s = run(sink);
  EXPECT_GT(s.head(0, 0).scores.induction.mass, 0.9f);
  EXPECT_NE(s.head(0, 0).label.text(), "induction");
  // Case does not matter; punctuation never counts as a repeat.
  Document cased = explicit_document({"The", "cat", ".", "the", "dog", "."}, 1);
  const LabRun k = run(cased);
  EXPECT_EQ(k.head(0, 0).scores.duplicate_token.rows, 1);
  EXPECT_EQ(k.head(0, 0).scores.induction.rows, 1);
}

TEST_F(LabelsTest, StrictlyPositionalHeadsStayPositionalWhenTheOffsetHitsAnArc) {
  // On the fox sentence the subject is the verb's previous token: a previous-token head "hits"
  // nsubj, but Voita et al. would call it positional, and so do we.
  Document doc = explicit_document(kFox, 1);
  set_logits(doc, 0, logits_where(10, 12.0f, [](int i, int j) { return j == i - 1; }));
  const LabRun r = run(doc);
  EXPECT_EQ(r.head(0, 0).label.text(), "previous_token");
  EXPECT_TRUE(r.head(0, 0).label.strict);
}

TEST_F(LabelsTest, SubjectHeadBeatsTheBaselineOnlyWhenItTracksTheArc) {
  // "The dog with the red ball sleeps.": subject "dog" (1) is five words before "sleeps" (6).
  struct Case {
    const char* name;
    std::function<bool(int, int)> pick;
    bool claims_nsubj;
  };
  const std::vector<Case> cases = {
      {"tracks the subject", [](int i, int j) { return i == 6 && j == 1; }, true},
      {"nearest noun (ball)", [](int i, int j) { return i == 6 && j == 5; }, false},
      {"previous token", [](int i, int j) { return j == i - 1; }, false},
      {"subject attends to verb", [](int i, int j) { return i == 1 && j == 6; }, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Document doc = explicit_document(kDogBall, 1);
    set_logits(doc, 0, logits_where(8, 12.0f, c.pick));
    const LabRun r = run(doc);
    const SyntacticScore& s = r.head(0, 0).scores.syntactic;
    ASSERT_TRUE(s.evaluated);
    const RelationScore* nsubj = nullptr;
    for (const RelationScore& rel : s.relations)
      if (resources().gold.relations[rel.relation].id == "nsubj") nsubj = &rel;
    ASSERT_NE(nsubj, nullptr);
    EXPECT_EQ(nsubj->claimed, c.claims_nsubj) << "accuracy " << nsubj->accuracy << " baseline " << nsubj->baseline;
    EXPECT_EQ(r.head(0, 0).label.text() == "syntactic:nsubj", c.claims_nsubj) << r.head(0, 0).label.explanation;
  }
}

TEST_F(LabelsTest, AHeadThatLinksBothEndsIsNamedBothWaysNotOneArrow) {
  // The subject looks at its verb and the verb at its subject: naming one direction would let a
  // one-arc difference flip the arrow from one training sample to the next.
  const auto nsubj_of = [&](const LabRun& r) -> const RelationScore* {
    for (const RelationScore& rel : r.head(0, 0).scores.syntactic.relations)
      if (resources().gold.relations[rel.relation].id == "nsubj") return &rel;
    return nullptr;
  };
  Document both = explicit_document(kDogBall, 1);
  set_logits(both, 0, logits_where(8, 12.0f, [](int i, int j) { return (i == 6 && j == 1) || (i == 1 && j == 6); }));
  const LabRun b = run(both);
  ASSERT_NE(nsubj_of(b), nullptr);
  EXPECT_TRUE(nsubj_of(b)->both_ways);
  EXPECT_EQ(b.head(0, 0).label.text(), "syntactic:nsubj");
  EXPECT_NE(b.head(0, 0).label.explanation.find("look at each other"), std::string::npos) << b.head(0, 0).label.explanation;

  Document one = explicit_document(kDogBall, 1);
  set_logits(one, 0, logits_where(8, 12.0f, [](int i, int j) { return i == 6 && j == 1; }));
  const LabRun o = run(one);
  ASSERT_NE(nsubj_of(o), nullptr);
  EXPECT_FALSE(nsubj_of(o)->both_ways);
  EXPECT_TRUE(nsubj_of(o)->head_to_dependent);
  EXPECT_EQ(o.head(0, 0).label.explanation.find("each other"), std::string::npos);
}

TEST_F(LabelsTest, ColumnVariantIsReported) {
  // Only "dog" is looked at by "sleeps" (column of dog peaks at sleeps): the row variant of the
  // dependent -> head direction misses (dog looks evenly), the column variant finds it.
  Document doc = explicit_document(kDogBall, 1);
  set_logits(doc, 0, logits_where(8, 12.0f, [](int i, int j) { return i == 6 && j == 1; }));
  const LabRun r = run(doc);
  const SyntacticScore& s = r.head(0, 0).scores.syntactic;
  ASSERT_GE(s.column_best, 0);
  EXPECT_EQ(resources().gold.relations[s.relations[s.column_best].relation].id, "nsubj");
  EXPECT_FLOAT_EQ(s.column_accuracy, 1.0f);
  EXPECT_FALSE(s.column_head_to_dependent);  // the dependent's column names its head
}

TEST_F(LabelsTest, NoGoldMeansNoSyntacticLabelAndAReason) {
  Document doc = text_document("A zebra walked near the river.");
  ASSERT_EQ(apply_preset(doc.model, 0, 0, preset("verb_subject")), "");
  const LabRun r = run(doc);
  EXPECT_FALSE(r.analysis.gold.has_gold);
  EXPECT_NE(r.analysis.gold.reason.find("no hand-checked parse"), std::string::npos);
  for (const HeadAnalysis& h : r.analysis.layers[0].heads) {
    EXPECT_EQ(h.label.text().rfind("syntactic", 0), std::string::npos);
    EXPECT_FALSE(h.scores.syntactic.evaluated);
  }
  // An annotated sentence without a parse says so.
  const LabRun t = run(text_document(sentence_text("time_flies")));
  EXPECT_FALSE(t.analysis.gold.has_gold);
  EXPECT_EQ(t.analysis.gold.sentence_id, "time_flies");
  // Special tokens do not stop the match.
  Document with_specials = text_document(sentence_text("fox"));
  with_specials.model.special_tokens = true;
  const LabRun s = run(with_specials);
  EXPECT_TRUE(s.analysis.gold.has_gold);
  EXPECT_EQ(s.analysis.sentence.gold.input_index.front(), 1);
}

TEST_F(LabelsTest, MixedHeadsListTheRunnersUp) {
  // Half on the previous token, half on the period: neither role reaches its threshold.
  Document doc = explicit_document(kFox, 1);
  set_logits(doc, 0, logits_where(10, 12.0f, [](int i, int j) { return j == 9 || (j == i - 1 && i != 9) || (i == 0 && j == 0); }));
  const LabRun r = run(doc);
  const HeadLabel& label = r.head(0, 0).label;
  EXPECT_TRUE(label.mixed()) << label.text() << ": " << label.explanation;
  EXPECT_EQ(label.text(), "mixed");
  ASSERT_GE(label.runners_up.size(), 2u);
  const auto has = [&](Role role) {
    return std::find(label.runners_up.begin(), label.runners_up.end(), role) != label.runners_up.end();
  };
  EXPECT_TRUE(has(Role::previous_token));
  EXPECT_TRUE(has(Role::delimiter));
  EXPECT_NE(label.explanation.find("Closest"), std::string::npos);
  // The same sentence from its template: role ids become names, in English and in Chinese.
  EXPECT_EQ(label.explanation_id, std::string("mixed_two"));
  ASSERT_EQ(label.explanation_values.size(), 6u);
  const app::Resources& app_resources = app::test_resources();
  EXPECT_EQ(app::explanation_text(label, app_resources, app::Language::en), label.explanation);
  const std::string zh = app::explanation_text(label, app_resources, app::Language::zh);
  EXPECT_NE(zh.find("\xE6\x9C\x80\xE6\x8E\xA5\xE8\xBF\x91"), std::string::npos) << zh;  // "最接近"
  Role first;
  ASSERT_TRUE(role_from_id(label.explanation_values[0], first));
  EXPECT_NE(zh.find(app_resources.role_names[static_cast<int>(first)].zh), std::string::npos) << zh;
  EXPECT_NE(zh.find(label.explanation_values[1]), std::string::npos) << zh;
  EXPECT_EQ(zh.find('{'), std::string::npos) << zh;
}

// A closest role whose score passes but a guard does not: the explanation says which guard, in
// both languages, instead of a "needs" the score already meets.
TEST_F(LabelsTest, AMixedHeadWhoseClosestRolePassesSaysWhatHeldItBack) {
  struct Case {
    const char* name;
    Matrix logits;
    Role closest;             // the role listed first, passing but held back
    RoleGuard guard;          // what held it back
    const char* explanation_id;
    RoleGuard syntactic;      // what held the syntactic role back
  };
  // "sleeps" (6) leans towards its subject "dog" (1), a little: the right word, too little weight;
  // the other words split between themselves and the word before.
  Matrix weak = logits_where(8, 4.0f, [](int i, int j) { return i != 6 && (j == i || j == i - 1); });
  weak(6, 1) = 1.0f;
  const std::vector<Case> cases = {
      {"weak", weak, Role::syntactic, RoleGuard::weak_partner, "mixed_weak_partner", RoleGuard::weak_partner},
      // Every word on "dog": the verb finds its subject, but so does everything else; and the
      // second "the" looks at what followed the first, "dog", as every word does.
      {"sink", logits_where(8, 12.0f, [](int i, int j) { return j == 1 && i != 1; }), Role::induction,
       RoleGuard::shared_keys, "mixed_shared_keys", RoleGuard::sink},
  };
  const app::Resources& app_resources = app::test_resources();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Document doc = explicit_document(kDogBall, 1);
    set_logits(doc, 0, c.logits);
    const LabRun r = run(doc);
    const HeadAnalysis& head = r.head(0, 0);
    const auto status = role_status(head.scores, resources().config);
    ASSERT_TRUE(head.label.mixed()) << head.label.text() << ": " << head.label.explanation;
    EXPECT_EQ(roles_by_progress(status, head.label.role).front(), c.closest) << "the lab lists it first";
    const RoleStatus& closest = status[static_cast<int>(c.closest)];
    EXPECT_GE(closest.score, closest.threshold) << "the score passes";
    EXPECT_FALSE(closest.fires);
    EXPECT_EQ(closest.guard, c.guard);
    EXPECT_EQ(status[static_cast<int>(Role::syntactic)].guard, c.syntactic);
    EXPECT_EQ(head.label.explanation_id, std::string(c.explanation_id)) << head.label.explanation;
    EXPECT_NE(head.label.explanation.find("held back"), std::string::npos) << head.label.explanation;
    const std::string zh = app::explanation_text(head.label, app_resources, app::Language::zh);
    EXPECT_NE(zh.find("\xE6\xB2\xA1\xE6\x9C\x89\xE9\x80\x9A\xE8\xBF\x87"), std::string::npos) << zh;  // "没有通过"
    EXPECT_EQ(zh.find('{'), std::string::npos) << zh;
  }
}

TEST_F(LabelsTest, LocalWindowIsAnOption) {
  std::vector<std::string> tokens;
  for (int i = 0; i < 24; ++i) tokens.push_back("w" + std::to_string(i));
  Document doc = explicit_document(tokens, 1);
  set_logits(doc, 0, logits_where(24, 12.0f, [](int i, int j) { return std::abs(i - j) <= 3; }));
  AnalysisOptions narrow;
  narrow.local_window = 1;
  const LabRun r1 = run(doc, narrow);
  EXPECT_LT(r1.head(0, 0).scores.local.mass, 0.7f);
  AnalysisOptions wide;
  wide.local_window = 3;
  const LabRun r3 = run(doc, wide);
  EXPECT_GT(r3.head(0, 0).scores.local.mass, 0.99f);
  EXPECT_EQ(r3.head(0, 0).label.text(), "local");
}

TEST_F(LabelsTest, RandomHeadsAreNotPositional) {
  int heads_seen = 0;
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    for (const float scale : {1.0f, 4.0f}) {  // default init, and sharper random heads
      Document doc = text_document(sentence_text(seed % 2 ? "fox" : "three_animals"), 4, seed);
      for (Layer& layer : doc.model.layers)
        for (HeadWeights& w : layer.heads) w.W_Q *= scale;
      const LabRun r = run(doc);
      for (const HeadAnalysis& h : r.analysis.layers[0].heads) {
        ++heads_seen;
        EXPECT_NE(h.label.text(), "previous_token") << "seed " << seed << ": " << h.label.explanation;
        EXPECT_NE(h.label.text(), "next_token") << "seed " << seed << ": " << h.label.explanation;
        EXPECT_NE(h.label.text(), "local") << "seed " << seed << ": " << h.label.explanation;
        EXPECT_LT(h.scores.previous_token.argmax_share, 0.9f);
        EXPECT_LT(h.scores.next_token.argmax_share, 0.9f);
      }
    }
  }
  EXPECT_EQ(heads_seen, 480);
}

TEST_F(LabelsTest, RandomSharpHeadsRarelyClaimSyntax) {
  // With one or two arcs per relation, a head that attends sharply at random hits some relation
  // by chance; the selectivity and sink guards keep such claims rare (docs/labels.md).
  int heads = 0, claims = 0;
  for (const GoldSentence& s : resources().gold.sentences) {
    if (!s.has_parse) continue;
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
      Document doc = text_document(s.text, 4, seed);
      for (HeadWeights& w : doc.model.layers[0].heads) w.W_Q *= 4.0f;
      const LabRun r = run(doc);
      for (const HeadAnalysis& h : r.analysis.layers[0].heads) {
        ++heads;
        claims += h.label.text().rfind("syntactic", 0) == 0;
      }
    }
  }
  EXPECT_EQ(heads, 20 * 12 * 4);
  EXPECT_LT(claims, heads / 50) << claims << " of " << heads << " random heads were labelled syntactic";
}

TEST_F(LabelsTest, PermutingHeadsPermutesLabels) {
  Document doc = text_document(sentence_text("fox"), 4);
  const char* ids[] = {"previous_token", "delimiter", "content_similarity", "uniform"};
  for (int h = 0; h < 4; ++h) ASSERT_EQ(apply_preset(doc.model, 0, h, preset(ids[h])), "");
  std::mt19937 rng(3);
  for (int h = 0; h < 4; ++h) doc.model.layers[0].W_O.middleRows(h * 6, 6) = test_random(6, 24, rng);
  const LabRun before = run(doc);
  const std::vector<int> permutation = {2, 0, 3, 1};  // new head k is old head permutation[k]
  Document permuted = doc;
  Layer& layer = permuted.model.layers[0];
  for (int k = 0; k < 4; ++k) {
    layer.heads[k] = doc.model.layers[0].heads[permutation[k]];
    layer.W_O.middleRows(k * 6, 6) = doc.model.layers[0].W_O.middleRows(permutation[k] * 6, 6);
  }
  const LabRun after = run(permuted);
  const Matrix before_distance = redundancy_of(before, 0).distance, after_distance = redundancy_of(after, 0).distance;
  for (int k = 0; k < 4; ++k) {
    const HeadAnalysis& a = after.head(0, k);
    const HeadAnalysis& b = before.head(0, permutation[k]);
    EXPECT_EQ(a.label.text(), b.label.text());
    EXPECT_EQ(a.label.explanation, b.label.explanation);
    for (int role = 0; role < kRoleCount; ++role) {
      const float x = a.scores.score(static_cast<Role>(role)), y = b.scores.score(static_cast<Role>(role));
      if (!std::isnan(y)) {
        EXPECT_FLOAT_EQ(x, y);
      }
    }
    EXPECT_NEAR(a.importance, b.importance, 1e-5f);
    for (int m = 0; m < 4; ++m)
      EXPECT_NEAR(after_distance(k, m), before_distance(permutation[k], permutation[m]), 1e-5f);
  }
}

TEST_F(LabelsTest, LayerSummaryCountsLabels) {
  Document doc = text_document(sentence_text("fox"), 4);
  ASSERT_EQ(apply_preset(doc.model, 0, 0, preset("previous_token")), "");
  ASSERT_EQ(apply_preset(doc.model, 0, 1, preset("next_token")), "");
  ASSERT_EQ(apply_preset(doc.model, 0, 2, preset("uniform")), "");
  ASSERT_EQ(apply_preset(doc.model, 0, 3, preset("uniform")), "");
  const LabRun r = run(doc);
  const LayerSummary& s = r.analysis.layers[0].summary;
  EXPECT_EQ(s.label_counts[static_cast<int>(Role::previous_token)], 1);
  EXPECT_EQ(s.label_counts[static_cast<int>(Role::next_token)], 1);
  EXPECT_EQ(s.label_counts[static_cast<int>(Role::broad)], 2);
  EXPECT_EQ(s.mixed_count, 0);
  float expected = 0;
  for (const HeadAnalysis& h : r.analysis.layers[0].heads) expected += h.scores.broad / 4;
  EXPECT_FLOAT_EQ(s.mean_scores[static_cast<int>(Role::broad)], expected);
}

// Explanations print scores with format_fixed instead of printf: the same text for scores,
// thresholds, exact halves (0.125 -> "0.12", 0.375 -> "0.38"), signs and values printf rounds up.
TEST(FormatFixed, WritesWhatPrintfWrites) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<double> values = {0.0, -0.0, 0.125, 0.375, 0.005, 0.015, 0.995, 0.9999, 1.0, 2.5, 0.25, 0.05,
                                -0.001, -0.125, 1e-30, 7.0, 12.345, 999999.995, 1e12, std::nan("")};
  for (int k = 0; k < 20000; ++k) values.push_back(unit(rng) * (k % 7 == 0 ? 10.0f : 1.0f));
  for (int k = 0; k <= 1000; ++k) values.push_back(k / 1000.0f);  // floats near every 3-digit decimal
  for (int k = 0; k <= 800; ++k) values.push_back(k / 800.0);     // exact binary halves among them
  for (const double value : values)
    for (int decimals = 0; decimals <= 3; ++decimals) {
      char expected[64], actual[64];
      std::snprintf(expected, sizeof expected, "%.*f", decimals, value);
      const int length = format_fixed(value, decimals, actual, sizeof actual);
      EXPECT_STREQ(actual, expected) << value << " with " << decimals << " decimals";
      EXPECT_EQ(length, static_cast<int>(std::strlen(expected)));
    }
}

// Every label the analysis can give is written as the text the JS API, the CLI and the lessons read,
// and that text parses back to the same label; anything else is refused.
TEST(LabelText, EveryLabelRoundTripsAndOtherTextIsRefused) {
  std::vector<Label> labels = {Label::mixed_label()};
  for (int r = 0; r < kRoleCount; ++r) labels.push_back(Label::of(static_cast<Role>(r)));
  for (const auto& [name, relation] : kRelationIds) labels.push_back(Label::syntactic(relation));
  for (const Label& label : labels) {
    const std::optional<Label> parsed = parse_label(label.text());
    ASSERT_TRUE(parsed) << label.text();
    EXPECT_EQ(*parsed, label) << label.text();
  }
  EXPECT_EQ(Label::syntactic(Relation::det).text(), "syntactic:det");
  EXPECT_EQ(Label::of(Role::previous_token).text(), "previous_token");
  EXPECT_EQ(Label::mixed_label().text(), "mixed");
  EXPECT_EQ(Label::syntactic(Relation::nsubj).family().text(), "syntactic");
  for (const char* bad : {"", "syntactic:", "syntactic:detx", "previous_token:det", "Mixed", "syntactic:det "})
    EXPECT_FALSE(parse_label(bad)) << '"' << bad << '"';
}

// Each name table names every value once, and names read back to their value.
TEST(NameTables, EveryValueHasOneNameThatReadsBack) {
  for (const auto& [name, relation] : kRelationIds) EXPECT_EQ(relation_from_id(name), relation) << name;
  EXPECT_EQ(std::size(kRelationIds), static_cast<std::size_t>(kRelationCount));
  for (const training::Task task : {training::Task::grammar, training::Task::induction})
    EXPECT_EQ(training::task_from_name(training::task_name(task)), task);
  EXPECT_EQ(training::task_name(training::Task::induction), "induction");
  EXPECT_FALSE(training::task_from_name("Grammar"));
  for (int r = 0; r < kRoleCount; ++r) {
    Role role;
    ASSERT_TRUE(role_from_id(role_id(static_cast<Role>(r)), role));
    EXPECT_EQ(role, static_cast<Role>(r));
  }
}

}  // namespace
}  // namespace headlab::analysis

