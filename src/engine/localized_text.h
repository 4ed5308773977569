#pragma once
// A user-visible text in both languages of HeadLab. Asset files spell it {"en": ..., "zh": ...}.
#include <nlohmann/json.hpp>
#include <string>

namespace headlab {

struct LocalizedText {
  std::string en;
  std::string zh;
};

// Reads {"en": "...", "zh": "..."} with both non-empty; false otherwise.
inline bool read_localized_text(const nlohmann::json& value, LocalizedText& out) {
  if (!value.is_object()) return false;
  for (const char* key : {"en", "zh"})
    if (!value.contains(key) || !value[key].is_string() || value[key].get<std::string>().empty()) return false;
  out.en = value["en"].get<std::string>();
  out.zh = value["zh"].get<std::string>();
  return true;
}

}  // namespace headlab
