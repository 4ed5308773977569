#pragma once
// The lesson panel's own words in English and Simplified Chinese (assets/ui_text.json), loaded
// with the other Resources at start-up.
#include <set>
#include <string>
#include <unordered_map>

#include "app/lesson_progress.h"
#include "engine/result.h"

namespace headlab::app {

class UiText {
 public:
  // Parses assets/ui_text.json; unknown keys later fall back to the key itself.
  static UiText parse(const std::string& json_text);
  // As parse, but a file that is not {"texts": {key: {"en", "zh"}}} is an error naming the key.
  static Result<UiText> parse_strict(const std::string& json_text);
  const char* get(const char* key, Language language) const;
  // Both languages of `key`, or null (not counted as missing: the caller reports it).
  const LocalizedText* find(const std::string& key) const;
  // The keys asked for that the table lacks (shown as the key itself): a test draws every view in
  // both languages and expects none, which catches keys the source lint cannot see (tables of keys).
  const std::set<std::string>& missing() const { return missing_; }

 private:
  std::unordered_map<std::string, LocalizedText> texts_;
  mutable std::set<std::string> missing_;
};

}  // namespace headlab::app
