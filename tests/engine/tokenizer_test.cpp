#include <gtest/gtest.h>

#include "engine/tokenizer.h"

namespace headlab {
namespace {

using Words = std::vector<std::string>;

TEST(Tokenizer, WordsAndPunctuation) {
  EXPECT_EQ(tokenize("The quick brown fox jumps over the lazy dog.").words,
            (Words{"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", "."}));
  EXPECT_EQ(tokenize("Hi, it's me!").words, (Words{"Hi", ",", "it's", "me", "!"}));
  EXPECT_EQ(tokenize("  \t\n ").words, Words{});
  EXPECT_EQ(tokenize("").words, Words{});
}

TEST(Tokenizer, UnicodeIsTokenizedSanely) {
  EXPECT_EQ(tokenize("狐狸跳").words, (Words{"狐", "狸", "跳"}));
  EXPECT_EQ(tokenize("café naïve").words, (Words{"café", "naïve"}));
  // e + combining acute stays one word.
  EXPECT_EQ(tokenize("cafe\xCC\x81 ok").words, (Words{"cafe\xCC\x81", "ok"}));
  // Emoji with a skin-tone modifier is one token; a ZWJ sequence stays together.
  EXPECT_EQ(tokenize("hi 👍🏽!").words, (Words{"hi", "👍🏽", "!"}));
  EXPECT_EQ(tokenize("👩‍👩‍👧").words.size(), 1u);
  EXPECT_EQ(tokenize("שלום עולם").words, (Words{"שלום", "עולם"}));
  EXPECT_EQ(tokenize("你好，世界。").words, (Words{"你", "好", "，", "世", "界", "。"}));
}

TEST(Tokenizer, InvalidUtf8BecomesReplacementCharacter) {
  const auto words = tokenize(std::string("a\xFF" "b \xC3"));
  // "a", U+FFFD, "b", then the cut-off lead byte at the end becomes U+FFFD too.
  ASSERT_EQ(words.words.size(), 4u);
  EXPECT_EQ(words.words[3], "\xEF\xBF\xBD");
  EXPECT_EQ(words.words[1], "\xEF\xBF\xBD");
}

TEST(Tokenizer, HugePasteIsCapped) {
  std::string huge;
  for (int i = 0; i < 20000; ++i) huge += "word ";
  const auto result = tokenize(huge);
  EXPECT_EQ(result.words.size(), kMaxTokens);
  EXPECT_TRUE(result.truncated);
  EXPECT_FALSE(tokenize("a b c").truncated);
}

TEST(Tokenizer, PunctuationDetection) {
  EXPECT_TRUE(is_punctuation_text("."));
  EXPECT_TRUE(is_punctuation_text("，"));
  EXPECT_FALSE(is_punctuation_text("dog"));
  EXPECT_FALSE(is_punctuation_text(""));
}

}  // namespace
}  // namespace headlab
