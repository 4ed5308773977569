#include "cli/training_loop.h"

#include <algorithm>
#include <chrono>

namespace headlab::cli {

double train_with_reports(training::Trainer& trainer, int steps, int report_every, int recent_window,
                          const std::function<void(int done, float recent)>& report) {
  double seconds = 0.0;
  const int window = recent_window > 0 ? recent_window : report_every;
  for (int done = 0;;) {
    report(done, done == 0 ? 0.0f : training::mean_recent_loss(trainer, std::min(done, window)));
    if (done >= steps) return seconds;
    const int n = std::min(report_every - done % report_every, steps - done);
    const auto start = std::chrono::steady_clock::now();
    trainer.step(n);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    done += n;
  }
}

}  // namespace headlab::cli
