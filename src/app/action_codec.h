#pragma once
// The one JSON form of an Action, shared by window.headlab (api.h), lesson files and anything
// else that stores edits:  {"op": "setWeight", "layer": 0, "head": 1, "which": "W_K", "row": 5,
// "col": 0, "value": 2.5}. One table in action_codec.cpp names each op and its fields; decoding is
// strict: a missing or mistyped field, an unknown field or an unknown op is an error naming it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/action.h"
#include "engine/result.h"

namespace headlab::app {

// The ops of the table, in the order of the Action variant.
const std::vector<std::string>& action_op_names();
bool is_action_op(const std::string& op);

// `path` prefixes error messages ("lesson.steps[0].setup[1]." gives "lesson.steps[0].setup[1].layer: ...");
// empty for a request from the JS API ("layer: expected an integer").
Result<Action> decode_action(const nlohmann::json& request, const std::string& path = "");

// {"op": ..., every field}; decode_action(encode_action(a)) == a.
nlohmann::json encode_action(const Action& action);

}  // namespace headlab::app
