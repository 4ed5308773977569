#include "lessons/goal.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "engine/embedding.h"
#include "engine/json_reader.h"

namespace headlab::lessons {
namespace {

using nlohmann::json;

struct KindName {
  const char* name;
  GoalKind kind;
};
constexpr KindName kKinds[] = {{"label", GoalKind::label},       {"attention", GoalKind::attention},
                               {"score", GoalKind::score},       {"distance", GoalKind::distance},
                               {"head_count", GoalKind::head_count}, {"pruned", GoalKind::pruned},
                               {"weight", GoalKind::weight},     {"d_k", GoalKind::d_k},
                               {"output_block", GoalKind::output_block}, {"probe", GoalKind::probe},
                               {"training", GoalKind::training}, {"held_out", GoalKind::held_out},
                               {"all", GoalKind::all},           {"any", GoalKind::any},
                               {"not", GoalKind::negation}};

bool within(double v, const Goal& g) { return std::isfinite(v) && v >= g.min && v <= g.max; }

// Token index by text (first occurrence, case-sensitive, then case-insensitive) or by number.
int find_token(const Tokens& tokens, const std::string& name) {
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].text == name) return static_cast<int>(i);
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].key == name) return static_cast<int>(i);
  char* end = nullptr;
  const long index = std::strtol(name.c_str(), &end, 10);
  if (!name.empty() && *end == '\0' && index >= 0 && index < static_cast<long>(tokens.size())) return static_cast<int>(index);
  return -1;
}

// Calls f(head) for the goal's head, or for every head when head == -1; true if any returns true.
template <class F>
bool some_head(const Goal& g, const GoalView& v, F f) {
  if (g.layer < 0 || g.layer >= static_cast<int>(v.model.layers.size())) return false;
  const int count = v.model.layers[g.layer].head_count();
  if (g.head >= 0) return g.head < count && f(g.head);
  for (int h = 0; h < count; ++h)
    if (f(h)) return true;
  return false;
}

// The scores a training goal can name (TrainingHeadReading's fields, by role id).
constexpr const char* kTrainingRoles[] = {"induction", "previous_token", "duplicate_token", "distinct_roles",
                                          "experiment_head_counts"};

float training_role_score(const TrainingHeadReading& head, const std::string& role) {
  if (role == "induction") return head.prefix_matching;
  if (role == "previous_token") return head.previous_token;
  return head.duplicate_token;
}

bool label_matches(const std::string& wanted, const std::string& actual) {
  if (wanted == actual) return true;
  return wanted == "syntactic" && actual.rfind("syntactic:", 0) == 0;
}

}  // namespace

Result<Goal> parse_goal(const json& value, const std::string& path) {
  using R = Result<Goal>;
  if (!value.is_object() || !value.contains("kind") || !value["kind"].is_string())
    return R::failure(path + ": expected an object with a \"kind\"");
  Goal g;
  const std::string kind = value["kind"].get<std::string>();
  bool known = false;
  for (const KindName& k : kKinds)
    if (kind == k.name) {
      g.kind = k.kind;
      known = true;
    }
  if (!known) return R::failure(path + ".kind: unknown goal kind \"" + kind + "\"");
  // Optional fields: absent keeps the default, present must have the right type and range.
  JsonReader r;
  const auto integer = [&](const char* key, long long lo, long long hi, int& out) {
    const json* v = JsonReader::optional_field(value, key);
    return !v || r.integer(v, json_path(path, key), lo, hi, out);
  };
  // Token and row names may be given as text or as an index.
  const auto text = [&](const char* key, std::string& out) {
    const json* v = JsonReader::optional_field(value, key);
    if (!v) return true;
    if (v->is_number_integer()) {
      out = std::to_string(v->get<long long>());
      return true;
    }
    return r.string(v, json_path(path, key), out);
  };
  const auto number = [&](const char* key, double& out) {
    const json* v = JsonReader::optional_field(value, key);
    return !v || r.number(v, json_path(path, key), -1e6, 1e6, out);
  };
  const bool fields_ok =
      integer("layer", -1, kMaxLayers - 1, g.layer) && integer("head", -1, kMaxHeads - 1, g.head) &&
      integer("head_a", 0, kMaxHeads - 1, g.head) && integer("head_b", 0, kMaxHeads - 1, g.head_b) &&
      integer("col", 0, kMaxDModel - 1, g.col) && text("label", g.label) && text("role", g.role) && text("measure", g.measure) &&
      text("from", g.from) && text("to", g.to) && text("matrix", g.matrix) && text("row", g.row) &&
      number("min", g.min) && number("min_score", g.min) && number("max", g.max) &&
      number("min_selectivity", g.min_selectivity);
  if (!fields_ok) return R::failure(r.error());
  if (g.kind == GoalKind::all || g.kind == GoalKind::any) {
    if (!value.contains("goals") || !value["goals"].is_array() || value["goals"].empty())
      return R::failure(path + ".goals: expected a non-empty array");
    for (std::size_t i = 0; i < value["goals"].size(); ++i) {
      Result<Goal> child = parse_goal(value["goals"][i], path + ".goals[" + std::to_string(i) + "]");
      if (!child.ok()) return child;
      g.goals.push_back(std::move(child).value());
    }
  }
  if (g.kind == GoalKind::negation) {
    if (!value.contains("goal")) return R::failure(path + ".goal: missing");
    Result<Goal> child = parse_goal(value["goal"], path + ".goal");
    if (!child.ok()) return child;
    g.goals.push_back(std::move(child).value());
  }
  // Required fields per kind.
  if (g.kind == GoalKind::label && g.label.empty()) return R::failure(path + ".label: missing");
  if (g.kind == GoalKind::score) {
    analysis::Role role;
    if (!analysis::role_from_id(g.role, role)) return R::failure(path + ".role: unknown role \"" + g.role + "\"");
  }
  if (g.kind == GoalKind::attention && (g.from.empty() || g.to.empty())) return R::failure(path + ": needs \"from\" and \"to\"");
  if (g.kind == GoalKind::distance && (g.head < 0 || g.head_b < 0)) return R::failure(path + ": needs head_a and head_b");
  if (g.kind == GoalKind::weight && (g.matrix.empty() || g.row.empty())) return R::failure(path + ": needs matrix and row");
  if (g.kind == GoalKind::output_block && g.head < 0) return R::failure(path + ".head: needs a head");
  if (g.kind == GoalKind::probe) {
    if (g.head < 0) return R::failure(path + ".head: needs a head");
    std::string task;
    if (!text("task", task)) return R::failure(r.error());
    if (!analysis::parse_probe_task(task, g.task)) return R::failure(path + ".task: expected \"pos\" or \"previous_pos\"");
  }
  if (g.kind == GoalKind::training) {
    if (!text("task", g.training_task)) return R::failure(r.error());
    if (g.training_task != "grammar" && g.training_task != "induction")
      return R::failure(path + ".task: expected \"grammar\" or \"induction\"");
    bool known_role = false;
    for (const char* role : kTrainingRoles) known_role = known_role || g.role == role;
    if (!known_role)
      return R::failure(path + ".role: expected \"induction\", \"previous_token\", \"duplicate_token\", "
                                "\"distinct_roles\" or \"experiment_head_counts\"");
  }
  if (g.kind == GoalKind::held_out && g.measure != "loss" && g.measure != "distance" && g.measure != "entropy")
    return R::failure(path + ".measure: expected \"loss\", \"distance\" or \"entropy\"");
  const bool every_layer_allowed = g.kind == GoalKind::pruned || (g.kind == GoalKind::held_out && g.measure == "loss") ||
                                   g.kind == GoalKind::all || g.kind == GoalKind::any || g.kind == GoalKind::negation;
  if (g.layer < 0 && !every_layer_allowed) return R::failure(path + ".layer: -1 (every layer) is only for pruned goals");
  if (g.kind == GoalKind::label) {
    analysis::Role role;
    const bool ok = g.label == "syntactic" || g.label == analysis::kMixedLabel || g.label.rfind("syntactic:", 0) == 0 ||
                    analysis::role_from_id(g.label, role);
    if (!ok) return R::failure(path + ".label: unknown label \"" + g.label + "\"");
  }
  return g;
}

namespace {

bool layer_ok(const Goal& g, const GoalView& v) {
  return g.layer >= 0 && g.layer < static_cast<int>(v.model.layers.size()) &&
         g.layer < static_cast<int>(v.analysis.layers.size()) && g.layer < static_cast<int>(v.trace.layers.size());
}

// Kinds whose head -1 means "some head of the layer"; the other numeric kinds read one value.
bool per_head(GoalKind kind) { return kind == GoalKind::score || kind == GoalKind::attention; }

bool numeric(GoalKind kind) {
  return kind != GoalKind::label && kind != GoalKind::probe && kind != GoalKind::training && kind != GoalKind::all &&
         kind != GoalKind::any && kind != GoalKind::negation;
}

// The number a numeric goal holds against its range, for head `h` of per-head kinds; NaN when
// there is nothing to read.
double leaf_value(const Goal& g, const GoalView& v, int h) {
  if (g.kind == GoalKind::held_out) {
    if (!v.held_out) return NAN;
    if (g.measure == "loss") return v.held_out->loss;
    if (g.layer < 0 || g.layer >= static_cast<int>(v.held_out->spreads.size())) return NAN;
    const analysis::AttentionSpread& spread = v.held_out->spreads[g.layer];
    if (spread.rows == 0) return NAN;
    return g.measure == "distance" ? spread.distance : spread.entropy;
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
    case GoalKind::score: {
      analysis::Role role{};
      if (!head_ok || !analysis::role_from_id(g.role, role)) return NAN;  // lesson files are checked at load
      return v.analysis.layers[g.layer].heads[h].scores.score(role);
    }
    case GoalKind::attention: {
      const int from = find_token(v.tokens, g.from), to = find_token(v.tokens, g.to);
      if (!head_ok || from < 0 || to < 0) return NAN;
      const Matrix& A = v.trace.layers[g.layer].heads[h].attention;
      return from < A.rows() && to < A.cols() ? A(from, to) : NAN;
    }
    case GoalKind::distance: {
      const Matrix& d = v.analysis.layers[g.layer].redundancy;
      if (g.head >= d.rows() || g.head_b >= d.cols()) return NAN;
      return d(g.head, g.head_b);
    }
    case GoalKind::output_block:
      if (!head_ok) return NAN;
      return layer.W_O.middleRows(h * layer.d_v, layer.d_v).cwiseAbs().maxCoeff();
    case GoalKind::weight: {
      const Matrix* m = nullptr;
      if (g.matrix == "W_O") m = &layer.W_O;
      else if (head_ok)
        m = g.matrix == "W_Q" ? &layer.heads[h].W_Q : g.matrix == "W_K" ? &layer.heads[h].W_K : &layer.heads[h].W_V;
      if (!m) return NAN;
      int row = feature_index(g.row);
      if (row < 0) row = std::atoi(g.row.c_str());
      if (row < 0 || row >= m->rows() || g.col < 0 || g.col >= m->cols()) return NAN;
      return (*m)(row, g.col);
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
  if (per_head(g.kind) && g.head < 0 && layer_ok(g, v)) {
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
        if (!label_matches(g.label, a.label.text())) return false;
        if (a.label.mixed()) return g.label == analysis::kMixedLabel;
        analysis::Role role = *a.label.role;
        return within(a.scores.score(role), g) || g.min <= -1e299;
      });
    case GoalKind::probe: {
      if (!layer_ok(g, v) || !v.lexicon || !v.corpus) return false;
      const analysis::ExampleProbe probe = run_probe_goal(g, v);
      return within(probe.accuracy, g) && probe.selectivity >= g.min_selectivity;
    }
    case GoalKind::training: return v.training && within(training_goal_score(g, *v.training), g);
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

const Goal* find_goal(const Goal& goal, GoalKind kind) {
  if (goal.kind == kind) return &goal;
  for (const Goal& child : goal.goals)
    if (const Goal* found = find_goal(child, kind)) return found;
  return nullptr;
}

double training_goal_score(const Goal& goal, const TrainingReading& reading) {
  double best = NAN;
  if (goal.role == "experiment_head_counts") return reading.experiment_head_counts;  // whatever the run's task
  if (reading.task != goal.training_task) return best;
  if (goal.role == "distinct_roles") return reading.distinct_roles;  // of the whole model
  for (const TrainingHeadReading& head : reading.heads)
    if (head.layer == goal.layer && (goal.head < 0 || head.head == goal.head)) {
      const double score = training_role_score(head, goal.role);
      if (!(score <= best)) best = score;
    }
  return best;
}

analysis::ExampleProbe run_probe_goal(const Goal& goal, const GoalView& view) {
  if (!view.lexicon || !view.corpus) return {};
  if (view.probed == &goal && view.probe_reading) return *view.probe_reading;
  return analysis::probe_head_on_examples(view.model, *view.lexicon, *view.corpus, goal.layer, goal.head, goal.task);
}

}  // namespace headlab::lessons
