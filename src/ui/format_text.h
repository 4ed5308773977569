#pragma once
// printf into a std::string, for UI texts whose pattern comes from the string table.
#include <cstdio>
#include <string>

namespace headlab::ui {

template <class... Args>
std::string format_text(const char* pattern, Args... args) {
  char text[512];
  std::snprintf(text, sizeof text, pattern, args...);
  return text;
}

}  // namespace headlab::ui
