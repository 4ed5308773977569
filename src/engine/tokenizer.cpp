#include "tokenizer.h"

#include <cstdint>

namespace headlab {
namespace {

// Decodes one code point starting at text[i]; advances i. Invalid sequences yield U+FFFD.
char32_t decode_utf8(const std::string& text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  int length = 0;
  char32_t cp = 0;
  if (lead < 0x80) { ++i; return lead; }
  if ((lead & 0xE0) == 0xC0) { length = 2; cp = lead & 0x1F; }
  else if ((lead & 0xF0) == 0xE0) { length = 3; cp = lead & 0x0F; }
  else if ((lead & 0xF8) == 0xF0) { length = 4; cp = lead & 0x07; }
  else { ++i; return 0xFFFD; }
  if (i + length > text.size()) { ++i; return 0xFFFD; }
  for (int k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) { ++i; return 0xFFFD; }
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr char32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
  i += length;
  if (cp < kMinForLength[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0xFFFD;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

enum class CharClass { space, word, combining, punctuation, standalone };

bool in(char32_t cp, char32_t lo, char32_t hi) { return cp >= lo && cp <= hi; }

CharClass classify(char32_t cp) {
  if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == '\v' ||
      cp == 0xA0 || cp == 0x3000 || in(cp, 0x2000, 0x200B) || cp == 0xFEFF || cp < 0x20 || cp == 0x7F)
    return CharClass::space;
  if (cp < 0x80) {
    if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') ||
        cp == '\'' || cp == '_')
      return CharClass::word;
    return CharClass::punctuation;
  }
  // Combining marks and joiners attach to the preceding token instead of standing alone.
  if (in(cp, 0x0300, 0x036F) || in(cp, 0x1AB0, 0x1AFF) || in(cp, 0x1DC0, 0x1DFF) ||
      in(cp, 0x20D0, 0x20FF) || in(cp, 0xFE00, 0xFE0F) || in(cp, 0xFE20, 0xFE2F) || cp == 0x200D ||
      in(cp, 0xE0100, 0xE01EF) || in(cp, 0x1F3FB, 0x1F3FF))
    return CharClass::combining;
  if (in(cp, 0x2010, 0x2027) || in(cp, 0x2030, 0x205E) || in(cp, 0x3001, 0x3003) ||
      in(cp, 0x3008, 0x3011) || in(cp, 0xFF01, 0xFF0F) || in(cp, 0xFF1A, 0xFF20) || cp == 0xA1 ||
      cp == 0xBF || cp == 0xAB || cp == 0xBB || cp == 0xB7)
    return CharClass::punctuation;
  // Ideographs, kana, hangul syllables, emoji and symbols: one token each.
  if (in(cp, 0x2E80, 0x9FFF) || in(cp, 0xAC00, 0xD7AF) || in(cp, 0xF900, 0xFAFF) ||
      in(cp, 0x20000, 0x3FFFF) || in(cp, 0x1F000, 0x1FAFF) || in(cp, 0x2190, 0x2BFF) ||
      cp == 0xFFFD)
    return CharClass::standalone;
  return CharClass::word;  // letters of other scripts (Latin-1, Greek, Cyrillic, Arabic, Hebrew...)
}

}  // namespace

bool is_punctuation_text(const std::string& word) {
  if (word.empty()) return false;
  std::size_t i = 0;
  const char32_t cp = decode_utf8(word, i);
  if (classify(cp) != CharClass::punctuation) return false;
  while (i < word.size()) {  // a mark plus combining characters still counts
    if (classify(decode_utf8(word, i)) != CharClass::combining) return false;
  }
  return true;
}

Tokenized tokenize(const std::string& text, std::size_t max_tokens) {
  Tokenized result;
  std::string current;
  bool current_is_word = false;
  const auto flush = [&] {
    if (current.empty()) return;
    if (result.words.size() < max_tokens) {
      result.words.push_back(current);
    } else {
      result.truncated = true;
    }
    current.clear();
    current_is_word = false;
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const char32_t cp = decode_utf8(text, i);
    switch (classify(cp)) {
      case CharClass::space:
        flush();
        break;
      case CharClass::combining:
        // Attach to whatever came before; a leading mark starts a token of its own.
        append_utf8(current, cp);
        break;
      case CharClass::word:
        if (!current_is_word) flush();
        append_utf8(current, cp);
        current_is_word = true;
        break;
      case CharClass::punctuation:
      case CharClass::standalone:
        flush();
        append_utf8(current, cp);
        current_is_word = false;
        // Keep following combining marks (e.g. emoji skin tones, variation selectors) with it.
        while (i < text.size()) {
          std::size_t peek = i;
          const char32_t next = decode_utf8(text, peek);
          if (classify(next) != CharClass::combining) break;
          append_utf8(current, next);
          i = peek;
          // A zero-width joiner glues the next symbol on as well (family emoji).
          if (next == 0x200D && i < text.size()) {
            std::size_t after = i;
            const char32_t joined = decode_utf8(text, after);
            append_utf8(current, joined);
            i = after;
          }
        }
        flush();
        break;
    }
    if (result.truncated) break;  // stop scanning a huge paste once we know it was cut
  }
  flush();
  return result;
}

}  // namespace headlab
