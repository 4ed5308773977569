// libFuzzer: the byte-level BPE's readers and encoder. The first byte picks what the rest is:
//   0 (mod 3)  a headlab-bpe-1 file; when it reads, a few texts are encoded with it;
//   1          GPT-2's pair of files, encoder.json and vocab.bpe separated by the first NUL byte;
//   2          a text, encoded by a small built-in vocabulary under both pre-tokenizers.
// Whatever comes, nothing traps, and every encoding decodes to its text, its ids are in range,
// its pieces cover the text and its labels are valid UTF-8.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/bpe/bpe_files.h"
#include "engine/bpe/bpe_tokenizer.h"
#include "engine/bpe/byte_alphabet.h"
#include "engine/bpe/pre_tokenizer.h"
#include "engine/bpe/token_labels.h"
#include "engine/bpe/unicode_classes.h"

namespace {

using namespace headlab::bpe;

void check(bool condition) {
  if (!condition) std::abort();
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const Utf8Step step = decode_utf8(s, i);
    if (!step.valid) return false;
    i += step.length;
  }
  return true;
}

void check_encoding(const BpeTokenizer& tokenizer, std::string_view text) {
  std::size_t covered = 0;
  for (const Piece& piece : pre_tokenize(text, tokenizer.pre_tokenizer)) {
    check(piece.offset == covered && piece.length > 0);
    covered += piece.length;
  }
  check(covered == text.size());
  const BpeEncoding encoding = encode(tokenizer, text);
  check(encoding.ids.size() == encoding.tokens.size());
  for (const int id : encoding.ids) check(id >= 0 && static_cast<std::size_t>(id) < tokenizer.tokens.size());
  check(decode(tokenizer, encoding.ids) == text);
  const std::vector<std::string> labels = token_labels(tokenizer, encoding.ids);
  check(labels.size() == encoding.ids.size());
  for (const std::string& label : labels) check(!label.empty() && valid_utf8(label));
}

const char* const kTexts[] = {"Hello, 世界! It's 2024 \xF0\x9F\x91\x8B\xF0\x9F\x8F\xBD", "  a\tb\n\n c", "\xFF\xE4\xB8 x",
                              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};

BpeTokenizer builtin(PreTokenizer pre_tokenizer) {
  std::vector<std::string> tokens;
  for (int b = 0; b < 256; ++b) tokens.push_back(byte_symbol(static_cast<unsigned char>(b)));
  const std::vector<std::string> extra = {"\u0120t", "he", "\u0120the", "aa", "aaa", "\u00E4\u00B8", "\u00E4\u00B8\u0143"};
  tokens.insert(tokens.end(), extra.begin(), extra.end());
  const std::vector<Merge> merges = {{"\u0120", "t"}, {"h", "e"},   {"\u0120t", "he"},      {"a", "a"},
                                     {"aa", "a"},     {"\u00E4", "\u00B8"}, {"\u00E4\u00B8", "\u0143"}};
  auto made = make_bpe_tokenizer("builtin", pre_tokenizer, tokens, merges);
  check(made.ok());
  return std::move(made).value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      const auto read = parse_bpe_file(rest);
      if (!read.ok()) {
        check(!read.error().empty());
        return 0;
      }
      for (const char* text : kTexts) check_encoding(read.value(), text);
      // What a tokenizer writes, it reads back the same.
      const auto again = parse_bpe_file(serialize_bpe_file(read.value()));
      check(again.ok() && again.value().tokens == read.value().tokens && again.value().merges == read.value().merges);
      return 0;
    }
    case 1: {
      const std::size_t nul = rest.find('\0');
      const auto read = nul == std::string_view::npos ? read_gpt2_tokenizer(rest, "")
                                                      : read_gpt2_tokenizer(rest.substr(0, nul), rest.substr(nul + 1));
      if (!read.ok()) {
        check(!read.error().empty());
        return 0;
      }
      for (const char* text : kTexts) check_encoding(read.value(), text);
      return 0;
    }
    default:
      for (const PreTokenizer pre_tokenizer : {PreTokenizer::Gpt2, PreTokenizer::Gpt2Cjk})
        check_encoding(builtin(pre_tokenizer), rest);
      return 0;
  }
}
