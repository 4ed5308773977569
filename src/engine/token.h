#pragma once
#include <string>
#include <vector>

namespace headlab {

// Coarse part of speech used by the named-feature embedding, the lexicon and the gold parses.
enum class PartOfSpeech { det, adj, noun, verb, prep, pron, adv, conj, punct, num, special, unknown };

const char* to_string(PartOfSpeech pos);
// Parses "det", "adj", ...; returns unknown for anything else.
PartOfSpeech part_of_speech_from_string(const std::string& name);

// One token of the input, with the metadata the analysis needs.
struct Token {
  std::string text;        // as typed (UTF-8)
  std::string key;         // lower-cased ASCII letters; the lexicon key
  bool is_punctuation = false;
  bool is_special = false;  // [CLS] or [SEP]
  bool in_lexicon = false;  // false: features came from fallback rules (shown in the UI)
  PartOfSpeech pos = PartOfSpeech::unknown;
  float zipf = 3.0f;  // word frequency on the Zipf scale (log10 of frequency per billion words)
  unsigned semantic_bits = 0;  // bit c: member of kSemanticClasses[c] (lexicon.h)
  // The tokenizer's id when the model reads subword tokens (a BPE vocabulary: checkpoints and
  // text models): its row of the token embedding. -1: the word is looked up by `key`.
  int id = -1;
};

using Tokens = std::vector<Token>;

inline constexpr const char* kClsToken = "[CLS]";
inline constexpr const char* kSepToken = "[SEP]";

}  // namespace headlab
