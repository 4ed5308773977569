#pragma once
// The plain-object view of the lab that window.headlab.state() returns (docs/js-api.md).
#include <string>

#include "app/app_state.h"
#include "app/resources.h"

namespace headlab::api {

// {"tokens": [...], "config": {...}, "selection": {...}, "layers": [{"heads": [{"attention":
//  n x n rows, ...}]}], "notices": [...]}. Non-finite numbers are written as null.
std::string state_json(const app::AppState& state, const app::Resources& resources);

}  // namespace headlab::api
