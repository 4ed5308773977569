#pragma once
// The probes of every head of the run's model (training/probe.h) as a job: the forward passes
// first, then one head at a time (four logistic regressions, longer than a frame's training). The
// page makes them a head per frame, or hands the worker the run's model to make them there.
#include <optional>
#include <string>
#include <vector>

#include "app/run_job.h"
#include "app/training_job.h"
#include "engine/training/probe.h"

namespace headlab::app {

struct ProbeProgress {
  int step = -1;                           // trainer step the probes describe; -1: never run
  int total = 0;                           // heads to probe
  std::vector<training::HeadProbe> heads;  // done so far, layer-major
  bool running() const { return step >= 0 && static_cast<int>(heads.size()) < total; }
};

class ProbesJob final : public TrainingJob {
 public:
  // `grammar` must outlive the job; `run` too: a hand-over sends the model it has.
  ProbesJob(const training::Grammar& grammar, const RunJob& run) : grammar_(&grammar), run_(&run) {}

  // The probes of `model` at `step` start over, none made; `prepare_here` makes their forward
  // passes now (else the worker makes them).
  void begin(const Model& model, int step, bool prepare_here);
  void clear();
  void probe_next_head();
  const ProbeProgress& progress() const { return progress_; }

  WorkerJob kind() const override { return WorkerJob::probes; }
  bool under_way() const override { return progress_.running(); }
  WorkerRun hand_over() const override;
  std::string adopt_update(const WorkerUpdate& update) override;
  std::string take_over(const WorkerRun& run) override;
  void stop() override;
  bool busy() const override { return in_worker_ && progress_.running(); }
  bool steps_once_per_chunk() const override { return true; }
  void step_in_worker() override;
  bool update_due() const override { return progress_.heads.size() > heads_sent_; }
  bool make_update(WorkerUpdate& update) override;

 private:
  const training::Grammar* grammar_;
  const RunJob* run_;
  std::optional<training::ProbeData> data_;  // the forward passes, until every head is probed
  training::ProbeConfig config_;
  ProbeProgress progress_;
  std::vector<int> head_counts_;  // per layer, of the model the probes describe
  // The worker's side: it has probes to make; heads already sent in an update.
  bool in_worker_ = false;
  std::size_t heads_sent_ = 0;
};

}  // namespace headlab::app
