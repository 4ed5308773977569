#include "app/lesson_control_names.h"

#include <string_view>

namespace headlab::app {
namespace {

constexpr std::string_view kOpen = "{ui:";

// `text` with its placeholders filled from `pick` (the label in the text's language).
template <class Pick>
std::string fill(const std::string& text, const UiText& ui_text, Pick pick, std::string& error) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = text.find(kOpen, at);
    if (open == std::string::npos) break;
    const std::size_t close = text.find('}', open);
    if (close == std::string::npos) {
      error = "an unclosed {ui: placeholder";
      return text;
    }
    const std::string key = text.substr(open + kOpen.size(), close - open - kOpen.size());
    const LocalizedText* label = ui_text.find(key);
    if (!label) {
      error = "{ui:" + key + "} names no text of assets/ui_text.json";
      return text;
    }
    out.append(text, at, open - at).append(pick(*label));
    at = close + 1;
  }
  return out.append(text, at, std::string::npos);
}

std::string fill_both(LocalizedText& text, const UiText& ui_text) {
  std::string error;
  text.en = fill(text.en, ui_text, [](const LocalizedText& t) { return t.en; }, error);
  text.zh = fill(text.zh, ui_text, [](const LocalizedText& t) { return t.zh; }, error);
  return error;
}

}  // namespace

std::string name_controls(lessons::Lesson& lesson, const UiText& ui_text) {
  std::string error = fill_both(lesson.title, ui_text);
  if (error.empty()) error = fill_both(lesson.summary, ui_text);
  for (lessons::Step& step : lesson.steps) {
    for (LocalizedText* text : {&step.title, &step.text, &step.goal_text})
      if (error.empty()) error = fill_both(*text, ui_text);
    for (LocalizedText& hint : step.hints)
      if (error.empty()) error = fill_both(hint, ui_text);
    if (!error.empty()) return "step \"" + step.id + "\": " + error;
  }
  return error;
}

}  // namespace headlab::app
