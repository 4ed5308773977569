#include "engine/bpe/token_labels.h"

#include <cstdio>

#include "engine/bpe/unicode_classes.h"

namespace headlab::bpe {
namespace {

std::string code_label(const char* format, unsigned value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// A whole character as a label shows it.
std::string shown(char32_t c, std::string_view utf8) {
  if (c == ' ') return "\u2423";
  if (c == '\n') return "\u21B5";
  if (c == '\t') return "\u21E5";
  if (c < 0x20 || (c >= 0x7F && c < 0xA0) || char_class(c) == CharClass::Space)
    return code_label("\u2039U+%04X\u203A", static_cast<unsigned>(c));
  return std::string(utf8);
}

}  // namespace

std::vector<std::string> token_labels(const std::vector<std::string>& token_bytes, const std::vector<int>& ids) {
  // The bytes of all tokens in a row, and where each token starts in it.
  std::string bytes;
  std::vector<std::size_t> starts;
  for (const int id : ids) {
    starts.push_back(bytes.size());
    if (id >= 0 && static_cast<std::size_t>(id) < token_bytes.size()) bytes += token_bytes[id];
  }
  starts.push_back(bytes.size());
  std::vector<std::string> labels(ids.size());
  for (std::size_t t = 0; t < ids.size(); ++t)
    if (ids[t] < 0 || static_cast<std::size_t>(ids[t]) >= token_bytes.size()) labels[t] = "\u2039?\u203A";
  // Walk the characters of the whole text; each goes to every token it overlaps.
  std::size_t token = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    const Utf8Step step = decode_utf8(bytes, i);
    const std::size_t end = i + step.length;
    while (starts[token + 1] <= i) ++token;  // the token holding byte i
    if (!step.valid) {
      labels[token] += code_label("\u2039%02X\u203A", static_cast<unsigned char>(bytes[i]));
    } else if (end <= starts[token + 1]) {
      labels[token] += shown(step.code_point, std::string_view(bytes).substr(i, step.length));
    } else {
      // A split control or space character keeps its code, already marked.
      const std::string utf8 = bytes.substr(i, step.length), whole = shown(step.code_point, utf8);
      const std::string part = whole == utf8 ? "\u2039" + utf8 + "\u203A" : whole;
      for (std::size_t k = token; starts[k] < end; ++k)
        if (starts[k + 1] > starts[k]) labels[k] += part;  // tokens holding some of its bytes
    }
    i = end;
  }
  return labels;
}

std::vector<std::string> token_labels(const BpeTokenizer& tokenizer, const std::vector<int>& ids) {
  return token_labels(tokenizer.token_bytes, ids);
}

}  // namespace headlab::bpe
