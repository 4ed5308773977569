#include "ui/head_caption.h"

namespace headlab::ui {

std::string head_caption(const app::AppState& state, int layer, int head) {
  std::string caption = "H" + std::to_string(head);
  if (state.document.model.layers[layer].heads[head].pruned) caption += " (pruned)";
  return caption;
}

}  // namespace headlab::ui
