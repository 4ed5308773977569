// The training language: the shipped grammar parses, generates well-formed trees deterministically,
// keeps its agreement promises, and malformed grammars fail with messages that name the field.
#include <gtest/gtest.h>

#include <set>

#include "engine/training/generator.h"
#include "engine/training/grammar.h"

namespace headlab::training {
namespace {

const Grammar& shipped() {
  static const Grammar g = [] {
    Result<Grammar> r = load_grammar();
    EXPECT_TRUE(r.ok()) << r.error();
    return r.value();
  }();
  return g;
}

// Value of `feature` for a word (vocabulary id), or "" when the word leaves it open.
std::string feature_of(const Grammar& g, int token, const std::string& feature) {
  for (const auto& words : g.words)
    for (const GrammarWord& w : words)
      if (w.token == token)
        for (const auto& [f, v] : w.features)
          if (g.feature_names[f] == feature) return g.value_names[v];
  return "";
}

TEST(Grammar, ShippedGrammarGeneratesThousandsOfWellFormedTrees) {
  const Grammar& g = shipped();
  Rng rng(7);
  Sentence s;
  std::set<int> relations_seen;
  for (int i = 0; i < 3000; ++i) {
    std::string error;
    ASSERT_TRUE(generate_sentence(g, rng, true, s, &error)) << error;
    ASSERT_GE(s.size(), 4);
    EXPECT_EQ(s.tokens.front(), kTokenCls);
    EXPECT_EQ(s.tokens.back(), kTokenSep);
    int roots = 0;
    for (int t = 0; t < s.size(); ++t) {
      if (s.relation[t] == kRelationRoot) ++roots;
      if (s.pos[t] == PartOfSpeech::special) {
        EXPECT_EQ(s.head[t], -1);
        continue;
      }
      if (s.relation[t] >= 0) {
        relations_seen.insert(s.relation[t]);
        ASSERT_GE(s.head[t], 0);
        ASSERT_LT(s.head[t], s.size());
        EXPECT_NE(s.head[t], t);
      }
      // Following heads from any word reaches the root without a cycle.
      int node = t, hops = 0;
      while (s.head[node] >= 0 && hops <= s.size()) node = s.head[node], ++hops;
      EXPECT_EQ(s.relation[node], kRelationRoot) << sentence_text(s, g);
    }
    EXPECT_EQ(roots, 1) << sentence_text(s, g);
  }
  EXPECT_EQ(relations_seen.size(), g.relations.size()) << "every relation occurs";
}

TEST(Grammar, EveryArcCarriesTheAgreementItPromises) {
  const Grammar& g = shipped();
  const std::vector<Sentence> sentences = generate_sentences(g, 3, 1000, false);
  const int det = g.relation_index("det"), nsubj = g.relation_index("nsubj"), amod = g.relation_index("amod"),
            dobj = g.relation_index("dobj"), pobj = g.relation_index("pobj");
  for (const Sentence& s : sentences)
    for (int t = 0; t < s.size(); ++t) {
      const int r = s.relation[t], head = s.head[t];
      if (head < 0) continue;
      const std::string text = sentence_text(s, g);
      if (r == det || r == nsubj) {  // number agreement (words without a number, like "the", fit both)
        const std::string a = feature_of(g, s.tokens[t], "num"), b = feature_of(g, s.tokens[head], "num");
        if (!a.empty() && !b.empty()) {
          EXPECT_EQ(a, b) << text;
        }
      }
      if (r == amod) {
        EXPECT_EQ(feature_of(g, s.tokens[t], "anim"), feature_of(g, s.tokens[head], "anim")) << text;
      }
      if (r == dobj) {
        EXPECT_EQ(feature_of(g, s.tokens[t], "anim"), feature_of(g, s.tokens[head], "obj")) << text;
      }
      if (r == pobj) {
        EXPECT_EQ(feature_of(g, s.tokens[t], "anim"), feature_of(g, s.tokens[head], "pobj")) << text;
      }
    }
}

TEST(Grammar, SameSeedSameSentencesOtherSeedOtherSentences) {
  const Grammar& g = shipped();
  const std::vector<Sentence> a = generate_sentences(g, 42, 50, true), b = generate_sentences(g, 42, 50, true),
                              c = generate_sentences(g, 43, 50, true);
  int differ = 0;
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(sentence_text(a[i], g), sentence_text(b[i], g));
    differ += sentence_text(a[i], g) != sentence_text(c[i], g) ? 1 : 0;
  }
  EXPECT_GT(differ, 40);
  // Pinned: the generator is fully specified (no std:: distributions), so this holds on every platform.
  EXPECT_EQ(sentence_text(generate_sentences(g, 1, 1, false)[0], g).empty(), false);
}

TEST(Grammar, EngineTokensCarryGoldPartsOfSpeech) {
  const Grammar& g = shipped();
  const Sentence s = generate_sentences(g, 5, 1, true)[0];
  const Tokens tokens = to_tokens(s, g);
  ASSERT_EQ(static_cast<int>(tokens.size()), s.size());
  EXPECT_TRUE(tokens.front().is_special);
  EXPECT_EQ(tokens.front().key, "[CLS]");
  for (int i = 0; i < s.size(); ++i) EXPECT_EQ(tokens[i].pos, s.pos[i]);
}

struct BadGrammar {
  std::string json;
  const char* expected_error;
};

TEST(Grammar, MalformedGrammarsNameTheField) {
  const std::string words = R"("words": {"N": [{"w": "dog"}]})";
  const std::vector<BadGrammar> cases = {
      {"[]", "not a JSON object"},
      {R"({"format": "x"})", "format"},
      {R"({"format": "headlab-grammar", "relations": []})", "relations"},
      {(std::string(R"({"format": "headlab-grammar", "relations": ["det"], "start": "S", "categories": {"N": "noun"},
         "rules": {"S": [{"rhs": [{"symbol": "Nx", "head": true}]}]}, )") + words + "}"),
       "rules.S[0].rhs[0].symbol: unknown symbol"},
      {(std::string(R"({"format": "headlab-grammar", "relations": ["det"], "start": "S", "categories": {"N": "noun"},
         "rules": {"S": [{"rhs": [{"symbol": "N"}]}]}, )") + words + "}"),
       "rules.S[0].rhs[0].rel"},
      {(std::string(R"({"format": "headlab-grammar", "relations": ["det"], "start": "S", "categories": {"N": "noun"},
         "rules": {"S": [{"rhs": [{"symbol": "N", "head": true, "p": 0.5}]}]}, )") + words + "}"),
       "cannot be optional"},
      {(std::string(R"({"format": "headlab-grammar", "relations": ["det"], "start": "S", "categories": {"N": "nounish"},
         "rules": {"S": [{"rhs": [{"symbol": "N", "head": true}]}]}, )") + words + "}"),
       "categories.N"},
      {R"({"format": "headlab-grammar", "relations": ["det"], "start": "S", "categories": {"N": "noun"},
         "rules": {"S": [{"rhs": [{"symbol": "N", "head": true}]}]}, "words": {"N": [{"w": "dog", "weight": -1}]}})",
       "words.N[0].weight"},
  };
  for (const BadGrammar& c : cases) {
    const Result<Grammar> r = parse_grammar(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.error().find(c.expected_error), std::string::npos) << r.error();
  }
}

TEST(Grammar, ImpossibleFeaturesFailWithAMessageInsteadOfLooping) {
  const Result<Grammar> g = parse_grammar(R"({"format": "headlab-grammar", "relations": ["det"], "start": "S",
      "categories": {"N": "noun"}, "rules": {"S": [{"rhs": [{"symbol": "N", "head": true, "set": {"num": "dual"}}]}]},
      "words": {"N": [{"w": "dog", "num": "sg"}]}})");
  ASSERT_TRUE(g.ok()) << g.error();
  Rng rng(1);
  Sentence s;
  std::string error;
  EXPECT_FALSE(generate_sentence(g.value(), rng, false, s, &error));
  EXPECT_NE(error.find("no word of category N"), std::string::npos) << error;
}

}  // namespace
}  // namespace headlab::training
