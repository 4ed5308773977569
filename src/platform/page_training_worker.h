#pragma once
// The page's side of the training worker (app/training_worker.h): runs go to web/training-worker.js
// through web/training-worker-link.js, updates come back through headlab_training_update.
#include "app/training_session.h"
#include "app/training_worker.h"

namespace headlab::platform {

class PageTrainingWorker : public app::TrainingWorker {
 public:
  // Replies are handed to `session`, which must outlive this worker.
  explicit PageTrainingWorker(app::TrainingSession& session);
  ~PageTrainingWorker() override;
  bool available() const override { return available_; }
  void prepare() override;
  void start(const app::WorkerRun& run) override;
  void stop(app::WorkerJob job) override;
  void set_learning_rate(float learning_rate) override;

  void receive(const char* header, const unsigned char* bytes, int size);
  void failed() { available_ = false; }

 private:
  app::TrainingSession& session_;
  bool available_ = true;
};

}  // namespace headlab::platform
