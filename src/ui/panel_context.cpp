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
    texts.unknown.clear();
    // Only the named features come from the lexicon; symbols, random vectors and checkpoints' own
    // vocabularies do not use it.
    const bool lexicon = s.document.model.embedding == Embedding::named_features;
    for (const Token& t : s.input.tokens) {
      texts.tokens.push_back(drawable_text(t.text));
      texts.unknown.push_back(lexicon && !t.in_lexicon && !t.is_special);
    }
    texts.features = headlab::feature_names(s.document.model);
  }
  return texts;
}

}  // namespace headlab::ui
