#pragma once
// Training in the page: a Trainer that advances a few steps per frame within a time budget, or in
// the training worker (training_worker.h), a per-head role timeline sampled on held-out sentences,
// probes made on demand (a head at a time) and the one-big-head vs several-small-heads comparison.
//
// The session lives next to the AppState, not inside it: training is not an edit, so thousands of
// steps never enter the undo history, and copying the AppState never copies a Trainer. Handing
// the trained model to the lab is one undoable edit through the Controller (use_in_lab). No ImGui,
// no threads: the platform calls advance_frame() once per frame.
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/clock.h"
#include "app/controller.h"
#include "app/held_out_labels.h"
#include "app/step_rate_meter.h"
#include "app/timeline_sample.h"
#include "app/training_worker.h"
#include "engine/analysis/attention_spread.h"
#include "engine/analysis/pooled_labels.h"
#include "engine/training/compare.h"
#include "engine/training/evaluation.h"
#include "engine/training/head_count_experiment.h"
#include "engine/training/induction_evaluation.h"
#include "lessons/goal.h"
#include "engine/training/probe.h"
#include "engine/training/trainer.h"

namespace headlab::app {

struct TrainingSettings {
  training::Task task = training::Task::grammar;  // masked words of the grammar, or induction
  std::uint32_t seed = 1;        // initial weights and the stream of training sentences
  float learning_rate = 3e-3f;   // peak; warm-up and decay as TrainerConfig
  // "Speed": the share of each frame spent training (at least one step is taken). A share of the
  // measured frame interval, not fixed milliseconds, so training fills the time a slow page leaves
  // idle and backs off on a fast one: 0.5 is ~8 ms at 60 fps, ~25 ms when frames come at 20 fps.
  float speed = 0.5f;
  int sample_every = 100;        // steps between two samples of the role timeline
  int held_out_count = 60;       // held-out sentences the timeline is measured on
  // Held-out repeated sequences of the induction task: the CLI's 200 take about 0.25 s natively
  // to score, too long a pause between two frames; 100 move its numbers by about 0.01.
  int induction_held_out_count = 100;
};
inline constexpr float kMinSpeed = 0.1f, kMaxSpeed = 0.8f;
// Whatever the frame interval (a background tab gets one frame a second), a frame trains at most this long.
inline constexpr double kMaxFrameBudgetSeconds = 0.040;
inline constexpr float kMinLearningRate = 1e-4f, kMaxLearningRate = 3e-2f;
// The comparison pauses itself here (the learner can press play again to go on).
inline constexpr int kComparisonTargetSteps = 1500;
// Steps of each of the experiment's 12 runs: about a minute for all 12 natively or in the training
// worker, a few minutes where the page trains it in its frames (docs/training.md).
inline constexpr int kExperimentStepsPerRun = 1000;

// Every head of the model being trained, on one held-out input the learner picks, refreshed a few
// times a second while it trains: the Training tab draws it as a heads overview.
struct HeadsSnapshot {
  int step = -1;      // trainer step of the trace; -1 before the first
  int input = 0;      // index into the held-out inputs
  Tokens tokens;      // the input as the engine sees it
  std::vector<std::string> texts;  // token texts, for the heatmaps' axes
  Trace trace;        // engine forward() of the model at `step`
};
inline constexpr double kSnapshotSeconds = 0.25;  // at most 4 refreshes a second while training


struct ProbeProgress {
  int step = -1;                           // trainer step the probes describe; -1: never run
  int total = 0;                           // heads to probe
  std::vector<training::HeadProbe> heads;  // done so far, layer-major
  bool running() const { return step >= 0 && static_cast<int>(heads.size()) < total; }
};

// The page's side of one job handed to the worker: whether the worker has it, and the generation
// its updates must name. A hand-over and a recall each move the generation on, so whatever a
// recalled job still sends names an older one and is ignored.
struct HandedOverJob {
  bool active = false;
  std::uint64_t generation = 0;
  std::uint64_t start() {
    active = true;
    return ++generation;
  }
  void end() {
    active = false;
    ++generation;
  }
  bool speaks_for(std::uint64_t update_generation) const { return active && update_generation == generation; }
};

class TrainingSession {
 public:
  // `resources` (its grammar) and `clock` must outlive the session; tests hand in a clock they drive.
  explicit TrainingSession(const Resources& resources, const Clock& clock = steady_clock());
  TrainingSession(const TrainingSession&) = delete;
  TrainingSession& operator=(const TrainingSession&) = delete;

  // Builds the first trainer (on first use, so the page starts fast).
  // "" or why training is unavailable; the error is kept in error().
  std::string ensure_started();
  // A fresh run from `seed` at `learning_rate` (of `task`, or of the current task): losses,
  // timeline and probes start over.
  std::string reset(std::uint32_t seed, float learning_rate, std::optional<training::Task> task = {});

  // Carries out the AppState's training request once per new serial (RequestTraining: a lesson,
  // the Training tab or the JS API asked for it). The platform calls sync_training() each frame.
  void follow(const AppState& state);
  // The latest timeline sample as lesson goals read it (empty task before the first run).
  lessons::TrainingReading reading() const;
  std::uint64_t samples_taken() const { return samples_taken_; }
  // The heads overview of the model being trained: which held-out input it shows (clamped to
  // those there are), its text, and the latest snapshot.
  void set_snapshot_input(int index);
  int snapshot_input_count() const;
  std::string snapshot_input_text(int index) const;
  const HeadsSnapshot& snapshot() const { return snapshot_; }

  // Induction task: the step of the first sample at which a head of layer 1 or deeper (layer 0
  // of a 1-layer model) reached training::kInductionFormedScore, the phase change; -1 before.
  int phase_change_step() const;

  void set_running(bool running);
  bool running() const { return running_; }
  // Peak learning rate from the next step on (clamped to the slider's range).
  void set_learning_rate(float learning_rate);
  void set_speed(float share);
  // `steps` steps now (the Step button and the API), sampling the timeline when due.
  int step(int steps);

  // The page's training worker (none natively or in most tests). While Play is pressed the run
  // trains there, and so do the comparison and the experiment while they run, and the probes are
  // made there; the page adopts what they reach (training_worker.h). Everything trains here in the
  // frame's budget when the worker is unavailable.
  void attach_worker(TrainingWorker* worker) { worker_ = worker; }
  // An update from the worker, adopted when it belongs to the run handed over last.
  void receive(const WorkerUpdate& update);
  // The run is in the worker now (Play pressed and the worker took it).
  bool training_in_worker() const { return run_job_.active; }
  // The comparison is in the worker now (running, and the worker took it).
  bool comparison_in_worker() const { return comparison_job_.active; }
  // The probes are being made in the worker now.
  bool probes_in_worker() const { return probes_job_.active; }
  // The experiment is in the worker now (running, and the worker took it).
  bool experiment_in_worker() const { return experiment_job_.active; }
  // Play trains in a worker (so "speed", the share of each frame, does not apply).
  bool uses_worker() const { return worker_usable(); }

  // The worker's side of the hand-over: a session in the worker takes over the page's run or
  // comparison, trains what it has, and says what it reached since the last update.
  std::string take_over(const WorkerRun& run);
  void stop_job(WorkerJob job);
  bool has_jobs() const;
  // Probes one head when it has probes to make, then trains the run, the comparison and the
  // experiment, a step of each in turn, for about `seconds` or `rounds` rounds (the timeline
  // sampled when due, the comparison paused at its target, the experiment ended when done).
  // Returns the rounds.
  int train_for(double seconds, int rounds = std::numeric_limits<int>::max());
  // The parts of the jobs it has, under the generations they were handed over with.
  WorkerUpdate take_update(const WorkerGenerations& generations);
  // New timeline samples, a comparison that paused itself, a head probed or the experiment done:
  // the page should hear of them now.
  bool update_due() const {
    return timeline_.size() > samples_sent_ || comparison_paused_ || probes_.heads.size() > probes_sent_ ||
           experiment_finished_;
  }

  // Once per frame: trains for about the frame budget (speed x the frame interval) when running,
  // stopping early when the next step would overrun it; probes one head when probes are pending;
  // steps the comparison when it runs. Returns the seconds spent.
  double advance_frame();

  // Probes of the current model (grammar task: they read parts of speech): in the worker, a head at
  // a time; without one, the forward passes now, then one head per frame. finish_probes (the
  // API's wait) makes them all here and now.
  std::string start_probes();
  void finish_probes();

  // One head of d_model vs several of d_model / h, same seed and learning rate as the session.
  std::string start_comparison();
  void set_comparison_running(bool running);
  bool comparison_running() const { return comparison_running_; }
  int step_comparison(int steps);

  // One vs many as an experiment (training/head_count_experiment.h): 1, 2, 4 and 8 heads at the
  // same width, 3 seeds each, kExperimentStepsPerRun steps, scored by held-out loss; the
  // session's learning rate. Trained in the worker (or by frames) while running, like the comparison.
  std::string start_experiment();
  void set_experiment_running(bool running);
  bool experiment_running() const { return experiment_running_; }
  int step_experiment(int steps);
  const training::HeadCountExperiment* experiment() const { return experiment_ ? &*experiment_ : nullptr; }

  // Loads the trained model into the lab as one undoable edit; the input becomes an annotated
  // example sentence the trained vocabulary covers (so the lab can score syntax), if there is one.
  std::string use_in_lab(Controller& controller) const;

  const std::string& error() const { return error_; }
  bool started() const { return trainer_.has_value(); }
  const TrainingSettings& settings() const { return settings_; }
  const training::Trainer* trainer() const { return trainer_ ? &*trainer_ : nullptr; }
  const std::vector<TimelineSample>& timeline() const { return timeline_; }
  const ProbeProgress& probes() const { return probes_; }
  const training::HeadComparison* comparison() const { return comparison_ ? &*comparison_ : nullptr; }
  const std::vector<std::string>& relations() const;

  // Speed as the page sees it: steps per wall-clock second and frames per second over the last
  // two seconds, renewed twice a second (a number that changes every frame cannot be read, and
  // would make every frame a new picture to draw), and the mean time of one step.
  double steps_per_second() const { return rate_.steps_per_second(); }
  double frames_per_second() const { return rate_.frames_per_second(); }
  double step_seconds() const { return step_seconds_; }
  double frame_budget_seconds() const { return frame_budget_seconds_; }  // of the last frame
  std::uint64_t frames() const { return rate_.frames(); }

 private:
  void sample_timeline();
  void sample_induction(TimelineSample& sample) const;
  void refresh_snapshot();
  void train_within(double budget_seconds, double start);
  bool worker_usable() const { return worker_ && worker_->available() && !worker_refused_; }
  void hand_over();
  // Takes the job back from the worker: the page goes on from the last update it adopted.
  void recall(WorkerJob job);
  HandedOverJob& handed_over(WorkerJob job);
  void hand_over_comparison();
  std::string take_over_comparison(const WorkerRun& run);
  // Trains the comparison one step on each side; false when that reached its target (it pauses).
  bool step_comparison_pair();
  void hand_over_probes();
  std::string take_over_probes(const WorkerRun& run);
  void hand_over_experiment();
  std::string take_over_experiment(const WorkerRun& run);
  Result<training::HeadCountExperiment> make_experiment(float learning_rate) const;
  // Probes of the model as it is now, made here (the forward passes now, the heads one by one).
  void probe_here();
  // The probes of `model` at `step` start over: none made, nothing prepared yet.
  void begin_probes(const Model& model, int step);
  void probe_next_head();
  bool has_training_jobs() const;

  const Clock* clock_;
  TrainingSettings settings_;
  const training::Grammar* grammar_;
  const analysis::LabelConfig* lab_label_config_;  // the lab's thresholds (labels.json)
  std::optional<training::Trainer> trainer_;
  HeldOutLabeller held_out_;  // the grammar task's held-out sentences and their gold arcs
  training::RepeatedSequences induction_held_out_;  // of settings_.seed
  std::vector<TimelineSample> timeline_;
  std::uint64_t samples_taken_ = 0;
  HeadsSnapshot snapshot_;
  double snapshot_time_ = 0.0;
  std::uint64_t followed_request_ = 0;
  std::uint64_t followed_experiment_request_ = 0;
  bool running_ = false;
  std::string error_;

  std::optional<training::ProbeData> probe_data_;
  training::ProbeConfig probe_config_;
  ProbeProgress probes_;
  std::vector<int> probed_head_counts_;  // per layer, of the model the probes describe

  std::optional<training::HeadComparison> comparison_;
  bool comparison_running_ = false;
  std::optional<training::HeadCountExperiment> experiment_;
  bool experiment_running_ = false;

  TrainingWorker* worker_ = nullptr;
  HandedOverJob run_job_, comparison_job_, probes_job_, experiment_job_;  // the page adopts their updates
  bool worker_refused_ = false;      // the worker could not take a run: train here from then on
  int resumed_sample_step_ = 0;      // worker side: the page's newest sample before the hand-over
  std::size_t samples_sent_ = 0;     // worker side: timeline samples already in an update
  bool worker_run_active_ = false;   // worker side: it trains the run it took over
  bool comparison_paused_ = false;   // worker side: it reached its target since the last update
  bool worker_probes_active_ = false;        // worker side: it has probes to make
  std::size_t probes_sent_ = 0;              // worker side: probed heads already in an update
  bool experiment_finished_ = false;         // worker side: its last run ended since the last update

  double step_seconds_ = 0.0;  // moving average of one step's duration
  double frame_interval_ = 1.0 / 60.0;  // moving average of the time between two frames
  double last_frame_start_ = 0.0;
  double frame_budget_seconds_ = 0.0;
  StepRateMeter rate_;
};

// Once per frame (and after a training request of the JS API): the session follows the state's
// training request, and a new held-out sample reaches the state's training reading (goals).
void sync_training(Controller& controller, TrainingSession& session);

}  // namespace headlab::app
