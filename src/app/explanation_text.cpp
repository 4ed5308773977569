#include "app/explanation_text.h"

#include "engine/analysis/explanation.h"

namespace headlab::app {

std::string explanation_text(const analysis::HeadLabel& label, const Resources& resources, Language language) {
  if (language == Language::en) return label.explanation;
  const auto found = resources.explanations.find(label.explanation_id);
  if (found == resources.explanations.end()) return label.explanation;
  const auto name = [&](std::string_view kind, const std::string& value) -> std::string {
    if (kind == "role") {
      analysis::Role role;
      return analysis::role_from_id(value, role) ? localized(resources.role_names[static_cast<int>(role)], language) : value;
    }
    for (const analysis::RelationInfo& relation : resources.analysis.gold.relations)
      if (relation.id == value) return localized(relation.name, language);
    return value;
  };
  std::string text;
  analysis::fill_explanation(localized(found->second, language), label.explanation_values, name, text);
  return text;
}

}  // namespace headlab::app
