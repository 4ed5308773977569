#pragma once
// The text task: a causal language model over real text. The corpus is a byte-level BPE's token
// ids (engine/bpe_tokenizer.h), the training split one stream of ids; each training sequence is a
// window of it at a random start, and every token predicts the next (Objective::next_token). A
// small attention-only model trained so learns previous-token and induction heads (Elhage et al.
// 2021, "A Mathematical Framework for Transformer Circuits"; Olsson et al. 2022).
// Deterministic: the same corpus, config and seed give the same windows on every platform.
#include <cstdint>
#include <string>
#include <vector>

#include "generator.h"
#include "rng.h"

namespace headlab::training {

struct TextCorpus {
  std::string tokenizer;                // its name ("text"): the trained model's Model::tokenizer
  std::vector<std::string> vocabulary;  // the tokenizer's tokens; token id = index
  std::vector<std::string> token_bytes;  // id -> the text it stands for (" the"): what a page shows, and punctuation
  std::vector<int> ids;                 // the text as token ids, lines one after another
};

struct TextTaskConfig {
  int window = 64;  // tokens per training sequence (the engine's input limit)
  // The share of windows in which a passage of real text (8 tokens to half a window, anywhere in it)
  // is written twice in a row.
  // Natural text repeats names and phrases, but rarely within 64 tokens; repeats make copying the
  // earlier continuation pay, the signal an induction head needs (Olsson et al. 2022 train on
  // long documents, where it is common). 0 keeps plain windows.
  float repeat_fraction = 0.0f;
};

// "" or what is wrong: a window of 2..64 tokens, a repeat fraction in [0, 1], a corpus longer
// than one window, ids in range.
std::string validate_text_task(const TextTaskConfig& config, const TextCorpus& corpus);

// One window at a uniformly random start into `out` (POS unknown, no arcs); with probability
// repeat_fraction with a passage of it written twice.
void draw_text_window(const TextCorpus& corpus, const TextTaskConfig& config, Rng& rng, Sentence& out);

// Up to `count` windows of held-out text, evenly spaced through it (the same ones every run).
std::vector<Sentence> held_out_text_windows(const TextCorpus& held_out, const TextTaskConfig& config, int count);

}  // namespace headlab::training
