#pragma once
// One line of the lesson panel's goal box: what a goal measures, its value now and its target
// ("L0H2 lazy -> dog attention 0.39 / >= 0.60"), in the learner's language.
#include <string>

#include "app/resources.h"
#include "lessons/goal.h"

namespace headlab::ui {

std::string goal_number_text(const lessons::GoalNumber& number, const app::Resources& resources, app::Language language);

}  // namespace headlab::ui
