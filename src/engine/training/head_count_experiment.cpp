#include "head_count_experiment.h"

#include <algorithm>
#include <string>

#include "evaluation.h"

namespace headlab::training {
namespace {

// The Training tab's held-out sentences (training_session.cpp): every run is scored on the same.
constexpr std::uint32_t kHeldOutSeed = 7;
constexpr int kHeldOutCount = 60;
// Steps of each text run: a loss well below the unigram guess, in minutes per run in the worker.
constexpr int kTextExperimentSteps = 1000;

}  // namespace

HeadCountPlan head_count_plan(Task task) {
  HeadCountPlan plan;
  plan.seeds = {1, 2, 3};
  if (task != Task::lm) {
    plan.base = TrainerConfig{};
    plan.head_counts = {1, 2, 4, 8};
    plan.steps_per_run = 1000;
    return plan;
  }
  // The text task's model (default_trainer_config) at a width every count divides. A step's cost
  // is the output layer's (predictions x 6,144 tokens x d_model), so a batch of 8 windows of 32
  // tokens keeps a run within the time a learner waits for in the page's worker.
  plan.base = default_trainer_config(Task::lm);
  plan.base.architecture.head_dim = 0;
  plan.base.batch_size = 8;
  plan.base.text.window = 32;
  plan.head_counts = {1, 2, 4, 8, 16};
  plan.steps_per_run = kTextExperimentSteps;
  plan.held_out_windows = 60;
  return plan;
}

TrainerConfig head_count_run_config(const TrainerConfig& base, const HeadCountRun& run) {
  TrainerConfig config = base;
  config.architecture.head_count = run.heads;
  config.architecture.head_dim = 0;  // d_model / heads: the same width for every count
  config.seed = run.seed;
  return config;
}

Result<HeadCountExperiment> HeadCountExperiment::plan(const TrainerConfig& base, std::vector<int> head_counts,
                                                      const std::vector<std::uint32_t>& seeds, int steps_per_run) {
  using R = Result<HeadCountExperiment>;
  if (head_counts.empty() || seeds.empty() || steps_per_run < 1) return R::failure("an experiment needs head counts, seeds and steps");
  HeadCountExperiment e;
  e.base_ = base;
  e.steps_per_run_ = steps_per_run;
  for (int heads : head_counts)
    if (heads < 1 || base.architecture.d_model % heads != 0)
      return R::failure(std::to_string(heads) + " heads do not divide d_model " + std::to_string(base.architecture.d_model));
  e.head_counts_ = std::move(head_counts);
  // Seed-major: after the first seed every head count has a point, the others add ranges.
  for (std::uint32_t seed : seeds) {
    for (int heads : e.head_counts_) {
      HeadCountRun run;
      run.heads = heads;
      run.seed = seed;
      if (Result<TrainerConfig> valid = validate(head_count_run_config(base, run)); !valid.ok()) return R::failure(valid.error());
      e.runs_.push_back(run);
    }
  }
  return e;
}

Result<HeadCountExperiment> HeadCountExperiment::create(const TrainerConfig& base, const Grammar& grammar,
                                                        std::vector<int> head_counts, std::vector<std::uint32_t> seeds,
                                                        int steps_per_run) {
  Result<HeadCountExperiment> e = plan(base, std::move(head_counts), seeds, steps_per_run);
  if (!e.ok()) return e;
  e.value().grammar_ = &grammar;
  e.value().held_out_ = held_out_sentences(grammar, kHeldOutSeed, kHeldOutCount, base.architecture.special_tokens);
  return e;
}

Result<HeadCountExperiment> HeadCountExperiment::create(const TrainerConfig& base, std::shared_ptr<const TextCorpus> corpus,
                                                        std::vector<Sentence> held_out, std::vector<int> head_counts,
                                                        std::vector<std::uint32_t> seeds, int steps_per_run) {
  using R = Result<HeadCountExperiment>;
  if (base.task != Task::lm || !corpus) return R::failure("task: a corpus is for the text task (lm)");
  if (held_out.empty()) return R::failure("the text experiment needs held-out windows");
  if (std::string error = validate_text_task(base.text, *corpus); !error.empty()) return R::failure(error);
  Result<HeadCountExperiment> e = plan(base, std::move(head_counts), seeds, steps_per_run);
  if (!e.ok()) return e;
  e.value().corpus_ = std::move(corpus);
  e.value().held_out_ = std::move(held_out);
  return e;
}

Result<Trainer> HeadCountExperiment::make_trainer(const HeadCountRun& run) const {
  const TrainerConfig config = head_count_run_config(base_, run);
  return corpus_ ? Trainer::create(config, corpus_) : Trainer::create(config, *grammar_);
}

float HeadCountExperiment::score(const Trainer& trainer) const {
  const TrainerConfig& c = trainer.config();
  const int vocabulary = corpus_ ? static_cast<int>(corpus_->vocabulary.size()) : grammar_->vocabulary_size();
  return held_out_loss(trainer.model(), vocabulary, held_out_, c.objective, c.masking, kHeldOutSeed);
}

int HeadCountExperiment::step(int steps) {
  int taken = 0;
  while (taken < steps && current_ < runs_.size()) {
    HeadCountRun& run = runs_[current_];
    if (!trainer_) {
      Result<Trainer> trainer = make_trainer(run);
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
      run.held_out_loss = score(*trainer_);
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
