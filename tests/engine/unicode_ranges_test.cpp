// The pre-tokenizer's table of letters and numbers (src/engine/bpe/letter_number_ranges.inc) against
// utf8proc 2.8.0, from which it is made, over every code point: a letter or number of utf8proc is one
// in the table, and any other assigned code point is not. (Code points utf8proc leaves unassigned are
// checked against Node by bpe_reference_test.) When they differ, the table as it should be is printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "engine/bpe/unicode_classes.h"
#include "utf8proc.h"

namespace headlab::bpe {
namespace {

CharClass utf8proc_class(char32_t c) {
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO: return CharClass::Letter;
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO: return CharClass::Number;
    default: return CharClass::Other;
  }
}

std::string table_from_utf8proc() {
  std::string out;
  char32_t start = 0;
  CharClass current = CharClass::Other;
  for (char32_t c = 0x80; c <= 0x110000; ++c) {
    const CharClass k = c <= 0x10FFFF ? utf8proc_class(c) : CharClass::Other;
    if (k == current) continue;
    if (current != CharClass::Other) {
      char line[80];
      std::snprintf(line, sizeof line, "    {0x%04X, 0x%04X, CharClass::%s},\n", static_cast<unsigned>(start),
                    static_cast<unsigned>(c - 1), current == CharClass::Letter ? "Letter" : "Number");
      out += line;
    }
    start = c;
    current = k;
  }
  return out;
}

TEST(LetterNumberRanges, EveryCodePointIsClassedAsUtf8procClassesIt) {
  int differences = 0;
  for (char32_t c = 0x80; c <= 0x10FFFF; ++c) {
    const CharClass got = char_class(c);
    if (got == CharClass::Space) continue;
    const bool unassigned = utf8proc_category(static_cast<utf8proc_int32_t>(c)) == UTF8PROC_CATEGORY_CN;
    if (unassigned) continue;  // later Unicode versions: checked against Node
    if (got != utf8proc_class(c) && ++differences <= 5) ADD_FAILURE() << "U+" << std::hex << static_cast<unsigned>(c);
  }
  if (differences > 0) std::printf("letter_number_ranges.inc as utf8proc has it:\n%s", table_from_utf8proc().c_str());
  EXPECT_EQ(differences, 0);
}

}  // namespace
}  // namespace headlab::bpe
