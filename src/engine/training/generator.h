#pragma once
// Sentences of the training language with their gold structure, drawn from a Grammar.
// Deterministic: the same grammar and seed give the same sentences on every platform.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/token.h"
#include "grammar.h"
#include "rng.h"

namespace headlab::training {

// One generated sentence, token i of n:
//   tokens[i]   vocabulary id (Grammar::vocabulary), [CLS] first and [SEP] last when requested
//   pos[i]      gold part of speech (special for [CLS]/[SEP])
//   head[i]     index of token i's syntactic head, -1 for the root word and special tokens
//   relation[i] relation of the arc head[i] -> i (Grammar::relations), kRelationRoot or kRelationNone
struct Sentence {
  std::vector<int> tokens;
  std::vector<PartOfSpeech> pos;
  std::vector<int> head;
  std::vector<int> relation;

  int size() const { return static_cast<int>(tokens.size()); }
  void clear();
};

// Work buffers of the generator; pass the same one to every call to avoid allocating.
struct GeneratorScratch {
  std::vector<int> candidates;
  std::vector<std::pair<int, int>> dependents;  // (token, relation) awaiting their head
};

// Draws one sentence into `out` (its buffers are reused). Returns false with `error` set when the
// grammar cannot be expanded (no word fits the features, recursion too deep, sentence longer than
// the engine's 64 tokens).
bool generate_sentence(const Grammar& grammar, Rng& rng, bool special_tokens, Sentence& out, std::string* error,
                       GeneratorScratch* scratch = nullptr);

// `count` sentences from `seed`; sentences that fail to generate are skipped (a lint test checks
// that the shipped grammar never fails).
std::vector<Sentence> generate_sentences(const Grammar& grammar, std::uint64_t seed, int count, bool special_tokens);

// Engine tokens (text, key, gold POS, special/punctuation flags) for embed() and the analysis.
Tokens to_tokens(const Sentence& sentence, const Grammar& grammar);
// "[CLS] the dog sees a ball . [SEP]"
std::string sentence_text(const Sentence& sentence, const Grammar& grammar);

}  // namespace headlab::training
