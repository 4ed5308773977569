#include "app/run_job.h"

#include <algorithm>

#include "app/corpus_hand_over.h"
#include "app/step_clock.h"
#include "engine/analysis/attention_spread.h"
#include "engine/analysis/pooled_labels.h"
#include "engine/bpe/punctuation_tokens.h"
#include "engine/symbol_sequence.h"
#include "engine/training/grammar.h"
#include "engine/training/text_evaluation.h"

namespace headlab::app {

RunJob::RunJob(const Resources& resources, const Clock& clock)
    : clock_(&clock), resources_(&resources), grammar_(&resources.grammar), lab_label_config_(&resources.analysis.config) {}

std::string RunJob::reset(std::uint32_t seed, float learning_rate, training::Task task, AttentionNormalization attention) {
  waiting_ = false;
  training::TrainerConfig config = training::default_trainer_config(task);
  config.seed = seed;
  config.architecture.attention = attention;
  config.learning_rate = std::clamp(learning_rate, kMinLearningRate, kMaxLearningRate);
  if (task == training::Task::lm && !text_train_) {
    LateCorpus& sample = *resources_->text_corpus;
    if (!sample.arrived()) {
      sample.ask();
      waiting_ = true;
      waiting_seed_ = seed;
      waiting_attention_ = attention;
      waiting_run_ = false;
      settings_.learning_rate = config.learning_rate;
      running_ = false;
      return {};
    }
    text_train_ = sample.train;
    text_held_out_ = sample.held_out;
  }
  if (task == training::Task::lm && text_windows_.empty()) {
    text_windows_ = training::held_out_text_windows(*text_held_out_, config.text, settings_.held_out_count);
    text_punctuation_.assign(text_train_->token_bytes.size(), false);
    for (std::size_t id = 0; id < text_punctuation_.size(); ++id)
      text_punctuation_[id] = bpe::stands_for_punctuation(text_train_->token_bytes[id]);
  }
  Result<training::Trainer> trainer = task == training::Task::lm ? training::Trainer::create(config, text_train_)
                                                                   : training::Trainer::create(config, *grammar_);
  if (!trainer.ok()) return "Training is unavailable: " + trainer.error();
  trainer_ = std::move(trainer).value();
  settings_.task = config.task;
  settings_.attention = attention;
  settings_.seed = seed;
  settings_.learning_rate = config.learning_rate;
  if (config.task == training::Task::induction)
    induction_held_out_ = training::held_out_repeated_segments(config.induction, seed, settings_.induction_held_out_count,
                                                               config.architecture.special_tokens);
  if (held_out_.sentences.empty())
    held_out_ = HeldOutLabeller::make(*grammar_, *lab_label_config_, config.architecture.special_tokens,
                                      settings_.held_out_count);
  timeline_.clear();
  resumed_sample_step_ = 0;
  samples_sent_ = 0;
  return {};
}

std::string RunJob::start_when_ready() {
  if (!waiting_) return {};
  const LateCorpus& sample = *resources_->text_corpus;
  if (!sample.error.empty()) {
    waiting_ = false;
    return sample.error;
  }
  if (!sample.arrived()) return {};
  const bool run = waiting_run_;
  if (std::string e = reset(waiting_seed_, settings_.learning_rate, training::Task::lm, waiting_attention_); !e.empty()) return e;
  running_ = run;
  return {};
}

void RunJob::set_learning_rate(float learning_rate) {
  settings_.learning_rate = std::clamp(learning_rate, kMinLearningRate, kMaxLearningRate);
  if (trainer_) trainer_->set_learning_rate(settings_.learning_rate);
}

void RunJob::set_speed(float share) { settings_.speed = std::clamp(share, kMinSpeed, kMaxSpeed); }

void RunJob::step(int steps) {
  for (int i = 0; i < steps; ++i) {
    timed_step(*trainer_, step_seconds_, *clock_);
    if (trainer_->steps_done() % settings_.sample_every == 0) sample_timeline();
  }
}

void RunJob::train_within(double budget_seconds, double start) {
  const double deadline = start + budget_seconds;
  do {
    timed_step(*trainer_, step_seconds_, *clock_);
    // A sample costs a few steps' time: end the frame's training after it.
    if (trainer_->steps_done() % settings_.sample_every == 0) {
      sample_timeline();
      break;
    }
  } while (clock_->now_seconds() + step_seconds_ <= deadline);
}

void RunJob::sample_timeline() {
  const training::Trainer& trainer = *trainer_;
  const int step = trainer.steps_done();
  if (!timeline_.empty() && timeline_.back().step == step) return;
  TimelineSample sample;
  sample.step = step;
  const int since = step - (timeline_.empty() ? resumed_sample_step_ : timeline_.back().step);
  sample.train_loss = training::mean_recent_loss(trainer, since);
  ++samples_taken_;
  if (settings_.task != training::Task::grammar) {
    if (settings_.task == training::Task::induction) sample_induction(sample);
    else sample_text(sample);
    timeline_.push_back(std::move(sample));
    return;
  }
  const training::TrainerConfig& config = trainer.config();
  sample.held_out_loss = training::held_out_loss(trainer.model(), *grammar_, held_out_.sentences, config.objective,
                                                 config.masking, kHeldOutSeed);
  HeldOutReading reading = read_held_out(trainer.model(), *grammar_, held_out_);
  sample.heads = std::move(reading.heads);
  sample.spreads = std::move(reading.spreads);
  timeline_.push_back(std::move(sample));
}

void RunJob::sample_induction(TimelineSample& sample) const {
  const Model& model = trainer_->model();
  std::vector<Trace> traces;
  const training::InductionReport report = training::induction_report(model, induction_held_out_, &traces);
  sample.held_out_loss = report.loss;
  sample.repeat_loss = report.repeat_loss;
  sample.induction = report.heads;
  sample.strongest_induction = training::strongest_induction_head(report);
  // The labels are the lab's own, pooled over the held-out sequences as the lab would label each.
  std::vector<Tokens> inputs;
  for (const training::Sentence& sequence : induction_held_out_.sequences) inputs.push_back(training::symbol_tokens(sequence));
  std::vector<const Trace*> trace_pointers;
  for (const Trace& trace : traces) trace_pointers.push_back(&trace);
  sample.spreads = analysis::layer_spreads(model, trace_pointers);
  analysis::Resources symbols;  // random symbols have no parse: the lab's thresholds, no gold
  symbols.config = *lab_label_config_;
  for (const analysis::PooledHead& head : analysis::label_heads_pooled(inputs, traces, model.causal, symbols))
    sample.heads.push_back(head_role(head, symbols.config));
}

// Real text: the scores of the text report (training/text_evaluation.h) on the held-out windows,
// as the induction task's, so the Training tab and lessons read both alike. No labels: the lab's
// labels pool over inputs it can tokenize, and held-out windows are ids.
void RunJob::sample_text(TimelineSample& sample) const {
  const training::TextEvaluation evaluation =
      training::evaluate_text(trainer_->model(), text_windows_, text_punctuation_, settings_.seed);
  sample.held_out_loss = evaluation.held_out_loss;
  training::InductionReport report;
  report.head_count = trainer_->model().layers.empty() ? 0 : trainer_->model().layers[0].head_count();
  for (const training::TextHeadScores& h : evaluation.heads)
    report.heads.push_back({h.layer, h.head, h.induction, h.previous_token, h.duplicate_token, h.first_token});
  sample.strongest_induction = training::strongest_induction_head(report);
  sample.induction = std::move(report.heads);
}

int RunJob::phase_change_step() const {
  if (settings_.task == training::Task::grammar) return -1;
  for (const TimelineSample& sample : timeline_)
    if (!sample.induction.empty() && sample.strongest_induction.prefix_matching >= training::kInductionFormedScore)
      return sample.step;
  return -1;
}

WorkerRun RunJob::hand_over() const {
  WorkerRun run;
  run.task = settings_.task;
  run.attention = settings_.attention;
  run.seed = settings_.seed;
  run.sample_every = settings_.sample_every;
  run.held_out_count = settings_.held_out_count;
  run.induction_held_out_count = settings_.induction_held_out_count;
  run.last_sample_step = timeline_.empty() ? 0 : timeline_.back().step;
  if (settings_.task == training::Task::lm) append_corpus_bytes(*text_train_, *text_held_out_, run.state);
  const std::vector<std::uint8_t> state = trainer_->save_state();
  run.state.insert(run.state.end(), state.begin(), state.end());
  return run;
}

std::string RunJob::adopt_update(const WorkerUpdate& update) {
  if (std::string e = trainer_->restore_state(update.state.data(), update.state.size()); !e.empty()) return e;
  // The page's learning rate wins: an update the worker sent before a new rate reached it carries
  // the old one, and the next hand-over would ship it back.
  trainer_->set_learning_rate(settings_.learning_rate);
  for (const TimelineSample& sample : update.samples)
    if (timeline_.empty() || sample.step > timeline_.back().step) {
      timeline_.push_back(sample);
      ++samples_taken_;
    }
  return {};
}

std::string RunJob::take_over(const WorkerRun& run) {
  settings_.sample_every = std::max(1, run.sample_every);
  settings_.held_out_count = run.held_out_count;
  settings_.induction_held_out_count = run.induction_held_out_count;
  std::size_t at = 0;
  if (run.task == training::Task::lm) {
    const std::shared_ptr<const training::TextCorpus> before = text_train_;
    const Result<std::size_t> read = read_corpus_bytes(run.state, text_train_, text_held_out_);
    if (!read.ok()) return read.error();
    at = read.value();
    if (!before || before->ids != text_train_->ids) {  // another text: held-out windows and run anew
      text_windows_.clear();
      trainer_.reset();
    }
  }
  if (!trainer_ || settings_.task != run.task || settings_.seed != run.seed || settings_.attention != run.attention)
    if (std::string e = reset(run.seed, settings_.learning_rate, run.task, run.attention); !e.empty()) return e;
  if (std::string e = trainer_->restore_state(run.state.data() + at, run.state.size() - at); !e.empty()) return e;
  settings_.learning_rate = trainer_->config().learning_rate;
  timeline_.clear();
  samples_sent_ = 0;
  resumed_sample_step_ = run.last_sample_step;
  in_worker_ = true;
  return {};
}

bool RunJob::make_update(WorkerUpdate& update) {
  if (!busy()) return false;
  update.state = trainer_->save_state();
  update.samples.assign(timeline_.begin() + static_cast<std::ptrdiff_t>(samples_sent_), timeline_.end());
  samples_sent_ = timeline_.size();
  return true;
}

}  // namespace headlab::app
