#pragma once
// The loop every headlab-cli train task runs: a report at step 0, then chunks of steps that end on
// multiples of report_every (and at the last step), a report after each.
#include <functional>

#include "engine/training/trainer.h"

namespace headlab::cli {

// `report(done, recent)` gets the steps done and the mean training loss of the last `recent_window`
// of them (0 at step 0; recent_window 0: the chunk just trained). Returns the seconds spent training.
double train_with_reports(training::Trainer& trainer, int steps, int report_every, int recent_window,
                          const std::function<void(int done, float recent)>& report);

}  // namespace headlab::cli
