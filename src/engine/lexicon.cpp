#include "lexicon.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "tokenizer.h"

namespace headlab {

const LexiconEntry* Lexicon::find(const std::string& key) const {
  const auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

std::string lexicon_key(const std::string& word) {
  std::string key = word;
  for (char& c : key)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return key;
}

Result<Lexicon> parse_lexicon(const std::string& json_text) {
  const auto doc = nlohmann::json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Result<Lexicon>::failure("lexicon: not a JSON object");
  if (!doc.contains("words") || !doc["words"].is_object())
    return Result<Lexicon>::failure("lexicon.words: expected an object");
  Lexicon lexicon;
  for (const auto& [word, value] : doc["words"].items()) {
    const std::string where = "lexicon.words." + word;
    if (!value.is_array() || value.size() != 3 || !value[0].is_string() || !value[1].is_number() ||
        !value[2].is_array())
      return Result<Lexicon>::failure(where + ": expected [pos, zipf, [classes]]");
    LexiconEntry entry;
    entry.pos = part_of_speech_from_string(value[0].get<std::string>());
    if (entry.pos == PartOfSpeech::unknown && value[0] != "unknown")
      return Result<Lexicon>::failure(where + ": unknown part of speech " + value[0].dump());
    entry.zipf = value[1].get<float>();
    if (!std::isfinite(entry.zipf) || entry.zipf < 0 || entry.zipf > 8)
      return Result<Lexicon>::failure(where + ": zipf must be in [0, 8]");
    for (const auto& cls : value[2]) {
      int found = -1;
      for (int c = 0; c < kSemanticClassCount; ++c)
        if (cls.is_string() && cls.get<std::string>() == kSemanticClasses[c]) found = c;
      if (found < 0) return Result<Lexicon>::failure(where + ": unknown semantic class " + cls.dump());
      entry.semantic_bits |= 1u << found;
    }
    lexicon.add(lexicon_key(word), entry);
  }
  return lexicon;
}

namespace {

bool is_number_text(const std::string& word) {
  bool digit = false;
  for (char c : word) {
    if (c >= '0' && c <= '9') digit = true;
    else if (c != '.' && c != ',' && c != '\'') return false;
  }
  return digit;
}

Token special(const char* text) {
  Token t;
  t.text = text;
  t.key = text;
  t.is_special = true;
  t.in_lexicon = true;
  t.pos = PartOfSpeech::special;
  t.zipf = 7.0f;
  return t;
}

}  // namespace

Tokens annotate_tokens(const std::vector<std::string>& words, const Lexicon& lexicon,
                       bool special_tokens) {
  Tokens tokens;
  tokens.reserve(words.size() + 2);
  if (special_tokens) tokens.push_back(special(kClsToken));
  for (const auto& word : words) {
    Token t;
    t.text = word;
    t.key = lexicon_key(word);
    if (const LexiconEntry* entry = lexicon.find(t.key)) {
      t.in_lexicon = true;
      t.pos = entry->pos;
      t.zipf = entry->zipf;
      t.semantic_bits = entry->semantic_bits;
    } else if (is_punctuation_text(word)) {
      t.pos = PartOfSpeech::punct;
      t.zipf = 6.0f;  // unlisted punctuation is still common
    } else if (is_number_text(word)) {
      t.pos = PartOfSpeech::num;
      t.zipf = 4.5f;
    } else {
      t.pos = PartOfSpeech::unknown;
      t.zipf = 1.5f;  // unknown words are treated as rare
    }
    t.is_punctuation = t.pos == PartOfSpeech::punct;
    tokens.push_back(std::move(t));
  }
  if (special_tokens) tokens.push_back(special(kSepToken));
  return tokens;
}

}  // namespace headlab
