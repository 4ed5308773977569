// libFuzzer: the saved-state loader (autosave, imports, and what a share link holds once decoded)
// takes untrusted text; it must never crash, and a refusal must leave the state untouched.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "app/saved_state.h"
#include "app/resources.h"
#include "engine/model_file.h"
#include "state_fingerprint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const headlab::app::Resources resources = headlab::app::load_resources().value();
  static headlab::app::AppState state;
  static headlab::app::Controller controller(state, resources);
  const std::string before = headlab::fuzz::state_fingerprint(state);
  const std::string error = headlab::app::load_state(controller, std::string(reinterpret_cast<const char*>(data), size));
  if (!error.empty() && headlab::fuzz::state_fingerprint(state) != before) std::abort();
  if (error.empty()) controller.apply(headlab::app::ResetDocument{});  // back to a known start
  return 0;
}
