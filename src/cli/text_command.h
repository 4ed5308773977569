#pragma once
// headlab-cli train --task lm: a language model over real text (engine/training/text_task.h).
#include <string>
#include <vector>

#include "cli/train_options.h"

namespace headlab::cli {

// Tokenizes --corpus and --held-out-corpus with --tokenizer, trains, reports the heads on held-out
// text as they form, and with --out writes the model (FILE.safetensors, F16) and its manifest.
int run_train_text(const TrainOptions& options, const std::vector<std::string>& args);

}  // namespace headlab::cli
