#include "token.h"

#include <array>

namespace headlab {
namespace {
constexpr std::array<const char*, 12> kPosNames = {"det",  "adj",  "noun",  "verb", "prep",    "pron",
                                                   "adv",  "conj", "punct", "num",  "special", "unknown"};
}

const char* to_string(PartOfSpeech pos) { return kPosNames[static_cast<int>(pos)]; }

PartOfSpeech part_of_speech_from_string(const std::string& name) {
  for (std::size_t i = 0; i < kPosNames.size(); ++i)
    if (name == kPosNames[i]) return static_cast<PartOfSpeech>(i);
  return PartOfSpeech::unknown;
}

}  // namespace headlab
