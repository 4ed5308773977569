#pragma once
// A head across a corpus (exBERT: Hoover, Strobelt and Gehrmann 2020, "exBERT: A Visual Analysis
// Tool to Explore Learned Representations in Transformer Models", ACL demos): where one head puts
// its strongest attention over many sentences, rather than on one. For each query token, the key
// it gives most weight is classified (itself, the first token, the token before or after it, the
// same token elsewhere, punctuation, other) and so is that key's word class where it is known; the
// queries whose strongest weight is largest are listed as contexts.
#include <array>
#include <string>
#include <vector>

#include "engine/analysis/query_key_sample.h"
#include "engine/lexicon.h"

namespace headlab::analysis {

// Where a query's strongest attention goes, the first that applies in this order.
enum class AttendedKind { self, first_token, previous_token, next_token, same_token, punctuation, other };
inline constexpr int kAttendedKindCount = 7;
// "self", "first_token", "previous_token", "next_token", "same_token", "punctuation", "other".
const char* attended_kind_name(AttendedKind kind);

inline constexpr int kPartOfSpeechCount = static_cast<int>(PartOfSpeech::unknown) + 1;

// One query token and the key it attends to most.
struct StrongContext {
  int sentence = 0;
  int query = 0;  // token positions in that sentence
  int key = 0;
  float weight = 0.0f;  // attention(query, key), the largest of the query's row
  AttendedKind kind = AttendedKind::other;
};

struct HeadCorpus {
  std::vector<StrongContext> strongest;  // the `count` strongest, largest weight first
  // Over every query counted (not only the strongest): how many send their strongest weight to
  // each kind of token, and to each word class (indexed by PartOfSpeech; unknown when neither the
  // tokenizer nor the lexicon knows the token's class).
  std::array<int, kAttendedKindCount> kinds{};
  std::array<int, kPartOfSpeechCount> word_classes{};
  int queries = 0;
  // Left out: queries with only one key to attend to (the first token of a causal model), whose
  // weight is 1 whatever the head does.
  int forced = 0;
};

// The head `head` over every sentence of `sample`. With a `filter`, only queries whose own token
// or strongest key's token contains it (letters compared without case, a subword's leading space
// marker ignored) are counted and listed. `causal`: the model masks later keys.
HeadCorpus head_corpus(const QueryKeySample& sample, int head, const Lexicon& lexicon, bool causal, int count = 20,
                       const std::string& filter = {});

// True when token `text` contains `filter` as head_corpus matches it.
bool token_matches(const std::string& text, const std::string& filter);

}  // namespace headlab::analysis
