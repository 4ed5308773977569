#include "app/worker_messages.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

namespace headlab::app {
namespace {

using nlohmann::json;

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

// Reads without exceptions (the page has none): a missing or mistyped member is noted and reads as
// zero, so one check at the end covers the whole message.
class Reader {
 public:
  const json& at(const json& object, const char* key) {
    if (object.is_object()) {
      const auto it = object.find(key);
      if (it != object.end()) return *it;
    }
    return missing(key);
  }
  const json& item(const json& array, std::size_t index) {
    return array.is_array() && index < array.size() ? array[index] : missing("[" + std::to_string(index) + "]");
  }
  const json& array(const json& value) {
    static const json kEmpty = json::array();
    return value.is_array() ? value : (missing("an array"), kEmpty);
  }
  template <typename Int>
  Int integer(const json& value) {
    if (value.is_number_integer()) return value.get<Int>();
    return missing("an integer"), Int{};
  }
  // null is a value that is not a number (JSON has no NaN).
  double real(const json& value) {
    if (value.is_number()) return value.get<double>();
    if (!value.is_null()) missing("a number");
    return std::numeric_limits<double>::quiet_NaN();
  }
  std::string text(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    return missing("a string"), std::string();
  }
  const std::string& error() const { return error_; }

 private:
  const json& missing(const std::string& what) {
    static const json kNull;
    if (error_.empty()) error_ = "expected " + what;
    return kNull;
  }
  std::string error_;
};

json induction_json(const training::InductionHeadScores& s) {
  return json::array({s.layer, s.head, number(s.prefix_matching), number(s.previous_token), number(s.duplicate_token)});
}
training::InductionHeadScores read_induction(Reader& r, const json& j) {
  return {r.integer<int>(r.item(j, 0)), r.integer<int>(r.item(j, 1)), static_cast<float>(r.real(r.item(j, 2))),
          static_cast<float>(r.real(r.item(j, 3))), static_cast<float>(r.real(r.item(j, 4)))};
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

TimelineSample read_sample(Reader& r, const json& j) {
  TimelineSample sample;
  sample.step = r.integer<int>(r.at(j, "step"));
  sample.train_loss = static_cast<float>(r.real(r.at(j, "train_loss")));
  sample.held_out_loss = static_cast<float>(r.real(r.at(j, "held_out_loss")));
  sample.repeat_loss = static_cast<float>(r.real(r.at(j, "repeat_loss")));
  for (const json& h : r.array(r.at(j, "heads")))
    sample.heads.push_back({analysis::parse_label(r.text(r.item(h, 0))).value_or(analysis::Label{}), static_cast<float>(r.real(r.item(h, 1))),
                            static_cast<float>(r.real(r.item(h, 2))), r.integer<int>(r.item(h, 3))});
  for (const json& s : r.array(r.at(j, "induction"))) sample.induction.push_back(read_induction(r, s));
  sample.strongest_induction = read_induction(r, r.at(j, "strongest_induction"));
  for (const json& s : r.array(r.at(j, "spreads")))
    sample.spreads.push_back({r.real(r.item(s, 0)), r.real(r.item(s, 1)), r.real(r.item(s, 2)), r.integer<int>(r.item(s, 3))});
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
  Reader reader;
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
              {"seed", run.seed},
              {"sample_every", run.sample_every},
              {"held_out_count", run.held_out_count},
              {"induction_held_out_count", run.induction_held_out_count},
              {"last_sample_step", run.last_sample_step}}
      .dump();
}

Result<WorkerRun> decode_run_header(const std::string& text) {
  return decode<WorkerRun>(text, "training run", [](Reader& r, const json& j) {
    WorkerRun run;
    const std::string job = r.text(r.at(j, "job"));
    for (WorkerJob known : {WorkerJob::comparison, WorkerJob::probes, WorkerJob::experiment})
      if (job == job_name(known)) run.job = known;
    run.learning_rate = static_cast<float>(r.real(r.at(j, "learning_rate")));
    run.generation = r.integer<std::uint64_t>(r.at(j, "generation"));
    run.task = training::task_from_name(r.text(r.at(j, "task"))).value_or(training::Task::grammar);
    run.seed = r.integer<std::uint32_t>(r.at(j, "seed"));
    run.sample_every = r.integer<int>(r.at(j, "sample_every"));
    run.held_out_count = r.integer<int>(r.at(j, "held_out_count"));
    run.induction_held_out_count = r.integer<int>(r.at(j, "induction_held_out_count"));
    run.last_sample_step = r.integer<int>(r.at(j, "last_sample_step"));
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
  Result<WorkerUpdate> decoded = decode<WorkerUpdate>(header, "training update", [&sizes](Reader& r, const json& j) {
    WorkerUpdate update;
    update.generation = r.integer<std::uint64_t>(r.at(j, "generation"));
    update.error = r.text(r.at(j, "error"));
    for (const json& sample : r.array(r.at(j, "samples"))) update.samples.push_back(read_sample(r, sample));
    update.comparison_generation = r.integer<std::uint64_t>(r.at(j, "comparison_generation"));
    const json& paused = r.at(j, "comparison_paused");
    update.comparison_paused = paused.is_boolean() && paused.get<bool>();
    update.probes_generation = r.integer<std::uint64_t>(r.at(j, "probes_generation"));
    for (const json& p : r.array(r.at(j, "probes"))) {
      const auto real = [&](std::size_t k) { return static_cast<float>(r.real(r.item(p, k))); };
      update.probes.push_back({r.integer<int>(r.item(p, 0)), r.integer<int>(r.item(p, 1)), real(2), real(3), real(4),
                               real(5), real(6), real(7)});
    }
    update.experiment_generation = r.integer<std::uint64_t>(r.at(j, "experiment_generation"));
    for (std::size_t k = 0; k < 3; ++k) sizes[k] = r.integer<std::uint64_t>(r.item(r.at(j, "bytes"), k));
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
