#pragma once
// Word/punctuation tokenizer that accepts any UTF-8 text.
//
// Words are runs of letters, digits, apostrophes and combining marks; every punctuation mark, every
// CJK ideograph and every emoji/symbol is its own token. Invalid UTF-8 becomes U+FFFD. Output is
// capped at max_tokens so a 100,000-character paste stays interactive.
#include <cstddef>
#include <string>
#include <vector>

namespace headlab {

inline constexpr std::size_t kMaxTokens = 64;

struct Tokenized {
  std::vector<std::string> words;
  bool truncated = false;  // more tokens were present than max_tokens; the rest was dropped
};

Tokenized tokenize(const std::string& text, std::size_t max_tokens = kMaxTokens);

// True when the token is a single punctuation mark (ASCII or Unicode general punctuation).
bool is_punctuation_text(const std::string& word);

}  // namespace headlab
