#include "engine/embedding.h"
#include "imgui.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace headlab::ui {

const StateTexts& PanelContext::texts() const {
  const app::AppState& s = state();
  StateTexts& texts = ui.state_texts;
  const int glyphs = ImGui::GetFont() ? ImGui::GetFont()->Glyphs.Size : 0;
  if (texts.revision != s.revision || texts.glyphs != glyphs) {
    texts.revision = s.revision;
    texts.glyphs = glyphs;
    texts.tokens.clear();
    for (const Token& t : s.input.tokens) texts.tokens.push_back(drawable_text(t.text));
    texts.features = headlab::feature_names(s.document.model);
  }
  return texts;
}

}  // namespace headlab::ui
