// libFuzzer: any bytes tokenize into at most kMaxTokens non-empty tokens of valid UTF-8.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/tokenizer.h"

namespace {
bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (int k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const headlab::Tokenized t = headlab::tokenize(std::string(reinterpret_cast<const char*>(data), size));
  if (t.words.size() > headlab::kMaxTokens) std::abort();
  for (const std::string& w : t.words)
    if (w.empty() || !valid_utf8(w)) std::abort();
  return 0;
}
