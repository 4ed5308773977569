#include <cctype>
#include <string>

#include "engine/embedding.h"
#include "imgui.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// The string table's key for a feature's name: "feature_" and its letters and digits, lower case
// ("noun" -> feature_noun, "pos^2" -> feature_pos2, "[CLS]" -> feature_cls).
std::string feature_text_key(const std::string& name) {
  std::string key = "feature_";
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return key;
}

}  // namespace

const StateTexts& PanelContext::texts() const {
  const app::AppState& s = state();
  StateTexts& texts = ui.state_texts;
  const int glyphs = ImGui::GetFont() ? ImGui::GetFont()->Glyphs.Size : 0;
  const int language = static_cast<int>(s.progress.language);
  if (texts.revision != s.revision || texts.glyphs != glyphs || texts.language != language) {
    texts.revision = s.revision;
    texts.glyphs = glyphs;
    texts.language = language;
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
    // In Chinese a named feature reads "名词 noun": the Chinese word, then the id that lessons,
    // goals and the JS API use.
    if (s.progress.language == app::Language::zh)
      for (std::string& name : texts.features)
        if (const LocalizedText* text = resources().ui_text.find(feature_text_key(name))) name = text->zh + " " + name;
  }
  return texts;
}

}  // namespace headlab::ui
