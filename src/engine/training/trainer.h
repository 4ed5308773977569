#pragma once
// Training a model on the grammar's language (or on repeated random segments, the induction task),
// a few steps at a time, so the page can train between frames without freezing: step(n) or
// step_for(budget) per frame, then read model() and loss_history(). A Trainer is a plain value
// (copyable); the same config and seed give the same batches and the same initial weights on
// every platform.
//
//   Result<Grammar> grammar = load_grammar();
//   Result<Trainer> trainer = Trainer::create(TrainerConfig{}, grammar.value());
//   trainer.value().step(50);                 // 50 Adam steps, returns their mean loss
//   const Model& model = trainer.value().model();
//
//   Result<Trainer> induction = Trainer::create(default_trainer_config(Task::induction));
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "adam.h"
#include "backprop.h"
#include "batch.h"
#include "engine/document.h"
#include "engine/result.h"
#include "generator.h"
#include "grammar.h"
#include "induction_task.h"
#include "init.h"
#include "task.h"
#include "text_task.h"

namespace headlab::training {

struct TrainerConfig {
  Task task = Task::grammar;
  InductionConfig induction;         // the sequences of Task::induction
  TextTaskConfig text;               // the windows of Task::lm
  Architecture architecture;         // 2 layers x 4 heads, d_model 64, d_ff 128, post-norm
  Objective objective = Objective::masked_token;
  MaskingConfig masking;
  int batch_size = 16;               // sentences per step (16: the most emergence per second)
  float learning_rate = 3e-3f;       // peak, after the linear warm-up
  int warmup_steps = 100;
  int decay_steps = 3000;            // > 0: linear decay to 10% of the peak at this step, then constant
                                     // (heads settle instead of trading roles); 0: constant
  AdamConfig adam;
  std::uint32_t seed = 1;            // initial weights and the stream of training sentences
};

// The defaults of a task. Task::grammar: TrainerConfig{}. Task::induction: the setting in which
// a 2-layer model forms an induction head within about 1,500 steps (docs/training.md): 2 layers x
// 4 heads of 16, d_model 64, attention only (d_ff 0), residual, pre-norm, learned positions
// initialised at stddev 0.01, causal, next token, 26 symbols, lr 3e-3 after 100 warm-up steps,
// constant, batch 16.
TrainerConfig default_trainer_config(Task task);

// Checks ranges (layers 1..6, heads 1..16, d_model 8..512, ...); the message names the field.
Result<TrainerConfig> validate(const TrainerConfig& config);

class Trainer {
 public:
  // A fresh model for `config` over the grammar's vocabulary. Fails with a message for a bad
  // config or a grammar that cannot generate sentences. For Task::induction the grammar is not
  // used (the overload below needs none).
  static Result<Trainer> create(const TrainerConfig& config, const Grammar& grammar);
  // A task that needs no grammar (Task::induction: vocabulary [UNK], [MASK], [CLS], [SEP], a, b,
  // ...); Task::grammar fails with a message.
  static Result<Trainer> create(const TrainerConfig& config);
  // Task::lm: a language model over `corpus` (its vocabulary is the model's; shared, never copied).
  static Result<Trainer> create(const TrainerConfig& config, std::shared_ptr<const TextCorpus> corpus);

  // `steps` Adam steps on fresh batches; returns the mean loss of those steps.
  float step(int steps = 1);
  // Steps until `budget_seconds` have passed (at least one, at most `max_steps`); returns the count.
  int step_for(double budget_seconds, int max_steps = 1 << 30);

  const Model& model() const { return model_; }
  const Grammar& grammar() const { return grammar_; }  // empty for Task::induction
  const TrainerConfig& config() const { return config_; }
  const std::vector<float>& loss_history() const { return loss_history_; }  // one loss per step
  int steps_done() const { return static_cast<int>(loss_history_.size()); }
  // Learning rate of the next step (warm-up and decay applied).
  float learning_rate() const;
  // Changes the peak learning rate from the next step on.
  void set_learning_rate(float learning_rate) { config_.learning_rate = learning_rate; }
  // Everything that decides the next steps (weights, Adam moments and step, the data stream's
  // position, the loss history, the peak learning rate) as bytes, so a run can move between two
  // engine instances (the page and its training worker) and go on exactly as if it had not moved.
  std::vector<std::uint8_t> save_state() const;
  // Takes over a state saved by a trainer of the same config and vocabulary (same shapes); ""
  // or what does not fit, and then this trainer is unchanged.
  std::string restore_state(const std::uint8_t* bytes, std::size_t size);

  // The model as a document (with a generated sentence or repeated sequence as its input text)
  // for model files.
  Document document() const;

 private:
  Trainer() = default;
  static Result<Trainer> create_with(const TrainerConfig& config, const Grammar* grammar,
                                     std::shared_ptr<const TextCorpus> corpus = nullptr);
  // Refills sentences_ with batch_size fresh sequences of the task from data_rng_.
  void draw_sequences();
  TrainerConfig config_;
  Grammar grammar_;
  std::shared_ptr<const TextCorpus> corpus_;  // Task::lm
  Model model_;
  Model gradient_;
  AdamState adam_;
  Workspace workspace_;
  Batch batch_;
  std::vector<Sentence> sentences_;
  GeneratorScratch generator_scratch_;
  Rng data_rng_;
  std::vector<float> loss_history_;
};

// Mean training loss of the last `steps` steps (0 when nothing was trained).
float mean_recent_loss(const Trainer& trainer, int steps);

}  // namespace headlab::training
