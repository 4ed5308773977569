#pragma once
// One big head against several small ones (training/compare.h) as a job: two trainers that step
// together and pause themselves every kComparisonTargetSteps steps a side, in the page's frames
// or in the worker. Its two trainers travel as one state (pack_comparison_state).
#include <cstdint>
#include <optional>
#include <string>

#include "app/clock.h"
#include "app/pausable_job.h"
#include "engine/training/compare.h"
#include "engine/training/grammar.h"

namespace headlab::app {

// The comparison pauses itself here (the learner can press play again to go on).
inline constexpr int kComparisonTargetSteps = 1500;

class ComparisonJob final : public PausableJob {
 public:
  // `grammar` and `clock` must outlive the job.
  ComparisonJob(const training::Grammar& grammar, const Clock& clock) : grammar_(&grammar), clock_(&clock) {}

  // A new comparison from `seed` at `learning_rate`, running; "" or why not (then the one it had stays).
  std::string start(std::uint32_t seed, float learning_rate);
  // Pairs of steps (one a side) while the next pair would still end by `deadline`; pauses at the target.
  void train_until(double deadline);
  const training::HeadComparison* comparison() const { return comparison_ ? &*comparison_ : nullptr; }

  bool started() const override { return comparison_.has_value(); }
  bool can_go_on() const override { return started(); }
  int step(int steps) override;

  WorkerJob kind() const override { return WorkerJob::comparison; }
  WorkerRun hand_over() const override;
  std::string adopt_update(const WorkerUpdate& update) override;
  std::string take_over(const WorkerRun& run) override;

 private:
  // One step a side; false when that reached the target.
  bool step_once() override;
  void write_update(WorkerUpdate& update, bool paused) const override;

  const training::Grammar* grammar_;
  const Clock* clock_;
  std::optional<training::HeadComparison> comparison_;
};

}  // namespace headlab::app
