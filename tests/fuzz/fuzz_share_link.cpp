// libFuzzer: share links (src/app/share_link.h) arrive from anyone's URL. Decoding must never
// crash or allocate past its cap; a decoded link goes through the same openShareLink request the
// page sends, and a refused link must leave the lab exactly as it was.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "app/share_link.h"
#include "app/resources.h"
#include "engine/model_file.h"
#include "state_fingerprint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const headlab::app::Resources resources = headlab::app::load_resources().value();
  static headlab::app::AppState state;
  static headlab::app::Controller controller(state, resources);
  const std::string fragment(reinterpret_cast<const char*>(data), size);
  const headlab::Result<std::string> text = headlab::app::decode_share_payload(fragment);
  if (text.ok() && text.value().size() > headlab::app::kMaxSharedTextBytes) std::abort();
  // Whatever decodes must encode and decode back to itself.
  if (text.ok() && headlab::app::decode_share_payload(headlab::app::encode_share_payload(text.value())).value() != text.value()) std::abort();

  const std::string before = headlab::fuzz::state_fingerprint(state);
  const std::string response = headlab::api::handle_request(controller, nlohmann::json{{"op", "openShareLink"}, {"fragment", fragment}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  const auto reply = nlohmann::json::parse(response, nullptr, false);
  if (!reply.is_object() || !reply.contains("ok")) std::abort();
  if (!reply["ok"].get<bool>()) {
    if (headlab::fuzz::state_fingerprint(state) != before) std::abort();
  } else {
    controller.apply(headlab::app::ResetDocument{});  // back to a known start
  }
  return 0;
}
