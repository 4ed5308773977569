#pragma once
// The request handler behind window.headlab (docs/js-api.md). Requests and responses are JSON
// strings, so the same code is driven by the browser bridge and by native tests. Edits are decoded
// into Actions by the action codec; the other ops (reading state, lessons, persistence, training,
// benchmarks) are small handlers.
//   request:  {"op": "setWeight", "layer": 0, "head": 1, "which": "W_K", "row": 5, "col": 0, "value": 2.5}
//   response: {"ok": true, "result": ...} or {"ok": false, "error": "why"}
#include <string>
#include <vector>

#include "app/controller.h"

namespace headlab::app {
class CheckpointLoader;
class TrainingSession;
}  // namespace headlab::app

namespace headlab::api {

// `training` (may be null) receives the training ops (training_api.h), `checkpoint` (may be null)
// the checkpoint ops (checkpoint_api.h).
std::string handle_request(app::Controller& controller, const std::string& request_json, app::TrainingSession* training = nullptr,
                           app::CheckpointLoader* checkpoint = nullptr);

// Every op handle_request knows: the edits of the action codec (action_codec.h), then the other
// ops. web/headlab-api.js and docs/js-api.md list these (a test checks).
std::vector<std::string> api_op_names();

}  // namespace headlab::api
