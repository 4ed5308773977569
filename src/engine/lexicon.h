#pragma once
// Word features for the named-feature embedding: part of speech, semantic classes and frequency.
// The data is assets/lexicon.json; this file only parses it and answers look-ups.
#include <string>
#include <unordered_map>
#include <vector>

#include "result.h"
#include "token.h"

namespace headlab {

// Semantic classes a word can belong to; each is one named dimension of the embedding.
inline constexpr const char* kSemanticClasses[] = {"animal", "person", "object", "place",
                                                   "motion", "colour", "size",   "speed"};
inline constexpr int kSemanticClassCount = 8;

struct LexiconEntry {
  PartOfSpeech pos = PartOfSpeech::unknown;
  float zipf = 3.0f;                  // Zipf frequency (see assets/lexicon.json "source")
  unsigned semantic_bits = 0;         // bit c set: word is in kSemanticClasses[c]
};

class Lexicon {
 public:
  // Looks up a lower-cased word; nullptr when absent.
  const LexiconEntry* find(const std::string& key) const;
  std::size_t size() const { return entries_.size(); }
  void add(const std::string& key, LexiconEntry entry) { entries_[key] = entry; }

 private:
  std::unordered_map<std::string, LexiconEntry> entries_;
};

// Parses assets/lexicon.json: {"format": "headlab-lexicon", "words": {"fox": ["noun", 3.9,
// ["animal"]], ...}}. Errors name the offending word.
Result<Lexicon> parse_lexicon(const std::string& json_text);

// Fills pos / zipf / in_lexicon of each token from the lexicon, or from fallback rules
// (punctuation, numbers, unknown words get Zipf 1.5 and POS unknown).
Tokens annotate_tokens(const std::vector<std::string>& words, const Lexicon& lexicon,
                       bool special_tokens);

// Lower-cases ASCII letters; other bytes are kept.
std::string lexicon_key(const std::string& word);

}  // namespace headlab
