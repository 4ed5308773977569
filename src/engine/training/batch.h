#pragma once
// A training batch: the sentences' tokens packed one after another (T rows in all), the inputs
// the model sees (some masked) and the tokens it must predict.
#include <vector>

#include "generator.h"
#include "rng.h"

namespace headlab::training {

enum class Objective {
  masked_token,  // BERT's masked LM (Devlin et al. 2019, section 3.1): bidirectional attention
  next_token,    // causal language model: token t predicts token t + 1
};

struct MaskingConfig {
  float mask_rate = 0.15f;       // share of words chosen for prediction (at least one per sentence)
  float replace_mask = 0.8f;     // of those: shown as [MASK] ...
  float replace_random = 0.1f;   // ... as a random word, the rest unchanged (Devlin et al. 2019)
};

struct Batch {
  std::vector<int> input;         // (T) vocabulary ids the model reads
  std::vector<int> position;      // (T) position of the token in its sentence
  std::vector<int> offset;        // (B) first row of sentence b
  std::vector<int> length;        // (B) tokens of sentence b
  std::vector<int> target_row;    // (M) rows whose output predicts a token
  std::vector<int> target_token;  // (M) the token to predict

  int token_count() const { return static_cast<int>(input.size()); }
  int sentence_count() const { return static_cast<int>(offset.size()); }
};

// Packs the sentences and chooses targets. Masked: words (never [CLS]/[SEP]) are chosen with
// mask_rate and replaced as configured. Next-token: every row but a sentence's last predicts the
// next token. `rng` is only used for masking. Buffers of `out` are reused.
void make_batch(const std::vector<Sentence>& sentences, Objective objective, const MaskingConfig& masking,
                int vocabulary_size, Rng& rng, Batch& out);

}  // namespace headlab::training
