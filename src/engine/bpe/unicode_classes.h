#pragma once
// The character classes GPT-2's pre-tokenizer pattern is written in, as JavaScript's regular
// expressions with the `u` flag define them (gpt-3-encoder runs the pattern in Node):
//   \p{L}  general category L (Lu, Ll, Lt, Lm, Lo)
//   \p{N}  general category N (Nd, Nl, No)
//   \s     ECMAScript WhiteSpace + LineTerminator: U+0009-000D, U+0020, U+00A0, U+1680,
//          U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF (not U+0085, not U+180E)
// Categories come from utf8proc 2.8.0 (Unicode 15.0; as a range table made from it,
// letter_number_ranges.inc, so the page does not carry utf8proc's 330 KB of tables) plus the letters
// and numbers assigned in
// Unicode 15.1-17.0, so every code point is classed as Node 20.20 (ICU 78, Unicode 17.0) classes it;
// tests/engine/bpe_reference.mjs dumps Node's classes and bpe_reference_test.cpp compares all of them.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace headlab::bpe {

enum class CharClass : std::uint8_t {
  Letter,  // \p{L}
  Number,  // \p{N}
  Space,   // \s
  Other,   // everything else, including unassigned code points and bytes that are not UTF-8
};

// The class of one Unicode scalar value (0..0x10FFFF, surrogates included: they are Other).
CharClass char_class(char32_t code_point);

// True for the characters the "gpt2-cjk" pre-tokenizer keeps as pieces of their own: Han ideographs
// (U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF, U+20000-2FA1F), CJK symbols and punctuation (U+3000-303F)
// and half-/full-width forms (U+FF00-FFEF).
bool is_cjk_piece(char32_t code_point);

// One step of strict UTF-8 decoding (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
struct Utf8Step {
  char32_t code_point = 0;  // meaningful when valid
  std::size_t length = 1;   // bytes consumed: the character's, or 1 for a byte that starts no character
  bool valid = false;
};
// Decodes the character starting at text[offset] (offset < text.size()).
Utf8Step decode_utf8(std::string_view text, std::size_t offset);

}  // namespace headlab::bpe
