#pragma once
// Training in the page: the run (a Trainer that advances a few steps per frame within a time
// budget, and its per-head role timeline sampled on held-out sentences), the probes made on demand
// (a head at a time), the one-big-head vs several-small-heads comparison and the head-count
// experiment. Each is a TrainingJob of its own (run_job.h, probes_job.h, comparison_job.h,
// experiment_job.h); while one runs and the page has a training worker, the session hands it there
// through its WorkerLink and adopts what the worker reaches.
//
// The session lives next to the AppState, not inside it: training is not an edit, so thousands of
// steps never enter the undo history, and copying the AppState never copies a Trainer. Handing
// the trained model to the lab is one undoable edit through the Controller (use_in_lab). No ImGui,
// no threads: the platform calls advance_frame() once per frame.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/clock.h"
#include "app/comparison_job.h"
#include "app/controller.h"
#include "app/experiment_job.h"
#include "app/pausable_job.h"
#include "app/probes_job.h"
#include "app/run_job.h"
#include "app/step_rate_meter.h"
#include "app/timeline_sample.h"
#include "app/training_worker.h"
#include "app/worker_link.h"
#include "lessons/goal.h"

namespace headlab::app {

// Whatever the frame interval (a background tab gets one frame a second), a frame trains at most this long.
inline constexpr double kMaxFrameBudgetSeconds = 0.040;

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
  // The run's attention normalisation stays unless `attention` names another. A run on real text
  // may first wait for the page's text sample (run_waiting()); it starts, paused or running as
  // asked meanwhile, once the sample arrives.
  std::string reset(std::uint32_t seed, float learning_rate, std::optional<training::Task> task = {},
                    std::optional<AttentionNormalization> attention = {});

  // Carries out the AppState's training request once per new serial (RequestTraining: a lesson,
  // the Training tab or the JS API asked for it). The platform calls sync_training() each frame.
  void follow(const AppState& state);
  // The latest timeline sample as lesson goals read it (empty task before the first run).
  lessons::TrainingReading reading() const;
  std::uint64_t samples_taken() const { return run_.samples_taken(); }
  // The heads overview of the model being trained: which held-out input it shows (clamped to
  // those there are), its text, and the latest snapshot.
  void set_snapshot_input(int index);
  int snapshot_input_count() const;
  std::string snapshot_input_text(int index) const;
  const HeadsSnapshot& snapshot() const { return snapshot_; }

  // Waiting for the text sample before a run on real text starts; why the last such wait ended
  // without a run ("" when it started or still waits). The task the run has, or waits to have.
  bool run_waiting() const { return run_.waiting(); }
  const std::string& run_wait_error() const { return run_wait_error_; }
  training::Task run_task() const { return run_.waiting() ? training::Task::lm : settings().task; }

  // Induction task and real text: the step of the first sample at which a head of layer 1 or deeper (layer 0
  // of a 1-layer model) reached training::kInductionFormedScore, the phase change; -1 before.
  int phase_change_step() const { return run_.phase_change_step(); }

  void set_running(bool running);
  bool running() const { return run_.running(); }
  // Peak learning rate from the next step on (clamped to the slider's range).
  void set_learning_rate(float learning_rate);
  void set_speed(float share) { run_.set_speed(share); }
  // `steps` steps now (the Step button and the API), sampling the timeline when due.
  int step(int steps);

  // The page's training worker (none natively or in most tests). While Play is pressed the run
  // trains there, and so do the comparison and the experiment while they run, and the probes are
  // made there; the page adopts what they reach (training_worker.h). Everything trains here in the
  // frame's budget when the worker is unavailable.
  void attach_worker(TrainingWorker* worker) { link_.attach(worker); }
  // An update from the worker, adopted when it belongs to the jobs handed over last.
  void receive(const WorkerUpdate& update);
  // The worker has that job now (the run: Play pressed and the worker took it; the comparison or
  // the experiment: running, and the worker took it; the probes: being made there).
  bool in_worker(WorkerJob job) const { return link_.has(job); }
  bool training_in_worker() const { return in_worker(WorkerJob::run); }
  bool comparison_in_worker() const { return in_worker(WorkerJob::comparison); }
  bool probes_in_worker() const { return in_worker(WorkerJob::probes); }
  bool experiment_in_worker() const { return in_worker(WorkerJob::experiment); }
  // Play trains in a worker (so "speed", the share of each frame, does not apply).
  bool uses_worker() const { return link_.usable(); }

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
  void set_comparison_running(bool running) { set_job_running(WorkerJob::comparison, running); }
  bool comparison_running() const { return comparison_.running(); }
  int step_comparison(int steps) { return step_job(WorkerJob::comparison, steps); }

  // One vs many as an experiment (experiment_job.h) on the grammar (at the session's learning rate)
  // or on real text. Trained in the worker (or by frames) while running, like the comparison. On
  // real text it may first wait for the text sample (experiment_waiting()).
  // `run` false: started paused.
  std::string start_experiment(training::Task task = training::Task::grammar, bool run = true);
  bool experiment_waiting() const { return experiment_.waiting(); }
  // The experiment's task, or the one it waits to start (real text).
  training::Task experiment_task() const { return experiment_.waiting() ? training::Task::lm : experiment_.task(); }
  // Experiments started (or waiting to) so far, and the task the last one was asked for: a view
  // follows the task of a new one.
  int experiment_starts() const { return experiment_starts_; }
  training::Task experiment_asked_task() const { return experiment_asked_task_; }
  // Why the last experiment asked for could not start ("" when it did or still waits).
  const std::string& experiment_error() const { return experiment_error_; }
  void set_experiment_running(bool running) { set_job_running(WorkerJob::experiment, running); }
  bool experiment_running() const { return experiment_.running(); }
  int step_experiment(int steps) { return step_job(WorkerJob::experiment, steps); }
  const training::HeadCountExperiment* experiment() const { return experiment_.experiment(); }

  // The comparison or the experiment (other jobs are not paused or stepped this way): runs or
  // pauses it, starting it first when running it would take no step; steps it by hand from what
  // the page has (a running one goes back to the worker next frame). Returns the steps taken.
  void set_job_running(WorkerJob job, bool running);
  int step_job(WorkerJob job, int steps);

  // Loads the trained model into the lab as one undoable edit; the input becomes an annotated
  // example sentence the trained vocabulary covers (so the lab can score syntax), if there is one;
  // ten symbols written twice (induction); the lab's own text, or a sentence written once (real text).
  std::string use_in_lab(Controller& controller) const;

  const std::string& error() const { return error_; }
  bool started() const { return run_.trainer() != nullptr; }
  const TrainingSettings& settings() const { return run_.settings(); }
  const training::Trainer* trainer() const { return run_.trainer(); }
  const std::vector<TimelineSample>& timeline() const { return run_.timeline(); }
  const ProbeProgress& probes() const { return probes_.progress(); }
  const training::HeadComparison* comparison() const { return comparison_.comparison(); }
  const std::vector<std::string>& relations() const;

  // Speed as the page sees it: steps per wall-clock second and frames per second over the last
  // two seconds, renewed twice a second (a number that changes every frame cannot be read, and
  // would make every frame a new picture to draw), and the mean time of one step.
  double steps_per_second() const { return rate_.steps_per_second(); }
  double frames_per_second() const { return rate_.frames_per_second(); }
  double step_seconds() const { return run_.step_seconds(); }
  double frame_budget_seconds() const { return frame_budget_seconds_; }  // of the last frame
  std::uint64_t frames() const { return rate_.frames(); }

 private:
  void refresh_snapshot();
  Tokens text_window_tokens(int index) const;
  // What a new run (just reset, or just started after waiting for the text sample) begins with.
  void begin_run();
  // The comparison's or the experiment's.
  PausableJob& pausable(WorkerJob job);
  std::string start_job(WorkerJob job);
  // Probes of the model as it is now, made here (the forward passes now, the heads one by one).
  void probe_here();

  const Clock* clock_;
  const training::Grammar* grammar_;
  RunJob run_;
  ComparisonJob comparison_;
  ProbesJob probes_;
  ExperimentJob experiment_;
  WorkerLink::Jobs jobs_;  // indexed by WorkerJob
  WorkerLink link_;
  std::string error_;
  std::string run_wait_error_;
  std::string experiment_error_;
  int experiment_starts_ = 0;
  training::Task experiment_asked_task_ = training::Task::grammar;
  std::uint64_t followed_request_ = 0;
  std::uint64_t followed_experiment_request_ = 0;

  HeadsSnapshot snapshot_;
  double snapshot_time_ = 0.0;
  double frame_interval_ = 1.0 / 60.0;  // moving average of the time between two frames
  double last_frame_start_ = 0.0;
  double frame_budget_seconds_ = 0.0;
  StepRateMeter rate_;
};

// Once per frame (and after a training request of the JS API): the session follows the state's
// training request, and a new held-out sample reaches the state's training reading (goals).
void sync_training(Controller& controller, TrainingSession& session);

}  // namespace headlab::app
