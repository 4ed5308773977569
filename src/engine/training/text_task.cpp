#include "text_task.h"

#include <algorithm>

#include "engine/tokenizer.h"

namespace headlab::training {
namespace {

// The shortest repeated passage: a few tokens repeat by chance in any text.
constexpr int kShortestRepeat = 8;

void fill_window(const TextCorpus& corpus, std::size_t start, int length, Sentence& out) {
  out.clear();
  for (int i = 0; i < length; ++i) {
    out.tokens.push_back(corpus.ids[start + static_cast<std::size_t>(i)]);
    out.pos.push_back(PartOfSpeech::unknown);
    out.head.push_back(-1);
    out.relation.push_back(kRelationNone);
  }
}

}  // namespace

std::string validate_text_task(const TextTaskConfig& config, const TextCorpus& corpus) {
  if (config.window < 2 || config.window > static_cast<int>(kMaxTokens))
    return "text.window: expected 2 to " + std::to_string(kMaxTokens) + " tokens";
  if (!(config.repeat_fraction >= 0.0f && config.repeat_fraction <= 1.0f))
    return "text.repeat_fraction: expected a number from 0 to 1";
  if (corpus.vocabulary.empty()) return "corpus: the tokenizer has no tokens";
  if (corpus.ids.size() <= static_cast<std::size_t>(config.window))
    return "corpus: " + std::to_string(corpus.ids.size()) + " tokens, not more than one window of " +
           std::to_string(config.window);
  const int size = static_cast<int>(corpus.vocabulary.size());
  for (std::size_t i = 0; i < corpus.ids.size(); ++i)
    if (corpus.ids[i] < 0 || corpus.ids[i] >= size)
      return "corpus: token " + std::to_string(i) + " has id " + std::to_string(corpus.ids[i]) + ", outside the " +
             std::to_string(size) + " tokens";
  return {};
}

void draw_text_window(const TextCorpus& corpus, const TextTaskConfig& config, Rng& rng, Sentence& out) {
  const std::size_t starts = corpus.ids.size() - static_cast<std::size_t>(config.window) + 1;
  // 64 random bits: corpora may be longer than Rng::below's int range.
  const std::uint64_t pick = rng.next_u64() % starts;
  fill_window(corpus, static_cast<std::size_t>(pick), config.window, out);
  // Drawn only when repeats are on, so plain runs keep the windows they always had. The passage's
  // length and place vary, so no head can find the earlier copy by its distance alone.
  if (config.repeat_fraction > 0.0f && rng.chance(config.repeat_fraction)) {
    const int half = config.window / 2;
    const int shortest = std::min(half, kShortestRepeat);
    const int length = shortest + rng.below(half - shortest + 1);
    const int start = rng.below(config.window - 2 * length + 1);
    for (int i = 0; i < length; ++i) out.tokens[start + length + i] = out.tokens[start + i];
  }
}

std::vector<Sentence> held_out_text_windows(const TextCorpus& held_out, const TextTaskConfig& config, int count) {
  std::vector<Sentence> windows;
  if (held_out.ids.size() < static_cast<std::size_t>(config.window) || count <= 0) return windows;
  const std::size_t starts = held_out.ids.size() - static_cast<std::size_t>(config.window) + 1;
  const std::size_t stride = std::max<std::size_t>(1, starts / static_cast<std::size_t>(count));
  for (std::size_t start = 0; start < starts && windows.size() < static_cast<std::size_t>(count); start += stride) {
    windows.emplace_back();
    fill_window(held_out, start, config.window, windows.back());
  }
  return windows;
}

}  // namespace headlab::training
