#include "engine/analysis/explanation.h"

namespace headlab::analysis {

const char* explanation_template_en(std::string_view id) {
  for (const ExplanationTemplate& t : kExplanationTemplates)
    if (id == t.id) return t.en;
  return "";
}

}  // namespace headlab::analysis
