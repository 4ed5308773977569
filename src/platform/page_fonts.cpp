// The page's fonts: the Chinese subset, the common Chinese characters and the emoji fetched when a
// text needs them, and the atlas rebuilt at the window's devicePixelRatio.
#include <emscripten.h>

#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "platform.h"

namespace headlab::platform {
namespace {

EM_JS(void, request_font, (int kind), {
  if (window.headlabFonts) window.headlabFonts.load(['subset', 'common', 'emoji'][kind]);
});

}  // namespace

// The common Chinese characters and the emoji are fetched the first time a sentence needs one (most
// learners never download them); until they arrive such characters show as code points on the axes
// (drawable_text) and as the replacement mark in the sentence box.
void request_missing_glyphs(Platform& p) {
  if (p.state.revision == p.glyphs_checked_revision) return;
  const std::string& text = p.state.document.input.text;
  if (!p.emoji_requested && headlab::ui::lacks_emoji_glyph(text)) {
    p.emoji_requested = true;
    request_font(static_cast<int>(PageFont::emoji));
  }
  // The subset comes first (use_whole_cjk_subset_when_needed): what it lacks is known once it is in.
  const bool subset_in = p.fonts.cjk_everything && !p.fonts.cjk_font.empty();
  if (subset_in && !p.common_cjk_requested && headlab::ui::lacks_cjk_glyph(text)) {
    p.common_cjk_requested = true;
    request_font(static_cast<int>(PageFont::cjk_common));
  }
  // Read again when an action changes the sentence, or, for Chinese text, once the subset is in.
  if (subset_in || !headlab::ui::has_cjk_character(text)) p.glyphs_checked_revision = p.state.revision;
}

// The whole Chinese subset is rasterised once the lab is in Chinese or its sentence holds a CJK
// character; English learners start without it (see FontFiles::cjk_startup_chars). The page fetches
// it after the first frame in any case; asking again only hurries a download still to start.
void use_whole_cjk_subset_when_needed(Platform& p) {
  if (p.fonts.cjk_everything) return;
  const bool chinese_ui = p.state.progress.language == headlab::app::Language::zh;
  // The sentence is read again only when an action has changed the state.
  if (!chinese_ui && p.state.revision == p.cjk_checked_revision) return;
  p.cjk_checked_revision = p.state.revision;
  if (!chinese_ui && !headlab::ui::has_cjk_character(p.state.document.input.text)) return;
  p.fonts.cjk_everything = true;
  if (p.fonts.cjk_font.empty()) request_font(static_cast<int>(PageFont::cjk_subset));
  else p.fonts_dirty = true;
}

void rebuild_fonts(Platform& p) {
  headlab::ui::load_fonts(p.fonts, kFontSize, p.pixel_ratio);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  p.drawn_frame.forget();  // the same glyph quads may now sample a different atlas
  p.fonts_dirty = false;
}

}  // namespace headlab::platform
