// A head across a corpus (head_corpus.h) on a sentence whose attention is set by hand: each
// query's strongest key lands in a different kind, the list is ordered by weight, a causal first
// token is left out as forced, and a search keeps the queries that name or attend to the token.
#include <gtest/gtest.h>

#include "engine/analysis/head_corpus.h"

namespace headlab::analysis {
namespace {

Token token(const std::string& text, PartOfSpeech pos, bool punctuation = false) {
  Token t;
  t.text = text;
  t.key = lexicon_key(text);
  t.pos = pos;
  t.is_punctuation = punctuation;
  return t;
}

// "The cat , the cat ." with query q's strongest key: 0 -> 0 (self), 1 -> 0 (first token),
// 2 -> 1 (previous), 3 -> 4 (next), 4 -> 1 (the same token), 5 -> 2 (punctuation).
QueryKeySample hand_made() {
  SampledSentence s;
  s.annotated = {token("The", PartOfSpeech::det), token("cat", PartOfSpeech::noun), token(",", PartOfSpeech::punct, true),
                 token("the", PartOfSpeech::det), token("cat", PartOfSpeech::noun), token(".", PartOfSpeech::punct, true)};
  for (const Token& t : s.annotated) s.tokens.push_back(t.text);
  const int strongest[6] = {0, 0, 1, 4, 1, 2};
  const float weight[6] = {0.9f, 0.8f, 0.7f, 0.6f, 0.95f, 0.5f};
  Matrix attention = Matrix::Zero(6, 6);
  for (int q = 0; q < 6; ++q) {
    for (int k = 0; k < 6; ++k) attention(q, k) = (1.0f - weight[q]) / 5.0f;
    attention(q, strongest[q]) = weight[q];
  }
  s.heads.push_back({Matrix(), Matrix(), attention});
  QueryKeySample sample;
  sample.sentences.push_back(s);
  return sample;
}

TEST(HeadCorpus, EachStrongestKeyIsClassifiedAndTheListIsOrderedByWeight) {
  const HeadCorpus corpus = head_corpus(hand_made(), 0, Lexicon{}, false);
  EXPECT_EQ(corpus.queries, 6);
  EXPECT_EQ(corpus.forced, 0);
  for (int kind = 0; kind + 1 < kAttendedKindCount; ++kind) EXPECT_EQ(corpus.kinds[kind], 1) << attended_kind_name(AttendedKind(kind));
  EXPECT_EQ(corpus.kinds[static_cast<int>(AttendedKind::other)], 0);
  ASSERT_EQ(corpus.strongest.size(), 6u);
  EXPECT_EQ(corpus.strongest[0].query, 4);
  EXPECT_EQ(corpus.strongest[0].key, 1);
  EXPECT_EQ(corpus.strongest[0].kind, AttendedKind::same_token);
  EXPECT_FLOAT_EQ(corpus.strongest[0].weight, 0.95f);
  EXPECT_EQ(corpus.strongest[1].query, 0);
  EXPECT_EQ(corpus.strongest[5].kind, AttendedKind::punctuation);
  // Keys attended: "The" (det) twice, "cat" (noun) three times, "," once.
  EXPECT_EQ(corpus.word_classes[static_cast<int>(PartOfSpeech::det)], 2);
  EXPECT_EQ(corpus.word_classes[static_cast<int>(PartOfSpeech::noun)], 3);
  EXPECT_EQ(corpus.word_classes[static_cast<int>(PartOfSpeech::punct)], 1);
  EXPECT_EQ(head_corpus(hand_made(), 0, Lexicon{}, false, 2).strongest.size(), 2u);
}

TEST(HeadCorpus, ACausalFirstTokenIsForcedAndLeftOut) {
  const HeadCorpus corpus = head_corpus(hand_made(), 0, Lexicon{}, true);
  EXPECT_EQ(corpus.forced, 1);
  EXPECT_EQ(corpus.queries, 5);
  // Query 3 may not see key 4 in a causal model: its strongest visible key is another.
  for (const StrongContext& c : corpus.strongest) EXPECT_LE(c.key, c.query);
}

TEST(HeadCorpus, ASearchKeepsTheQueriesThatNameOrAttendToTheToken) {
  const HeadCorpus corpus = head_corpus(hand_made(), 0, Lexicon{}, false, 20, "CAT");
  // Queries 1 and 4 are "cat"; 2 and 3 attend to a "cat".
  EXPECT_EQ(corpus.queries, 4);
  for (const StrongContext& c : corpus.strongest) EXPECT_TRUE(c.query == 1 || c.query == 4 || c.key == 1 || c.key == 4);
  EXPECT_TRUE(token_matches("\xE2\x90\xA3" "Cat", "cat"));  // a subword's "␣Cat"
  EXPECT_FALSE(token_matches("dog", "cat"));
  EXPECT_EQ(head_corpus(hand_made(), 0, Lexicon{}, false, 20, "zebra").queries, 0);
}

}  // namespace
}  // namespace headlab::analysis
