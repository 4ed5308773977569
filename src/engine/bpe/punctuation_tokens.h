#pragma once
// Which subword tokens stand for punctuation: their bytes, past a leading space, are punctuation
// marks only (" ," "..." "。" "),"). The delimiter label and the punctuation share of the attention
// read it.
#include <string>
#include <vector>

#include "engine/bpe/bpe_tokenizer.h"

namespace headlab::bpe {

bool stands_for_punctuation(const std::string& bytes);
// Per id of `tokenizer`.
std::vector<bool> punctuation_tokens(const BpeTokenizer& tokenizer);

}  // namespace headlab::bpe
