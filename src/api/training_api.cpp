#include "api/training_api.h"

#include <algorithm>
#include <cmath>

#include "api/reply.h"
#include "app/request_fields.h"
#include "engine/analysis/analysis_json.h"

namespace headlab::api {

// The handlers drive the app layer and speak its vocabulary throughout.
using namespace headlab::app;
namespace {

using nlohmann::json;

// JSON has no NaN: a loss that is not a number (no steps yet) travels as null.
json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

// (layer, head) of the k-th head, layer-major.
std::pair<int, int> head_at(const Model& model, int index) {
  int layer = 0;
  while (layer + 1 < static_cast<int>(model.layers.size()) && index >= model.layers[layer].head_count())
    index -= model.layers[layer++].head_count();
  return {layer, index};
}

json losses_json(const std::vector<float>& losses) {
  json out = json::array();
  for (float loss : losses) out.push_back(number(loss));
  return out;
}

double mean_of_first(const std::vector<float>& losses, int count) {
  const int n = std::min<int>(count, static_cast<int>(losses.size()));
  if (n == 0) return NAN;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += losses[i];
  return sum / n;
}

json probes_json(const TrainingSession& session) {
  const ProbeProgress& p = session.probes();
  json heads = json::array();
  for (const training::HeadProbe& h : p.heads)
    heads.push_back({{"layer", h.layer}, {"head", h.head},
                     {"pos_accuracy", h.pos_accuracy}, {"pos_control_accuracy", h.pos_control_accuracy},
                     {"pos_selectivity", h.pos_selectivity}, {"relation_accuracy", h.relation_accuracy},
                     {"relation_control_accuracy", h.relation_control_accuracy},
                     {"relation_selectivity", h.relation_selectivity}});
  return {{"step", p.step},       {"total", p.total},       {"done", p.heads.size()},
          {"running", p.running()}, {"in_worker", session.probes_in_worker()}, {"heads", heads}};
}

json comparison_json(const TrainingSession& session, bool losses) {
  const training::HeadComparison* c = session.comparison();
  if (!c) return nullptr;
  const Layer& many = c->many.model().layers[0];
  const Layer& one = c->one.model().layers[0];
  json out = {{"running", session.comparison_running()},
              {"in_worker", session.comparison_in_worker()},
              {"step", c->many.steps_done()},
              {"many", {{"heads", many.head_count()}, {"d_k", many.d_k}, {"loss", number(training::mean_recent_loss(c->many, 100))}}},
              {"one", {{"heads", one.head_count()}, {"d_k", one.d_k}, {"loss", number(training::mean_recent_loss(c->one, 100))}}}};
  if (losses) {
    out["many"]["losses"] = losses_json(c->many.loss_history());
    out["one"]["losses"] = losses_json(c->one.loss_history());
  }
  return out;
}

json experiment_json(const TrainingSession& session) {
  const training::HeadCountExperiment* e = session.experiment();
  if (!e) return nullptr;
  json runs = json::array(), points = json::array();
  for (const training::HeadCountRun& run : e->runs())
    runs.push_back({{"heads", run.heads}, {"seed", run.seed}, {"step", run.steps_done}, {"done", run.done},
                    {"held_out_loss", run.done ? number(run.held_out_loss) : json(nullptr)}});
  for (const training::HeadCountPoint& p : e->points())
    points.push_back({{"heads", p.heads}, {"runs", p.runs}, {"mean", p.runs ? number(p.mean) : json(nullptr)},
                      {"min", p.runs ? number(p.min) : json(nullptr)}, {"max", p.runs ? number(p.max) : json(nullptr)}});
  return {{"running", session.experiment_running()}, {"in_worker", session.experiment_in_worker()},
          {"done", e->done()}, {"step", e->steps_done()},
          {"total", e->steps_total()}, {"steps_per_run", e->steps_per_run()}, {"runs", runs}, {"points", points}};
}

}  // namespace

json training_state_json(const TrainingSession& session, bool losses) {
  const TrainingSettings& settings = session.settings();
  json out = {{"started", session.started()},
              {"error", session.error()},
              {"task", training::task_name(session.settings().task)},
              {"running", session.running()},
              {"in_worker", session.training_in_worker()},
              {"seed", settings.seed},
              {"learning_rate", settings.learning_rate},
              {"speed", settings.speed},
              {"frame_budget_ms", session.frame_budget_seconds() * 1000.0},
              {"sample_every", settings.sample_every},
              {"steps_per_second", session.steps_per_second()},
              {"frames_per_second", session.frames_per_second()},
              {"step_ms", session.step_seconds() * 1000.0},
              {"frames", session.frames()},
              {"probes", probes_json(session)},
              {"comparison", comparison_json(session, losses)},
              {"experiment", experiment_json(session)}};
  const training::Trainer* trainer = session.trainer();
  out["step"] = trainer ? trainer->steps_done() : 0;
  if (!trainer) return out;
  out["current_learning_rate"] = trainer->learning_rate();
  out["loss"] = number(trainer->steps_done() ? training::mean_recent_loss(*trainer, 50) : NAN);
  out["first_loss"] = number(mean_of_first(trainer->loss_history(), 20));
  json timeline = json::array();
  for (const TimelineSample& sample : session.timeline()) {
    json heads = json::array();
    for (std::size_t k = 0; k < sample.heads.size(); ++k) {
      const HeadRole& role = sample.heads[k];
      const auto [layer, head] = head_at(trainer->model(), static_cast<int>(k));
      heads.push_back({{"layer", layer}, {"head", head}, {"label", role.label.text()}, {"score", role.score},
                       {"baseline", role.baseline},
                       {"direction", role.direction == training::kDependentToHead ? "dependent_to_head" : "head_to_dependent"}});
    }
    json entry = {{"step", sample.step}, {"train_loss", number(sample.train_loss)},
                  {"held_out_loss", number(sample.held_out_loss)}, {"heads", heads}};
    std::vector<std::vector<analysis::Label>> labels(trainer->model().layers.size());
    for (std::size_t k = 0; k < sample.heads.size(); ++k) labels[head_at(trainer->model(), static_cast<int>(k)).first].push_back(sample.heads[k].label);
    entry["layers"] = analysis::layer_profile_json(sample.spreads, labels);
    if (!sample.induction.empty()) {
      entry["repeat_loss"] = number(sample.repeat_loss);
      for (std::size_t k = 0; k < sample.induction.size() && k < entry["heads"].size(); ++k) {
        const training::InductionHeadScores& s = sample.induction[k];
        entry["heads"][k]["prefix_matching"] = s.prefix_matching;
        entry["heads"][k]["previous_token"] = s.previous_token;
        entry["heads"][k]["duplicate_token"] = s.duplicate_token;
      }
    }
    timeline.push_back(std::move(entry));
  }
  const HeadsSnapshot& snapshot = session.snapshot();
  out["snapshot"] = {{"step", snapshot.step}, {"input", snapshot.input}, {"text", session.snapshot_input_text(snapshot.input)}};
  const int phase_change = session.phase_change_step();
  out["phase_change_step"] = phase_change >= 0 ? json(phase_change) : json(nullptr);
  out["roles"] = timeline.empty() ? json::array() : timeline.back()["heads"];
  out["timeline"] = std::move(timeline);
  if (losses) out["losses"] = losses_json(trainer->loss_history());
  return out;
}

const std::vector<std::string>& training_op_names() {
  static const std::vector<std::string> kOps = {"trainStart",    "trainPause",    "trainStep",      "trainState", "trainReset",
                                                "trainSettings", "trainUseModel", "trainBenchmark", "probe",      "compareHeads", "headCountExperiment"};
  return kOps;
}

bool is_training_op(const std::string& op) {
  const auto& ops = training_op_names();
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

json handle_training_op(TrainingSession& session, Controller& controller, const json& request) {
  const std::string op = request.value("op", std::string());
  bool losses = false;
  std::string error;
  if (op == "trainState") {
    RequestFields fields(request, {"losses"});
    if (!fields.boolean("losses", losses)) return failure(fields.error());
    return success(training_state_json(session, losses));
  }
  if (op == "trainPause") {
    RequestFields fields(request, {});
    if (!fields.ok()) return failure(fields.error());
    session.set_running(false);
    return success(training_state_json(session, false));
  }
  if (op == "trainStart" || op == "trainReset") {
    RequestFields fields(request, {"seed", "lr", "task"});
    std::uint32_t seed = session.settings().seed;
    float lr = session.settings().learning_rate;
    training::Task task = session.settings().task;
    if (!fields.seed("seed", seed) || !fields.number("lr", kMinLearningRate, kMaxLearningRate, lr) ||
        !fields.one_of("task", training::kTaskNames, task))
      return failure(fields.error());
    // trainStart goes on with the current run unless a seed or another task asks for a new one.
    if (op == "trainReset" || fields.has("seed") || task != session.settings().task || !session.started())
      error = session.reset(seed, lr, task);
    else session.set_learning_rate(lr);
    if (!error.empty()) return failure(error);
    if (op == "trainStart") session.set_running(true);
    return success(training_state_json(session, false));
  }
  if (op == "trainSettings") {
    RequestFields fields(request, {"lr", "speed", "seed"});
    float lr = session.settings().learning_rate;
    float speed = session.settings().speed;
    if (fields.has("seed")) fields.fail("seed", "a new seed is a new run (trainReset)");
    if (!fields.number("lr", kMinLearningRate, kMaxLearningRate, lr) || !fields.number("speed", kMinSpeed, kMaxSpeed, speed))
      return failure(fields.error());
    session.set_speed(speed);
    session.set_learning_rate(lr);
    return success(training_state_json(session, false));
  }
  if (op == "trainStep") {
    RequestFields fields(request, {"steps", "losses"});
    int steps = 1;
    if (!fields.integer("steps", 1, 5000, steps) || !fields.boolean("losses", losses)) return failure(fields.error());
    if (!(error = session.ensure_started()).empty()) return failure(error);
    session.step(steps);
    return success(training_state_json(session, losses));
  }
  if (op == "trainUseModel") {
    RequestFields fields(request, {});
    if (!fields.ok()) return failure(fields.error());
    if (!(error = session.use_in_lab(controller)).empty()) return failure(error);
    return success(nullptr);
  }
  if (op == "trainBenchmark") {
    RequestFields fields(request, {"seconds"});
    double seconds = 3.0;
    if (!fields.number("seconds", 0.1, 60.0, seconds)) return failure(fields.error());
    if (!(error = session.ensure_started()).empty()) return failure(error);
    return success({{"steps_per_second", session.measure_steps_per_second(seconds)}, {"seconds", seconds},
                    {"batch", training::TrainerConfig{}.batch_size}});
  }
  if (op == "probe") {
    RequestFields fields(request, {"wait"});
    bool wait = false;
    if (!fields.boolean("wait", wait)) return failure(fields.error());
    if (!(error = session.start_probes()).empty()) return failure(error);
    if (wait) session.finish_probes();
    return success(probes_json(session));
  }
  if (op == "compareHeads") {
    RequestFields fields(request, {"steps", "run", "losses"});
    int steps = 0;
    bool run = false;
    if (!fields.integer("steps", 1, 5000, steps) || !fields.boolean("run", run) || !fields.boolean("losses", losses))
      return failure(fields.error());
    if (fields.has("steps")) session.step_comparison(steps);
    else if (fields.has("run")) session.set_comparison_running(run);
    else if (!(error = session.start_comparison()).empty()) return failure(error);
    return success(comparison_json(session, losses));
  }
  if (op == "headCountExperiment") {
    RequestFields fields(request, {"steps", "run"});
    int steps = 0;
    bool run = false;
    if (!fields.integer("steps", 1, 20000, steps) || !fields.boolean("run", run)) return failure(fields.error());
    if (fields.has("steps")) session.step_experiment(steps);
    else if (fields.has("run")) session.set_experiment_running(run);
    else if (!(error = session.start_experiment()).empty()) return failure(error);
    return success(experiment_json(session));
  }
  return failure("op: unknown training operation \"" + op + "\"");
}

}  // namespace headlab::api
