#pragma once
// The engine's input tokens for a model that reads a byte-level BPE's ids (Model::tokenizer): one
// Token per BPE token, its id set (embed() reads the embedding row by it), its text the readable
// label (token_labels.h) the heatmap axes show, its key the token in the byte alphabet, and
// is_punctuation when it stands for punctuation alone (the delimiter label and attention-sink
// shares read it). Capped at `max_tokens` like the word tokenizer, saying so.
#include <cstddef>
#include <string_view>

#include "engine/bpe/bpe_tokenizer.h"
#include "engine/token.h"

namespace headlab::bpe {

struct BpeInput {
  Tokens tokens;
  bool truncated = false;  // the text had more tokens than max_tokens; the rest was dropped
};

BpeInput bpe_input(const BpeTokenizer& tokenizer, std::string_view text, std::size_t max_tokens);

// Per id: the token stands for punctuation alone (after its leading space, if any).
std::vector<bool> punctuation_tokens(const BpeTokenizer& tokenizer);

}  // namespace headlab::bpe
