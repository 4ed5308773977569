#pragma once
// Lessons name the lab's controls by the labels the learner sees: a lesson text writes
// {ui:window_weights} and reads "Weights" in English, "权重" in Chinese, from the same string table
// as the control itself (assets/ui_text.json), so a renamed or translated button never leaves a
// lesson pointing at a label that is not on screen.
#include <string>

#include "app/ui_text.h"
#include "lessons/lesson.h"

namespace headlab::app {

// Replaces every {ui:key} in both languages of the lesson's texts (title, summary, and each step's
// title, text, goal and hints). Returns "" or what is wrong: a key the table lacks, an unclosed
// placeholder.
std::string name_controls(lessons::Lesson& lesson, const UiText& ui_text);

}  // namespace headlab::app
