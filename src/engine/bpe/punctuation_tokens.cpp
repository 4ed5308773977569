#include "engine/bpe/punctuation_tokens.h"

#include "engine/bpe/unicode_classes.h"
#include "engine/tokenizer.h"

namespace headlab::bpe {

bool stands_for_punctuation(const std::string& bytes) {
  std::size_t at = bytes.find_first_not_of(' ');
  if (at == std::string::npos) return false;
  while (at < bytes.size()) {
    const Utf8Step step = decode_utf8(bytes, at);
    if (!step.valid || !is_punctuation_text(bytes.substr(at, step.length))) return false;
    at += step.length;
  }
  return true;
}

std::vector<bool> punctuation_tokens(const BpeTokenizer& tokenizer) {
  std::vector<bool> out(tokenizer.token_bytes.size());
  for (std::size_t id = 0; id < out.size(); ++id) out[id] = stands_for_punctuation(tokenizer.token_bytes[id]);
  return out;
}

}  // namespace headlab::bpe
