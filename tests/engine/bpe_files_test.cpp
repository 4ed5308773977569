// The BPE vocabulary readers: the headlab-bpe-1 round trip, GPT-2's pair of files, and a table of
// broken files, each refused with a message that names what is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bpe_test_util.h"
#include "engine/assets.h"
#include "engine/bpe/bpe_files.h"

namespace headlab::bpe {
namespace {

using nlohmann::json;

// A valid headlab-bpe-1 document: the byte tokens, "Ġt", "he", "Ġthe", 中 (E4 B8 AD, written "ä¸Ń")
// in one token, and their merges.
json tiny_file() {
  return {{"format", "headlab-bpe-1"},
          {"name", "tiny"},
          {"pre_tokenizer", "gpt2-cjk"},
          {"tokens", byte_tokens_and({"\u0120t", "he", "\u0120the", "\u00E4\u00B8", bytes_to_symbols("中")})},
          {"merges", {"\u0120 t", "h e", "\u0120t he", "\u00E4 \u00B8", "\u00E4\u00B8 \u0143"}}};
}

TEST(BpeFile, RoundTripKeepsEveryTokenMergeAndEncoding) {
  const auto read = parse_bpe_file(tiny_file().dump());
  ASSERT_TRUE(read.ok()) << read.error();
  const BpeTokenizer& t = read.value();
  EXPECT_EQ(t.name, "tiny");
  EXPECT_EQ(t.pre_tokenizer, PreTokenizer::Gpt2Cjk);
  EXPECT_EQ(t.tokens.size(), 261u);
  EXPECT_EQ(encode(t, " the then").tokens, (std::vector<std::string>{"\u0120the", "\u0120the", "n"}));
  EXPECT_EQ(encode(t, "中中").ids, (std::vector<int>{260, 260}));
  const auto again = parse_bpe_file(serialize_bpe_file(t));
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again.value().name, t.name);
  EXPECT_EQ(again.value().pre_tokenizer, t.pre_tokenizer);
  EXPECT_EQ(again.value().tokens, t.tokens);
  EXPECT_EQ(again.value().merges, t.merges);
  EXPECT_EQ(serialize_bpe_file(again.value()), serialize_bpe_file(t));
  EXPECT_EQ(encode(again.value(), "中 the 中文").ids, encode(t, "中 the 中文").ids);
}

TEST(BpeFile, OtherMembersAreIgnored) {
  json doc = tiny_file();
  doc["source"] = "a note about the corpus";
  EXPECT_TRUE(parse_bpe_file(doc.dump()).ok());
}

struct BrokenCase {
  const char* what;
  std::function<void(json&)> edit;
  const char* message;  // the error starts with this
};

TEST(BpeFile, BrokenFilesAreRefusedWithTheFieldNamed) {
  const std::vector<BrokenCase> cases = {
      {"format", [](json& d) { d["format"] = "headlab-bpe-2"; }, "format: expected \"headlab-bpe-1\""},
      {"no name", [](json& d) { d.erase("name"); }, "name: missing"},
      {"empty name", [](json& d) { d["name"] = ""; }, "name: expected a non-empty string"},
      {"pre-tokenizer", [](json& d) { d["pre_tokenizer"] = "bert"; }, "pre_tokenizer: expected one of \"gpt2\", \"gpt2-cjk\""},
      {"tokens not a list", [](json& d) { d["tokens"] = "abc"; }, "tokens: expected an array"},
      {"too few tokens", [](json& d) { d["tokens"] = {"a", "b"}; }, "tokens: expected 256 to"},
      {"token not a string", [](json& d) { d["tokens"][257] = 5; }, "tokens[257]: expected a string"},
      {"empty token", [](json& d) { d["tokens"][257] = ""; }, "tokens[257]: a token cannot be empty"},
      {"token twice", [](json& d) { d["tokens"][257] = "\u0120t"; }, "tokens[257]: \"\u0120t\" repeats tokens[256]"},
      {"raw space", [](json& d) { d["tokens"][257] = "a b"; }, "tokens[257]: \"a b\" is not written in GPT-2's byte alphabet"},
      {"byte missing", [](json& d) { d["tokens"][10] = "xyz"; }, "tokens: the byte 0x0A has no token of its own (\"\u010A\")"},
      {"merges not a list", [](json& d) { d["merges"] = 1; }, "merges: expected an array"},
      {"merge shape", [](json& d) { d["merges"][1] = "he"; }, "merges[1]: expected two tokens separated by one space (got \"he\")"},
      {"merge spaces", [](json& d) { d["merges"][1] = "h  e"; }, "merges[1]: expected two tokens separated by one space"},
      {"merge part", [](json& d) { d["merges"][2] = "\u0120t hex"; }, "merges[2]: \"hex\" is not a token"},
      {"merge result", [](json& d) { d["merges"][1] = "e h"; }, "merges[1]: the merged \"eh\" is not a token"},
      {"merge twice", [](json& d) { d["merges"].push_back("h e"); }, "merges[5]: \"h e\" repeats merges[1]"},
  };
  for (const BrokenCase& c : cases) {
    json doc = tiny_file();
    c.edit(doc);
    const auto read = parse_bpe_file(doc.dump());
    ASSERT_FALSE(read.ok()) << c.what;
    EXPECT_EQ(read.error().rfind(c.message, 0), 0u) << c.what << ": " << read.error();
  }
  EXPECT_EQ(parse_bpe_file("{").error(), "not valid JSON");
  EXPECT_EQ(parse_bpe_file("[]").error(), "expected a JSON object");
}

// GPT-2's layout of the same tiny vocabulary.
std::string tiny_encoder_json() {
  json encoder = json::object();
  const auto tokens = byte_tokens_and({"\u0120t", "he", "\u0120the"});
  for (std::size_t id = 0; id < tokens.size(); ++id) encoder[tokens[id]] = id;
  return encoder.dump();
}

TEST(Gpt2Files, ReadsEncoderAndMerges) {
  const auto read = read_gpt2_tokenizer(tiny_encoder_json(), "#version: 0.2\n\u0120 t\nh e\n\u0120t he\n");
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value().name, "gpt2");
  EXPECT_EQ(read.value().pre_tokenizer, PreTokenizer::Gpt2);
  EXPECT_EQ(read.value().merges.size(), 3u);
  EXPECT_EQ(encode(read.value(), "the the").tokens, (std::vector<std::string>{"t", "he", "\u0120the"}));
  // Windows line ends and a missing last newline read the same.
  const auto crlf = read_gpt2_tokenizer(tiny_encoder_json(), "#version: 0.2\r\n\u0120 t\r\nh e\r\n\u0120t he");
  ASSERT_TRUE(crlf.ok()) << crlf.error();
  EXPECT_EQ(crlf.value().merges, read.value().merges);
}

TEST(Gpt2Files, BrokenFilesAreRefusedWithTheLineOrTokenNamed) {
  const std::string merges = "#version: 0.2\n\u0120 t\nh e\n";
  struct Case {
    std::string encoder, vocab, message;
  };
  json out_of_range = json::parse(tiny_encoder_json());
  out_of_range["he"] = 900;
  json repeated = json::parse(tiny_encoder_json());
  repeated["he"] = 5;
  json not_number = json::parse(tiny_encoder_json());
  not_number["he"] = "5";
  const std::vector<Case> cases = {
      {"{", merges, "encoder.json: not valid JSON"},
      {"[1, 2]", merges, "encoder.json: expected a JSON object of token -> id"},
      {out_of_range.dump(), merges, "encoder.json[\"he\"]: expected an integer in 0..258"},
      {repeated.dump(), merges, "encoder.json[\""},
      {not_number.dump(), merges, "encoder.json[\"he\"]: expected an integer"},
      {tiny_encoder_json(), "", "vocab.bpe line 1: expected a version line"},
      {tiny_encoder_json(), "\u0120 t\n", "vocab.bpe line 1: expected a version line"},
      {tiny_encoder_json(), "#version: 0.2\n\u0120 t\n\nh e\n", "vocab.bpe line 3: expected two tokens separated by one space"},
      {tiny_encoder_json(), "#version: 0.2\n\u0120 t\nh x\n", "vocab.bpe line 3: the merged \"hx\" is not a token"},
      {tiny_encoder_json(), "#version: 0.2\n\u0120 t\nq he\n", "vocab.bpe line 3: the merged \"qhe\" is not a token"},
  };
  for (const Case& c : cases) {
    const auto read = read_gpt2_tokenizer(c.encoder, c.vocab);
    ASSERT_FALSE(read.ok()) << c.message;
    EXPECT_EQ(read.error().rfind(c.message, 0), 0u) << read.error();
  }
}

// Every vocabulary the app ships reads, under the name of its file (headlab-cli tokenize --tokenizer NAME).
TEST(BpeFile, EveryShippedTokenizerReads) {
  const std::filesystem::path folder = assets_root() + "/tokenizers";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (entry.path().extension() != ".json") continue;
    const auto text = read_asset("tokenizers/" + entry.path().filename().string());
    ASSERT_TRUE(text.has_value()) << entry.path();
    const auto read = parse_bpe_file(*text);
    ASSERT_TRUE(read.ok()) << entry.path() << ": " << read.error();
    EXPECT_EQ(read.value().name, entry.path().stem().string());
  }
}

}  // namespace
}  // namespace headlab::bpe
