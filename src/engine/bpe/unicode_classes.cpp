#include "engine/bpe/unicode_classes.h"

#include <algorithm>
#include <iterator>

namespace headlab::bpe {
namespace {

struct ClassRange {
  char32_t first, last;
  CharClass char_class;
};

// Unicode 15.0's letters and numbers past ASCII, from utf8proc (the file says how it is made).
constexpr ClassRange kLettersAndNumbers[] = {
#include "engine/bpe/letter_number_ranges.inc"
};

// Letters and numbers assigned after Unicode 15.0 (in 15.1, 16.0 and 17.0), which utf8proc 2.8.0
// leaves unassigned and Node 20.20's regular expressions already know. Found by comparing the two
// over every code point (none of 15.0's characters changed class); sorted, disjoint.
constexpr ClassRange kAssignedAfterUnicode15[] = {
    {0x88F, 0x88F, CharClass::Letter}, {0xC5C, 0xC5C, CharClass::Letter}, {0xCDC, 0xCDC, CharClass::Letter},
    {0x1C89, 0x1C8A, CharClass::Letter}, {0xA7CB, 0xA7CF, CharClass::Letter},
    {0xA7D2, 0xA7D2, CharClass::Letter}, {0xA7D4, 0xA7D4, CharClass::Letter},
    {0xA7DA, 0xA7DC, CharClass::Letter}, {0xA7F1, 0xA7F1, CharClass::Letter},
    {0x105C0, 0x105F3, CharClass::Letter}, {0x10940, 0x10959, CharClass::Letter},
    {0x10D40, 0x10D49, CharClass::Number}, {0x10D4A, 0x10D65, CharClass::Letter},
    {0x10D6F, 0x10D85, CharClass::Letter}, {0x10EC2, 0x10EC7, CharClass::Letter},
    {0x11380, 0x11389, CharClass::Letter}, {0x1138B, 0x1138B, CharClass::Letter},
    {0x1138E, 0x1138E, CharClass::Letter}, {0x11390, 0x113B5, CharClass::Letter},
    {0x113B7, 0x113B7, CharClass::Letter}, {0x113D1, 0x113D1, CharClass::Letter},
    {0x113D3, 0x113D3, CharClass::Letter}, {0x116D0, 0x116E3, CharClass::Number},
    {0x11BC0, 0x11BE0, CharClass::Letter}, {0x11BF0, 0x11BF9, CharClass::Number},
    {0x11DB0, 0x11DDB, CharClass::Letter}, {0x11DE0, 0x11DE9, CharClass::Number},
    {0x13460, 0x143FA, CharClass::Letter}, {0x16100, 0x1611D, CharClass::Letter},
    {0x16130, 0x16139, CharClass::Number}, {0x16D40, 0x16D6C, CharClass::Letter},
    {0x16D70, 0x16D79, CharClass::Number}, {0x16EA0, 0x16EB8, CharClass::Letter},
    {0x16EBB, 0x16ED3, CharClass::Letter}, {0x16FF2, 0x16FF3, CharClass::Letter},
    {0x16FF4, 0x16FF6, CharClass::Number}, {0x187F8, 0x187FF, CharClass::Letter},
    {0x18CFF, 0x18CFF, CharClass::Letter}, {0x18D09, 0x18D1E, CharClass::Letter},
    {0x18D80, 0x18DF2, CharClass::Letter}, {0x1CCF0, 0x1CCF9, CharClass::Number},
    {0x1E5D0, 0x1E5ED, CharClass::Letter}, {0x1E5F0, 0x1E5F0, CharClass::Letter},
    {0x1E5F1, 0x1E5FA, CharClass::Number}, {0x1E6C0, 0x1E6DE, CharClass::Letter},
    {0x1E6E0, 0x1E6E2, CharClass::Letter}, {0x1E6E4, 0x1E6E5, CharClass::Letter},
    {0x1E6E7, 0x1E6ED, CharClass::Letter}, {0x1E6F0, 0x1E6F4, CharClass::Letter},
    {0x1E6FE, 0x1E6FF, CharClass::Letter}, {0x2B73A, 0x2B73F, CharClass::Letter},
    {0x2CEA2, 0x2CEAD, CharClass::Letter}, {0x2EBF0, 0x2EE5D, CharClass::Letter},
    {0x323B0, 0x33479, CharClass::Letter},
};

bool is_js_space(char32_t c) {
  if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0D);
  if (c < 0xA0) return false;
  return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

}  // namespace

CharClass char_class(char32_t c) {
  if (c < 0x80) {  // the common case, without a table lookup
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return CharClass::Letter;
    if (c >= '0' && c <= '9') return CharClass::Number;
    return is_js_space(c) ? CharClass::Space : CharClass::Other;
  }
  if (is_js_space(c)) return CharClass::Space;
  if (c > 0x10FFFF) return CharClass::Other;
  // Unicode 15.0's letters and numbers, then those assigned since (unassigned in 15.0: no overlap).
  const auto find = [c](const ClassRange* begin, const ClassRange* end, CharClass& out) {
    const ClassRange* range = std::upper_bound(begin, end, c, [](char32_t value, const ClassRange& r) { return value < r.first; });
    if (range == begin || c > std::prev(range)->last) return false;
    out = std::prev(range)->char_class;
    return true;
  };
  CharClass found = CharClass::Other;
  if (find(std::begin(kLettersAndNumbers), std::end(kLettersAndNumbers), found) ||
      find(std::begin(kAssignedAfterUnicode15), std::end(kAssignedAfterUnicode15), found))
    return found;
  return CharClass::Other;
}

bool is_cjk_piece(char32_t c) {
  return (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x20000 && c <= 0x2FA1F) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFFEF);
}

Utf8Step decode_utf8(std::string_view text, std::size_t offset) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(offset);
  if (lead < 0x80) return {lead, 1, true};
  std::size_t length;
  char32_t code_point;
  // The second byte's range rules out overlong forms, surrogates and values past U+10FFFF at once.
  unsigned char second_lo = 0x80, second_hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code_point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code_point = lead & 0x0F;
    if (lead == 0xE0) second_lo = 0xA0;
    if (lead == 0xED) second_hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code_point = lead & 0x07;
    if (lead == 0xF0) second_lo = 0x90;
    if (lead == 0xF4) second_hi = 0x8F;
  } else {
    return {};
  }
  if (offset + length > text.size()) return {};
  for (std::size_t k = 1; k < length; ++k) {
    const unsigned char b = byte(offset + k);
    if (k == 1 ? (b < second_lo || b > second_hi) : (b & 0xC0) != 0x80) return {};
    code_point = (code_point << 6) | (b & 0x3F);
  }
  return {code_point, length, true};
}

}  // namespace headlab::bpe
