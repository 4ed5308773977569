#include "lessons/goal.h"

#include <algorithm>
#include <cmath>

#include "engine/analysis/redundancy.h"
#include "engine/training/text_evaluation.h"

namespace headlab::lessons {
namespace {

bool within(double v, const Goal& g) { return std::isfinite(v) && v >= g.min && v <= g.max; }

// Token index by text (first occurrence, case-sensitive, then by lexicon key) or by number.
int find_token(const Tokens& tokens, const TokenRef& ref) {
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].text == ref.text) return static_cast<int>(i);
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].key == ref.text) return static_cast<int>(i);
  if (ref.index >= 0 && ref.index < static_cast<int>(tokens.size())) return ref.index;
  return -1;
}

// Calls f(head) for the goal's head, or for every head when head == -1; true if any returns true.
template <class F>
bool some_head(const Goal& g, const GoalView& v, F f) {
  if (g.layer < 0 || g.layer >= static_cast<int>(v.model.layers.size())) return false;
  const int count = v.model.layers[g.layer].head_count();
  if (g.on_selected) {
    const bool named = v.selected_layer == g.layer && (g.head < 0 || g.head == v.selected_head);
    return named && v.selected_head >= 0 && v.selected_head < count && f(v.selected_head);
  }
  if (g.head >= 0) return g.head < count && f(g.head);
  for (int h = 0; h < count; ++h)
    if (f(h)) return true;
  return false;
}

float training_role_score(const TrainingHeadReading& head, TrainingRole role) {
  switch (role) {
    case TrainingRole::induction: return head.prefix_matching;
    case TrainingRole::previous_token: return head.previous_token;
    case TrainingRole::duplicate_token: return head.duplicate_token;
    case TrainingRole::first_token: return head.first_token;
    default: return NAN;  // not a head's score
  }
}

// "syntactic" without a relation is the family: any syntactic label matches it.
bool label_matches(const analysis::Label& wanted, const analysis::Label& actual) {
  return wanted == actual || (wanted.is(analysis::Role::syntactic) && !wanted.relation && actual.family() == wanted);
}

}  // namespace

namespace {

bool layer_ok(const Goal& g, const GoalView& v) {
  return g.layer >= 0 && g.layer < static_cast<int>(v.model.layers.size()) &&
         g.layer < static_cast<int>(v.analysis.layers.size()) && g.layer < static_cast<int>(v.trace.layers.size());
}

// Kinds whose head -1 means "some head of the layer"; the other numeric kinds read one value.
bool per_head(GoalKind kind) { return kind == GoalKind::score || kind == GoalKind::attention || kind == GoalKind::sink; }

bool numeric(GoalKind kind) {
  return kind != GoalKind::label && kind != GoalKind::probe && kind != GoalKind::training && kind != GoalKind::checkpoint_head &&
         kind != GoalKind::all && kind != GoalKind::any && kind != GoalKind::negation;
}

// The number a numeric goal holds against its range, for head `h` of per-head kinds; NaN when
// there is nothing to read.
double leaf_value(const Goal& g, const GoalView& v, int h) {
  if (g.kind == GoalKind::held_out) {
    if (!v.held_out) return NAN;
    if (g.measure == HeldOutMeasure::loss) return v.held_out->loss;
    if (g.layer < 0 || g.layer >= static_cast<int>(v.held_out->spreads.size())) return NAN;
    const analysis::AttentionSpread& spread = v.held_out->spreads[g.layer];
    if (spread.rows == 0) return NAN;
    return g.measure == HeldOutMeasure::distance ? spread.distance : spread.entropy;
  }
  if (g.kind == GoalKind::pruned && g.layer < 0) {
    int pruned = 0;
    for (const Layer& layer : v.model.layers)
      for (const HeadWeights& head : layer.heads) pruned += head.pruned ? 1 : 0;
    return pruned;
  }
  if (!layer_ok(g, v)) return NAN;
  const Layer& layer = v.model.layers[g.layer];
  const bool head_ok = h >= 0 && h < layer.head_count();
  switch (g.kind) {
    case GoalKind::head_count: return layer.head_count();
    case GoalKind::d_k: return layer.d_k;
    case GoalKind::pruned: {
      int pruned = 0;
      for (const HeadWeights& head : layer.heads) pruned += head.pruned ? 1 : 0;
      return pruned;
    }
    case GoalKind::score:
      if (!head_ok) return NAN;
      return v.analysis.layers[g.layer].heads[h].scores.score(g.role);
    case GoalKind::attention: {
      const int from = find_token(v.tokens, g.from), to = find_token(v.tokens, g.to);
      if (!head_ok || from < 0 || to < 0) return NAN;
      const Matrix& A = v.trace.layers[g.layer].heads[h].attention;
      return from < A.rows() && to < A.cols() ? A(from, to) : NAN;
    }
    case GoalKind::distance: {
      // One layer's redundancy costs little; the analysis of an edit leaves it out.
      const LayerTrace& lt = v.trace.layers[g.layer];
      const int heads = static_cast<int>(lt.heads.size());
      if (!v.label_config || g.head < 0 || g.head_b < 0 || g.head >= heads || g.head_b >= heads) return NAN;
      return analysis::layer_redundancy(lt, v.model.causal, *v.label_config).distance(g.head, g.head_b);
    }
    case GoalKind::sink: {
      if (!head_ok) return NAN;
      // A trained model (its own vocabulary, or a tokenizer's) of that normalisation, when the goal names one.
      if (g.trained_with && (v.model.attention != *g.trained_with || !has_learned_embedding(v.model))) return NAN;
      int index = h;
      for (int l = 0; l < g.layer; ++l) index += static_cast<int>(v.trace.layers[l].heads.size());
      const std::vector<training::TextHeadScores> sinks = training::sink_shares(v.trace, v.tokens);
      if (index >= static_cast<int>(sinks.size())) return NAN;
      return g.sink_measure == SinkMeasure::first_token ? sinks[index].first_token : sinks[index].punctuation;
    }
    case GoalKind::output_block:
      if (!head_ok) return NAN;
      return layer.W_O.middleRows(h * layer.d_v, layer.d_v).cwiseAbs().maxCoeff();
    case GoalKind::weight: {
      const Matrix* m = nullptr;
      switch (g.matrix) {
        case GoalMatrix::W_O: m = &layer.W_O; break;
        case GoalMatrix::W_Q: m = head_ok ? &layer.heads[h].W_Q : nullptr; break;
        case GoalMatrix::W_K: m = head_ok ? &layer.heads[h].W_K : nullptr; break;
        case GoalMatrix::W_V: m = head_ok ? &layer.heads[h].W_V : nullptr; break;
      }
      if (!m || g.row >= m->rows() || g.col >= m->cols()) return NAN;
      return (*m)(g.row, g.col);
    }
    default: return NAN;
  }
}

// How far `value` is from the goal's range (0 inside it, infinite for NaN).
double gap(double value, const Goal& g) {
  if (!std::isfinite(value)) return INFINITY;
  return std::max({g.min - value, value - g.max, 0.0});
}

void collect_numbers(const Goal& g, const GoalView& v, std::vector<GoalNumber>& out) {
  if (g.kind == GoalKind::all || g.kind == GoalKind::any) {
    for (const Goal& child : g.goals) collect_numbers(child, v, out);
    return;
  }
  if (!numeric(g.kind)) return;
  GoalNumber number{&g, g.head, leaf_value(g, v, g.head)};
  if (g.on_selected) {
    // A guess: only the selected head's number, never the head that would meet the goal.
    const bool named = v.selected_layer == g.layer && (g.head < 0 || g.head == v.selected_head);
    number = {&g, named ? v.selected_head : -1, named ? leaf_value(g, v, v.selected_head) : NAN};
  } else if (per_head(g.kind) && g.head < 0 && layer_ok(g, v)) {
    // The head closest to the range: the one the learner is most likely working on.
    for (int h = 0; h < v.model.layers[g.layer].head_count(); ++h) {
      const double value = leaf_value(g, v, h);
      if (number.head < 0 || gap(value, g) < gap(number.value, g)) number = {&g, h, value};
    }
  }
  number.holds = within(number.value, g);
  out.push_back(number);
}

}  // namespace

bool goal_met(const Goal& g, const GoalView& v) {
  switch (g.kind) {
    case GoalKind::all:
      for (const Goal& c : g.goals)
        if (!goal_met(c, v)) return false;
      return true;
    case GoalKind::any:
      for (const Goal& c : g.goals)
        if (goal_met(c, v)) return true;
      return false;
    case GoalKind::negation: return !g.goals.empty() && !goal_met(g.goals[0], v);
    case GoalKind::label:
      if (!layer_ok(g, v)) return false;
      return some_head(g, v, [&](int h) {
        const analysis::HeadAnalysis& a = v.analysis.layers[g.layer].heads[h];
        if (!label_matches(g.label, a.label)) return false;
        if (a.label.mixed()) return true;
        // A label goal without bounds asks only for the label; with a bound the score must meet it.
        return (!g.has_min() && !g.has_max()) || within(a.scores.score(*a.label.role), g);
      });
    case GoalKind::probe: {
      if (!layer_ok(g, v) || !v.lexicon || !v.corpus) return false;
      const analysis::ExampleProbe probe = run_probe_goal(g, v);
      return within(probe.accuracy, g) && probe.selectivity >= g.min_selectivity;
    }
    case GoalKind::training: return v.training && within(training_goal_score(g, *v.training), g);
    case GoalKind::checkpoint_head:
      return is_checkpoint_model(v.model) && layer_ok(g, v) && v.selected_layer == g.layer && v.selected_head == g.head;
    default:
      if (per_head(g.kind)) return layer_ok(g, v) && some_head(g, v, [&](int h) { return within(leaf_value(g, v, h), g); });
      return within(leaf_value(g, v, g.head), g);
  }
}

std::vector<GoalNumber> goal_numbers(const Goal& goal, const GoalView& view) {
  std::vector<GoalNumber> numbers;
  collect_numbers(goal, view, numbers);
  return numbers;
}

bool asks_for_a_guess(const Goal& goal) {
  if (goal.on_selected) return true;
  for (const Goal& child : goal.goals)
    if (asks_for_a_guess(child)) return true;
  return false;
}

bool waits_for_a_checkpoint(const Goal& goal, const Model& model) {
  return find_goal(goal, GoalKind::checkpoint_head) && !is_checkpoint_model(model);
}

const Goal* find_goal(const Goal& goal, GoalKind kind) {
  if (goal.kind == kind) return &goal;
  for (const Goal& child : goal.goals)
    if (const Goal* found = find_goal(child, kind)) return found;
  return nullptr;
}

double training_goal_score(const Goal& goal, const TrainingReading& reading) {
  double best = NAN;
  // The experiment's own task, whatever the run's.
  if (goal.training_role == TrainingRole::experiment_head_counts)
    return reading.experiment_task == goal.training_task ? reading.experiment_head_counts : best;
  if (reading.task != goal.training_task) return best;
  if (goal.training_attention && reading.attention != *goal.training_attention) return best;
  if (goal.training_role == TrainingRole::distinct_roles) return reading.distinct_roles;  // of the whole model
  if (goal.training_role == TrainingRole::steps) return reading.steps;
  for (const TrainingHeadReading& head : reading.heads)
    if (head.layer == goal.layer && (goal.head < 0 || head.head == goal.head)) {
      const double score = training_role_score(head, goal.training_role);
      if (!(score <= best)) best = score;
    }
  return best;
}

analysis::ExampleProbe run_probe_goal(const Goal& goal, const GoalView& view) {
  if (!view.lexicon || !view.corpus) return {};
  if (view.probed == &goal && view.probe_reading) return *view.probe_reading;
  return analysis::probe_head_on_examples(view.model, *view.lexicon, *view.corpus, goal.layer, goal.head, goal.probe_task);
}

}  // namespace headlab::lessons
