#include "engine/symbol_sequence.h"

#include <algorithm>
#include <cassert>
#include <random>
#include <vector>

#include "engine/embedding.h"

namespace headlab {

std::string repeated_symbol_text(int length, std::uint32_t seed) {
  assert(length >= kMinRepeatedLength && length <= kMaxRepeatedLength);
  // std::mt19937's outputs are fixed by the standard; std::shuffle and the distributions are not
  // (libstdc++ natively, libc++ in WebAssembly), so the draws below use the raw outputs.
  std::mt19937 rng(seed);
  std::vector<int> symbols(kSymbolCount);
  for (int s = 0; s < kSymbolCount; ++s) symbols[s] = s;
  for (int i = kSymbolCount - 1; i > 0; --i) std::swap(symbols[i], symbols[rng() % static_cast<unsigned>(i + 1)]);
  std::vector<int> segment(symbols.begin(), symbols.begin() + std::min(length, kSymbolCount));
  while (static_cast<int>(segment.size()) < length) {
    const int previous = segment.back();
    const int next = static_cast<int>(rng() % (kSymbolCount - 1));
    segment.push_back(next >= previous ? next + 1 : next);  // any symbol but the previous one
  }
  std::string text;
  for (int copy = 0; copy < 2; ++copy)
    for (int s : segment) {
      if (!text.empty()) text += ' ';
      text += static_cast<char>('A' + s);
    }
  return text;
}

}  // namespace headlab
