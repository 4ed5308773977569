#include "app/ui_text.h"

#include <nlohmann/json.hpp>

namespace headlab::app {

UiText UiText::parse(const std::string& json_text) {
  UiText out;
  const auto doc = nlohmann::json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("texts") || !doc["texts"].is_object()) return out;
  for (const auto& [key, value] : doc["texts"].items()) {
    LocalizedText text;
    if (read_localized_text(value, text)) out.texts_[key] = std::move(text);
  }
  return out;
}

Result<UiText> UiText::parse_strict(const std::string& json_text) {
  using R = Result<UiText>;
  const auto doc = nlohmann::json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("texts") || !doc["texts"].is_object())
    return R::failure("expected {\"texts\": {key: {\"en\": ..., \"zh\": ...}}}");
  UiText out;
  for (const auto& [key, value] : doc["texts"].items()) {
    LocalizedText text;
    if (!read_localized_text(value, text)) return R::failure("texts." + key + ": expected both languages");
    out.texts_[key] = std::move(text);
  }
  return out;
}

const LocalizedText* UiText::find(const std::string& key) const {
  const auto it = texts_.find(key);
  return it == texts_.end() ? nullptr : &it->second;
}

const char* UiText::get(const char* key, Language language) const {
  const auto it = texts_.find(key);
  if (it == texts_.end()) {
    missing_.insert(key);
    return key;
  }
  return localized(it->second, language).c_str();
}

}  // namespace headlab::app
