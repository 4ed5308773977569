#include "ui/head_caption.h"

#include "engine/analysis/roles.h"
#include "ui/format_text.h"

namespace headlab::ui {

std::string label_display_name(const std::string& label, const Words& words) {
  if (label.rfind("syntactic:", 0) == 0) return format_text(words("label_syntactic"), label.substr(10).c_str());
  analysis::Role role;
  if (analysis::role_from_id(label, role)) return app::localized(words.resources.role_names[static_cast<int>(role)], words.language);
  if (label == analysis::kMixedLabel) return words("label_mixed");
  return label;
}

std::string head_caption(const app::AppState& state, int layer, int head, const Words& words) {
  if (state.document.model.layers[layer].heads[head].pruned) return words("label_pruned");
  if (layer < static_cast<int>(state.analysis.layers.size()) &&
      head < static_cast<int>(state.analysis.layers[layer].heads.size()))
    return label_display_name(state.analysis.layers[layer].heads[head].label.label, words);
  return "H" + std::to_string(head);
}

}  // namespace headlab::ui
