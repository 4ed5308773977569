#pragma once
// A tiny byte-level BPE for tests: the 256 one-byte tokens (id = byte) and then `extra` tokens.
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/bpe/bpe_tokenizer.h"
#include "engine/bpe/byte_alphabet.h"

namespace headlab::bpe {

inline std::vector<std::string> byte_tokens_and(const std::vector<std::string>& extra) {
  std::vector<std::string> tokens;
  for (int b = 0; b < 256; ++b) tokens.push_back(byte_symbol(static_cast<unsigned char>(b)));
  tokens.insert(tokens.end(), extra.begin(), extra.end());
  return tokens;
}

// Merges written as files write them, "Ġ t".
inline std::vector<Merge> merges_of(const std::vector<std::string>& lines) {
  std::vector<Merge> merges;
  for (const std::string& line : lines) {
    const std::size_t space = line.find(' ');
    merges.push_back({line.substr(0, space), line.substr(space + 1)});
  }
  return merges;
}

inline BpeTokenizer tiny_tokenizer(const std::vector<std::string>& extra, const std::vector<std::string>& merges,
                                   PreTokenizer pre_tokenizer = PreTokenizer::Gpt2) {
  auto made = make_bpe_tokenizer("tiny", pre_tokenizer, byte_tokens_and(extra), merges_of(merges));
  if (!made.ok()) throw std::runtime_error(made.error());
  return std::move(made).value();
}

}  // namespace headlab::bpe
