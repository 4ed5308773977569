#include "app/worker_messages.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "engine/analysis/label.h"
#include "engine/json_reader.h"
#include "engine/training/task.h"

namespace headlab::app {
namespace {

using nlohmann::json;

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

// The engine's JsonReader with the path of the message's part it is in, so a broken message says
// where: "training update: samples[0].step: expected an integer". A loss that is not a number
// travels as null (JSON has no NaN).
class MessageReader {
 public:
  bool ok() const { return reader_.ok(); }
  const std::string& error() const { return reader_.error(); }

  const json& field(const json& object, const std::string& path, const char* key) {
    const json* value = reader_.field(object, path, key);
    return value ? *value : null_;
  }
  const json& item(const json& array, const std::string& path, std::size_t index) {
    if (array.is_array() && index < array.size()) return array[index];
    reader_.fail(json_path(path, index), "missing");
    return null_;
  }
  const json& array(const json& value, const std::string& path) {
    const json* checked = reader_.array(&value, path);
    return checked ? *checked : empty_;
  }
  template <class Int>
  Int integer(const json& value, const std::string& path) {
    long long out = 0;
    reader_.integer(&value, path, 0, static_cast<long long>(std::min<std::uint64_t>(std::numeric_limits<Int>::max(),
                                                                                    std::numeric_limits<long long>::max())),
                    out);
    return static_cast<Int>(out);
  }
  int signed_integer(const json& value, const std::string& path) {
    int out = 0;
    reader_.integer(&value, path, out);
    return out;
  }
  double real(const json& value, const std::string& path) {
    if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();
    double out = 0.0;
    reader_.finite(&value, path, out);
    return out;
  }
  float real_float(const json& value, const std::string& path) { return static_cast<float>(real(value, path)); }
  std::string text(const json& value, const std::string& path) {
    std::string out;
    reader_.string(&value, path, out);
    return out;
  }
  bool boolean(const json& value, const std::string& path) {
    bool out = false;
    reader_.boolean(&value, path, out);
    return out;
  }
  // Names read through the engine's one table for each, refused when unknown.
  AttentionNormalization attention(const json& value, const std::string& path) {
    AttentionNormalization out = AttentionNormalization::softmax;
    reader_.one_of(&value, path, kAttentionNormalizationNames, out);
    return out;
  }
  training::Task task(const json& value, const std::string& path) {
    training::Task out = training::Task::grammar;
    reader_.one_of(&value, path, training::kTaskNames, out);
    return out;
  }
  analysis::Label label(const json& value, const std::string& path) {
    const std::optional<analysis::Label> label = analysis::parse_label(text(value, path));
    if (!label && ok()) reader_.fail(path, "unknown label");
    return label.value_or(analysis::Label{});
  }
  template <class E>
  E one_of(const json& value, const std::string& path, std::initializer_list<std::pair<const char*, E>> choices) {
    E out{};
    reader_.one_of(&value, path, choices, out);
    return out;
  }

 private:
  JsonReader reader_;
  const json null_;
  const json empty_ = json::array();
};

json induction_json(const training::InductionHeadScores& s) {
  return json::array({s.layer, s.head, number(s.prefix_matching), number(s.previous_token), number(s.duplicate_token),
                      number(s.first_token)});
}
training::InductionHeadScores read_induction(MessageReader& r, const json& j, const std::string& path) {
  const auto at = [&](std::size_t k) -> const json& { return r.item(j, path, k); };
  const auto real = [&](std::size_t k) { return r.real_float(at(k), json_path(path, k)); };
  return {r.integer<int>(at(0), json_path(path, 0)), r.integer<int>(at(1), json_path(path, 1)), real(2), real(3), real(4), real(5)};
}

json sample_json(const TimelineSample& sample) {
  json heads = json::array(), induction = json::array(), spreads = json::array();
  for (const HeadRole& role : sample.heads)
    heads.push_back(json::array({role.label.text(), number(role.score), number(role.baseline), role.direction}));
  for (const training::InductionHeadScores& scores : sample.induction) induction.push_back(induction_json(scores));
  for (const analysis::AttentionSpread& spread : sample.spreads)
    spreads.push_back(json::array({number(spread.distance), number(spread.entropy), number(spread.uniform_entropy), spread.rows}));
  return {{"step", sample.step},
          {"train_loss", number(sample.train_loss)},
          {"held_out_loss", number(sample.held_out_loss)},
          {"repeat_loss", number(sample.repeat_loss)},
          {"heads", heads},
          {"induction", induction},
          {"strongest_induction", induction_json(sample.strongest_induction)},
          {"spreads", spreads}};
}

TimelineSample read_sample(MessageReader& r, const json& j, const std::string& path) {
  const auto field = [&](const char* key) -> const json& { return r.field(j, path, key); };
  const auto real = [&](const char* key) { return r.real_float(field(key), json_path(path, key)); };
  TimelineSample sample;
  sample.step = r.integer<int>(field("step"), json_path(path, "step"));
  sample.train_loss = real("train_loss");
  sample.held_out_loss = real("held_out_loss");
  sample.repeat_loss = real("repeat_loss");
  const json& heads = r.array(field("heads"), json_path(path, "heads"));
  for (std::size_t i = 0; i < heads.size(); ++i) {
    const std::string at = json_path(json_path(path, "heads"), i);
    const auto item = [&](std::size_t k) -> const json& { return r.item(heads[i], at, k); };
    sample.heads.push_back({r.label(item(0), json_path(at, 0)), r.real_float(item(1), json_path(at, 1)),
                            r.real_float(item(2), json_path(at, 2)), r.signed_integer(item(3), json_path(at, 3))});
  }
  const json& induction = r.array(field("induction"), json_path(path, "induction"));
  for (std::size_t i = 0; i < induction.size(); ++i)
    sample.induction.push_back(read_induction(r, induction[i], json_path(json_path(path, "induction"), i)));
  sample.strongest_induction = read_induction(r, field("strongest_induction"), json_path(path, "strongest_induction"));
  const json& spreads = r.array(field("spreads"), json_path(path, "spreads"));
  for (std::size_t i = 0; i < spreads.size(); ++i) {
    const std::string at = json_path(json_path(path, "spreads"), i);
    const auto item = [&](std::size_t k) -> const json& { return r.item(spreads[i], at, k); };
    sample.spreads.push_back({r.real(item(0), json_path(at, 0)), r.real(item(1), json_path(at, 1)),
                              r.real(item(2), json_path(at, 2)), r.integer<int>(item(3), json_path(at, 3))});
  }
  return sample;
}

const char* job_name(WorkerJob job) {
  switch (job) {
    case WorkerJob::run: return "run";
    case WorkerJob::comparison: return "comparison";
    case WorkerJob::probes: return "probes";
    case WorkerJob::experiment: return "experiment";
  }
  return "run";
}

// The worker and the page are one build, so a message that does not read is a bug; it is reported
// with what was wrong rather than read half.
template <typename T, typename Read>
Result<T> decode(const std::string& text, const char* what, Read read) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Result<T>::failure(std::string(what) + ": not a JSON object");
  MessageReader reader;
  T value = read(reader, j);
  if (!reader.error().empty()) return Result<T>::failure(std::string(what) + ": " + reader.error());
  return value;
}

}  // namespace

std::string encode_run_header(const WorkerRun& run) {
  return json{{"job", job_name(run.job)},
              {"learning_rate", run.learning_rate},
              {"generation", run.generation},
              {"task", training::task_name(run.task)},
              {"attention", enum_name(kAttentionNormalizationNames, run.attention)},
              {"seed", run.seed},
              {"sample_every", run.sample_every},
              {"held_out_count", run.held_out_count},
              {"induction_held_out_count", run.induction_held_out_count},
              {"last_sample_step", run.last_sample_step}}
      .dump();
}

Result<WorkerRun> decode_run_header(const std::string& text) {
  return decode<WorkerRun>(text, "training run", [](MessageReader& r, const json& j) {
    const auto field = [&](const char* key) -> const json& { return r.field(j, "", key); };
    WorkerRun run;
    // An unknown job or task is refused: read as the default it would start the wrong job.
    run.job = r.one_of<WorkerJob>(field("job"), "job",
                                  {{job_name(WorkerJob::run), WorkerJob::run},
                                   {job_name(WorkerJob::comparison), WorkerJob::comparison},
                                   {job_name(WorkerJob::probes), WorkerJob::probes},
                                   {job_name(WorkerJob::experiment), WorkerJob::experiment}});
    run.learning_rate = r.real_float(field("learning_rate"), "learning_rate");
    run.generation = r.integer<std::uint64_t>(field("generation"), "generation");
    run.task = r.task(field("task"), "task");
    run.attention = r.attention(field("attention"), "attention");
    run.seed = r.integer<std::uint32_t>(field("seed"), "seed");
    run.sample_every = r.integer<int>(field("sample_every"), "sample_every");
    run.held_out_count = r.integer<int>(field("held_out_count"), "held_out_count");
    run.induction_held_out_count = r.integer<int>(field("induction_held_out_count"), "induction_held_out_count");
    run.last_sample_step = r.integer<int>(field("last_sample_step"), "last_sample_step");
    return run;
  });
}

EncodedUpdate encode_update(const WorkerUpdate& update) {
  json samples = json::array(), probes = json::array();
  for (const TimelineSample& sample : update.samples) samples.push_back(sample_json(sample));
  for (const training::HeadProbe& p : update.probes)
    probes.push_back(json::array({p.layer, p.head, number(p.pos_accuracy), number(p.pos_control_accuracy),
                                  number(p.pos_selectivity), number(p.relation_accuracy),
                                  number(p.relation_control_accuracy), number(p.relation_selectivity)}));
  EncodedUpdate out;
  out.header = json{{"generation", update.generation},
                    {"error", update.error},
                    {"samples", samples},
                    {"comparison_generation", update.comparison_generation},
                    {"comparison_paused", update.comparison_paused},
                    {"probes_generation", update.probes_generation},
                    {"probes", probes},
                    {"experiment_generation", update.experiment_generation},
                    {"bytes", {update.state.size(), update.comparison_state.size(), update.experiment_state.size()}}}
                   .dump();
  for (const std::vector<std::uint8_t>* part : {&update.state, &update.comparison_state, &update.experiment_state})
    out.bytes.insert(out.bytes.end(), part->begin(), part->end());
  return out;
}

Result<WorkerUpdate> decode_update(const std::string& header, const std::uint8_t* bytes, std::size_t size) {
  std::uint64_t sizes[3] = {};  // of the run's, the comparison's and the experiment's state
  Result<WorkerUpdate> decoded = decode<WorkerUpdate>(header, "training update", [&sizes](MessageReader& r, const json& j) {
    const auto field = [&](const char* key) -> const json& { return r.field(j, "", key); };
    WorkerUpdate update;
    update.generation = r.integer<std::uint64_t>(field("generation"), "generation");
    update.error = r.text(field("error"), "error");
    const json& samples = r.array(field("samples"), "samples");
    for (std::size_t i = 0; i < samples.size(); ++i) update.samples.push_back(read_sample(r, samples[i], json_path("samples", i)));
    update.comparison_generation = r.integer<std::uint64_t>(field("comparison_generation"), "comparison_generation");
    update.comparison_paused = r.boolean(field("comparison_paused"), "comparison_paused");
    update.probes_generation = r.integer<std::uint64_t>(field("probes_generation"), "probes_generation");
    const json& probes = r.array(field("probes"), "probes");
    for (std::size_t i = 0; i < probes.size(); ++i) {
      const std::string at = json_path("probes", i);
      const auto item = [&](std::size_t k) -> const json& { return r.item(probes[i], at, k); };
      const auto real = [&](std::size_t k) { return r.real_float(item(k), json_path(at, k)); };
      update.probes.push_back({r.integer<int>(item(0), json_path(at, 0)), r.integer<int>(item(1), json_path(at, 1)),
                               real(2), real(3), real(4), real(5), real(6), real(7)});
    }
    update.experiment_generation = r.integer<std::uint64_t>(field("experiment_generation"), "experiment_generation");
    const json& byte_sizes = field("bytes");
    for (std::size_t k = 0; k < 3; ++k) sizes[k] = r.integer<std::uint64_t>(r.item(byte_sizes, "bytes", k), json_path("bytes", k));
    return update;
  });
  if (!decoded.ok()) return decoded;
  WorkerUpdate& update = decoded.value();
  std::size_t at = 0;
  std::vector<std::uint8_t>* parts[3] = {&update.state, &update.comparison_state, &update.experiment_state};
  for (std::size_t k = 0; k < 3; ++k) {
    if (sizes[k] > size - at)
      return Result<WorkerUpdate>::failure("training update: its bytes are shorter than its header says");
    parts[k]->assign(bytes + at, bytes + at + sizes[k]);
    at += sizes[k];
  }
  if (at != size) return Result<WorkerUpdate>::failure("training update: its bytes are longer than its header says");
  return decoded;
}

std::vector<std::uint8_t> pack_comparison_state(const std::vector<std::uint8_t>& many,
                                                const std::vector<std::uint8_t>& one) {
  const std::uint64_t size = many.size();
  std::vector<std::uint8_t> out(sizeof size);
  std::memcpy(out.data(), &size, sizeof size);
  out.insert(out.end(), many.begin(), many.end());
  out.insert(out.end(), one.begin(), one.end());
  return out;
}

ComparisonState unpack_comparison_state(const std::vector<std::uint8_t>& packed) {
  ComparisonState out;
  std::uint64_t size = 0;
  if (packed.size() < sizeof size) {
    out.error = "comparison state: too short";
    return out;
  }
  std::memcpy(&size, packed.data(), sizeof size);
  if (size > packed.size() - sizeof size) {
    out.error = "comparison state: its first trainer is longer than the state";
    return out;
  }
  const auto first = packed.begin() + sizeof size;
  out.many.assign(first, first + static_cast<std::ptrdiff_t>(size));
  out.one.assign(first + static_cast<std::ptrdiff_t>(size), packed.end());
  return out;
}

}  // namespace headlab::app
