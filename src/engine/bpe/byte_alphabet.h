#pragma once
// GPT-2's byte alphabet (bytes_to_unicode in openai/gpt-2's encoder.py): every byte as one
// printable character, so a vocabulary of byte strings can be written as text. Bytes 0x21-0x7E,
// 0xA1-0xAC and 0xAE-0xFF stand for themselves (as Latin-1 characters); the other 68, in order,
// become U+0100 upward: 0x00 -> U+0100 "Ā", ..., 0x20 (space) -> U+0120 "Ġ", 0x0A -> U+010A "Ċ".
// Tokens and merges in encoder.json, vocab.bpe and headlab-bpe-1 files are written this way.
#include <string>
#include <string_view>

namespace headlab::bpe {

// The character standing for `byte`, as a code point and as UTF-8.
char32_t byte_symbol_code_point(unsigned char byte);
std::string byte_symbol(unsigned char byte);

// " the" -> "Ġthe".
std::string bytes_to_symbols(std::string_view bytes);

// "Ġthe" -> " the". False (and `bytes` unspecified) when `symbols` is not valid UTF-8 or holds a
// character that is none of the 256 symbols.
bool symbols_to_bytes(std::string_view symbols, std::string& bytes);

}  // namespace headlab::bpe
