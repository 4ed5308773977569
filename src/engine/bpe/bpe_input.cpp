#include "engine/bpe/bpe_input.h"

#include "engine/bpe/token_labels.h"
#include "engine/bpe/unicode_classes.h"
#include "engine/tokenizer.h"

namespace headlab::bpe {
namespace {

// Every character after the leading spaces is a punctuation mark ("." " ," "..." "。" "),").
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

}  // namespace

BpeInput bpe_input(const BpeTokenizer& tokenizer, std::string_view text, std::size_t max_tokens) {
  BpeInput out;
  BpeEncoding encoding = encode(tokenizer, text);
  if (encoding.ids.size() > max_tokens) {
    encoding.ids.resize(max_tokens);
    out.truncated = true;
  }
  const std::vector<std::string> labels = token_labels(tokenizer, encoding.ids);
  out.tokens.resize(encoding.ids.size());
  for (std::size_t i = 0; i < encoding.ids.size(); ++i) {
    Token& t = out.tokens[i];
    const int id = encoding.ids[i];
    t.id = id;
    t.text = labels[i];
    t.key = tokenizer.tokens[static_cast<std::size_t>(id)];
    t.is_punctuation = stands_for_punctuation(tokenizer.token_bytes[static_cast<std::size_t>(id)]);
    t.pos = t.is_punctuation ? PartOfSpeech::punct : PartOfSpeech::unknown;
  }
  return out;
}

std::vector<bool> punctuation_tokens(const BpeTokenizer& tokenizer) {
  std::vector<bool> out(tokenizer.token_bytes.size());
  for (std::size_t id = 0; id < out.size(); ++id) out[id] = stands_for_punctuation(tokenizer.token_bytes[id]);
  return out;
}

}  // namespace headlab::bpe
