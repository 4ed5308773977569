// Goals as lesson files write them -> typed Goal values. Strict: each kind has a fixed set of
// fields, and every name (kind, matrix, row, role, task, measure) is resolved here, so a typo stops
// the lessons from loading with its JSON path instead of quietly reading something else.
#include <array>
#include <string_view>

#include "engine/embedding.h"
#include "engine/enum_names.h"
#include "engine/json_reader.h"
#include "engine/tokenizer.h"
#include "lessons/goal.h"

namespace headlab::lessons {
namespace {

using nlohmann::json;

// (name, value), as every enum's table is (engine/enum_names.h): the engine's own tables are read
// as they are.
template <class E>
using Named = EnumName<E>;

// A kind, its name and the fields it takes besides "kind" (unused slots null).
struct KindSpec {
  const char* name;
  GoalKind kind;
  std::array<const char*, 7> fields;
};
constexpr KindSpec kKinds[] = {
    {"label", GoalKind::label, {"layer", "head", "label", "min_score", "min", "max", "selected"}},
    {"attention", GoalKind::attention, {"layer", "head", "from", "to", "min", "max", "selected"}},
    {"score", GoalKind::score, {"layer", "head", "role", "min_score", "min", "max"}},
    {"distance", GoalKind::distance, {"layer", "head_a", "head_b", "min", "max"}},
    {"head_count", GoalKind::head_count, {"layer", "min", "max"}},
    {"pruned", GoalKind::pruned, {"layer", "min", "max"}},
    {"weight", GoalKind::weight, {"layer", "head", "matrix", "row", "col", "min", "max"}},
    {"d_k", GoalKind::d_k, {"layer", "min", "max"}},
    {"output_block", GoalKind::output_block, {"layer", "head", "min", "max"}},
    {"probe", GoalKind::probe, {"layer", "head", "task", "min", "max", "min_selectivity"}},
    {"training", GoalKind::training, {"task", "layer", "head", "role", "min", "max", "attention"}},
    {"held_out", GoalKind::held_out, {"measure", "layer", "min", "max"}},
    {"checkpoint_head", GoalKind::checkpoint_head, {"layer", "head"}},
    {"sink", GoalKind::sink, {"layer", "head", "measure", "trained_with", "min", "max", "selected"}},
    {"all", GoalKind::all, {"goals"}},
    {"any", GoalKind::any, {"goals"}},
    {"not", GoalKind::negation, {"goal"}},
};

constexpr Named<GoalMatrix> kMatrices[] = {
    {"W_Q", GoalMatrix::W_Q}, {"W_K", GoalMatrix::W_K}, {"W_V", GoalMatrix::W_V}, {"W_O", GoalMatrix::W_O}};
constexpr Named<HeldOutMeasure> kMeasures[] = {
    {"loss", HeldOutMeasure::loss}, {"distance", HeldOutMeasure::distance}, {"entropy", HeldOutMeasure::entropy}};
constexpr Named<SinkMeasure> kSinkMeasures[] = {{"first_token", SinkMeasure::first_token},
                                                {"punctuation", SinkMeasure::punctuation}};
constexpr Named<TrainingRole> kTrainingRoles[] = {{"induction", TrainingRole::induction},
                                                  {"previous_token", TrainingRole::previous_token},
                                                  {"duplicate_token", TrainingRole::duplicate_token},
                                                  {"first_token", TrainingRole::first_token},
                                                  {"distinct_roles", TrainingRole::distinct_roles},
                                                  {"steps", TrainingRole::steps},
                                                  {"experiment_head_counts", TrainingRole::experiment_head_counts}};
constexpr Named<analysis::ProbeTask> kProbeTasks[] = {{"pos", analysis::ProbeTask::pos},
                                                      {"previous_pos", analysis::ProbeTask::previous_pos}};

template <class E, std::size_t N>
const char* name_in(const Named<E> (&table)[N], E value) {
  for (const Named<E>& entry : table)
    if (entry.second == value) return entry.first;
  return "?";
}

// "a, b or c", each name as `quote` wraps it.
template <class Names>
std::string listed(const Names& names, const char* quote = "") {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += std::string(quote) + names[i] + quote;
  }
  return out;
}

// Reads the fields of one goal object, keeping the first error with the field's path.
class FieldReader {
 public:
  FieldReader(const json& object, const std::string& path) : object_(object), path_(path) {}

  const std::string& error() const { return reader_.error(); }
  bool fail(std::string_view key, const std::string& message) { return reader_.fail(at(key), message); }
  std::string at(std::string_view key) const { return json_path(path_, key); }
  const json* find(std::string_view key) const { return JsonReader::optional_field(object_, key); }

  bool integer(const char* key, long long lo, long long hi, int& out) {
    const json* v = find(key);
    return !v || reader_.integer(v, at(key), lo, hi, out);
  }
  bool number(const char* key, double& out) {
    const json* v = find(key);
    return !v || reader_.number(v, at(key), -1e6, 1e6, out);
  }
  bool string(const char* key, std::string& out) {
    const json* v = find(key);
    return !v || reader_.string(v, at(key), out, true);
  }
  bool required(const char* key) {
    if (find(key)) return true;
    return fail(key, "missing");
  }

  // A required name from `table`: "unknown <noun> "X" (expected A, B or C)".
  template <class E, std::size_t N>
  bool named(const char* key, const char* noun, const Named<E> (&table)[N], E& out, const char* quote = "") {
    std::string name;
    if (!required(key) || !string(key, name)) return false;
    for (const Named<E>& entry : table)
      if (name == entry.first) {
        out = entry.second;
        return true;
      }
    std::vector<std::string> names;
    for (const Named<E>& entry : table) names.emplace_back(entry.first);
    return fail(key, std::string("unknown ") + noun + " " + json(name).dump() + " (expected " + listed(names, quote) + ")");
  }

  // A required token: its text, or its index as a number.
  bool token(const char* key, TokenRef& out) {
    if (!required(key)) return false;
    const json& v = *find(key);
    if (v.is_number_integer()) {
      if (!reader_.integer(&v, at(key), 0, kMaxTokens - 1, out.index)) return false;
      out.text = std::to_string(out.index);
      return true;
    }
    if (!string(key, out.text)) return false;
    if (out.text.find_first_not_of("0123456789") == std::string::npos && out.text.size() <= 3)
      out.index = std::stoi(out.text);
    return true;
  }

 private:
  const json& object_;
  std::string path_;
  JsonReader reader_;
};

const KindSpec* kind_spec(GoalKind kind) {
  for (const KindSpec& spec : kKinds)
    if (spec.kind == kind) return &spec;
  return nullptr;
}

bool allowed(const KindSpec& spec, const std::string& field) {
  if (field == "kind") return true;
  for (const char* name : spec.fields)
    if (name && field == name) return true;
  return false;
}

}  // namespace

const char* goal_kind_name(GoalKind kind) {
  const KindSpec* spec = kind_spec(kind);
  return spec ? spec->name : "?";
}
const char* matrix_name(GoalMatrix matrix) { return name_in(kMatrices, matrix); }
const char* held_out_measure_name(HeldOutMeasure measure) { return name_in(kMeasures, measure); }
const char* training_role_name(TrainingRole role) { return name_in(kTrainingRoles, role); }

Result<Goal> parse_goal(const json& value, const std::string& path) {
  using R = Result<Goal>;
  if (!value.is_object() || !value.contains("kind") || !value["kind"].is_string())
    return R::failure(path + ": expected an object with a \"kind\"");
  const std::string kind = value["kind"].get<std::string>();
  const KindSpec* spec = nullptr;
  for (const KindSpec& k : kKinds)
    if (kind == k.name) spec = &k;
  if (!spec) {
    std::vector<std::string> names;
    for (const KindSpec& k : kKinds) names.emplace_back(k.name);
    return R::failure(path + ".kind: unknown goal kind " + json(kind).dump() + " (expected " + listed(names) + ")");
  }
  Goal g;
  g.kind = spec->kind;
  FieldReader f(value, path);
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string& field = it.key();
    if (allowed(*spec, field)) continue;
    std::vector<std::string> fields;
    for (const char* name : spec->fields)
      if (name) fields.emplace_back(name);
    return R::failure(json_path(path, field) + ": unknown field " + json(field).dump() + " (a " + spec->name +
                      " goal takes " + listed(fields) + ")");
  }
  if (!f.integer("layer", -1, kMaxLayers - 1, g.layer) || !f.integer("head", -1, kMaxHeads - 1, g.head) ||
      !f.integer("head_a", 0, kMaxHeads - 1, g.head) || !f.integer("head_b", 0, kMaxHeads - 1, g.head_b) ||
      !f.integer("col", 0, kMaxDModel - 1, g.col) || !f.number("min", g.min) || !f.number("min_score", g.min) ||
      !f.number("max", g.max) || !f.number("min_selectivity", g.min_selectivity))
    return R::failure(f.error());
  if (f.find("min") && f.find("min_score")) return R::failure(f.at("min_score") + ": give min or min_score, not both");
  if (const json* selected = f.find("selected")) {
    if (!selected->is_boolean()) return R::failure(f.at("selected") + ": expected true or false");
    g.on_selected = selected->get<bool>();
  }

  bool ok = true;
  switch (g.kind) {
    case GoalKind::all:
    case GoalKind::any: {
      const json* goals = f.find("goals");
      if (!goals || !goals->is_array() || goals->empty()) return R::failure(f.at("goals") + ": expected a non-empty array");
      for (std::size_t i = 0; i < goals->size(); ++i) {
        Result<Goal> child = parse_goal((*goals)[i], json_path(f.at("goals"), i));
        if (!child.ok()) return child;
        g.goals.push_back(std::move(child).value());
      }
      break;
    }
    case GoalKind::negation: {
      if (!f.required("goal")) return R::failure(f.error());
      Result<Goal> child = parse_goal(*f.find("goal"), f.at("goal"));
      if (!child.ok()) return child;
      g.goals.push_back(std::move(child).value());
      break;
    }
    case GoalKind::label: {
      std::string text;
      ok = f.required("label") && f.string("label", text);
      if (!ok) break;
      if (const std::optional<analysis::Label> label = analysis::parse_label(text)) g.label = *label;
      else ok = f.fail("label", "unknown label " + json(text).dump());
      break;
    }
    case GoalKind::score: {
      std::string role;
      ok = f.required("role") && f.string("role", role);
      if (ok && !analysis::role_from_id(role, g.role)) ok = f.fail("role", "unknown role " + json(role).dump());
      break;
    }
    case GoalKind::attention: ok = f.token("from", g.from) && f.token("to", g.to); break;
    case GoalKind::distance:
      if (!f.find("head_a") || !f.find("head_b")) return R::failure(path + ": needs head_a and head_b");
      break;
    case GoalKind::weight: {
      ok = f.named("matrix", "matrix", kMatrices, g.matrix) && f.required("row");
      if (!ok) break;
      const json& row = *f.find("row");
      if (row.is_number_integer()) {
        ok = f.integer("row", 0, kMaxDModel - 1, g.row);
        g.row_name = std::to_string(g.row);
      } else if (f.string("row", g.row_name)) {
        g.row = feature_index(g.row_name);
        if (g.row < 0)
          ok = f.fail("row", "unknown row " + json(g.row_name).dump() + " (expected a feature name such as \"noun\", or a row index)");
      } else {
        ok = false;
      }
      break;
    }
    case GoalKind::output_block:
    case GoalKind::checkpoint_head:
      if (g.head < 0) return R::failure(f.at("head") + ": needs a head");
      break;
    case GoalKind::probe:
      if (g.head < 0) return R::failure(f.at("head") + ": needs a head");
      ok = f.named("task", "probe task", kProbeTasks, g.probe_task, "\"");
      break;
    case GoalKind::training:
      ok = f.named("task", "task", training::kTaskNames, g.training_task, "\"") &&
           f.named("role", "training role", kTrainingRoles, g.training_role, "\"");
      if (ok && f.find("attention")) {
        AttentionNormalization kind = AttentionNormalization::softmax;
        ok = f.named("attention", "attention normalisation", kAttentionNormalizationNames, kind, "\"");
        g.training_attention = kind;
      }
      break;
    case GoalKind::held_out: ok = f.named("measure", "measure", kMeasures, g.measure, "\""); break;
    case GoalKind::sink:
      ok = f.named("measure", "sink measure", kSinkMeasures, g.sink_measure, "\"");
      if (ok && f.find("trained_with")) {
        AttentionNormalization kind = AttentionNormalization::softmax;
        ok = f.named("trained_with", "attention normalisation", kAttentionNormalizationNames, kind, "\"");
        g.trained_with = kind;
      }
      break;
    case GoalKind::head_count:
    case GoalKind::pruned:
    case GoalKind::d_k: break;
  }
  if (!ok) return R::failure(f.error());
  const bool every_layer_allowed = g.kind == GoalKind::pruned || (g.kind == GoalKind::held_out && g.measure == HeldOutMeasure::loss) ||
                                   g.kind == GoalKind::all || g.kind == GoalKind::any || g.kind == GoalKind::negation;
  if (g.layer < 0 && !every_layer_allowed) return R::failure(f.at("layer") + ": -1 (every layer) is only for pruned goals");
  return g;
}

}  // namespace headlab::lessons
