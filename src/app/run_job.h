#pragma once
// The training run: a Trainer, its settings, the held-out inputs it is measured on and the role
// timeline sampled on them every `sample_every` steps. The page steps it by hand or in its frames;
// the worker trains it in rounds; either end hands it to the other as the trainer's saved state
// (on real text with the text it trains on before it: the worker has no tokenizer).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/clock.h"
#include "app/held_out_labels.h"
#include "app/resources.h"
#include "app/timeline_sample.h"
#include "app/training_job.h"
#include "engine/training/evaluation.h"
#include "engine/training/induction_evaluation.h"
#include "engine/training/trainer.h"

namespace headlab::app {

struct TrainingSettings {
  training::Task task = training::Task::grammar;  // masked words of the grammar, induction, or real text (lm)
  AttentionNormalization attention = AttentionNormalization::softmax;  // of every head (engine/model.h)
  std::uint32_t seed = 1;        // initial weights and the stream of training sentences
  float learning_rate = 3e-3f;   // peak; warm-up and decay as TrainerConfig
  // "Speed": the share of each frame spent training (at least one step is taken). A share of the
  // measured frame interval, not fixed milliseconds, so training fills the time a slow page leaves
  // idle and backs off on a fast one: 0.5 is ~8 ms at 60 fps, ~25 ms when frames come at 20 fps.
  float speed = 0.5f;
  int sample_every = 100;        // steps between two samples of the role timeline
  int held_out_count = 60;       // held-out sentences (real text: windows) the timeline is measured on
  // Held-out repeated sequences of the induction task: the CLI's 200 take about 0.25 s natively
  // to score, too long a pause between two frames; 100 move its numbers by about 0.01.
  int induction_held_out_count = 100;
};
inline constexpr float kMinSpeed = 0.1f, kMaxSpeed = 0.8f;
inline constexpr float kMinLearningRate = 1e-4f, kMaxLearningRate = 3e-2f;

class RunJob final : public TrainingJob {
 public:
  // `resources` (the grammar, the lab's label thresholds, the text sample) and `clock` must outlive the run.
  RunJob(const Resources& resources, const Clock& clock);

  // A fresh run of `task` from `seed` at `learning_rate` (clamped), its timeline empty; "" or why
  // not (then the run it had stays). On real text before the page's text sample has arrived, it
  // asks for the sample and waits (waiting()), paused; the run it had stays until the sample arrives.
  std::string reset(std::uint32_t seed, float learning_rate, training::Task task,
                    AttentionNormalization attention = AttentionNormalization::softmax);
  // Starts the real-text run it waits for once the sample is there; "" or why it cannot (then it
  // waits no longer). Called every frame.
  std::string start_when_ready();
  bool waiting() const { return waiting_; }
  // Play: the page trains it in its frames or hands it to the worker. While waiting for the text
  // sample, what the run will do once it starts.
  void set_running(bool running) { (waiting_ ? waiting_run_ : running_) = running; }
  bool running() const { return running_; }
  // Peak learning rate from the next step on (clamped to the slider's range).
  void set_learning_rate(float learning_rate);
  void set_speed(float share);
  // `steps` steps now, sampling the timeline when due.
  void step(int steps);
  // Steps while the next would still end by `start` + `budget_seconds`; a timeline sample (a few
  // steps' time) ends them.
  void train_within(double budget_seconds, double start);
  // Samples the timeline at the trainer's step, unless it already has that step.
  void sample_timeline();

  // Induction task and real text: the step of the first sample at which a head of layer 1 or
  // deeper (layer 0 of a 1-layer model) reached training::kInductionFormedScore, the phase change;
  // -1 before.
  int phase_change_step() const;

  const TrainingSettings& settings() const { return settings_; }
  const training::Trainer* trainer() const { return trainer_ ? &*trainer_ : nullptr; }
  const std::vector<TimelineSample>& timeline() const { return timeline_; }
  std::uint64_t samples_taken() const { return samples_taken_; }
  const HeldOutLabeller& held_out() const { return held_out_; }
  const training::RepeatedSequences& induction_held_out() const { return induction_held_out_; }
  // Real text: the held-out windows and the text each token id stands for.
  const std::vector<training::Sentence>& text_held_out() const { return text_windows_; }
  const training::TextCorpus* text_corpus() const { return text_train_.get(); }
  double step_seconds() const { return step_seconds_; }  // moving average of one step's duration

  WorkerJob kind() const override { return WorkerJob::run; }
  bool under_way() const override { return running_ && trainer_; }
  WorkerRun hand_over() const override;
  std::string adopt_update(const WorkerUpdate& update) override;
  std::string take_over(const WorkerRun& run) override;
  void stop() override { in_worker_ = false; }
  bool busy() const override { return in_worker_ && trainer_; }
  void step_in_worker() override { step(1); }
  bool update_due() const override { return timeline_.size() > samples_sent_; }
  bool make_update(WorkerUpdate& update) override;

 private:
  void sample_induction(TimelineSample& sample) const;
  void sample_text(TimelineSample& sample) const;

  const Clock* clock_;
  const Resources* resources_;
  const training::Grammar* grammar_;
  const analysis::LabelConfig* lab_label_config_;  // the lab's thresholds (labels.json)
  TrainingSettings settings_;
  std::optional<training::Trainer> trainer_;
  HeldOutLabeller held_out_;  // the grammar task's held-out sentences and their gold arcs
  training::RepeatedSequences induction_held_out_;  // of settings_.seed
  // Real text: the page's sample (Resources::text_corpus), or in the worker what came with the run;
  // the held-out windows the timeline reads and which ids are punctuation.
  std::shared_ptr<const training::TextCorpus> text_train_, text_held_out_;
  std::vector<training::Sentence> text_windows_;
  std::vector<bool> text_punctuation_;
  // Waiting for the text sample: the run to start once it is there.
  bool waiting_ = false;
  std::uint32_t waiting_seed_ = 1;
  AttentionNormalization waiting_attention_ = AttentionNormalization::softmax;
  bool waiting_run_ = false;
  std::vector<TimelineSample> timeline_;
  std::uint64_t samples_taken_ = 0;
  double step_seconds_ = 0.0;
  bool running_ = false;
  // The worker's side: it trains the run it took over; the newest sample the page had then (the
  // first sample's training loss averages from there); samples already sent in an update.
  bool in_worker_ = false;
  int resumed_sample_step_ = 0;
  std::size_t samples_sent_ = 0;
};

}  // namespace headlab::app
