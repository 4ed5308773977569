#pragma once
// The lesson panel's own words in English and Simplified Chinese (assets/ui_text.json).
#include <string>
#include <unordered_map>

#include "app/lesson_progress.h"

namespace headlab::ui {

class UiText {
 public:
  // Parses assets/ui_text.json; unknown keys later fall back to the key itself.
  static UiText parse(const std::string& json_text);
  const char* get(const char* key, app::Language language) const;

 private:
  std::unordered_map<std::string, LocalizedText> texts_;
};

}  // namespace headlab::ui
