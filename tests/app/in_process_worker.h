#pragma once
// The page's training worker in this process, for tests: the run and every update go through the
// message codec, as they do through postMessage, and it trains only when the test says so. A
// message the page sends can be held back, to play out what arrives while another is on its way.
#include <gtest/gtest.h>

#include <optional>

#include "app/training_session.h"
#include "app/worker_host.h"
#include "app/worker_messages.h"
#include "engine/training/parameters.h"
#include "fake_clock.h"
#include "test_resources.h"

namespace headlab::app {

// The worker of the page, in-process: the run and every update go through the codec, as they do
// through postMessage, and the worker trains only when the test says so (steps, not seconds, so
// runs are comparable step for step).
class InProcessWorker : public TrainingWorker {
 public:
  InProcessWorker() : host(test_resources(), clock) {}
  bool available() const override { return alive; }
  void prepare() override { ++prepares; }
  void start(const WorkerRun& run) override {
    Result<WorkerRun> decoded = decode_run_header(encode_run_header(run));
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    WorkerRun copy = std::move(decoded).value();
    copy.state = run.state;
    ++starts;
    if (copy.job == WorkerJob::run) {
      error = host.take_over(copy);
      return;
    }
    if (copy.job == WorkerJob::comparison) comparison_run = copy;
    if (copy.job == WorkerJob::experiment) experiment_run = copy;
    ASSERT_EQ(host.take_over(copy), "");
  }
  void stop(WorkerJob job) override {
    ++stops;
    host.stop_job(job);
  }
  void set_learning_rate(float learning_rate) override {
    if (hold_learning_rate) held_learning_rate = learning_rate;
    else host.set_learning_rate(learning_rate);
  }
  // The learning rate the page sent while it was held back arrives now.
  void deliver_learning_rate() {
    hold_learning_rate = false;
    if (held_learning_rate) host.set_learning_rate(*held_learning_rate);
    held_learning_rate.reset();
  }

  // Probes a head if it has probes to make, trains `rounds` rounds (a step of each job it has) and
  // returns the update the page would receive.
  WorkerUpdate train(int rounds) {
    WorkerUpdate update;
    if (error.empty()) {
      host.train_for(1e9, rounds);
      update = host.take_update();
    } else {
      update.generation = host.generation(WorkerJob::run);
      update.error = error;
    }
    const EncodedUpdate encoded = encode_update(update);
    Result<WorkerUpdate> decoded = decode_update(encoded.header, encoded.bytes.data(), encoded.bytes.size());
    EXPECT_TRUE(decoded.ok()) << decoded.error();
    return std::move(decoded).value();
  }

  FakeClock clock;  // before the host, which reads it
  WorkerHost host;
  bool hold_learning_rate = false;
  std::optional<float> held_learning_rate;
  bool alive = true;
  WorkerRun comparison_run, experiment_run;  // the last of each handed over
  std::string error;
  int prepares = 0, starts = 0, stops = 0;
};

inline std::vector<float> weights(const TrainingSession& session) {
  Model model = session.trainer()->model();
  std::vector<float> out;
  for (const training::ParameterView& view : training::parameters(model)) out.insert(out.end(), view.data, view.data + view.size);
  return out;
}

inline void expect_same_timeline(const TrainingSession& a, const TrainingSession& b) {
  ASSERT_EQ(a.timeline().size(), b.timeline().size());
  for (std::size_t i = 0; i < a.timeline().size(); ++i) {
    const TimelineSample &x = a.timeline()[i], &y = b.timeline()[i];
    EXPECT_EQ(x.step, y.step);
    EXPECT_EQ(x.train_loss, y.train_loss) << "sample at step " << x.step;
    EXPECT_EQ(x.held_out_loss, y.held_out_loss);
    ASSERT_EQ(x.heads.size(), y.heads.size());
    for (std::size_t k = 0; k < x.heads.size(); ++k) {
      EXPECT_EQ(x.heads[k].label, y.heads[k].label);
      EXPECT_EQ(x.heads[k].score, y.heads[k].score);
    }
    ASSERT_EQ(x.spreads.size(), y.spreads.size());
    for (std::size_t l = 0; l < x.spreads.size(); ++l) EXPECT_EQ(x.spreads[l].entropy, y.spreads[l].entropy);
    ASSERT_EQ(x.induction.size(), y.induction.size());
    for (std::size_t k = 0; k < x.induction.size(); ++k)
      EXPECT_EQ(x.induction[k].prefix_matching, y.induction[k].prefix_matching);
  }
}

// A page with a worker in this process, and a session alone, without one, to compare it with.
struct PageWithWorker {
  InProcessWorker worker;
  FakeClock clock;
  TrainingSession page{test_resources(), clock};
  TrainingSession alone{test_resources(), clock};
  PageWithWorker() { page.attach_worker(&worker); }
};

// A page whose run is in the worker: started, Play pressed, one frame to hand it over.
struct PageTrainingInWorker : PageWithWorker {
  PageTrainingInWorker() {
    EXPECT_EQ(page.ensure_started(), "");
    page.set_running(true);
    page.advance_frame();
    EXPECT_TRUE(page.training_in_worker());
  }
};

}  // namespace headlab::app
