#include "api/training_api.h"

#include <algorithm>
#include <cmath>

#include "api/benchmark_api.h"
#include "api/reply.h"
#include "app/dispatcher.h"
#include "app/request_fields.h"
#include "engine/analysis/analysis_json.h"
#include "engine/head_index.h"

namespace headlab::api {

// The handlers drive the app layer and speak its vocabulary throughout.
using namespace headlab::app;
namespace {

using nlohmann::json;

// JSON has no NaN: a loss that is not a number (no steps yet) travels as null.
json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

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
  return {{"task", training::task_name(session.experiment_task())},
          {"running", session.experiment_running()}, {"in_worker", session.experiment_in_worker()},
          {"done", e->done()}, {"step", e->steps_done()},
          {"total", e->steps_total()}, {"steps_per_run", e->steps_per_run()}, {"runs", runs}, {"points", points}};
}

}  // namespace

json training_state_json(const TrainingSession& session, bool losses) {
  const TrainingSettings& settings = session.settings();
  json out = {{"started", session.started()},
              {"error", session.error()},
              {"task", training::task_name(session.settings().task)},
              {"waiting", session.run_waiting()},
              {"wait_error", session.run_wait_error()},
              {"attention", enum_name(kAttentionNormalizationNames, session.settings().attention)},
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
              {"experiment", experiment_json(session)},
              {"experiment_waiting", session.experiment_waiting()},
              {"experiment_error", session.experiment_error()}};
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
      const HeadPosition at = head_at_flat_index(trainer->model(), static_cast<int>(k));
      heads.push_back({{"layer", at.layer}, {"head", at.head}, {"label", role.label.text()}, {"score", role.score},
                       {"baseline", role.baseline},
                       {"direction", role.direction == kBothWays                   ? "both_ways"
                                     : role.direction == training::kDependentToHead ? "dependent_to_head"
                                                                                    : "head_to_dependent"}});
    }
    json entry = {{"step", sample.step}, {"train_loss", number(sample.train_loss)},
                  {"held_out_loss", number(sample.held_out_loss)}, {"heads", heads}};
    std::vector<std::vector<analysis::Label>> labels(trainer->model().layers.size());
    for (std::size_t k = 0; k < sample.heads.size(); ++k) {
      const HeadPosition at = head_at_flat_index(trainer->model(), static_cast<int>(k));
      if (at.layer >= 0) labels[at.layer].push_back(sample.heads[k].label);
    }
    entry["layers"] = analysis::layer_profile_json(sample.spreads, labels);
    if (!sample.induction.empty()) {
      if (settings.task == training::Task::induction) entry["repeat_loss"] = number(sample.repeat_loss);
      // Real-text runs have these scores and no labels: one entry per head all the same.
      if (entry["heads"].empty())
        for (const training::InductionHeadScores& s : sample.induction) entry["heads"].push_back({{"layer", s.layer}, {"head", s.head}});
      for (std::size_t k = 0; k < sample.induction.size() && k < entry["heads"].size(); ++k) {
        const training::InductionHeadScores& s = sample.induction[k];
        entry["heads"][k]["prefix_matching"] = s.prefix_matching;
        entry["heads"][k]["previous_token"] = s.previous_token;
        entry["heads"][k]["duplicate_token"] = s.duplicate_token;
        entry["heads"][k]["first_token"] = s.first_token;
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

// [SECTION] The documented training ops: each is a few app::Actions (dispatcher.h) and a reply.
// Their fields keep the names docs/js-api.md gives ("lr", "losses", "wait"), read strictly by
// RequestFields; the actions they make are the ones the Training tab emits.

namespace {

json applied(Dispatcher& dispatcher, std::initializer_list<Action> actions) {
  for (const Action& action : actions)
    if (const ActionResult result = dispatcher.apply(action); !result.ok()) return failure(result.error);
  return nullptr;
}

json op_train_state(Dispatcher&, const TrainingSession& session, RequestFields& f) {
  bool losses = false;
  if (!f.boolean("losses", losses)) return failure(f.error());
  return success(training_state_json(session, losses));
}

json op_train_pause(Dispatcher& d, const TrainingSession& session, RequestFields&) {
  if (json refused = applied(d, {PlayTraining{false}}); !refused.is_null()) return refused;
  return success(training_state_json(session, false));
}

// trainStart goes on with the current run unless a seed or another task asks for a new one;
// trainReset always makes a new one. Both take the learning rate first.
json start_or_reset(Dispatcher& d, const TrainingSession& session, RequestFields& f, bool reset) {
  std::uint32_t seed = session.settings().seed;
  float lr = session.settings().learning_rate;
  training::Task task = session.settings().task;
  if (!f.seed("seed", seed) || !f.number("lr", kMinLearningRate, kMaxLearningRate, lr) ||
      !f.one_of("task", training::kTaskNames, task))
    return failure(f.error());
  const bool fresh = reset || f.has("seed") || task != session.settings().task || !session.started();
  if (json refused = applied(d, {SetLearningRate{lr}}); !refused.is_null()) return refused;
  if (fresh)
    if (json refused = applied(d, {NewTrainingRun{seed, task}}); !refused.is_null()) return refused;
  if (!reset)
    if (json refused = applied(d, {PlayTraining{true}}); !refused.is_null()) return refused;
  return success(training_state_json(session, false));
}
json op_train_start(Dispatcher& d, const TrainingSession& s, RequestFields& f) { return start_or_reset(d, s, f, false); }
json op_train_reset(Dispatcher& d, const TrainingSession& s, RequestFields& f) { return start_or_reset(d, s, f, true); }

json op_train_settings(Dispatcher& d, const TrainingSession& session, RequestFields& f) {
  float lr = session.settings().learning_rate;
  float speed = session.settings().speed;
  if (f.has("seed")) f.fail("seed", "a new seed is a new run (trainReset)");
  if (!f.number("lr", kMinLearningRate, kMaxLearningRate, lr) || !f.number("speed", kMinSpeed, kMaxSpeed, speed))
    return failure(f.error());
  if (json refused = applied(d, {SetTrainingSpeed{speed}, SetLearningRate{lr}}); !refused.is_null()) return refused;
  return success(training_state_json(session, false));
}

json op_train_step(Dispatcher& d, const TrainingSession& session, RequestFields& f) {
  int steps = 1;
  bool losses = false;
  if (!f.integer("steps", 1, 5000, steps) || !f.boolean("losses", losses)) return failure(f.error());
  if (json refused = applied(d, {StepTraining{steps}}); !refused.is_null()) return refused;
  return success(training_state_json(session, losses));
}

json op_train_use_model(Dispatcher& d, const TrainingSession&, RequestFields&) {
  if (json refused = applied(d, {UseTrainedModel{}}); !refused.is_null()) return refused;
  return success(nullptr);
}

// A measurement, not a change: a fresh default trainer's steps per second (the run is untouched).
json op_train_benchmark(Dispatcher& d, const TrainingSession& session, RequestFields& f) {
  double seconds = 3.0;
  if (!f.number("seconds", 0.1, 60.0, seconds)) return failure(f.error());
  if (json refused = applied(d, {PrepareTraining{}}); !refused.is_null()) return refused;
  return success({{"steps_per_second", measure_training_steps_per_second(d.resources().grammar, seconds)}, {"seconds", seconds},
                  {"batch", training::TrainerConfig{}.batch_size}});
}

json op_probe(Dispatcher& d, const TrainingSession& session, RequestFields& f) {
  bool wait = false;
  if (!f.boolean("wait", wait)) return failure(f.error());
  if (json refused = applied(d, {StartProbes{wait}}); !refused.is_null()) return refused;
  return success(probes_json(session));
}

json op_compare_heads(Dispatcher& d, const TrainingSession& session, RequestFields& f) {
  int steps = 0;
  bool run = false, losses = false;
  if (!f.integer("steps", 1, 5000, steps) || !f.boolean("run", run) || !f.boolean("losses", losses))
    return failure(f.error());
  const Action action = f.has("steps") ? Action(StepComparison{steps})
                        : f.has("run") ? Action(SetComparisonRunning{run})
                                       : Action(StartComparison{});
  if (json refused = applied(d, {action}); !refused.is_null()) return refused;
  return success(comparison_json(session, losses));
}

// A `task` starts a new experiment of it (on real text it may first wait for the text sample:
// "waiting" in the reply); otherwise `steps` steps it, `run` runs or pauses it, and nothing
// starts a new one of the task the last one had.
json op_head_count_experiment(Dispatcher& d, const TrainingSession& session, RequestFields& f) {
  int steps = 0;
  bool run = false;
  training::Task task = session.experiment_task();
  if (!f.integer("steps", 1, 20000, steps) || !f.boolean("run", run) || !f.one_of("task", training::kTaskNames, task))
    return failure(f.error());
  const Action action = f.has("task")    ? Action(StartExperiment{task})
                        : f.has("steps") ? Action(StepExperiment{steps})
                        : f.has("run")   ? Action(SetExperimentRunning{run})
                                         : Action(StartExperiment{task});
  if (json refused = applied(d, {action}); !refused.is_null()) return refused;
  json out = experiment_json(session);
  if (out.is_null()) out = json::object();
  out["waiting"] = session.experiment_waiting();
  return success(out);
}

struct TrainingOp {
  const char* op;
  std::vector<const char*> fields;
  json (*handle)(Dispatcher&, const TrainingSession&, RequestFields&);
};

const std::vector<TrainingOp>& training_ops() {
  static const std::vector<TrainingOp> table = {
      {"trainStart", {"seed", "lr", "task"}, op_train_start},
      {"trainPause", {}, op_train_pause},
      {"trainStep", {"steps", "losses"}, op_train_step},
      {"trainState", {"losses"}, op_train_state},
      {"trainReset", {"seed", "lr", "task"}, op_train_reset},
      {"trainSettings", {"lr", "speed", "seed"}, op_train_settings},
      {"trainUseModel", {}, op_train_use_model},
      {"trainBenchmark", {"seconds"}, op_train_benchmark},
      {"probe", {"wait"}, op_probe},
      {"compareHeads", {"steps", "run", "losses"}, op_compare_heads},
      {"headCountExperiment", {"steps", "run", "task"}, op_head_count_experiment}};
  return table;
}

}  // namespace

const std::vector<std::string>& training_op_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const TrainingOp& op : training_ops()) out.push_back(op.op);
    return out;
  }();
  return names;
}

bool is_training_op(const std::string& op) {
  const auto& ops = training_op_names();
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

json handle_training_op(Dispatcher& dispatcher, const json& request) {
  const std::string op = request.value("op", std::string());
  const TrainingSession* session = dispatcher.training();
  if (!session) return failure("training is not available here");
  for (const TrainingOp& row : training_ops()) {
    if (op != row.op) continue;
    RequestFields fields(request, row.fields);
    if (!fields.ok()) return failure(fields.error());
    dispatcher.controller().catch_up_all();  // training reads the lab's model and goals
    return row.handle(dispatcher, *session, fields);
  }
  return failure("op: unknown training operation \"" + op + "\"");
}

}  // namespace headlab::api
