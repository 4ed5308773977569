// TrainingSession: the page's jobs (the run, the probes, the comparison, the experiment), what a
// frame trains of them, the hand-overs to the worker, the heads overview, the lab's requests and
// "Use in lab".
#include "app/training_session.h"

#include <algorithm>

#include "app/trained_model.h"
#include "engine/bpe/punctuation_tokens.h"
#include "engine/bpe/token_labels.h"
#include "engine/bpe/unicode_classes.h"
#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/model_file.h"
#include "engine/symbol_sequence.h"
#include "engine/training/gold_corpus.h"
#include "engine/training/grammar.h"

namespace headlab::app {
namespace {

// `text` without the bytes that are not part of a whole UTF-8 character.
std::string whole_characters(const std::string& text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const bpe::Utf8Step step = bpe::decode_utf8(text, at);
    if (step.valid) out.append(text, at, step.length);
    at += std::max<std::size_t>(1, step.length);
  }
  return out;
}

}  // namespace

TrainingSession::TrainingSession(const Resources& resources, const Clock& clock)
    : clock_(&clock),
      grammar_(&resources.grammar),
      run_(resources, clock),
      comparison_(resources.grammar, clock),
      probes_(resources.grammar, run_),
      experiment_(resources, clock),
      jobs_{&run_, &comparison_, &probes_, &experiment_} {}

std::string TrainingSession::ensure_started() {
  if (run_.trainer() || run_.waiting()) return {};
  if (!error_.empty()) return error_;
  return reset(settings().seed, settings().learning_rate);
}

std::string TrainingSession::reset(std::uint32_t seed, float learning_rate, std::optional<training::Task> task,
                                   std::optional<AttentionNormalization> attention) {
  link_.recall(WorkerJob::run);
  run_wait_error_.clear();
  if (std::string e = run_.reset(seed, learning_rate, task.value_or(run_task()), attention.value_or(settings().attention)); !e.empty())
    return error_ = e;
  error_.clear();
  if (!run_.waiting()) begin_run();
  return {};
}

void TrainingSession::begin_run() {
  link_.prepare();
  link_.recall(WorkerJob::probes);
  probes_.clear();
  rate_.restart();
  run_.sample_timeline();
  refresh_snapshot();
}

void TrainingSession::set_running(bool running) {
  if (running && !ensure_started().empty()) return;
  if (!running) link_.recall(WorkerJob::run);
  run_.set_running(running);
}

void TrainingSession::set_learning_rate(float learning_rate) {
  run_.set_learning_rate(learning_rate);
  link_.set_learning_rate(settings().learning_rate);
}

int TrainingSession::step(int steps) {
  if (run_.waiting() || !ensure_started().empty()) return 0;
  link_.recall(WorkerJob::run);  // steps by hand go on from what the page has; a running run goes back next frame
  run_.step(steps);
  refresh_snapshot();
  return std::max(steps, 0);
}

std::string TrainingSession::start_probes() {
  if (std::string e = ensure_started(); !e.empty()) return e;
  if (settings().task != training::Task::grammar)
    return "Probes read parts of speech and relations, which random symbols and the real-text sample do not have: train "
           "the grammar task to probe.";
  if (!link_.usable()) {
    probe_here();
    return {};
  }
  link_.recall(WorkerJob::probes);
  probes_.begin(trainer()->model(), trainer()->steps_done(), false);
  link_.hand_over(probes_);
  return {};
}

void TrainingSession::finish_probes() {
  if (link_.has(WorkerJob::probes)) probe_here();
  while (probes_.under_way()) probes_.probe_next_head();
}

void TrainingSession::probe_here() {
  link_.recall(WorkerJob::probes);
  probes_.begin(trainer()->model(), trainer()->steps_done(), true);
}

std::string TrainingSession::start_comparison() {
  if (std::string e = ensure_started(); !e.empty()) return e;
  link_.recall(WorkerJob::comparison);
  return comparison_.start(settings().seed, settings().learning_rate);
}

std::string TrainingSession::start_experiment(training::Task task, bool run) {
  link_.recall(WorkerJob::experiment);
  experiment_error_ = experiment_.start(task, settings().learning_rate, run);
  if (experiment_error_.empty()) {
    ++experiment_starts_;
    experiment_asked_task_ = task;
  }
  return experiment_error_;
}

PausableJob& TrainingSession::pausable(WorkerJob job) {
  if (job == WorkerJob::experiment) return experiment_;
  return comparison_;
}

std::string TrainingSession::start_job(WorkerJob job) {
  // Running or stepping an experiment there is none of starts one of the task it last had.
  return job == WorkerJob::experiment ? start_experiment(experiment_.task()) : start_comparison();
}

void TrainingSession::set_job_running(WorkerJob job, bool running) {
  PausableJob& pausable_job = pausable(job);
  if (running && !pausable_job.can_go_on() && !start_job(job).empty()) return;
  if (!running) link_.recall(job);  // it goes on from the last update the page adopted
  pausable_job.set_running(running);
}

int TrainingSession::step_job(WorkerJob job, int steps) {
  PausableJob& pausable_job = pausable(job);
  if (!pausable_job.started()) {
    if (!start_job(job).empty()) return 0;
    pausable_job.set_running(false);  // stepping by hand does not also start it running
  }
  link_.recall(job);  // steps by hand go on from what the page has; a running one goes back next frame
  return pausable_job.step(std::max(steps, 0));
}

void TrainingSession::receive(const WorkerUpdate& update) {
  const bool probes_in_worker = link_.has(WorkerJob::probes);
  const WorkerLink::Received received = link_.receive(update, jobs_);
  if (received.refused && probes_in_worker) probe_here();  // the page makes them now
  if (received.adopted_part(WorkerJob::run)) refresh_snapshot();
}

double TrainingSession::advance_frame() {
  const double start = clock_->now_seconds();
  if (last_frame_start_ > 0.0)
    frame_interval_ = 0.8 * frame_interval_ + 0.2 * std::clamp(start - last_frame_start_, 0.001, 0.25);
  last_frame_start_ = start;
  const double budget = frame_budget_seconds_ = std::min(kMaxFrameBudgetSeconds, settings().speed * frame_interval_);
  if (experiment_.waiting()) experiment_error_ = experiment_.start_when_ready();
  if (run_.waiting()) {
    run_wait_error_ = run_.start_when_ready();
    if (!run_.waiting() && run_wait_error_.empty()) begin_run();
  }
  if (link_.has(WorkerJob::probes) && !link_.usable()) probe_here();  // it failed: start them over here
  if (probes_.under_way() && !link_.has(WorkerJob::probes)) {
    probes_.probe_next_head();  // four regressions: the frame is theirs
  } else {
    // The probes go to the worker when they start; the others whenever they run.
    for (TrainingJob* job : jobs_)
      if (job->under_way() && link_.usable() && !link_.has(job->kind())) link_.hand_over(*job);
    link_.forget_if_lost();  // the worker failed: each goes on here from the last update
    // The run, the comparison and the experiment share the frame's budget.
    const bool train = run_.under_way() && !link_.has(WorkerJob::run),
               compare = comparison_.under_way() && !link_.has(WorkerJob::comparison),
               experiment = experiment_.under_way() && !link_.has(WorkerJob::experiment);
    const int jobs = std::max(1, int{train} + int{compare} + int{experiment});
    if (train) run_.train_within(budget / jobs, start);
    if (experiment) experiment_.train_for(budget / jobs);
    if (compare) comparison_.train_until(start + budget);
  }
  const training::Trainer* trainer = run_.trainer();
  if (trainer && snapshot_.step != trainer->steps_done() && clock_->now_seconds() - snapshot_time_ >= kSnapshotSeconds)
    refresh_snapshot();
  const double end = clock_->now_seconds();
  rate_.record_frame(end, trainer ? trainer->steps_done() : 0);
  return end - start;
}

void TrainingSession::set_snapshot_input(int index) {
  snapshot_.input = std::clamp(index, 0, std::max(0, snapshot_input_count() - 1));
  refresh_snapshot();
}

int TrainingSession::snapshot_input_count() const {
  switch (settings().task) {
    case training::Task::induction: return static_cast<int>(run_.induction_held_out().sequences.size());
    case training::Task::lm: return static_cast<int>(run_.text_held_out().size());
    case training::Task::grammar: break;
  }
  return static_cast<int>(run_.held_out().sentences.size());
}

// A held-out window of real text as the tokens the page shows: each id's readable label
// (bpe/token_labels.h: "␣the", "‹喜›" for a character split across tokens), its row of the
// embedding by id.
Tokens TrainingSession::text_window_tokens(int index) const {
  const training::TextCorpus& corpus = *run_.text_corpus();
  const std::vector<int>& ids = run_.text_held_out()[index].tokens;
  const std::vector<std::string> labels = bpe::token_labels(corpus.token_bytes, ids);
  Tokens tokens(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    tokens[i].id = ids[i];
    tokens[i].text = tokens[i].key = labels[i];
    tokens[i].is_punctuation = static_cast<std::size_t>(ids[i]) < corpus.token_bytes.size() &&
                               bpe::stands_for_punctuation(corpus.token_bytes[ids[i]]);
  }
  return tokens;
}

std::string TrainingSession::snapshot_input_text(int index) const {
  if (index < 0 || index >= snapshot_input_count()) return {};
  if (settings().task == training::Task::induction) return training::symbol_text(run_.induction_held_out().sequences[index]);
  if (settings().task == training::Task::lm) {
    // The window's own text, a line break as a space; a character cut at either end is dropped
    // (a window starts and ends anywhere in the byte stream).
    const training::TextCorpus& corpus = *run_.text_corpus();
    std::string text;
    for (int id : run_.text_held_out()[index].tokens)
      if (static_cast<std::size_t>(id) < corpus.token_bytes.size()) text += corpus.token_bytes[id];
    for (char& c : text)
      if (c == '\n') c = ' ';
    return whole_characters(text);
  }
  std::string text;  // the words, without [CLS] and [SEP]
  for (const Token& token : training::to_tokens(run_.held_out().sentences[index], *grammar_))
    if (!token.is_special) text += (text.empty() ? "" : " ") + token.text;
  return text;
}

// One forward pass of one short input: microseconds for the default models, so the overview costs
// training nothing measurable at four refreshes a second.
void TrainingSession::refresh_snapshot() {
  if (!trainer() || snapshot_input_count() == 0) return;
  snapshot_.input = std::clamp(snapshot_.input, 0, snapshot_input_count() - 1);
  const Model& model = trainer()->model();
  snapshot_.tokens = settings().task == training::Task::induction
                         ? training::symbol_tokens(run_.induction_held_out().sequences[snapshot_.input])
                     : settings().task == training::Task::lm
                         ? text_window_tokens(snapshot_.input)
                         : training::to_tokens(run_.held_out().sentences[snapshot_.input], *grammar_);
  snapshot_.texts.clear();
  for (const Token& token : snapshot_.tokens) snapshot_.texts.push_back(token.text);
  forward(model, embed(snapshot_.tokens, model), snapshot_.trace);
  snapshot_.step = trainer()->steps_done();
  snapshot_time_ = clock_->now_seconds();
}

lessons::TrainingReading TrainingSession::reading() const {
  lessons::TrainingReading out;
  if (const training::HeadCountExperiment* experiment = experiment_.experiment()) {
    for (const training::HeadCountRun& run : experiment->runs()) out.experiment_runs += run.done;
    for (const training::HeadCountPoint& point : experiment->points()) out.experiment_head_counts += point.runs > 0;
    out.experiment_task = experiment_.task();
  }
  if (!trainer() || timeline().empty()) return out;
  const TimelineSample& sample = timeline().back();
  out.task = settings().task;
  out.attention = settings().attention;
  out.steps = sample.step;
  out.sample = samples_taken();
  std::vector<analysis::Label> labels;
  for (const HeadRole& role : sample.heads)
    if (role.learned() && std::find(labels.begin(), labels.end(), role.label) == labels.end())
      labels.push_back(role.label);
  out.distinct_roles = static_cast<int>(labels.size());
  const Model& model = trainer()->model();
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
        head.first_token = sample.induction[index].first_token;
      }
      out.heads.push_back(head);
    }
  return out;
}

void TrainingSession::follow(const AppState& state) {
  if (state.experiment_request_serial != followed_experiment_request_) {
    followed_experiment_request_ = state.experiment_request_serial;
    const RequestHeadCountExperiment& request = state.experiment_request;
    if (request.fresh || !experiment_.started() || experiment_.task() != request.task) {
      start_experiment(request.task, request.run);
    } else {
      set_experiment_running(request.run);
    }
  }
  if (state.training_request_serial == followed_request_) return;
  followed_request_ = state.training_request_serial;
  const RequestTraining& request = state.training_request;
  // Another task starts at its own learning rate (real text trains at the shipped model's 1e-2).
  const float learning_rate = request.task == run_task() ? settings().learning_rate
                                                         : training::default_trainer_config(request.task).learning_rate;
  if (request.fresh || !trainer() || run_task() != request.task || settings().seed != request.seed ||
      settings().attention != request.attention)
    if (!reset(request.seed, learning_rate, request.task, request.attention).empty()) return;
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

std::string TrainingSession::use_in_lab(Controller& controller) const {
  if (!trainer()) return "Nothing has been trained yet.";
  // The latest sample's strongest induction head selected, and the notice saying what was loaded.
  const auto loaded_with_induction_head = [&](const char* notice) {
    if (!timeline().empty() && !timeline().back().induction.empty()) {
      const training::InductionHeadScores& strongest = timeline().back().strongest_induction;
      controller.apply(SelectHead{strongest.layer, strongest.head});
    }
    controller.notify(NoticeLevel::info, notice, {std::to_string(trainer()->steps_done()), std::to_string(settings().seed)});
    return std::string();
  };
  if (settings().task == training::Task::lm) {
    // Read through its tokenizer as the shipped real-text model is (engine/tensor_model_file.h).
    Model model = trainer()->model();
    model.vocab.clear();
    controller.replace_model(std::move(model));
    return loaded_with_induction_head("notice_loaded_text_run");
  }
  Document document = trainer()->document();
  if (settings().task == training::Task::induction) {
    // Ten different symbols written twice, the lab's "random tokens, repeated": every repeat has
    // exactly one earlier copy, so the lab's prefix matching is not diluted by chance repeats (the
    // training sequences have them). No prefix and no gap is one of the task's own layouts.
    document.input.text = repeated_symbol_text(10, settings().seed);
    const ActionResult loaded = controller.apply(LoadModel{serialize_model_file(document)});
    if (!loaded.ok()) return loaded.error;
    return loaded_with_induction_head("notice_loaded_induction");
  }
  // An annotated sentence in the trained vocabulary lets the lab score syntax on it.
  document = with_annotated_sentence(std::move(document), controller.resources().analysis.gold);
  const ActionResult loaded = controller.apply(LoadModel{serialize_model_file(document)});
  if (!loaded.ok()) return loaded.error;
  controller.notify(NoticeLevel::info, "notice_loaded_trained",
                    {std::to_string(trainer()->steps_done()), std::to_string(settings().seed)});
  return {};
}

const std::vector<std::string>& TrainingSession::relations() const {
  return grammar_->relations;
}

}  // namespace headlab::app
