#include "api/checkpoint_api.h"

#include <cmath>

#include "api/reply.h"
#include "app/request_fields.h"

namespace headlab::api {
namespace {

using nlohmann::json;
using app::RequestFields;

json plan_json(const app::CheckpointLoader& loader) {
  const app::CheckpointPlan& plan = loader.plan();
  return {{"active", loader.active()},
          {"fed", loader.bytes_fed()},
          {"needed", plan.bytes_needed},
          {"size", plan.file_bytes},
          {"model_bytes", plan.model_bytes},
          {"layers", plan.config.layer_count},
          {"heads", plan.config.head_count},
          {"d_model", plan.config.d_model},
          {"vocab", plan.config.vocab_size},
          {"positions", plan.config.position_count}};
}

json op_begin(app::Controller&, app::CheckpointLoader& loader, RequestFields& f) {
  double size = 0;
  std::string header, config, name = "model.safetensors";
  int head_count = 0;
  if (!f.number("size", 8, 1e13, size) || !f.string("header", header, true) || !f.string("config", config) ||
      !f.integer("headCount", 0, kMaxCheckpointHeads, head_count) || !f.string("name", name))
    return failure(f.error());
  if (!f.has("size")) return failure("size: missing (the file's size in bytes)");
  if (config.empty() && head_count == 0)
    return failure("headCount: needed without config.json (GPT-2 small has 12 heads, medium 16, distilgpt2 12)");
  const Result<app::CheckpointPlan> plan =
      loader.begin(header, static_cast<std::uint64_t>(std::llround(size)), config, head_count, name.substr(0, 200));
  if (!plan.ok()) return failure(plan.error());
  return success(plan_json(loader));
}

json op_state(app::Controller&, app::CheckpointLoader& loader, RequestFields&) { return success(plan_json(loader)); }

json op_finish(app::Controller& controller, app::CheckpointLoader& loader, RequestFields&) {
  if (std::string error = loader.finish(controller); !error.empty()) return failure(error);
  return success();
}

json op_cancel(app::Controller&, app::CheckpointLoader& loader, RequestFields&) {
  loader.cancel();
  return success();
}

struct CheckpointHandler {
  const char* op;
  std::vector<const char*> fields;
  json (*handle)(app::Controller&, app::CheckpointLoader&, RequestFields&);
};

const std::vector<CheckpointHandler>& handlers() {
  static const std::vector<CheckpointHandler> table = {
      {"checkpointBegin", {"size", "header", "config", "headCount", "name"}, op_begin},
      {"checkpointState", {}, op_state},
      {"checkpointFinish", {}, op_finish},
      {"checkpointCancel", {}, op_cancel}};
  return table;
}

}  // namespace

bool is_checkpoint_op(const std::string& op) {
  for (const CheckpointHandler& handler : handlers())
    if (op == handler.op) return true;
  return false;
}

const std::vector<std::string>& checkpoint_op_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const CheckpointHandler& handler : handlers()) out.push_back(handler.op);
    return out;
  }();
  return names;
}

json handle_checkpoint_op(app::Controller& controller, app::CheckpointLoader* loader, const json& request) {
  if (!loader) return failure("op: checkpoints are opened in the page only");
  const std::string op = request["op"].get<std::string>();
  for (const CheckpointHandler& handler : handlers()) {
    if (op != handler.op) continue;
    RequestFields fields(request, handler.fields);
    if (!fields.ok()) return failure(fields.error());
    return handler.handle(controller, *loader, fields);
  }
  return failure("op: unknown operation \"" + op + "\"");
}

}  // namespace headlab::api
