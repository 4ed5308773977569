#pragma once
// A cheap stand-in for save_state() in the fuzz harnesses: serializing the whole lab twice per
// input (several ms under ASan) cut the loaders' fuzzing to a few hundred inputs per 10 s. Every
// weight is summed with its position so a changed, moved or resized matrix changes the value;
// the text, selection, lesson progress and preferences are compared as they are.
#include <string>

#include "app/app_state.h"

namespace headlab::fuzz {

inline std::string state_fingerprint(const app::AppState& s) {
  double weights = 0.0;
  std::string shape;
  auto add = [&](const Matrix& m) {
    shape += std::to_string(m.rows()) + "x" + std::to_string(m.cols()) + ",";
    for (Eigen::Index i = 0; i < m.size(); ++i) weights += static_cast<double>(m.data()[i]) * static_cast<double>(i % 97 + 1);
  };
  const Model& model = s.document.model;
  for (const Layer& layer : model.layers) {
    for (const HeadWeights& head : layer.heads) {
      add(head.W_Q);
      add(head.W_K);
      add(head.W_V);
      shape += head.pruned ? "p" : "-";
    }
    add(layer.W_O);
  }
  const app::LessonProgress& p = s.progress;
  return shape + std::to_string(weights) + "|" + s.document.input.text + "|" + std::to_string(s.document.input.tokens.size()) +
         "|" + std::to_string(s.selection.layer) + "," + std::to_string(s.selection.head) + "|" + std::to_string(p.lesson) +
         "," + std::to_string(p.step) + "," + std::to_string(p.completed.size()) + "," +
         std::to_string(static_cast<int>(p.language)) + "|" + s.preferences.theme + "|" + std::to_string(model.layers.size());
}

}  // namespace headlab::fuzz
