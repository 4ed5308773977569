#include "engine/bpe/pre_tokenizer.h"

#include <cstdint>

#include "engine/bpe/unicode_classes.h"

namespace headlab::bpe {
namespace {

// A character's class for the pattern; Cjk only under "gpt2-cjk".
enum class Kind : std::uint8_t { Letter, Number, Space, Other, Cjk };

struct Char {
  std::size_t offset;
  std::size_t length;
  Kind kind;
  char32_t code_point;  // 0xFFFD for a byte that is not UTF-8 (only compared with ASCII)
};

Kind kind_of(char32_t c, PreTokenizer pre_tokenizer) {
  if (pre_tokenizer == PreTokenizer::Gpt2Cjk && is_cjk_piece(c)) return Kind::Cjk;
  switch (char_class(c)) {
    case CharClass::Letter: return Kind::Letter;
    case CharClass::Number: return Kind::Number;
    case CharClass::Space: return Kind::Space;
    case CharClass::Other: break;
  }
  return Kind::Other;
}

std::vector<Char> characters(std::string_view text, PreTokenizer pre_tokenizer) {
  std::vector<Char> chars;
  chars.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Step step = decode_utf8(text, i);
    if (step.valid)
      chars.push_back({i, step.length, kind_of(step.code_point, pre_tokenizer), step.code_point});
    else
      chars.push_back({i, 1, Kind::Other, 0xFFFD});
    i += step.length;
  }
  return chars;
}

// The length in characters of the contraction 's|'t|'re|'ve|'m|'ll|'d starting at chars[i], or 0.
std::size_t contraction_at(const std::vector<Char>& chars, std::size_t i) {
  const auto is = [&](std::size_t k, char c) { return i + k < chars.size() && chars[i + k].code_point == char32_t(c); };
  if (!is(0, '\'')) return 0;
  if (is(1, 's') || is(1, 't') || is(1, 'm') || is(1, 'd')) return 2;
  if ((is(1, 'r') && is(2, 'e')) || (is(1, 'v') && is(2, 'e')) || (is(1, 'l') && is(2, 'l'))) return 3;
  return 0;
}

// The end of the run of `kind` starting at chars[i].
std::size_t run_end(const std::vector<Char>& chars, std::size_t i, Kind kind) {
  while (i < chars.size() && chars[i].kind == kind) ++i;
  return i;
}

// The length in characters of the piece starting at chars[i], trying the pattern's alternatives in order.
std::size_t piece_at(const std::vector<Char>& chars, std::size_t i) {
  const Kind kind = chars[i].kind;
  if (kind == Kind::Cjk) return 1;
  if (const std::size_t n = contraction_at(chars, i)) return n;
  // " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": an optional U+0020, then a run of one class.
  const bool space_first = chars[i].code_point == ' ' && i + 1 < chars.size();
  for (const Kind run : {Kind::Letter, Kind::Number, Kind::Other}) {
    if (kind == run) return run_end(chars, i, run) - i;
    if (space_first && chars[i + 1].kind == run) return run_end(chars, i + 1, run) - i;
  }
  // "\s+(?!\S)": the run of spaces, less its last one when something other than space follows;
  // "\s+" when that leaves nothing. A CJK character ends the stretch the pattern sees, as the text's
  // end would.
  const std::size_t end = run_end(chars, i, Kind::Space);
  if (end == chars.size() || chars[end].kind == Kind::Cjk || end - i == 1) return end - i;
  return end - 1 - i;
}

}  // namespace

std::vector<Piece> pre_tokenize(std::string_view text, PreTokenizer pre_tokenizer) {
  const std::vector<Char> chars = characters(text, pre_tokenizer);
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < chars.size();) {
    const std::size_t n = piece_at(chars, i);
    const std::size_t end_offset = i + n < chars.size() ? chars[i + n].offset : text.size();
    pieces.push_back({chars[i].offset, end_offset - chars[i].offset});
    i += n;
  }
  return pieces;
}

}  // namespace headlab::bpe
