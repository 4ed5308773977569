#include "ui/head_caption.h"

#include "engine/analysis/roles.h"
#include "ui/format_text.h"

namespace headlab::ui {

std::string label_display_name(const analysis::Label& label, const Words& words) {
  if (label.mixed()) return words("label_mixed");
  if (label.relation) return format_text(words("label_syntactic"), std::string(analysis::relation_id(*label.relation)).c_str());
  return role_display_name(*label.role, words);
}

std::string role_display_name(analysis::Role role, const Words& words) {
  return app::localized(words.resources.role_names[static_cast<int>(role)], words.language);
}

std::string head_caption(const app::AppState& state, int layer, int head, const Words& words) {
  if (state.document.model.layers[layer].heads[head].pruned) return words("label_pruned");
  if (state.progress.labels_hidden) return words("label_hidden");
  if (layer < static_cast<int>(state.analysis.layers.size()) &&
      head < static_cast<int>(state.analysis.layers[layer].heads.size()))
    return label_display_name(state.analysis.layers[layer].heads[head].label, words);
  return "H" + std::to_string(head);
}

}  // namespace headlab::ui
