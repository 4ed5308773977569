#pragma once
// headlab-cli tokenize: a byte-level BPE on a text, as JSON.
#include <string>
#include <vector>

#include "engine/bpe/bpe_tokenizer.h"
#include "engine/result.h"

namespace headlab::cli {

// The tokenizer NAME names: "gpt2" (GPT-2's encoder.json and vocab.bpe from the folder in the
// environment variable HEADLAB_GPT2_TOKENIZER, else the one scripts/setup installs), a path to a
// headlab-bpe-1 file (anything with a '/' or ending in ".json"), or a name under assets/tokenizers/.
Result<bpe::BpeTokenizer> load_tokenizer(const std::string& name);

// `args` are the words after "tokenize": --tokenizer NAME, then --text "..." or --text-file PATH
// ("-": stdin), and --labels to add each token's readable label. Prints {"ids": [...], "tokens": [...]}
// (and "labels"); returns the exit status (0 ok, 1 failure with a one-line message, 2 bad usage).
int run_tokenize(const std::vector<std::string>& args);

}  // namespace headlab::cli
