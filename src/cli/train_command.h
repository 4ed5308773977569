#pragma once
// headlab-cli train: trains a model on the grammar's language and writes a model file plus a
// manifest (seed, steps, losses, held-out head accuracies against baselines, wall time); with
// --task induction, on repeated random segments (cli/induction_command.h).
#include <string>
#include <vector>

namespace headlab::cli {

// `args` are the words after "train". Prints progress to stdout; returns the exit status
// (0 ok, 1 failure with a one-line message on stderr, 2 bad usage).
int run_train(const std::vector<std::string>& args);

}  // namespace headlab::cli
