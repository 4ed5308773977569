#include "head_count_experiment.h"

#include <algorithm>
#include <string>

#include "evaluation.h"

namespace headlab::training {
namespace {

// The Training tab's held-out sentences (training_session.cpp): every run is scored on the same.
constexpr std::uint32_t kHeldOutSeed = 7;
constexpr int kHeldOutCount = 60;

}  // namespace

TrainerConfig head_count_run_config(const TrainerConfig& base, const HeadCountRun& run) {
  TrainerConfig config = base;
  config.architecture.head_count = run.heads;
  config.architecture.head_dim = 0;  // d_model / heads: the same width for every count
  config.seed = run.seed;
  return config;
}

Result<HeadCountExperiment> HeadCountExperiment::create(const TrainerConfig& base, const Grammar& grammar,
                                                        std::vector<int> head_counts, std::vector<std::uint32_t> seeds,
                                                        int steps_per_run) {
  using R = Result<HeadCountExperiment>;
  if (head_counts.empty() || seeds.empty() || steps_per_run < 1) return R::failure("an experiment needs head counts, seeds and steps");
  HeadCountExperiment e;
  e.base_ = base;
  e.grammar_ = &grammar;
  e.steps_per_run_ = steps_per_run;
  for (int heads : head_counts)
    if (heads < 1 || base.architecture.d_model % heads != 0)
      return R::failure(std::to_string(heads) + " heads do not divide d_model " + std::to_string(base.architecture.d_model));
  e.head_counts_ = head_counts;
  // Seed-major: after the first seed every head count has a point, the others add ranges.
  for (std::uint32_t seed : seeds) {
    for (int heads : head_counts) {
      HeadCountRun run;
      run.heads = heads;
      run.seed = seed;
      if (Result<TrainerConfig> valid = validate(head_count_run_config(base, run)); !valid.ok()) return R::failure(valid.error());
      e.runs_.push_back(run);
    }
  }
  e.held_out_ = held_out_sentences(grammar, kHeldOutSeed, kHeldOutCount, base.architecture.special_tokens);
  return e;
}

int HeadCountExperiment::step(int steps) {
  int taken = 0;
  while (taken < steps && current_ < runs_.size()) {
    HeadCountRun& run = runs_[current_];
    if (!trainer_) {
      Result<Trainer> trainer = Trainer::create(head_count_run_config(base_, run), *grammar_);
      if (!trainer.ok()) {  // checked in create(); a failure here leaves the run out
        ++current_;
        continue;
      }
      trainer_ = std::move(trainer).value();
    }
    const int n = std::min(steps - taken, steps_per_run_ - run.steps_done);
    trainer_->step(n);
    run.steps_done += n;
    taken += n;
    if (run.steps_done == steps_per_run_) {
      const TrainerConfig& c = trainer_->config();
      run.held_out_loss = held_out_loss(trainer_->model(), *grammar_, held_out_, c.objective, c.masking, kHeldOutSeed);
      run.done = true;
      trainer_.reset();
      ++current_;
    }
  }
  return taken;
}

bool HeadCountExperiment::done() const { return current_ >= runs_.size(); }

int HeadCountExperiment::steps_done() const {
  int total = 0;
  for (const HeadCountRun& run : runs_) total += run.steps_done;
  return total;
}

std::vector<HeadCountPoint> HeadCountExperiment::points() const {
  std::vector<HeadCountPoint> out;
  for (int heads : head_counts_) out.push_back({heads});
  for (const HeadCountRun& run : runs_) {
    if (!run.done) continue;
    HeadCountPoint& p = out[std::find(head_counts_.begin(), head_counts_.end(), run.heads) - head_counts_.begin()];
    p.min = p.runs ? std::min(p.min, run.held_out_loss) : run.held_out_loss;
    p.max = p.runs ? std::max(p.max, run.held_out_loss) : run.held_out_loss;
    p.mean = (p.mean * p.runs + run.held_out_loss) / (p.runs + 1);
    ++p.runs;
  }
  return out;
}

}  // namespace headlab::training
