// The page's fonts: the Chinese subset and common characters fetched when a text needs them, and the
// atlas rebuilt at the window's devicePixelRatio.
#include <emscripten.h>

#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "platform.h"

namespace headlab::platform {
namespace {

EM_JS(void, request_cjk_font, (int kind), {
  if (window.headlabFonts) window.headlabFonts.load(kind === 0 ? 'subset' : 'common');
});

}  // namespace

// The common Chinese characters are fetched the first time a sentence needs one (English learners
// never download them); until they arrive such characters show as code points (drawable_text).
void request_missing_glyphs(Platform& p) {
  if (p.common_cjk_requested || p.state.revision == p.glyphs_checked_revision) return;
  // The subset comes first (use_whole_cjk_subset_when_needed): what it lacks is known once it is in.
  if (!p.fonts.cjk_everything || p.fonts.cjk_font.empty()) return;
  p.glyphs_checked_revision = p.state.revision;
  if (!headlab::ui::lacks_cjk_glyph(p.state.document.input.text)) return;
  p.common_cjk_requested = true;
  request_cjk_font(static_cast<int>(CjkFont::common));
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
  if (p.fonts.cjk_font.empty()) request_cjk_font(static_cast<int>(CjkFont::subset));
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
