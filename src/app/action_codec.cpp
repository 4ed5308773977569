#include "app/action_codec.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace headlab::app {
namespace {

using nlohmann::json;

// [SECTION] Field values: how each field type is read (strictly) and written.

// Integers in requests are indices and sizes: anything past this is a mistake, not a big model.
constexpr long long kMaxRequestInteger = 1000000;

template <class E>
struct EnumName {
  const char* name;
  E value;
};
constexpr EnumName<WeightMatrix> kWeightMatrices[] = {
    {"W_Q", WeightMatrix::W_Q}, {"W_K", WeightMatrix::W_K}, {"W_V", WeightMatrix::W_V}, {"W_O", WeightMatrix::W_O}};
constexpr EnumName<Axis> kAxes[] = {{"row", Axis::row}, {"column", Axis::column}};
constexpr EnumName<Norm> kNorms[] = {{"none", Norm::none}, {"pre", Norm::pre}, {"post", Norm::post}};
constexpr EnumName<Embedding> kEmbeddings[] = {{"named", Embedding::named_features}, {"random", Embedding::random}};
constexpr EnumName<Positional> kPositionals[] = {
    {"sinusoidal", Positional::sinusoidal}, {"learned", Positional::learned}, {"none", Positional::none}};
constexpr EnumName<Theme> kThemes[] = {{"dark", Theme::dark}, {"light", Theme::light}};

const auto& enum_names(WeightMatrix) { return kWeightMatrices; }
const auto& enum_names(Axis) { return kAxes; }
const auto& enum_names(Norm) { return kNorms; }
const auto& enum_names(Embedding) { return kEmbeddings; }
const auto& enum_names(Positional) { return kPositionals; }
const auto& enum_names(Theme) { return kThemes; }

// "\"a\", \"b\" or \"c\""
template <class Table>
std::string choices(const Table& table) {
  std::string out;
  const std::size_t n = std::size(table);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n ? " or " : ", ";
    out += std::string("\"") + table[i].name + "\"";
  }
  return out;
}

// Reads the fields one op declares from a request; the first problem is kept as `error`, named
// "<path><field>: ...". A field the op does not declare is an error too (a typo in a lesson file
// must not be silently ignored).
class FieldReader {
 public:
  FieldReader(const json& request, const std::string& path) : request_(request), path_(path) {}

  template <class T>
  void operator()(const char* key, T& out) {
    declared_.push_back(key);
    if (!error_.empty()) return;
    if (!request_.contains(key)) return fail(key, expected(out));
    read(key, request_[key], out);
  }
  template <class T>
  void operator()(const char* key, std::optional<T>& out) {
    declared_.push_back(key);
    if (!error_.empty() || !request_.contains(key)) return;
    T value{};
    read(key, request_[key], value);
    if (error_.empty()) out = std::move(value);
  }
  // Fields that may be left out and then keep the struct's default.
  template <class T>
  void with_default(const char* key, T& out) {
    declared_.push_back(key);
    if (!error_.empty() || !request_.contains(key)) return;
    read(key, request_[key], out);
  }

  void refuse_unknown_fields() {
    if (!error_.empty()) return;
    for (const auto& item : request_.items()) {
      if (item.key() == "op") continue;
      if (std::find(declared_.begin(), declared_.end(), item.key()) == declared_.end())
        return fail(item.key(), "unknown field (" + request_["op"].get<std::string>() + " takes " + field_list() + ")");
    }
  }
  const std::string& error() const { return error_; }

 private:
  void fail(const std::string& key, const std::string& message) {
    if (error_.empty()) error_ = path_ + key + ": " + message;
  }
  std::string field_list() const {
    if (declared_.empty()) return "no fields";
    std::string out;
    for (const char* key : declared_) out += (out.empty() ? "" : ", ") + std::string(key);
    return out;
  }

  static std::string expected(int) { return "expected an integer"; }
  static std::string expected(std::uint32_t) { return "expected an integer in 0..4294967295"; }
  static std::string expected(bool) { return "expected true or false"; }
  static std::string expected(double) { return "expected a finite number"; }
  static std::string expected(const std::string&) { return "expected a string"; }
  static std::string expected(const std::vector<float>&) { return "expected an array of finite numbers"; }
  template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
  static std::string expected(E) { return "expected " + choices(enum_names(E{})); }

  void read(const char* key, const json& v, int& out) {
    if (!v.is_number_integer()) return fail(key, expected(out));
    const long long value = v.get<long long>();
    if (value < -kMaxRequestInteger || value > kMaxRequestInteger) return fail(key, "out of range");
    out = static_cast<int>(value);
  }
  void read(const char* key, const json& v, std::uint32_t& out) {
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 0xFFFFFFFFll) return fail(key, expected(out));
    out = static_cast<std::uint32_t>(v.get<long long>());
  }
  void read(const char* key, const json& v, bool& out) {
    if (!v.is_boolean()) return fail(key, expected(out));
    out = v.get<bool>();
  }
  void read(const char* key, const json& v, double& out) {
    // JSON has no NaN or Infinity; the JS side sends them as strings so the message can name them.
    if (!v.is_number()) return fail(key, expected(out) + " (got " + (v.is_string() ? v.get<std::string>() : v.dump()) + ")");
    out = v.get<double>();
  }
  void read(const char* key, const json& v, std::string& out) {
    if (!v.is_string()) return fail(key, expected(out));
    out = v.get<std::string>();
  }
  void read(const char* key, const json& v, std::vector<float>& out) {
    if (!v.is_array() || v.size() > static_cast<std::size_t>(kMaxRequestInteger)) return fail(key, expected(out));
    out.clear();
    for (const json& element : v) {
      if (!element.is_number() || !std::isfinite(element.get<double>())) return fail(key, expected(out));
      out.push_back(element.get<float>());
    }
  }
  template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
  void read(const char* key, const json& v, E& out) {
    if (v.is_string())
      for (const auto& entry : enum_names(E{}))
        if (v.get<std::string>() == entry.name) {
          out = entry.value;
          return;
        }
    fail(key, expected(out));
  }

  const json& request_;
  const std::string& path_;
  std::vector<const char*> declared_;
  std::string error_;
};

// Writes every field, so a decoded request and its encoding hold the same action.
class FieldWriter {
 public:
  explicit FieldWriter(json& out) : out_(out) {}
  template <class T>
  void operator()(const char* key, const T& value) {
    out_[key] = write(value);
  }
  template <class T>
  void operator()(const char* key, const std::optional<T>& value) {
    if (value) out_[key] = write(*value);
  }
  template <class T>
  void with_default(const char* key, const T& value) {
    out_[key] = write(value);
  }

 private:
  template <class T>
  static json write(const T& value) {
    if constexpr (std::is_enum_v<T>) {
      for (const auto& entry : enum_names(T{}))
        if (entry.value == value) return entry.name;
      return nullptr;
    } else {
      return value;
    }
  }
  json& out_;
};

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
struct Op<SetTheme> {
  static constexpr const char* name = "setTheme";
  template <class V, class S> static void fields(V& v, S& a) { v("theme", a.theme); }
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
