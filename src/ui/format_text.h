#pragma once
// UI texts from the string table: printf into a std::string, and labels whose ImGui id stays the
// same in every language.
#include <cstdio>
#include <string>

namespace headlab::ui {

template <class... Args>
std::string format_text(const char* pattern, Args... args) {
  char text[512];
  std::snprintf(text, sizeof text, pattern, args...);
  return text;
}

// "Heads###heads" shows the translated label and keeps the id "heads", so a widget's state (an
// open header, an active slider) survives a switch of language.
inline std::string with_id(const char* label, const char* id) { return std::string(label) + "###" + id; }

}  // namespace headlab::ui
