#include "induction_task.h"

#include "engine/tokenizer.h"
#include "grammar.h"

namespace headlab::training {
namespace {

// Uniform in [low, high].
int between(Rng& rng, int low, int high) { return low + rng.below(high - low + 1); }

void push(Sentence& out, int token, PartOfSpeech pos) {
  out.tokens.push_back(token);
  out.pos.push_back(pos);
  out.head.push_back(-1);
  out.relation.push_back(kRelationNone);
}

void push_symbols(Sentence& out, int count, int symbol_count, Rng& rng) {
  for (int i = 0; i < count; ++i) push(out, kSpecialTokenCount + rng.below(symbol_count), PartOfSpeech::unknown);
}

}  // namespace

std::string validate_induction(const InductionConfig& c) {
  if (c.symbol_count < 2 || c.symbol_count > kMaxInductionSymbols)
    return "induction.symbol_count: expected 2 to " + std::to_string(kMaxInductionSymbols);
  if (c.min_prefix < 0 || c.max_prefix < c.min_prefix) return "induction.prefix: expected 0 <= min <= max";
  if (c.min_segment < 2 || c.max_segment < c.min_segment) return "induction.segment: expected 2 <= min <= max";
  if (c.min_gap < 0 || c.max_gap < c.min_gap) return "induction.gap: expected 0 <= min <= max";
  if (c.max_symbols() + 2 > static_cast<int>(kMaxTokens))
    return "induction: max_prefix + 2 max_segment + max_gap must stay within " + std::to_string(kMaxTokens - 2) +
           " symbols";
  return {};
}

std::vector<std::string> induction_vocabulary(int symbol_count) {
  std::vector<std::string> vocabulary = {"[UNK]", "[MASK]", kClsToken, kSepToken};
  for (int s = 0; s < symbol_count; ++s) vocabulary.push_back(std::string(1, static_cast<char>('a' + s)));
  return vocabulary;
}

RepeatLayout generate_repeated_segments(const InductionConfig& c, Rng& rng, bool special_tokens, Sentence& out) {
  out.clear();
  // Lengths first, then symbols left to right: the draw order is part of the determinism.
  const int prefix = between(rng, c.min_prefix, c.max_prefix);
  const int length = between(rng, c.min_segment, c.max_segment);
  const int gap = between(rng, c.min_gap, c.max_gap);
  if (special_tokens) push(out, kTokenCls, PartOfSpeech::special);
  push_symbols(out, prefix, c.symbol_count, rng);
  RepeatLayout layout;
  layout.first = out.size();
  layout.length = length;
  push_symbols(out, length, c.symbol_count, rng);
  push_symbols(out, gap, c.symbol_count, rng);
  layout.second = out.size();
  for (int i = 0; i < length; ++i) push(out, out.tokens[layout.first + i], PartOfSpeech::unknown);
  if (special_tokens) push(out, kTokenSep, PartOfSpeech::special);
  return layout;
}

RepeatedSequences held_out_repeated_segments(const InductionConfig& config, std::uint32_t seed, int count,
                                             bool special_tokens) {
  Rng rng(stream_seed(seed, 0x1D0C7));
  RepeatedSequences set;
  set.sequences.resize(count);
  set.layouts.reserve(count);
  for (Sentence& s : set.sequences) set.layouts.push_back(generate_repeated_segments(config, rng, special_tokens, s));
  return set;
}

Tokens symbol_tokens(const Sentence& sequence) {
  Tokens tokens(sequence.tokens.size());
  for (int i = 0; i < sequence.size(); ++i) {
    Token& t = tokens[i];
    const int id = sequence.tokens[i];
    t.pos = sequence.pos[i];
    t.is_special = t.pos == PartOfSpeech::special;
    if (id == kTokenCls) t.text = t.key = kClsToken;
    else if (id == kTokenSep) t.text = t.key = kSepToken;
    else if (id >= kSpecialTokenCount) {
      t.key = std::string(1, static_cast<char>('a' + id - kSpecialTokenCount));
      t.text = std::string(1, static_cast<char>('A' + id - kSpecialTokenCount));
    } else t.text = t.key = "[UNK]";
  }
  return tokens;
}

std::string symbol_text(const Sentence& sequence) {
  std::string text;
  for (const Token& t : symbol_tokens(sequence))
    if (!t.is_special) text += (text.empty() ? "" : " ") + t.text;
  return text;
}

}  // namespace headlab::training
