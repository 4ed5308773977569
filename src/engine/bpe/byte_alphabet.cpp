#include "engine/bpe/byte_alphabet.h"

#include "engine/bpe/unicode_classes.h"

namespace headlab::bpe {
namespace {

constexpr bool stands_for_itself(unsigned byte) {
  return (byte >= 0x21 && byte <= 0x7E) || (byte >= 0xA1 && byte <= 0xAC) || (byte >= 0xAE && byte <= 0xFF);
}

// Both directions of the alphabet, built at compile time. The symbols span U+0021..U+0143.
constexpr char32_t kLastSymbol = 0x143;
struct Alphabet {
  char32_t symbol_of[256];
  int byte_of[kLastSymbol + 1];  // -1: the character stands for no byte
  constexpr Alphabet() : symbol_of(), byte_of() {
    for (int& b : byte_of) b = -1;
    unsigned shifted = 0;
    for (unsigned b = 0; b < 256; ++b) {
      symbol_of[b] = stands_for_itself(b) ? b : 0x100 + shifted++;
      byte_of[symbol_of[b]] = static_cast<int>(b);
    }
  }
};
constexpr Alphabet kAlphabet;

void append_utf8(char32_t c, std::string& out) {
  if (c < 0x80) {  // every symbol is one or two bytes of UTF-8
    out += static_cast<char>(c);
  } else {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace

char32_t byte_symbol_code_point(unsigned char byte) { return kAlphabet.symbol_of[byte]; }

std::string byte_symbol(unsigned char byte) {
  std::string out;
  append_utf8(kAlphabet.symbol_of[byte], out);
  return out;
}

std::string bytes_to_symbols(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char b : bytes) append_utf8(kAlphabet.symbol_of[static_cast<unsigned char>(b)], out);
  return out;
}

bool symbols_to_bytes(std::string_view symbols, std::string& bytes) {
  bytes.clear();
  for (std::size_t i = 0; i < symbols.size();) {
    const Utf8Step step = decode_utf8(symbols, i);
    if (!step.valid || step.code_point > kLastSymbol || kAlphabet.byte_of[step.code_point] < 0) return false;
    bytes += static_cast<char>(kAlphabet.byte_of[step.code_point]);
    i += step.length;
  }
  return true;
}

}  // namespace headlab::bpe
