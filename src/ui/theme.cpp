#include "ui/theme.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8

namespace headlab::ui {
namespace {

// ImGui's glyph ranges for the characters of `chars`, built once into `ranges`, which must outlive
// the atlas build. Not ImFontGlyphRangesBuilder: its BuildRanges visits all 65,536 code points,
// about 11 ms of the page's start-up while the module still runs unoptimised code; sorting the few
// characters given does the same in a fraction of that.
const ImWchar* glyph_ranges(const std::string& chars, ImVector<ImWchar>& ranges) {
  if (ranges.empty()) {
    std::vector<ImWchar> code_points;
    for (const char* p = chars.c_str(); *p;) {
      unsigned int c = 0;
      p += ImTextCharFromUtf8(&c, p, nullptr);
      if (c > 0 && c <= IM_UNICODE_CODEPOINT_MAX) code_points.push_back(static_cast<ImWchar>(c));
    }
    std::sort(code_points.begin(), code_points.end());
    code_points.erase(std::unique(code_points.begin(), code_points.end()), code_points.end());
    for (std::size_t i = 0; i < code_points.size(); ++i) {
      if (ranges.empty() || code_points[i] != ranges.back() + 1) {
        ranges.push_back(code_points[i]);
        ranges.push_back(code_points[i]);
      } else {
        ranges.back() = code_points[i];
      }
    }
    ranges.push_back(0);
  }
  return ranges.Data;
}

}  // namespace

bool load_fonts(FontFiles& files, float size_px, float pixel_ratio) {
  const std::string& font_path = files.ui_path;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.OversampleH = 2;
  config.OversampleV = 1;
  config.PixelSnapH = false;
  static const ImWchar kRanges[] = {
      0x0020, 0x00FF,  // Basic Latin + Latin-1
      0x0100, 0x024F,  // Latin Extended
      0x0370, 0x03FF,  // Greek (alpha, beta in explanations)
      0x2010, 0x205E,  // General punctuation (dashes, ellipsis)
      0x2190, 0x21FF,  // Arrows
      0x2200, 0x22FF,  // Mathematical operators
      0x2423, 0x2423,  // open box: a subword token's leading space (bpe::token_labels)
      0x25A0, 0x25FF,  // Geometric shapes (legend markers)
      0x2713, 0x2714,  // check marks (lesson goals)
      0xFFFD, 0xFFFD,  // replacement character: shown for glyphs the font lacks
      0,
  };
  ImFont* font = nullptr;
  if (std::FILE* f = std::fopen(font_path.c_str(), "rb")) {
    std::fclose(f);
    font = io.Fonts->AddFontFromFileTTF(font_path.c_str(), size_px * pixel_ratio, &config, kRanges);
  }
  // Chinese glyphs are merged into the UI font, a little larger: at the same pixel size they look
  // small next to Latin ones.
  ImFontConfig merge;
  merge.MergeMode = true;
  merge.OversampleH = 1;
  merge.PixelSnapH = true;
  const float cjk_size = size_px * 1.1f * pixel_ratio;
  // A character in more than one of these fonts is drawn from the first (ImGui skips glyphs a
  // merged font already has).
  if (font && !files.cjk_startup_chars.empty()) {
    if (std::FILE* f = std::fopen(files.cjk_startup_path.c_str(), "rb")) {
      std::fclose(f);
      io.Fonts->AddFontFromFileTTF(files.cjk_startup_path.c_str(), cjk_size, &merge,
                                   glyph_ranges(files.cjk_startup_chars, files.cjk_startup_ranges));
    }
  }
  merge.FontDataOwnedByAtlas = false;  // the fetched fonts' bytes stay in FontFiles for the next rebuild
  if (font && files.cjk_everything && !files.cjk_font.empty())
    io.Fonts->AddFontFromMemoryTTF(files.cjk_font.data(), static_cast<int>(files.cjk_font.size()), cjk_size, &merge,
                                   glyph_ranges(files.cjk_chars, files.cjk_ranges));
  if (font && !files.common_font.empty()) {
    io.Fonts->AddFontFromMemoryTTF(files.common_font.data(), static_cast<int>(files.common_font.size()), cjk_size, &merge,
                                   glyph_ranges(files.common_chars, files.common_ranges));
  }
  if (font && !files.emoji_font.empty()) {
    // Outlines with fine detail, a little larger than the text: Symbola draws emoji small in their em.
    merge.OversampleH = 2;
    merge.PixelSnapH = false;
    io.Fonts->AddFontFromMemoryTTF(files.emoji_font.data(), static_cast<int>(files.emoji_font.size()),
                                   size_px * 1.15f * pixel_ratio, &merge, glyph_ranges(files.emoji_chars, files.emoji_ranges));
  }
  if (!font) {
    ImFontConfig fallback;
    fallback.SizePixels = 13.0f * pixel_ratio;
    io.Fonts->AddFontDefault(&fallback);  // none in the web build, which embeds the UI font
  }
  if (!io.Fonts->Fonts.empty()) io.Fonts->Fonts[0]->FallbackChar = 0xFFFD;
  // Glyphs are rasterised at device resolution and drawn at CSS size.
  io.FontGlobalScale = 1.0f / pixel_ratio;
  return font != nullptr;
}

void apply_theme(Theme theme, Pointer pointer, float font_px) {
  ImGuiStyle style;
  if (theme == Theme::dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  style.WindowRounding = 6.0f;
  style.FrameRounding = 4.0f;
  style.GrabRounding = 4.0f;
  style.ChildRounding = 4.0f;
  style.PopupRounding = 4.0f;
  style.FramePadding = ImVec2(8, 5);
  style.ItemSpacing = ImVec2(8, 6);
  style.WindowPadding = ImVec2(12, 10);
  style.ScrollbarSize = 14.0f;
  if (pointer == Pointer::touch) {
    constexpr float kTouchTarget = 40.0f;
    style.FramePadding = ImVec2(10, std::ceil((kTouchTarget - font_px) * 0.5f));
    style.ItemSpacing = ImVec2(8, 8);
    style.ScrollbarSize = 18.0f;
    style.GrabMinSize = 20.0f;
  }
  if (theme == Theme::dark) {
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.13f, 1.0f);
    style.Colors[ImGuiCol_ChildBg] = ImVec4(0.11f, 0.12f, 0.16f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.17f, 0.19f, 0.25f, 1.0f);
    style.Colors[ImGuiCol_CheckMark] = ImVec4(1.00f, 0.74f, 0.25f, 1.0f);
    style.Colors[ImGuiCol_SliderGrab] = ImVec4(0.98f, 0.66f, 0.20f, 1.0f);
    style.Colors[ImGuiCol_Button] = ImVec4(0.20f, 0.25f, 0.36f, 1.0f);
    style.Colors[ImGuiCol_ButtonHovered] = ImVec4(0.28f, 0.36f, 0.52f, 1.0f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.20f, 0.25f, 0.36f, 1.0f);
  } else {
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.98f, 1.0f);
    style.Colors[ImGuiCol_CheckMark] = ImVec4(0.85f, 0.40f, 0.05f, 1.0f);
  }
  // Keep sizes that fonts scaled by FontGlobalScale expect.
  ImGui::GetStyle() = style;
}

}  // namespace headlab::ui
