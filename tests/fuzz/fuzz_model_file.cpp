// libFuzzer: the model-file parser must reject or accept any bytes without crashing, and whatever
// it accepts must serialize and parse back to the same text.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/model_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  headlab::Result<headlab::Document> parsed = headlab::parse_model_file(text);
  if (parsed.ok()) {
    const std::string again = headlab::serialize_model_file(parsed.value());
    headlab::Result<headlab::Document> reparsed = headlab::parse_model_file(again);
    if (!reparsed.ok() || headlab::serialize_model_file(reparsed.value()) != again) std::abort();
  }
  return 0;
}
