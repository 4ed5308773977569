#include "app/pruning_curve.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "app/held_out_labels.h"
#include "engine/forward.h"
#include "engine/next_token.h"
#include "engine/training/evaluation.h"

namespace headlab::app {

// What one point of a curve costs: a forward pass (and a loss) of the job's copy of the model with
// some heads pruned. It keeps its own copy of the input: the lab's may change while the job runs.
class PruningCurveJob::Measurer {
 public:
  Measurer(const AppState& state, const Resources& resources) : resources_(resources), X_(state.input.X), tokens_(state.input.tokens) {
    const Model& model = state.document.model;
    const training::Grammar& grammar = resources.grammar;
    if (trained_on_grammar(model, grammar)) {
      // The Training tab's held-out sentences: the curve's first point is the loss it shows.
      measure_ = PruningMeasure::held_out_loss;
      held_out_ = training::held_out_sentences(grammar, kHeldOutSeed, kHeldOutCount, model.special_tokens);
    } else if (has_predictions(model) && readable_ids(tokens_)) {
      measure_ = PruningMeasure::text_loss;
    } else {
      forward(model, X_, trace_);
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
    forward(model, X_, trace_);
    if (measure_ == PruningMeasure::text_loss) return text_loss(model);
    const double norm = reference_.norm();
    return norm > 0.0 ? static_cast<float>((trace_.layers.back().output - reference_).norm() / norm) : 0.0f;
  }

 private:
  // The mean next-token loss, in nats, over the text's predictions (the trace's model: `model`).
  float text_loss(const Model& model) const {
    const Matrix logits = next_token_logits(model, trace_);
    double sum = 0.0;
    for (Eigen::Index r = 0; r + 1 < logits.rows(); ++r)
      sum += row_log_sum_exp(logits, r) - logits(r, tokens_[static_cast<std::size_t>(r) + 1].id);
    return static_cast<float>(sum / static_cast<double>(logits.rows() - 1));
  }

  const Resources& resources_;
  Matrix X_;
  Tokens tokens_;
  PruningMeasure measure_ = PruningMeasure::output_change;
  std::vector<training::Sentence> held_out_;
  Trace trace_;
  Matrix reference_;
};

namespace {

// Every count up to kEveryCountUpTo heads; beyond, twelve steps and the ends.
std::vector<int> counts_to_measure(int heads) {
  std::vector<int> counts;
  if (heads <= kEveryCountUpTo) {
    for (int k = 0; k <= heads; ++k) counts.push_back(k);
    return counts;
  }
  constexpr int kSteps = 12;
  for (int i = 0; i <= kSteps; ++i) {
    const int k = static_cast<int>(std::lround(static_cast<double>(i) * heads / kSteps));
    if (counts.empty() || counts.back() != k) counts.push_back(k);
  }
  return counts;
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

PruningCurveJob::PruningCurveJob(const AppState& state, const Resources& resources, int random_orders)
    : measure_(std::make_unique<Measurer>(state, resources)), pruned_(state.document.model) {
  curve_.measure = measure_->measure();
  const Model& model = pruned_;
  // Least important first over the whole model; ties keep layer-major order. A small trained
  // model's heads are ranked by its loss (held-out or on the text) with that head alone pruned
  // (Michel et al.'s ablation, sec. 3, on the measure the curve plots); the lab's importance is the
  // change of the head's own layer output on one sentence, which ranks the heads of different
  // layers poorly against each other (on the shipped model it prunes a head costing 0.45 third).
  for (int l = 0; l < static_cast<int>(model.layers.size()) && l < static_cast<int>(state.analysis.layers.size()); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h)
      if (!model.layers[l].heads[h].pruned) ranked_.push_back({state.analysis.layers[l].heads[h].importance, {l, h}});
  const int heads = static_cast<int>(ranked_.size());
  const bool rank_by_measure = curve_.measure != PruningMeasure::output_change && heads <= kEveryCountUpTo;
  ranking_next_ = rank_by_measure ? 0 : ranked_.size();
  curve_.pruned_counts = counts_to_measure(heads);
  curve_.random_orders = heads > kEveryCountUpTo ? std::min(random_orders, 2) : random_orders;
  total_ = static_cast<int>(ranked_.size() - ranking_next_) +
           static_cast<int>(curve_.pruned_counts.size()) * (1 + curve_.random_orders);
  if (ranking_next_ == ranked_.size()) begin_order(0);
}

PruningCurveJob::~PruningCurveJob() = default;

bool PruningCurveJob::done() const { return order_index_ > curve_.random_orders; }

void PruningCurveJob::begin_order(int index) {
  for (const auto& [layer, head] : order_) pruned_.layers[layer].heads[head].pruned = false;
  order_index_ = index;
  point_ = 0;
  values_.clear();
  if (index == 0) {
    std::stable_sort(ranked_.begin(), ranked_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& entry : ranked_) curve_.importance_order.push_back(entry.second);
    order_ = curve_.importance_order;
  } else {
    order_ = curve_.importance_order;
    // Fisher-Yates on mt19937's raw numbers, which the standard fixes: std::shuffle's algorithm is
    // each library's own, and the page (libc++) and native builds (libstdc++) must agree.
    for (std::size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[rng_() % i]);
  }
}

void PruningCurveJob::finish_order() {
  if (order_index_ == 0) {
    curve_.importance = values_;
  } else {
    const std::size_t points = values_.size();
    if (order_index_ == 1) {
      curve_.random_mean.assign(points, 0.0f);
      curve_.random_min.assign(points, INFINITY);
      curve_.random_max.assign(points, -INFINITY);
    }
    for (std::size_t k = 0; k < points; ++k) {
      curve_.random_mean[k] += values_[k] / static_cast<float>(curve_.random_orders);
      curve_.random_min[k] = std::min(curve_.random_min[k], values_[k]);
      curve_.random_max[k] = std::max(curve_.random_max[k], values_[k]);
    }
  }
  begin_order(order_index_ + 1);
}

bool PruningCurveJob::advance() {
  if (done()) return true;
  Measurer& measure = *measure_;
  if (ranking_next_ < ranked_.size()) {
    auto& [importance, head] = ranked_[ranking_next_++];
    pruned_.layers[head.first].heads[head.second].pruned = true;
    importance = measure(pruned_);
    pruned_.layers[head.first].heads[head.second].pruned = false;
    ++measured_;
    if (ranking_next_ == ranked_.size()) begin_order(0);
    return done();
  }
  // Prune up to the next count of the order, then measure.
  const int from = point_ == 0 ? 0 : curve_.pruned_counts[point_ - 1];
  const int to = curve_.pruned_counts[point_];
  for (int k = from; k < to; ++k) pruned_.layers[order_[k].first].heads[order_[k].second].pruned = true;
  values_.push_back(measure(pruned_));
  ++measured_;
  if (++point_ == curve_.pruned_counts.size()) finish_order();
  if (done()) {
    pruned_ = Model{};  // a checkpoint's copy is half a gigabyte: gone as soon as the curve is
    measure_.reset();
  }
  return done();
}

PruningCurve pruning_curve(const AppState& state, const Resources& resources, int random_orders) {
  PruningCurveJob job(state, resources, random_orders);
  while (!job.advance()) {
  }
  return job.curve();
}

}  // namespace headlab::app
