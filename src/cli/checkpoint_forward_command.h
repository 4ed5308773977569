#pragma once
// headlab-cli forward FILE.safetensors: a model that reads a byte-level BPE's tokens (a GPT-2
// checkpoint in Hugging Face's layout, or one of HeadLab's text models) on a text.
#include <string>
#include <vector>

namespace headlab::cli {

// `args` are the words after "forward": the .safetensors path, then --text "..." (default: the
// model's own example text), --config config.json (GPT-2; default: config.json beside the file),
// --heads N (GPT-2 without a config), --top K (predictions per position, default 5).
// Prints the forward JSON (forward_command.h) plus "ids" and "predictions": per position the top K
// {id, token, p}. Returns the exit status.
int run_checkpoint_forward(const std::vector<std::string>& args);

// True for the paths this command takes.
bool is_checkpoint_path(const std::string& path);

}  // namespace headlab::cli
