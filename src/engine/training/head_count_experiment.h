#pragma once
// One vs many, as an experiment rather than one run: the same model trained with 1, 2, 4 and 8
// heads per layer (or any counts) at the same width (h x d_k = d_model), each from 3 seeds, then
// scored by its held-out loss, on the grammar's language or on real text (the text task). Vaswani et al. 2017 (table 3, rows A) compare head counts at a fixed width too;
// three seeds give each point a range, so a difference smaller than the seed-to-seed spread reads
// as no difference.
//
// Runs are trained one after another, seed by seed, so the results so far are always of whole
// runs and every head count has a point after the first seed; step() can be called a frame's
// worth at a time. Deterministic: the same config gives the same numbers.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/result.h"
#include "generator.h"
#include "text_task.h"
#include "trainer.h"

namespace headlab::training {

struct HeadCountRun {
  int heads = 1;
  std::uint32_t seed = 1;
  int steps_done = 0;
  float held_out_loss = 0.0f;  // measured when the run finishes
  bool done = false;
};

// The config one run trains with: `base` with the run's head count (d_k = d_model / heads) and seed.
TrainerConfig head_count_run_config(const TrainerConfig& base, const HeadCountRun& run);

// One point of the result: a head count over the seeds finished so far.
struct HeadCountPoint {
  int heads = 1;
  int runs = 0;  // finished
  float mean = 0.0f, min = 0.0f, max = 0.0f;
};

// What the Training tab's experiment trains, so that headlab-cli train --experiment trains the
// same runs natively.
struct HeadCountPlan {
  TrainerConfig base;
  std::vector<int> head_counts;
  std::vector<std::uint32_t> seeds;
  int steps_per_run = 0;
  int held_out_windows = 0;  // the text task's held-out windows (held_out_text_windows)
};
// Task::grammar: the default model, 1, 2, 4 and 8 heads, 1,000 steps. Task::lm: 2 attention-only
// layers at d_model 64 with 1, 2, 4, 8 and 16 heads (16 heads of 4 dimensions: the "many tiny
// heads" Vaswani et al. 2017 found worse again), windows of 32 tokens; see the .cpp for why.
HeadCountPlan head_count_plan(Task task);

class HeadCountExperiment {
 public:
  // `base` gives everything but the head count and seed (its head_dim is ignored: d_model / h).
  // Fails with a message when a head count does not divide d_model or the config is invalid.
  static Result<HeadCountExperiment> create(const TrainerConfig& base, const Grammar& grammar,
                                            std::vector<int> head_counts, std::vector<std::uint32_t> seeds, int steps_per_run);
  // The text task (base.task == Task::lm) on `corpus`, scored on `held_out` windows
  // (held_out_text_windows); the corpus is shared, never copied.
  static Result<HeadCountExperiment> create(const TrainerConfig& base, std::shared_ptr<const TextCorpus> corpus,
                                            std::vector<Sentence> held_out, std::vector<int> head_counts,
                                            std::vector<std::uint32_t> seeds, int steps_per_run);

  // Up to `steps` steps of the unfinished runs, in order; returns the steps taken (0 when done).
  int step(int steps);
  bool done() const;

  const std::vector<HeadCountRun>& runs() const { return runs_; }  // seed-major: every head count of seed 1 first
  std::vector<HeadCountPoint> points() const;
  const TrainerConfig& base() const { return base_; }
  int steps_per_run() const { return steps_per_run_; }
  int steps_done() const;  // over every run
  int steps_total() const { return steps_per_run_ * static_cast<int>(runs_.size()); }

  // Where it is, as bytes (head_count_experiment_state.cpp): every run's progress and result, and
  // the run under way as its trainer's state. restore_state takes the bytes of an experiment
  // created with the same arguments; "" or what does not match.
  std::vector<std::uint8_t> save_state() const;
  std::string restore_state(const std::uint8_t* bytes, std::size_t size);

 private:
  HeadCountExperiment() = default;
  // Everything but the task's data: checks the counts and lays the runs out.
  static Result<HeadCountExperiment> plan(const TrainerConfig& base, std::vector<int> head_counts,
                                          const std::vector<std::uint32_t>& seeds, int steps_per_run);
  Result<Trainer> make_trainer(const HeadCountRun& run) const;
  float score(const Trainer& trainer) const;

  TrainerConfig base_;
  const Grammar* grammar_ = nullptr;                  // the grammar task
  std::shared_ptr<const TextCorpus> corpus_;          // or the text task
  std::vector<Sentence> held_out_;
  std::vector<int> head_counts_;
  std::vector<HeadCountRun> runs_;
  int steps_per_run_ = 0;
  std::size_t current_ = 0;
  std::optional<Trainer> trainer_;  // of runs_[current_]
};

}  // namespace headlab::training
