// TrainingSession: the run, its timeline and heads overview, the frame's training, the lab's
// requests and "Use in lab". The comparisons, the probes and the worker's hand-over have files of
// their own (training_session_*.cpp).
#include "app/training_session.h"

#include <algorithm>
#include <cctype>

#include "app/step_clock.h"
#include "app/trained_model.h"
#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/model_file.h"
#include "engine/symbol_sequence.h"
#include "engine/training/gold_corpus.h"
#include "engine/training/grammar.h"

namespace headlab::app {

TrainingSession::TrainingSession(const Resources& resources, const Clock& clock)
    : clock_(&clock), grammar_(&resources.grammar), lab_label_config_(&resources.analysis.config) {}

std::string TrainingSession::ensure_started() {
  if (trainer_) return {};
  if (!error_.empty()) return error_;
  return reset(settings_.seed, settings_.learning_rate);
}

std::string TrainingSession::reset(std::uint32_t seed, float learning_rate, std::optional<training::Task> task) {
  recall(WorkerJob::run);
  training::TrainerConfig config = training::default_trainer_config(task.value_or(settings_.task));
  config.seed = seed;
  config.learning_rate = std::clamp(learning_rate, kMinLearningRate, kMaxLearningRate);
  Result<training::Trainer> trainer = training::Trainer::create(config, *grammar_);
  if (!trainer.ok()) return error_ = "Training is unavailable: " + trainer.error();
  error_.clear();
  trainer_ = std::move(trainer).value();
  settings_.task = config.task;
  settings_.seed = seed;
  settings_.learning_rate = config.learning_rate;
  if (config.task == training::Task::induction)
    induction_held_out_ = training::held_out_repeated_segments(config.induction, seed, settings_.induction_held_out_count,
                                                               config.architecture.special_tokens);
  if (held_out_.sentences.empty())
    held_out_ = HeldOutLabeller::make(*grammar_, *lab_label_config_, config.architecture.special_tokens,
                                      settings_.held_out_count);
  if (worker_usable()) worker_->prepare();
  timeline_.clear();
  resumed_sample_step_ = 0;
  samples_sent_ = 0;
  recall(WorkerJob::probes);
  if (!worker_probes_active_) {  // in the worker the probes are a job of their own, not of the run
    probe_data_.reset();
    probes_ = {};
  }
  rate_.restart();
  sample_timeline();
  refresh_snapshot();
  return {};
}

void TrainingSession::set_running(bool running) {
  if (running && !ensure_started().empty()) return;
  if (!running) recall(WorkerJob::run);
  running_ = running;
}

void TrainingSession::set_learning_rate(float learning_rate) {
  settings_.learning_rate = std::clamp(learning_rate, kMinLearningRate, kMaxLearningRate);
  if (trainer_) trainer_->set_learning_rate(settings_.learning_rate);
  if (run_job_.active) worker_->set_learning_rate(settings_.learning_rate);
}

void TrainingSession::set_speed(float share) { settings_.speed = std::clamp(share, kMinSpeed, kMaxSpeed); }

int TrainingSession::step(int steps) {
  if (!ensure_started().empty()) return 0;
  recall(WorkerJob::run);  // steps by hand go on from what the page has; a running run goes back next frame
  for (int i = 0; i < steps; ++i) {
    timed_step(*trainer_, step_seconds_, *clock_);
    if (trainer_->steps_done() % settings_.sample_every == 0) sample_timeline();
  }
  refresh_snapshot();
  return std::max(steps, 0);
}

void TrainingSession::sample_timeline() {
  const training::Trainer& trainer = *trainer_;
  const int step = trainer.steps_done();
  if (!timeline_.empty() && timeline_.back().step == step) return;
  TimelineSample sample;
  sample.step = step;
  const int since = step - (timeline_.empty() ? resumed_sample_step_ : timeline_.back().step);
  sample.train_loss = training::mean_recent_loss(trainer, since);
  ++samples_taken_;
  if (settings_.task == training::Task::induction) {
    sample_induction(sample);
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

void TrainingSession::sample_induction(TimelineSample& sample) const {
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

void TrainingSession::set_snapshot_input(int index) {
  snapshot_.input = std::clamp(index, 0, std::max(0, snapshot_input_count() - 1));
  refresh_snapshot();
}

int TrainingSession::snapshot_input_count() const {
  return static_cast<int>(settings_.task == training::Task::induction ? induction_held_out_.sequences.size()
                                                                      : held_out_.sentences.size());
}

std::string TrainingSession::snapshot_input_text(int index) const {
  if (index < 0 || index >= snapshot_input_count()) return {};
  if (settings_.task == training::Task::induction) return training::symbol_text(induction_held_out_.sequences[index]);
  std::string text;  // the words, without [CLS] and [SEP]
  for (const Token& token : training::to_tokens(held_out_.sentences[index], *grammar_))
    if (!token.is_special) text += (text.empty() ? "" : " ") + token.text;
  return text;
}

// One forward pass of one short input: microseconds for the default models, so the overview costs
// training nothing measurable at four refreshes a second.
void TrainingSession::refresh_snapshot() {
  if (!trainer_ || snapshot_input_count() == 0) return;
  snapshot_.input = std::clamp(snapshot_.input, 0, snapshot_input_count() - 1);
  const Model& model = trainer_->model();
  snapshot_.tokens = settings_.task == training::Task::induction
                         ? training::symbol_tokens(induction_held_out_.sequences[snapshot_.input])
                         : training::to_tokens(held_out_.sentences[snapshot_.input], *grammar_);
  snapshot_.texts.clear();
  for (const Token& token : snapshot_.tokens) snapshot_.texts.push_back(token.text);
  forward(model, embed(snapshot_.tokens, model), snapshot_.trace);
  snapshot_.step = trainer_->steps_done();
  snapshot_time_ = clock_->now_seconds();
}

int TrainingSession::phase_change_step() const {
  if (settings_.task != training::Task::induction) return -1;
  for (const TimelineSample& sample : timeline_)
    if (!sample.induction.empty() && sample.strongest_induction.prefix_matching >= training::kInductionFormedScore)
      return sample.step;
  return -1;
}

lessons::TrainingReading TrainingSession::reading() const {
  lessons::TrainingReading out;
  if (experiment_) {
    for (const training::HeadCountRun& run : experiment_->runs()) out.experiment_runs += run.done;
    for (const training::HeadCountPoint& point : experiment_->points()) out.experiment_head_counts += point.runs > 0;
  }
  if (!trainer_ || timeline_.empty()) return out;
  const TimelineSample& sample = timeline_.back();
  out.task = settings_.task;
  out.steps = sample.step;
  out.sample = samples_taken_;
  std::vector<analysis::Label> labels;
  for (const HeadRole& role : sample.heads)
    if (!role.label.mixed() && std::find(labels.begin(), labels.end(), role.label) == labels.end())
      labels.push_back(role.label);
  out.distinct_roles = static_cast<int>(labels.size());
  const Model& model = trainer_->model();
  std::size_t index = 0;
  for (int l = 0; l < static_cast<int>(model.layers.size()); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h, ++index) {
      lessons::TrainingHeadReading head;
      head.layer = l;
      head.head = h;
      if (index < sample.induction.size()) {
        head.prefix_matching = sample.induction[index].prefix_matching;
        head.previous_token = sample.induction[index].previous_token;
        head.duplicate_token = sample.induction[index].duplicate_token;
      }
      out.heads.push_back(head);
    }
  return out;
}

void TrainingSession::follow(const AppState& state) {
  if (state.experiment_request_serial != followed_experiment_request_) {
    followed_experiment_request_ = state.experiment_request_serial;
    const RequestHeadCountExperiment& request = state.experiment_request;
    if (request.fresh || !experiment_) {
      if (start_experiment().empty()) experiment_running_ = request.run;
    } else {
      set_experiment_running(request.run);
    }
  }
  if (state.training_request_serial == followed_request_) return;
  followed_request_ = state.training_request_serial;
  const RequestTraining& request = state.training_request;
  if (request.fresh || !trainer_ || settings_.task != request.task || settings_.seed != request.seed)
    if (!reset(request.seed, settings_.learning_rate, request.task).empty()) return;
  set_running(request.run);
}

void sync_training(Controller& controller, TrainingSession& session) {
  session.follow(controller.state());
  const std::optional<lessons::TrainingReading>& seen = controller.state().training;
  const training::HeadCountExperiment* experiment = session.experiment();
  int finished = 0;
  if (experiment)
    for (const training::HeadCountRun& run : experiment->runs()) finished += run.done;
  if ((session.samples_taken() > 0 || experiment) &&
      (!seen || seen->sample != session.samples_taken() || seen->experiment_runs != finished))
    controller.observe_training(session.reading());
}

void TrainingSession::train_within(double budget_seconds, double start) {
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

double TrainingSession::advance_frame() {
  const double start = clock_->now_seconds();
  if (last_frame_start_ > 0.0)
    frame_interval_ = 0.8 * frame_interval_ + 0.2 * std::clamp(start - last_frame_start_, 0.001, 0.25);
  last_frame_start_ = start;
  const double budget = frame_budget_seconds_ = std::min(kMaxFrameBudgetSeconds, settings_.speed * frame_interval_);
  if (probes_job_.active && !worker_usable()) probe_here();  // it failed: start them over here
  if (probes_.running() && !probes_job_.active) {
    probe_next_head();  // four regressions: the frame is theirs
  } else {
    // The run, the comparison and the experiment share the frame's budget.
    if (running_ && trainer_ && worker_usable() && !run_job_.active) hand_over();
    if (comparison_running_ && comparison_ && worker_usable() && !comparison_job_.active) hand_over_comparison();
    if (experiment_running_ && experiment_ && worker_usable() && !experiment_job_.active) hand_over_experiment();
    // The worker failed: each goes on here from the last update.
    if (!worker_usable())
      for (HandedOverJob* job : {&run_job_, &comparison_job_, &experiment_job_}) job->active = false;
    const bool train = running_ && trainer_ && !run_job_.active,
               compare = comparison_running_ && comparison_ && !comparison_job_.active,
               experiment = experiment_running_ && experiment_ && !experiment_job_.active;
    const int jobs = std::max(1, int{train} + int{compare} + int{experiment});
    if (train) train_within(budget / jobs, start);
    if (experiment) {
      const double deadline = clock_->now_seconds() + budget / jobs;
      double step_seconds = 0.0;
      do {
        const double before = clock_->now_seconds();
        experiment_->step(1);
        step_seconds = clock_->now_seconds() - before;
        if (experiment_->done()) experiment_running_ = false;
      } while (experiment_running_ && clock_->now_seconds() + step_seconds <= deadline);
    }
    if (compare) {
      const double deadline = start + budget;
      double pair_seconds = 0.0;
      do {
        const double before = clock_->now_seconds();
        comparison_running_ = step_comparison_pair();
        average_in(pair_seconds, clock_->now_seconds() - before);
      } while (comparison_running_ && clock_->now_seconds() + pair_seconds <= deadline);
    }
  }
  if (trainer_ && snapshot_.step != trainer_->steps_done() && clock_->now_seconds() - snapshot_time_ >= kSnapshotSeconds)
    refresh_snapshot();
  const double end = clock_->now_seconds();
  rate_.record_frame(end, trainer_ ? trainer_->steps_done() : 0);
  return end - start;
}

std::string TrainingSession::use_in_lab(Controller& controller) const {
  if (!trainer_) return "Nothing has been trained yet.";
  Document document = trainer_->document();
  if (settings_.task == training::Task::induction) {
    // Ten different symbols written twice, the lab's "random tokens, repeated": every repeat has
    // exactly one earlier copy, so the lab's prefix matching is not diluted by chance repeats (the
    // training sequences have them). No prefix and no gap is one of the task's own layouts.
    document.input.text = repeated_symbol_text(10, settings_.seed);
    const ActionResult loaded = controller.apply(LoadModel{serialize_model_file(document)});
    if (!loaded.ok()) return loaded.error;
    if (!timeline_.empty() && !timeline_.back().induction.empty()) {
      const training::InductionHeadScores& strongest = timeline_.back().strongest_induction;
      controller.apply(SelectHead{strongest.layer, strongest.head});
    }
    controller.notify(NoticeLevel::info, "notice_loaded_induction",
                      {std::to_string(trainer_->steps_done()), std::to_string(settings_.seed)});
    return {};
  }
  // An annotated sentence in the trained vocabulary lets the lab score syntax on it.
  document = with_annotated_sentence(std::move(document), controller.resources().analysis.gold);
  const ActionResult loaded = controller.apply(LoadModel{serialize_model_file(document)});
  if (!loaded.ok()) return loaded.error;
  controller.notify(NoticeLevel::info, "notice_loaded_trained",
                    {std::to_string(trainer_->steps_done()), std::to_string(settings_.seed)});
  return {};
}

const std::vector<std::string>& TrainingSession::relations() const {
  return grammar_->relations;
}

}  // namespace headlab::app
