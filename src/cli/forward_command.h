#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "engine/forward.h"
#include "engine/token.h"

namespace headlab::cli {

// Parses a model file, runs it and writes {"tokens", "layers": [{"heads": [{"attention", "Z",
// "label", "scores", "explanation", ...}], "output", "redundancy", ...}], "gold"} to `output`
// (head and layer analysis fields as in docs/labels.md). Returns false with a one-line `error`
// for bad input.
bool run_forward(const std::string& model_json, std::string& output, std::string& error);

// The JSON above for a trace of `model` on `tokens` (also the checkpoints' forward).
nlohmann::json forward_json(const Model& model, const Tokens& tokens, const Trace& trace);

}  // namespace headlab::cli
