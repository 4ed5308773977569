#include "ui/head_caption.h"

#include "engine/analysis/roles.h"

namespace headlab::ui {

std::string label_display_name(const std::string& label) {
  if (label.rfind("syntactic:", 0) == 0) return label.substr(10) + " (syntax)";
  analysis::Role role;
  if (analysis::role_from_id(label, role)) return analysis::role_name_en(role);
  return label;
}

std::string head_caption(const app::AppState& state, int layer, int head) {
  if (state.document.model.layers[layer].heads[head].pruned) return "pruned";
  if (layer < static_cast<int>(state.analysis.layers.size()) &&
      head < static_cast<int>(state.analysis.layers[layer].heads.size()))
    return label_display_name(state.analysis.layers[layer].heads[head].label.label);
  return "H" + std::to_string(head);
}

}  // namespace headlab::ui
