#pragma once
// Readable text for each token of an encoding, for axis labels and lists. A token is bytes, and a
// byte-level BPE often splits a character (most Chinese characters and emoji in GPT-2's vocabulary),
// so a token's bytes are shown like this:
//   - whole characters as themselves, except: a space as "␣" (U+2423 OPEN BOX, the conventional sign
//     for a visible space; "·" would be taken for the middle dot Chinese writes inside foreign names),
//     a newline as "↵", a tab as "⇥", any other control or space character as its code, "‹U+00A0›";
//   - the bytes of a character split across tokens as that character in guillemets, "‹喜›", in each
//     token that holds part of it (so "喜" in two tokens reads "‹喜›", "‹喜›");
//   - a byte that is not part of well-formed UTF-8 as its hex value, "‹FF›".
// Never mojibake: every label is valid UTF-8.
#include <string>
#include <vector>

#include "engine/bpe/bpe_tokenizer.h"

namespace headlab::bpe {

// One label per id (ids out of range get "‹?›").
std::vector<std::string> token_labels(const BpeTokenizer& tokenizer, const std::vector<int>& ids);
// The same from the bytes each id stands for (a text corpus carries them without its tokenizer).
std::vector<std::string> token_labels(const std::vector<std::string>& token_bytes, const std::vector<int>& ids);

}  // namespace headlab::bpe
