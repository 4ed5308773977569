#pragma once
// The two shapes of every window.headlab response (docs/js-api.md):
//   {"ok": true, "result": ...} and {"ok": false, "error": "why"}.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace headlab::api {

inline nlohmann::json success(nlohmann::json result = nullptr) {
  return {{"ok", true}, {"result", std::move(result)}};
}
inline nlohmann::json failure(const std::string& message) { return {{"ok", false}, {"error", message}}; }

}  // namespace headlab::api
