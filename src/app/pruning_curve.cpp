#include "app/pruning_curve.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "app/held_out_labels.h"
#include "engine/forward.h"
#include "engine/next_token.h"
#include "engine/training/evaluation.h"

namespace headlab::app {
namespace {

// What one point of a curve costs: a forward pass (and a loss) of a copy of the model with some
// heads pruned.
class Measurer {
 public:
  Measurer(const AppState& state, const Resources& resources) : state_(state), resources_(resources) {
    const Model& model = state.document.model;
    const training::Grammar& grammar = resources.grammar;
    if (trained_on_grammar(model, grammar)) {
      // The Training tab's held-out sentences: the curve's first point is the loss it shows.
      measure_ = PruningMeasure::held_out_loss;
      held_out_ = training::held_out_sentences(grammar, kHeldOutSeed, kHeldOutCount, model.special_tokens);
    } else if (has_predictions(model) && !is_checkpoint_model(model) && readable_ids(state.input.tokens)) {
      measure_ = PruningMeasure::text_loss;
    } else {
      forward(model, state.input.X, trace_);
      reference_ = trace_.layers.back().output;
    }
  }

  PruningMeasure measure() const { return measure_; }

  // Every token has the vocabulary's id, and there is a next token to predict.
  static bool readable_ids(const Tokens& tokens) {
    if (tokens.size() < 2) return false;
    for (const Token& t : tokens)
      if (t.id < 0) return false;
    return true;
  }

  float operator()(const Model& model) {
    if (measure_ == PruningMeasure::held_out_loss) return held_out_model_loss(model, resources_.grammar, held_out_);
    forward(model, state_.input.X, trace_);
    if (measure_ == PruningMeasure::text_loss) return text_loss(model);
    const double norm = reference_.norm();
    return norm > 0.0 ? static_cast<float>((trace_.layers.back().output - reference_).norm() / norm) : 0.0f;
  }

 private:
  // The mean next-token loss, in nats, over the text's predictions (the trace's model: `model`).
  float text_loss(const Model& model) const {
    const Matrix logits = next_token_logits(model, trace_);
    const Tokens& tokens = state_.input.tokens;
    double sum = 0.0;
    for (Eigen::Index r = 0; r + 1 < logits.rows(); ++r)
      sum += row_log_sum_exp(logits, r) - logits(r, tokens[static_cast<std::size_t>(r) + 1].id);
    return static_cast<float>(sum / static_cast<double>(logits.rows() - 1));
  }

  const AppState& state_;
  const Resources& resources_;
  PruningMeasure measure_ = PruningMeasure::output_change;
  std::vector<training::Sentence> held_out_;
  Trace trace_;
  Matrix reference_;
};

// measure(model with order[0..k) pruned) for k = 0..order.size().
std::vector<float> curve_along(const Model& model, const std::vector<std::pair<int, int>>& order, Measurer& measure) {
  Model pruned = model;
  std::vector<float> values{measure(pruned)};
  for (const auto& [layer, head] : order) {
    pruned.layers[layer].heads[head].pruned = true;
    values.push_back(measure(pruned));
  }
  return values;
}

}  // namespace

const char* pruning_measure_name(PruningMeasure measure) {
  switch (measure) {
    case PruningMeasure::held_out_loss: return "held-out loss";
    case PruningMeasure::text_loss: return "text loss";
    case PruningMeasure::output_change: break;
  }
  return "output change";
}

PruningCurve pruning_curve(const AppState& state, const Resources& resources, int random_orders) {
  PruningCurve curve;
  const Model& model = state.document.model;
  Measurer measure(state, resources);
  curve.measure = measure.measure();
  // Least important first over the whole model; ties keep layer-major order. A trained model's
  // heads are ranked by its loss (held-out or on the text) with that head alone pruned (Michel et al.'s ablation,
  // sec. 3, on the measure the curve plots); the lab's importance is the change of the head's own
  // layer output on one sentence, which ranks the heads of different layers poorly against each
  // other (on the shipped model it prunes a head costing 0.45 third).
  std::vector<std::pair<float, std::pair<int, int>>> ranked;
  Model ablated = model;
  for (int l = 0; l < static_cast<int>(model.layers.size()) && l < static_cast<int>(state.analysis.layers.size()); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h) {
      if (model.layers[l].heads[h].pruned) continue;
      float importance = state.analysis.layers[l].heads[h].importance;
      if (curve.measure != PruningMeasure::output_change) {
        ablated.layers[l].heads[h].pruned = true;
        importance = measure(ablated);
        ablated.layers[l].heads[h].pruned = false;
      }
      ranked.push_back({importance, {l, h}});
    }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& entry : ranked) curve.importance_order.push_back(entry.second);
  curve.importance = curve_along(model, curve.importance_order, measure);

  std::mt19937 rng(1);  // the same random orders every time
  curve.random_orders = random_orders;
  const std::size_t points = curve.importance.size();
  curve.random_mean.assign(points, 0.0f);
  curve.random_min.assign(points, INFINITY);
  curve.random_max.assign(points, -INFINITY);
  for (int r = 0; r < random_orders; ++r) {
    std::vector<std::pair<int, int>> order = curve.importance_order;
    // Fisher-Yates on mt19937's raw numbers, which the standard fixes: std::shuffle's algorithm is
    // each library's own, and the page (libc++) and native builds (libstdc++) must agree.
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    const std::vector<float> values = curve_along(model, order, measure);
    for (std::size_t k = 0; k < points; ++k) {
      curve.random_mean[k] += values[k] / random_orders;
      curve.random_min[k] = std::min(curve.random_min[k], values[k]);
      curve.random_max[k] = std::max(curve.random_max[k], values[k]);
    }
  }
  if (random_orders == 0) curve.random_mean.clear(), curve.random_min.clear(), curve.random_max.clear();
  return curve;
}

}  // namespace headlab::app
