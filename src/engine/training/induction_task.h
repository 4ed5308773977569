#pragma once
// The induction task's data: random symbols in which a segment of random length recurs at a
// random offset, "[CLS] K D | F A J C | H | F A J C [SEP]" (prefix, segment, gap, segment again).
// Trained with next-token prediction, the only way to beat chance inside the second copy is to
// find the earlier copy of the current symbol and copy the symbol after it: an induction head
// (Olsson et al. 2022, "In-context learning and induction heads"; Elhage et al. 2021).
// Prefix, segment and gap lengths are all drawn per sequence, so neither the position of the
// first copy nor the distance between the copies is fixed; with a fixed period a positional head
// (attend k tokens back) solves the task instead (docs/training.md).
// Deterministic: the same config and seed give the same sequences on every platform.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/token.h"
#include "generator.h"
#include "rng.h"

namespace headlab::training {

inline constexpr int kMaxInductionSymbols = 26;  // "A".."Z"

struct InductionConfig {
  int symbol_count = 16;  // symbols "A", "B", ...; vocabulary keys "a", "b", ... (the lab's A..J first)
  int min_prefix = 0;     // random symbols before the first copy
  int max_prefix = 12;
  int min_segment = 3;    // symbols in the repeated segment
  int max_segment = 12;
  int min_gap = 0;        // random symbols between the two copies
  int max_gap = 8;

  // Longest sequence in symbols (without [CLS]/[SEP]).
  int max_symbols() const { return max_prefix + 2 * max_segment + max_gap; }
};

// Where the copies of one sequence sit (token indices, [CLS] counted when present).
struct RepeatLayout {
  int first = 0;   // first token of the first copy
  int second = 0;  // first token of the second copy; the copy ends the sequence (before [SEP])
  int length = 0;  // symbols per copy
};

// Ranges: 2 <= symbol_count <= 26, 0 <= min <= max for each length, min_segment >= 2, and the
// longest sequence plus [CLS]/[SEP] within the engine's 64 tokens. Empty when valid, else a
// message naming the field.
std::string validate_induction(const InductionConfig& config);

// [UNK], [MASK], [CLS], [SEP] (the ids of grammar.h's SpecialToken), then "a", "b", ...: the
// keys the tokenizer gives the page's symbols, so the page's "random tokens, repeated" input
// ("C F A J C F A J") reaches the trained model's embedding.
std::vector<std::string> induction_vocabulary(int symbol_count);

// Draws one sequence into `out` (buffers reused): every symbol uniform over the symbols, so
// symbols also recur by chance (a real sequence has such repeats too). Symbols' POS is
// `unknown`, with no arcs. Returns where the two copies sit.
RepeatLayout generate_repeated_segments(const InductionConfig& config, Rng& rng, bool special_tokens, Sentence& out);

// `count` sequences (and their layouts) from a stream of `seed` that training never draws from.
struct RepeatedSequences {
  std::vector<Sentence> sequences;
  std::vector<RepeatLayout> layouts;
};
RepeatedSequences held_out_repeated_segments(const InductionConfig& config, std::uint32_t seed, int count,
                                             bool special_tokens);

// Engine tokens for embed() and the analysis: symbols as "A", "B", ... (key "a", "b", ...), so
// SentenceContext sees repeats by their text; [CLS]/[SEP] special.
Tokens symbol_tokens(const Sentence& sequence);
// "F A J C H F A J C" (no [CLS]/[SEP]: the tokenizer adds them), the page's input text.
std::string symbol_text(const Sentence& sequence);

}  // namespace headlab::training
