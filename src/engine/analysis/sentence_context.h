#pragma once
// What the scores need to know about the tokens, computed once per forward pass and shared by
// every head: which keys are delimiters or [CLS], the rarest word, which word pairs are related,
// and the gold parse when the sentence is annotated. Works the same for text, token and explicit
// X inputs: PreparedInput::tokens always carries the metadata.
#include <vector>

#include "engine/analysis/gold.h"
#include "engine/matrix.h"
#include "engine/token.h"

namespace headlab::analysis {

struct SentenceContext {
  int n = 0;
  bool causal = false;
  std::vector<unsigned char> is_delimiter;  // (n) punctuation or [SEP] (Clark et al. 2019, sec. 3.2)
  std::vector<unsigned char> is_cls;        // (n) the [CLS] token
  std::vector<unsigned char> is_special;    // (n) [CLS] or [SEP]
  std::vector<unsigned char> is_rarest;     // (n) lowest Zipf frequency among the words
  int rarest = -1;  // first rarest word, -1 when every word is equally frequent
  int delimiter_count = 0;
  int cls_count = 0;
  // (n, n) related[i * n + j]: distinct words i, j share a lexicon semantic class (fox, dog:
  // animal) or are the same content word (dog ... dog).
  std::vector<unsigned char> related;
  // The same sets as 0/1 floats, so the scores are dot products that vectorize.
  RowVector delimiter_mask;  // (1, n)
  RowVector cls_mask;        // (1, n)
  RowVector rarest_mask;     // (1, n)
  Matrix related_mask;       // (n, n)
  std::vector<unsigned char> has_related;  // (n) row i has a related word among its visible keys
  // Per row, what every head's scores divide by: ln(visible keys), the entropy of an even row
  // (broad), and the share of the visible keys that are rarest words (rare_word's uniform mass).
  std::vector<float> log_visible;    // (n)
  std::vector<double> rarest_share;  // (n)
  // Repeated tokens (same text, ignoring ASCII case; not punctuation or [CLS]/[SEP]):
  // duplicate_mask(i, j) = 1 where j < i is an earlier copy of token i (duplicate-token heads);
  // induction_mask(i, j) = 1 where j < i is the token right after an earlier copy of token i, the
  // key an induction head attends to in "... A B ... A" (Olsson et al. 2022, prefix matching).
  Matrix duplicate_mask;  // (n, n)
  Matrix induction_mask;  // (n, n)
  // Column sums of the two masks: how many repeated rows count key j. A head's key_mass (what
  // all rows give the repeat keys) is one dot product with these per head.
  RowVector duplicate_key_counts;  // (1, n)
  RowVector induction_key_counts;  // (1, n)
  int duplicate_rows = 0;  // rows with an earlier copy
  int induction_rows = 0;  // rows with at least one induction target
  std::vector<int> words;  // input indices of the non-special tokens
  GoldMatch gold;
  // (n, n) gold_neighbour[i * n + j]: a gold arc (any relation, either direction) joins i and j.
  std::vector<unsigned char> gold_neighbour;

  // Keys query i may see: all n, or 0..i under the causal mask.
  int visible(int i) const { return causal ? i + 1 : n; }
  bool is_related(int i, int j) const { return related[static_cast<std::size_t>(i) * n + j] != 0; }
  bool is_gold_neighbour(int i, int j) const { return gold_neighbour[static_cast<std::size_t>(i) * n + j] != 0; }
};

// Fills `out` (reusing its buffers) for the tokens of one input.
void make_sentence_context(const Tokens& tokens, bool causal, const GoldCorpus& corpus, SentenceContext& out);

}  // namespace headlab::analysis
