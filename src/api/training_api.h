#pragma once
// The training ops of window.headlab (docs/js-api.md, "Training"): play, pause, step, reset,
// settings, state, probes, the one-vs-many comparison, a speed benchmark, and loading the trained
// model into the lab. handle_request (api.h) forwards them here.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/controller.h"
#include "app/dispatcher.h"
#include "app/training_session.h"

namespace headlab::api {

// True for the ops below ("trainStart", "trainPause", "trainStep", "trainState", "trainReset",
// "trainSettings", "trainUseModel", "trainBenchmark", "probe", "compareHeads").
bool is_training_op(const std::string& op);
const std::vector<std::string>& training_op_names();

// {"ok": true, "result": ...} or {"ok": false, "error": "why"}. Each op applies app::Actions
// through `dispatcher` (refused when it has no training session).
nlohmann::json handle_training_op(app::Dispatcher& dispatcher, const nlohmann::json& request);

// The session as JSON (trainState's result); `losses` adds every step's loss.
nlohmann::json training_state_json(const app::TrainingSession& session, bool losses);

}  // namespace headlab::api
