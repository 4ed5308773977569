#pragma once
// A byte-level BPE tokenizer (GPT-2's scheme; Sennrich et al. 2016, Radford et al. 2019): text is cut
// into pieces (pre_tokenizer.h), each piece's UTF-8 bytes start as one-byte tokens, and within a piece
// the adjacent pair of lowest merge rank is merged, every occurrence left to right, until no ranked
// pair is left. Any byte string encodes (all 256 bytes are tokens), and decoding gives it back.
//
// For GPT-2's files the ids equal those of the npm package gpt-3-encoder 1.1.4 on the same text
// (tests/engine/bpe_reference_test.cpp, over 10,000 generated lines). Build one with
// make_bpe_tokenizer or a reader (bpe_files.h); it is immutable afterwards, and encoding keeps no cache.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/bpe/pre_tokenizer.h"
#include "engine/result.h"

namespace headlab::bpe {

// A merge rule as files write it: two tokens in the byte alphabet ("Ġ", "t" -> "Ġt").
struct Merge {
  std::string left;
  std::string right;
};

struct BpeTokenizer {
  struct Rule {
    int rank;    // the rule's line among the merges, 0 first (merged first)
    int merged;  // the id of left + right
  };
  std::string name;
  PreTokenizer pre_tokenizer = PreTokenizer::Gpt2;
  std::vector<std::string> tokens;       // id -> the token in the byte alphabet ("Ġthe")
  std::vector<std::string> token_bytes;  // id -> the bytes it stands for (" the")
  std::array<int, 256> byte_token{};     // byte -> the id of its one-byte token
  std::vector<std::pair<int, int>> merges;  // rank -> (left id, right id)
  std::unordered_map<std::uint64_t, Rule> rules;  // (left id << 32 | right id) -> its rule
};

// How a builder's messages name a token and a merge rule: "tokens[3]" / "merges[7]" for a
// headlab-bpe-1 file, "encoder.json[\"Ġthe\"]" / "vocab.bpe line 9" for GPT-2's.
struct SourceNames {
  std::function<std::string(std::size_t id)> token;
  std::function<std::string(std::size_t rank)> merge;
};
SourceNames json_source_names();

// Checks and indexes a vocabulary (id = index) and its ranked merges. Refused, with a message naming
// the token or rule: a token that is empty, repeated, or not written in the byte alphabet; a missing
// one-byte token; a merge whose parts or result are not tokens, or that repeats an earlier one.
Result<BpeTokenizer> make_bpe_tokenizer(std::string name, PreTokenizer pre_tokenizer, std::vector<std::string> tokens,
                                        const std::vector<Merge>& merges,
                                        const SourceNames& names = json_source_names());

struct BpeEncoding {
  std::vector<int> ids;
  std::vector<std::string> tokens;  // tokens[i] = the vocabulary's string for ids[i] ("Ġthe")
};

// Encodes any bytes (invalid UTF-8 included, see pre_tokenizer.h). Deterministic, no cache:
// O(n log n) in the length of the longest piece, so a 100,000-character paste stays interactive.
BpeEncoding encode(const BpeTokenizer& tokenizer, std::string_view text);

// The bytes the ids stand for (decode(encode(x)) == x for every x); ids out of range are skipped.
std::string decode(const BpeTokenizer& tokenizer, const std::vector<int>& ids);

}  // namespace headlab::bpe
