#include "batch.h"

namespace headlab::training {

void make_batch(const std::vector<Sentence>& sentences, Objective objective, const MaskingConfig& masking,
                int vocabulary_size, Rng& rng, Batch& out) {
  out.input.clear();
  out.position.clear();
  out.offset.clear();
  out.length.clear();
  out.target_row.clear();
  out.target_token.clear();
  for (const Sentence& s : sentences) {
    const int offset = out.token_count();
    out.offset.push_back(offset);
    out.length.push_back(s.size());
    for (int i = 0; i < s.size(); ++i) {
      out.input.push_back(s.tokens[i]);
      out.position.push_back(i);
    }
    if (objective == Objective::next_token) {
      for (int i = 0; i + 1 < s.size(); ++i) {
        out.target_row.push_back(offset + i);
        out.target_token.push_back(s.tokens[i + 1]);
      }
      continue;
    }
    const std::size_t first_target = out.target_row.size();
    int words = 0;
    for (int i = 0; i < s.size(); ++i) {
      if (s.pos[i] == PartOfSpeech::special) continue;
      ++words;
      if (rng.chance(masking.mask_rate)) out.target_row.push_back(offset + i);
    }
    if (out.target_row.size() == first_target && words > 0) {  // at least one target per sentence
      int pick = rng.below(words);
      for (int i = 0; i < s.size(); ++i)
        if (s.pos[i] != PartOfSpeech::special && pick-- == 0) out.target_row.push_back(offset + i);
    }
    for (std::size_t t = first_target; t < out.target_row.size(); ++t) {
      const int row = out.target_row[t];
      out.target_token.push_back(out.input[row]);
      const float u = rng.uniform();
      if (u < masking.replace_mask) out.input[row] = kTokenMask;
      else if (u < masking.replace_mask + masking.replace_random)
        out.input[row] = kSpecialTokenCount + rng.below(vocabulary_size - kSpecialTokenCount);
    }
  }
}

}  // namespace headlab::training
