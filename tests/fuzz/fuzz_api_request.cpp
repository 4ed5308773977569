// libFuzzer: the request handler behind window.headlab takes any JSON a page script (or a lesson,
// or a tampered share link) sends, against a loaded lab. It must never crash, and it always answers
// with {"ok": true, ...} or {"ok": false, "error": "..."}. The benchmark ops only time loops of
// what the other ops already reach, so they are skipped to keep the fuzzer fast.
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "api/api.h"
#include "app/resources.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const headlab::app::Resources resources = headlab::app::load_resources().value();
  static headlab::app::AppState state;
  static headlab::app::Controller controller(state, resources);
  static int requests_since_reset = 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json request = nlohmann::json::parse(text, nullptr, false);
  if (!request.is_discarded() && request.is_object() && request.contains("op") && request["op"].is_string() &&
      request["op"].get<std::string>().rfind("benchmark", 0) == 0)
    return 0;
  const nlohmann::json reply = nlohmann::json::parse(headlab::api::handle_request(controller, text), nullptr, false);
  if (reply.is_discarded() || !reply.contains("ok") || !reply["ok"].is_boolean()) std::abort();
  if (!reply["ok"].get<bool>() && (!reply.contains("error") || !reply["error"].is_string() || reply["error"].get<std::string>().empty()))
    std::abort();
  // Back to the default lab now and then, so edits that grow the model do not slow every later input.
  if (++requests_since_reset == 64) {
    requests_since_reset = 0;
    headlab::api::handle_request(controller, R"({"op":"reset"})");
  }
  return 0;
}
