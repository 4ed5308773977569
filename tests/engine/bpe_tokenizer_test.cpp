// The byte-level BPE's parts on small cases: the byte alphabet, the pre-tokenizers, the merge order,
// invalid UTF-8 and the readable labels. (Against gpt-3-encoder: bpe_reference_test.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bpe_test_util.h"
#include "engine/bpe/bpe_tokenizer.h"
#include "engine/bpe/byte_alphabet.h"
#include "engine/bpe/pre_tokenizer.h"
#include "engine/bpe/token_labels.h"
#include "engine/bpe/unicode_classes.h"

namespace headlab::bpe {
namespace {

using Strings = std::vector<std::string>;

Strings pieces(std::string_view text, PreTokenizer pre_tokenizer = PreTokenizer::Gpt2) {
  Strings out;
  for (const Piece& p : pre_tokenize(text, pre_tokenizer)) out.emplace_back(text.substr(p.offset, p.length));
  return out;
}

TEST(ByteAlphabet, PrintableBytesStandForThemselvesTheRestShiftPast255) {
  EXPECT_EQ(byte_symbol('a'), "a");
  EXPECT_EQ(byte_symbol('!'), "!");
  EXPECT_EQ(byte_symbol(0xE9), "\u00E9");  // é
  EXPECT_EQ(byte_symbol(0x00), "\u0100");  // Ā
  EXPECT_EQ(byte_symbol(' '), "\u0120");   // Ġ
  EXPECT_EQ(byte_symbol('\n'), "\u010A");  // Ċ
  EXPECT_EQ(byte_symbol(0x7F), "\u0121");
  EXPECT_EQ(byte_symbol(0xAD), "\u0143");  // the soft hyphen, the last one shifted
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  std::string back;
  ASSERT_TRUE(symbols_to_bytes(bytes_to_symbols(all), back));
  EXPECT_EQ(back, all);
  EXPECT_FALSE(symbols_to_bytes(" ", back));  // a space is written Ġ
  EXPECT_FALSE(symbols_to_bytes("\u20AC", back));
  EXPECT_FALSE(symbols_to_bytes("\xC4", back));  // not UTF-8
}

TEST(Utf8, StrictDecoding) {
  EXPECT_TRUE(decode_utf8("\xE4\xB8\xAD", 0).valid);
  EXPECT_EQ(decode_utf8("\xE4\xB8\xAD", 0).code_point, U'中');
  EXPECT_EQ(decode_utf8("\xF0\x9F\x98\x80", 0).code_point, U'😀');
  for (const char* bad : {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF8\x88\x80\x80\x80", "\x80",
                          "\xE4\xB8"}) {
    const Utf8Step step = decode_utf8(bad, 0);
    EXPECT_FALSE(step.valid) << bad;
    EXPECT_EQ(step.length, 1u);
  }
}

TEST(CharClasses, JavaScriptsClasses) {
  EXPECT_EQ(char_class('a'), CharClass::Letter);
  EXPECT_EQ(char_class(U'中'), CharClass::Letter);
  EXPECT_EQ(char_class(U'ǅ'), CharClass::Letter);
  EXPECT_EQ(char_class(U'\u0301'), CharClass::Other);  // a combining mark is no letter
  EXPECT_EQ(char_class(U'٣'), CharClass::Number);
  EXPECT_EQ(char_class(U'Ⅻ'), CharClass::Number);
  EXPECT_EQ(char_class(U'½'), CharClass::Number);
  EXPECT_EQ(char_class(U'\uFEFF'), CharClass::Space);
  EXPECT_EQ(char_class(U'\u3000'), CharClass::Space);
  EXPECT_EQ(char_class(U'\u0085'), CharClass::Other);  // NEL: Unicode white space, not JavaScript's \s
  EXPECT_EQ(char_class(U'\u180E'), CharClass::Other);
  EXPECT_EQ(char_class(0x2EBF0), CharClass::Letter);  // CJK extension I, Unicode 15.1
  EXPECT_EQ(char_class(0x10D40), CharClass::Number);  // Garay digit, Unicode 16.0
  EXPECT_EQ(char_class(0x10FFFF), CharClass::Other);
}

TEST(PreTokenizer, Gpt2Pattern) {
  EXPECT_EQ(pieces("it's here, isn't it? They'll've"),
            (Strings{"it", "'s", " here", ",", " isn", "'t", " it", "?", " They", "'ll", "'ve"}));
  EXPECT_EQ(pieces("a   b"), (Strings{"a", "  ", " b"}));        // \s+(?!\S) leaves the last space to " b"
  EXPECT_EQ(pieces("a \tb"), (Strings{"a", " ", "\t", "b"}));    // only U+0020 joins a word
  EXPECT_EQ(pieces("end   "), (Strings{"end", "   "}));
  EXPECT_EQ(pieces("x\n\n\ny"), (Strings{"x", "\n\n", "\n", "y"}));
  EXPECT_EQ(pieces("  !"), (Strings{" ", " !"}));
  EXPECT_EQ(pieces("'s'S's"), (Strings{"'s", "'", "S", "'s"}));   // contractions are lower case only
  EXPECT_EQ(pieces("v1.2 ab12"), (Strings{"v", "1", ".", "2", " ab", "12"}));
  EXPECT_EQ(pieces("我喜欢。"), (Strings{"我喜欢", "。"}));
  EXPECT_EQ(pieces("cafe\xCC\x81!"), (Strings{"cafe", "\xCC\x81!"}));
  EXPECT_EQ(pieces(""), Strings{});
}

TEST(PreTokenizer, Gpt2CjkKeepsEachCjkCharacterApart) {
  const PreTokenizer cjk = PreTokenizer::Gpt2Cjk;
  EXPECT_EQ(pieces("我喜欢。", cjk), (Strings{"我", "喜", "欢", "。"}));
  EXPECT_EQ(pieces(" 中", cjk), (Strings{" ", "中"}));
  EXPECT_EQ(pieces("  中", cjk), (Strings{"  ", "中"}));          // 中 ends the stretch, as the text's end would
  EXPECT_EQ(pieces("使用 apt 命令", cjk), (Strings{"使", "用", " apt", " ", "命", "令"}));
  EXPECT_EQ(pieces("a \t中 b", cjk), (Strings{"a", " \t", "中", " b"}));
  EXPECT_EQ(pieces("ab１２cd", cjk), (Strings{"ab", "１", "２", "cd"}));
  EXPECT_EQ(pieces("a\u3000\u3000b", cjk), (Strings{"a", "\u3000", "\u3000", "b"}));
  EXPECT_EQ(pieces("Hello 世界!", cjk), (Strings{"Hello", " ", "世", "界", "!"}));
}

TEST(PreTokenizer, InvalidUtf8IsKeptByteForByte) {
  const std::string text = "a\xFF\xFE b\xE4\xB8 \xED\xA0\x80z";
  const Strings p = pieces(text);
  EXPECT_EQ(p, (Strings{"a", "\xFF\xFE", " b", "\xE4\xB8", " \xED\xA0\x80", "z"}));
  std::string joined;
  for (const auto& s : p) joined += s;
  EXPECT_EQ(joined, text);
}

TEST(BpeEncode, LowestRankMergesFirst) {
  const BpeTokenizer ab_first = tiny_tokenizer({"ab", "bc"}, {"a b", "b c"});
  EXPECT_EQ(encode(ab_first, "abc").tokens, (Strings{"ab", "c"}));
  const BpeTokenizer bc_first = tiny_tokenizer({"ab", "bc"}, {"b c", "a b"});
  EXPECT_EQ(encode(bc_first, "abc").tokens, (Strings{"a", "bc"}));
}

TEST(BpeEncode, OccurrencesMergeLeftToRight) {
  const BpeTokenizer t = tiny_tokenizer({"aa", "aaa"}, {"a a", "aa a"});
  EXPECT_EQ(encode(t, "aaa").tokens, (Strings{"aaa"}));
  EXPECT_EQ(encode(t, "aaaa").tokens, (Strings{"aa", "aa"}));  // round one: "aa" "aa"; no "aa aa" rule
  EXPECT_EQ(encode(t, "aaaaa").tokens, (Strings{"aa", "aaa"}));
}

TEST(BpeEncode, MergesStayInsidePieces) {
  const BpeTokenizer t = tiny_tokenizer({"\u0120t", "he", "\u0120the", "e\u0120"}, {"\u0120 t", "h e", "\u0120t he", "e \u0120"});
  const BpeEncoding e = encode(t, "the the");
  EXPECT_EQ(e.tokens, (Strings{"t", "he", "\u0120the"}));  // no "e Ġ" across the piece boundary
  EXPECT_EQ(e.ids.size(), e.tokens.size());
  EXPECT_EQ(e.ids[0], 't');
}

TEST(BpeEncode, AnyBytesRoundTrip) {
  const BpeTokenizer t = tiny_tokenizer({"\u00E4\u00B8", "\u00E4\u00B8\u0143"}, {"\u00E4 \u00B8", "\u00E4\u00B8 \u0143"});
  for (const std::string& text : {std::string("\xFF\x00\xE4\xB8\xAD", 5), std::string("abc \xE4\xB8\xAD\xE4\xB8"),
                                  std::string("\xF0\x9F\x98"), std::string("")}) {
    const BpeEncoding e = encode(t, text);
    EXPECT_EQ(decode(t, e.ids), text);
  }
}

TEST(BpeEncode, LongPasteIsQuick) {
  // One 300,000-byte piece: the merge loop is O(n log n), not quadratic.
  const BpeTokenizer t = tiny_tokenizer({"aa", "aaaa"}, {"a a", "aa aa"});
  const BpeEncoding e = encode(t, std::string(300000, 'a'));
  EXPECT_EQ(e.ids.size(), 75000u);
}

TEST(TokenLabels, SpacesMarkedSplitCharactersShownWholeBadBytesInHex) {
  // 中 = E4 B8 AD, split after two bytes.
  const BpeTokenizer t = tiny_tokenizer({"\u0120a", "\u00E4\u00B8"}, {"\u0120 a", "\u00E4 \u00B8"});
  const BpeEncoding e = encode(t, " a\xE4\xB8\xAD\n\t\xFF\xC2\xA0");
  EXPECT_EQ(token_labels(t, e.ids), (Strings{"\u2423a", "\u2039中\u203A", "\u2039中\u203A", "\u21B5", "\u21E5",
                                              "\u2039FF\u203A", "\u2039U+00A0\u203A", "\u2039U+00A0\u203A"}));
  EXPECT_EQ(token_labels(t, {-1, 'x'}), (Strings{"\u2039?\u203A", "x"}));
}

}  // namespace
}  // namespace headlab::bpe
