// libFuzzer: the saved-state loader (autosave, imports, and what a share link holds once decoded)
// takes untrusted text; it must never crash, and a refusal must leave the state untouched.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "app/saved_state.h"
#include "engine/assets.h"
#include "engine/model_file.h"
#include "state_fingerprint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static headlab::Lexicon lexicon = headlab::load_lexicon(nullptr);
  static headlab::app::AppState state;
  static headlab::app::Controller controller(state, lexicon);
  const std::string before = headlab::fuzz::state_fingerprint(state);
  const std::string error = headlab::app::load_state(controller, std::string(reinterpret_cast<const char*>(data), size));
  if (!error.empty() && headlab::fuzz::state_fingerprint(state) != before) std::abort();
  if (error.empty()) controller.apply([](headlab::app::AppState& s) {  // back to a known start
    s.document = headlab::default_document();
    return std::string();
  });
  return 0;
}
