#pragma once
// A head's explanation in the learner's language: the label's template (assets/labels.json,
// "explanations") filled with its values, role and relation names in that language too.
#include <string>

#include "app/lesson_progress.h"
#include "app/resources.h"
#include "engine/analysis/head_label.h"

namespace headlab::app {

std::string explanation_text(const analysis::HeadLabel& label, const Resources& resources, Language language);

}  // namespace headlab::app
