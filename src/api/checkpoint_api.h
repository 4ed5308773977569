#pragma once
// The checkpoint ops of window.headlab (docs/js-api.md, "Opening a checkpoint"): checkpointBegin
// with the file's size, its safetensors header and config.json (or the head count), then the bytes
// through the page's byte channel (headlab_checkpoint_feed: they are not JSON), checkpointState for
// the progress, checkpointFinish to open the model in the lab, or checkpointCancel.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/checkpoint_loader.h"
#include "app/controller.h"

namespace headlab::api {

bool is_checkpoint_op(const std::string& op);
const std::vector<std::string>& checkpoint_op_names();

// {"ok": true, "result": ...} or {"ok": false, "error": "why"}; refused when `loader` is null.
nlohmann::json handle_checkpoint_op(app::Controller& controller, app::CheckpointLoader* loader, const nlohmann::json& request);

}  // namespace headlab::api
