#include "app/action_codec.h"

#include <algorithm>
#include <utility>

#include "app/action_fields.h"

namespace headlab::app {
namespace {

using nlohmann::json;
using action_fields::FieldReader;
using action_fields::FieldWriter;

// [SECTION] The table: one row per op, in the order of the Action variant. `fields` lists what a
// request carries; plain fields are required, std::optional and with_default ones may be left out.

template <class A>
struct Op;

template <>
struct Op<SetText> {
  static constexpr const char* name = "setText";
  template <class V, class S> static void fields(V& v, S& a) { v("text", a.text); }
};
template <>
struct Op<SetTokenIds> {
  static constexpr const char* name = "setTokenIds";
  template <class V, class S> static void fields(V& v, S& a) { v("ids", a.ids); }
};
template <>
struct Op<SetHeadCount> {
  static constexpr const char* name = "setHeadCount";
  template <class V, class S> static void fields(V& v, S& a) { v("count", a.count); v("layer", a.layer); }
};
template <>
struct Op<SetLayerCount> {
  static constexpr const char* name = "setLayerCount";
  template <class V, class S> static void fields(V& v, S& a) { v("count", a.count); }
};
template <>
struct Op<SetWeight> {
  static constexpr const char* name = "setWeight";
  template <class V, class S> static void fields(V& v, S& a) {
    v("layer", a.layer); v("head", a.head); v("which", a.which); v("row", a.row); v("col", a.col); v("value", a.value);
  }
};
template <>
struct Op<SetLine> {
  static constexpr const char* name = "setLine";
  template <class V, class S> static void fields(V& v, S& a) {
    v("layer", a.layer); v.with_default("head", a.head); v("which", a.which); v.with_default("axis", a.axis);
    v("index", a.index); v("values", a.values);
  }
};
template <>
struct Op<ScaleLine> {
  static constexpr const char* name = "scaleLine";
  template <class V, class S> static void fields(V& v, S& a) {
    v("layer", a.layer); v.with_default("head", a.head); v("which", a.which); v.with_default("axis", a.axis);
    v("index", a.index); v("factor", a.factor);
  }
};
template <>
struct Op<ZeroOutputBlock> {
  static constexpr const char* name = "zeroOutputBlock";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); v("head", a.head); }
};
template <>
struct Op<ZeroOutputBlockAll> {
  static constexpr const char* name = "zeroOutputBlockAll";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); }
};
template <>
struct Op<SelectHead> {
  static constexpr const char* name = "selectHead";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); v("head", a.head); }
};
template <>
struct Op<SetPruned> {
  static constexpr const char* name = "setPruned";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); v("head", a.head); v("pruned", a.pruned); }
};
template <>
struct Op<PruneLeastImportant> {
  static constexpr const char* name = "pruneLeastImportant";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); v("k", a.k); }
};
template <>
struct Op<ApplyPreset> {
  static constexpr const char* name = "applyPreset";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); v("head", a.head); v("preset", a.preset); }
};
template <>
struct Op<ResetDocument> {
  static constexpr const char* name = "reset";
  template <class V, class S> static void fields(V&, S&) {}
};
template <>
struct Op<ResetModel> {
  static constexpr const char* name = "resetModel";
  template <class V, class S> static void fields(V&, S&) {}
};
template <>
struct Op<SetCausal> {
  static constexpr const char* name = "setCausal";
  template <class V, class S> static void fields(V& v, S& a) { v("on", a.on); }
};
template <>
struct Op<SetSpecialTokens> {
  static constexpr const char* name = "setSpecialTokens";
  template <class V, class S> static void fields(V& v, S& a) { v("on", a.on); }
};
template <>
struct Op<SetHeadDim> {
  static constexpr const char* name = "setHeadDim";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); v("d_k", a.d_k); v("d_v", a.d_v); }
};
template <>
struct Op<SetDModel> {
  static constexpr const char* name = "setDModel";
  template <class V, class S> static void fields(V& v, S& a) { v("d_model", a.d_model); }
};
template <>
struct Op<SetLayerOptions> {
  static constexpr const char* name = "setLayerOptions";
  template <class V, class S> static void fields(V& v, S& a) {
    v("layer", a.layer); v("residual", a.residual); v("norm", a.norm); v("ffn", a.ffn);
  }
};
template <>
struct Op<SetEmbedding> {
  static constexpr const char* name = "setEmbedding";
  template <class V, class S> static void fields(V& v, S& a) { v("embedding", a.embedding); }
};
template <>
struct Op<SetPositional> {
  static constexpr const char* name = "setPositional";
  template <class V, class S> static void fields(V& v, S& a) { v("positional", a.positional); }
};
template <>
struct Op<SetRepeatedSequence> {
  static constexpr const char* name = "setRepeatedSequence";
  template <class V, class S> static void fields(V& v, S& a) {
    v.with_default("length", a.length);
    v.with_default("seed", a.seed);
  }
};
template <>
struct Op<Randomize> {
  static constexpr const char* name = "randomize";
  template <class V, class S> static void fields(V& v, S& a) { v("seed", a.seed); }
};
template <>
struct Op<ResetHead> {
  static constexpr const char* name = "resetHead";
  template <class V, class S> static void fields(V& v, S& a) { v("layer", a.layer); v("head", a.head); v("seed", a.seed); }
};
template <>
struct Op<LoadModel> {
  static constexpr const char* name = "loadModel";
  template <class V, class S> static void fields(V& v, S& a) { v("json", a.json); }
};
template <>
struct Op<LoadTrainedModel> {
  static constexpr const char* name = "loadTrainedModel";
  template <class V, class S> static void fields(V&, S&) {}
};
template <>
struct Op<LoadTextModel> {
  static constexpr const char* name = "loadTextModel";
  template <class V, class S> static void fields(V& v, S& a) { v.with_default("attention", a.attention); }
};
template <>
struct Op<LoadStartingModel> {
  static constexpr const char* name = "loadStartingModel";
  template <class V, class S> static void fields(V&, S&) {}
};
template <>
struct Op<SetTheme> {
  static constexpr const char* name = "setTheme";
  template <class V, class S> static void fields(V& v, S& a) { v("theme", a.theme); }
};

template <>
struct Op<RequestTraining> {
  static constexpr const char* name = "requestTraining";
  template <class V, class S> static void fields(V& v, S& a) {
    v("task", a.task);
    v.with_default("seed", a.seed);
    v.with_default("run", a.run);
    v.with_default("fresh", a.fresh);
    v.with_default("attention", a.attention);
  }
};

template <>
struct Op<RequestHeadCountExperiment> {
  static constexpr const char* name = "requestHeadCountExperiment";
  template <class V, class S> static void fields(V& v, S& a) {
    v.with_default("run", a.run);
    v.with_default("fresh", a.fresh);
    v.with_default("task", a.task);
  }
};

// Training, history, lessons and language (applied by the Dispatcher). Ranges are checked where
// they are applied, which names the field: "steps: expected an integer in 1..5000 (got 0)".
#define HEADLAB_OP_NO_FIELDS(Type, op_name)                  \
  template <>                                                \
  struct Op<Type> {                                          \
    static constexpr const char* name = op_name;             \
    template <class V, class S> static void fields(V&, S&) {} \
  };
template <>
struct Op<PlayTraining> {
  static constexpr const char* name = "playTraining";
  template <class V, class S> static void fields(V& v, S& a) { v.with_default("run", a.run); }
};
template <>
struct Op<StepTraining> {
  static constexpr const char* name = "stepTraining";
  template <class V, class S> static void fields(V& v, S& a) { v.with_default("steps", a.steps); }
};
template <>
struct Op<NewTrainingRun> {
  static constexpr const char* name = "newTrainingRun";
  template <class V, class S> static void fields(V& v, S& a) { v("seed", a.seed); v("task", a.task); }
};
template <>
struct Op<SetLearningRate> {
  static constexpr const char* name = "setLearningRate";
  template <class V, class S> static void fields(V& v, S& a) { v("learning_rate", a.learning_rate); }
};
template <>
struct Op<SetTrainingSpeed> {
  static constexpr const char* name = "setTrainingSpeed";
  template <class V, class S> static void fields(V& v, S& a) { v("speed", a.speed); }
};
template <>
struct Op<StartProbes> {
  static constexpr const char* name = "startProbes";
  template <class V, class S> static void fields(V& v, S& a) { v.with_default("wait", a.wait); }
};
HEADLAB_OP_NO_FIELDS(StartComparison, "startComparison")
template <>
struct Op<SetComparisonRunning> {
  static constexpr const char* name = "setComparisonRunning";
  template <class V, class S> static void fields(V& v, S& a) { v("run", a.run); }
};
template <>
struct Op<StepComparison> {
  static constexpr const char* name = "stepComparison";
  template <class V, class S> static void fields(V& v, S& a) { v.with_default("steps", a.steps); }
};
template <>
struct Op<StartExperiment> {
  static constexpr const char* name = "startExperiment";
  template <class V, class S> static void fields(V& v, S& a) { v.with_default("task", a.task); }
};
template <>
struct Op<SetExperimentRunning> {
  static constexpr const char* name = "setExperimentRunning";
  template <class V, class S> static void fields(V& v, S& a) { v("run", a.run); }
};
template <>
struct Op<StepExperiment> {
  static constexpr const char* name = "stepExperiment";
  template <class V, class S> static void fields(V& v, S& a) { v.with_default("steps", a.steps); }
};
HEADLAB_OP_NO_FIELDS(UseTrainedModel, "useTrainedModel")
HEADLAB_OP_NO_FIELDS(PrepareTraining, "prepareTraining")
template <>
struct Op<SetTrainingInput> {
  static constexpr const char* name = "setTrainingInput";
  template <class V, class S> static void fields(V& v, S& a) { v("input", a.input); }
};
HEADLAB_OP_NO_FIELDS(Undo, "undo")
HEADLAB_OP_NO_FIELDS(Redo, "redo")
#undef HEADLAB_OP_NO_FIELDS
template <>
struct Op<GoToLesson> {
  static constexpr const char* name = "startLesson";
  template <class V, class S> static void fields(V& v, S& a) { v("lesson", a.lesson); v.with_default("step", a.step); }
};
template <>
struct Op<MoveInLesson> {
  static constexpr const char* name = "moveInLesson";
  template <class V, class S> static void fields(V& v, S& a) { v("move", a.move); }
};
template <>
struct Op<SetLanguage> {
  static constexpr const char* name = "setLanguage";
  template <class V, class S> static void fields(V& v, S& a) { v("language", a.language); }
};

// [SECTION] Dispatch by op name (decode) and by variant index (encode).

template <class A>
Result<Action> decode_as(const json& request, const std::string& path) {
  A action{};
  FieldReader reader(request, path);
  Op<A>::fields(reader, action);
  reader.refuse_unknown_fields();
  if (!reader.error().empty()) return Result<Action>::failure(reader.error());
  return Action(std::move(action));
}

using Decoder = Result<Action> (*)(const json&, const std::string&);

struct Row {
  std::string op;
  Decoder decode;
};

template <std::size_t... I>
std::vector<Row> make_table(std::index_sequence<I...>) {
  return {Row{Op<std::variant_alternative_t<I, Action>>::name, &decode_as<std::variant_alternative_t<I, Action>>}...};
}

const std::vector<Row>& table() {
  static const std::vector<Row> rows = make_table(std::make_index_sequence<std::variant_size_v<Action>>{});
  return rows;
}

}  // namespace

const std::vector<std::string>& action_op_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Row& row : table()) out.push_back(row.op);
    return out;
  }();
  return names;
}

bool is_action_op(const std::string& op) {
  const auto& names = action_op_names();
  return std::find(names.begin(), names.end(), op) != names.end();
}

Result<Action> decode_action(const json& request, const std::string& path) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string())
    return Result<Action>::failure(path + "op: expected {\"op\": ...}");
  const std::string op = request["op"].get<std::string>();
  for (const Row& row : table())
    if (row.op == op) return row.decode(request, path);
  return Result<Action>::failure(path + "op: unknown operation \"" + op + "\"");
}

json encode_action(const Action& action) {
  return std::visit(
      [](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        json out = {{"op", Op<A>::name}};
        FieldWriter writer(out);
        Op<A>::fields(writer, a);
        return out;
      },
      action);
}

}  // namespace headlab::app
