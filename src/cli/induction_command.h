#pragma once
// headlab-cli train --task induction: trains on repeated random segments and prints, every
// --report-every steps, the loss and every head's prefix matching on held-out sequences, marking
// the report where an induction head forms; then the head table and the pruning test.
#include <string>
#include <vector>

#include "cli/train_options.h"

namespace headlab::cli {

// `args` (the words after "train") are recorded in the manifest. Returns the exit status.
int run_train_induction(const TrainOptions& options, const std::vector<std::string>& args);

}  // namespace headlab::cli
