#pragma once
// Which heads matter (Michel et al. 2019, "Are Sixteen Heads Really Better than One?", sec. 4):
// prune the model's heads one at a time and measure after each step, once in order of importance
// (least important first, the scores of the intact model, as they do) and in random orders; if
// importance ranks heads well, its curve stays low longer than the random ones.
//
// What is measured depends on the model:
//   a model trained on the grammar (its vocabulary is the grammar's): the masked-word loss on 60
//     held-out sentences of the grammar (the Training tab's, same seed), the paper's measure;
//   a model with predictions (the real-text model, a GPT-2 checkpoint): its next-token loss on the
//     learner's text;
//   any other model (hand-built, random, symbols): how much the last layer's output on the current
//     input changes, ||Y - Y_pruned||_F / ||Y||_F, 0 before anything is pruned.
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "app/app_state.h"
#include "app/resources.h"

namespace headlab::app {

// held_out_loss: a model trained on the grammar, on the Training tab's held-out sentences;
// text_loss: a model with predictions (the real-text model, a GPT-2 checkpoint), its next-token
// loss on the learner's own text; output_change: any other model.
enum class PruningMeasure { held_out_loss, text_loss, output_change };

struct PruningCurve {
  PruningMeasure measure = PruningMeasure::output_change;
  // The unpruned heads in importance order, least important first: for a small trained model the
  // loss with the head alone pruned, for others (and checkpoints, where that would be a forward
  // per head) the lab's importance (analysis/importance.h) of the model as it is.
  std::vector<std::pair<int, int>> importance_order;
  // The measure with the first pruned_counts[i] heads of an order pruned: every count from 0 to
  // all of them for up to kEveryCountUpTo heads, a dozen evenly spaced counts for more (GPT-2
  // small's 144 heads: 0, 12, 24, ... 144).
  std::vector<int> pruned_counts;
  std::vector<float> importance;
  // The same over `random_orders` random orders (seeded, so the curve is the same every time):
  // the mean and the range at each point.
  std::vector<float> random_mean, random_min, random_max;
  int random_orders = 0;
};

inline constexpr int kEveryCountUpTo = 32;

// Computes a curve a measurement at a time, so that the page can draw between them: a GPT-2
// checkpoint's point is a whole forward and a 50,257-way unembedding (a quarter of a second in
// WebAssembly), and its curve three dozen of them. The job measures its own copy of the model as it
// was when it began; the learner's later edits do not reach it.
class PruningCurveJob {
 public:
  // Models of more than kEveryCountUpTo heads get at most 2 random orders.
  PruningCurveJob(const AppState& state, const Resources& resources, int random_orders = 5);
  ~PruningCurveJob();
  PruningCurveJob(const PruningCurveJob&) = delete;
  PruningCurveJob& operator=(const PruningCurveJob&) = delete;

  // One more measurement; true once the curve is complete.
  bool advance();
  bool done() const;
  // Measurements made and to make in all.
  int measured() const { return measured_; }
  int total() const { return total_; }
  // The curve; complete once done().
  const PruningCurve& curve() const { return curve_; }

 private:
  class Measurer;
  void begin_order(int index);
  void finish_order();

  std::unique_ptr<Measurer> measure_;
  PruningCurve curve_;
  Model pruned_;  // the job's copy, pruned along the order being measured
  std::vector<std::pair<int, int>> order_;  // that order
  int order_index_ = -1;  // 0: importance, 1..random_orders: random
  std::size_t point_ = 0;  // the next of pruned_counts to measure in it
  std::vector<std::pair<float, std::pair<int, int>>> ranked_;  // heads whose solo ablation is measured
  std::size_t ranking_next_ = 0;
  std::mt19937 rng_{1};  // the same random orders every time
  std::vector<float> values_;  // the order being measured, at each point so far
  int measured_ = 0;
  int total_ = 0;
};

// The whole curve at once (the JS API and the tests).
PruningCurve pruning_curve(const AppState& state, const Resources& resources, int random_orders = 5);
// "held-out loss" | "output change", the names the JS API and the UI use.
const char* pruning_measure_name(PruningMeasure measure);

}  // namespace headlab::app
