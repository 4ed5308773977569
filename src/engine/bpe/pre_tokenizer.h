#pragma once
// Pre-tokenizers: how text is cut into pieces before BPE merges bytes inside each piece (no token
// crosses a piece boundary).
//   "gpt2"      GPT-2's pattern, by hand (no regex engine), with JavaScript's classes (unicode_classes.h):
//               's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//   "gpt2-cjk"  the same, except that a CJK character (is_cjk_piece) is always a piece of its own: the
//               text is cut at each one, and GPT-2's pattern splits each stretch between them, the
//               stretch's end counting as the end of the text. So white space just before a CJK
//               character is one piece ("a  中" -> "a", "  ", "中"), and " 中" is " ", "中". This is the
//               split scripts/tokenizer/pretokenize.py trains HeadLab's vocabularies with.
// Bytes that are not well-formed UTF-8 each count as one character of the last class ([^\s\p{L}\p{N}]),
// as U+FFFD would: no byte is dropped, so the pieces always cover the text exactly.
#include <cstddef>
#include <string_view>
#include <vector>

#include "engine/enum_names.h"

namespace headlab::bpe {

enum class PreTokenizer { Gpt2, Gpt2Cjk };
inline constexpr EnumName<PreTokenizer> kPreTokenizerNames[] = {{"gpt2", PreTokenizer::Gpt2},
                                                                  {"gpt2-cjk", PreTokenizer::Gpt2Cjk}};

// A piece: text.substr(offset, length).
struct Piece {
  std::size_t offset = 0;
  std::size_t length = 0;
};

// The pieces of `text`, in order; they cover it exactly, and none is empty.
std::vector<Piece> pre_tokenize(std::string_view text, PreTokenizer pre_tokenizer);

}  // namespace headlab::bpe
