#pragma once
#include <string>

namespace headlab::cli {

// Parses a model file, runs it and writes {"tokens", "layers": [{"heads": [{"attention", "Z",
// "label", "scores", "explanation", ...}], "output", "redundancy", ...}], "gold"} to `output`
// (head and layer analysis fields as in docs/labels.md). Returns false with a one-line `error`
// for bad input.
bool run_forward(const std::string& model_json, std::string& output, std::string& error);

}  // namespace headlab::cli
