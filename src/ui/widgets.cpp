#include "ui/widgets.h"

#include <algorithm>
#include <cstdio>

#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "ui/widget_ids.h"

namespace headlab::ui {

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  item_tooltip(text);
}

void item_tooltip(const char* text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void register_rect(LabUiState& ui, const std::string& name, ImVec2 min, ImVec2 max) {
  ui.widget_rects[name] = Rect{min.x, min.y, max.x - min.x, max.y - min.y};
}

void lagging_layer_note(const Words& words) {
  ImGui::TextDisabled("%s", words("layer_catching_up"));
  item_tooltip(words("layer_catching_up_tip"));
}

void register_item(LabUiState& ui, const std::string& name) {
  register_rect(ui, name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

bool vertical_splitter(const char* id, float& fraction, float total, float min_fraction, float max_fraction,
                       float height, bool invert) {
  const float width = ImGui::GetFontSize() * 0.45f;
  ImGui::InvisibleButton(id, ImVec2(width, height));
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered() || active) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  if (active && total > 0) {
    const float delta = ImGui::GetIO().MouseDelta.x / total;
    fraction = std::clamp(fraction + (invert ? -delta : delta), min_fraction, max_fraction);
  }
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImU32 colour = ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive
                                                 : ImGui::IsItemHovered() ? ImGuiCol_SeparatorHovered : ImGuiCol_Separator);
  const float x = (a.x + b.x) * 0.5f;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), colour, active ? 3.0f : 1.0f);
  return active;
}

bool horizontal_splitter(const char* id, float& fraction, float total, float min_fraction, float max_fraction, float width) {
  const float height = ImGui::GetFontSize() * 0.45f;
  ImGui::InvisibleButton(id, ImVec2(width, height));
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered() || active) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
  if (active && total > 0) fraction = std::clamp(fraction + ImGui::GetIO().MouseDelta.y / total, min_fraction, max_fraction);
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImU32 colour = ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive
                                                 : ImGui::IsItemHovered() ? ImGuiCol_SeparatorHovered : ImGuiCol_Separator);
  const float y = (a.y + b.y) * 0.5f;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), colour, active ? 3.0f : 1.0f);
  return active;
}

void badge(const char* text, ImU32 background, ImU32 foreground) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 pad(ImGui::GetFontSize() * 0.4f, ImGui::GetFontSize() * 0.1f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(size.x + pad.x * 2, size.y + pad.y * 2));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p, ImVec2(p.x + size.x + pad.x * 2, p.y + size.y + pad.y * 2), background, size.y);
  draw->AddText(ImVec2(p.x + pad.x, p.y + pad.y), foreground, text);
}

}  // namespace headlab::ui

namespace headlab::ui {

bool segmented(const char* id, const char* const* labels, int count, int& current, LabUiState* ui,
               const char* const* ids) {
  bool changed = false;
  ImGui::PushID(id);
  for (int i = 0; i < count; ++i) {
    // A segment that would run past the right edge starts a new row (a phone's tab bar).
    if (i > 0) flow_same_line(ImGui::CalcTextSize(labels[i], nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f, 2.0f);
    const bool active = i == current;
    if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(labels[i]) && !active) {
      current = i;
      changed = true;
    }
    if (active) ImGui::PopStyleColor();
    if (ui && ids) register_item(*ui, ids[i]);
  }
  ImGui::PopID();
  return changed;
}

}  // namespace headlab::ui

namespace headlab::ui {

void flow_same_line(float next_width, float spacing) {
  const float gap = spacing >= 0 ? spacing : ImGui::GetStyle().ItemSpacing.x;
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + gap + next_width <= right_edge) ImGui::SameLine(0, gap);
}

namespace {

// Calls f(code point, its UTF-8 bytes, their length) for each character of `utf8`.
template <class F>
void for_each_char(const std::string& utf8, F f) {
  const char* text = utf8.c_str();
  const char* end = text + utf8.size();
  while (text < end) {
    unsigned int c = 0;
    const int length = ImTextCharFromUtf8(&c, text, end);
    if (length <= 0) break;
    f(c, text, length);
    text += length;
  }
}

bool drawable(unsigned int c) {
  const ImFont* font = ImGui::GetFont();
  return c < 0x80 || (font && font->FindGlyphNoFallback(static_cast<ImWchar>(c)));
}

}  // namespace

bool editor_tab_matrix(const std::string& id, app::WeightMatrix& matrix) {
  for (int m = 0; m < 4; ++m)
    if (id == ids::kEditorTabs[m]) {
      matrix = static_cast<app::WeightMatrix>(m);
      return true;
    }
  return false;
}

std::string drawable_text(const std::string& utf8) {
  std::string out;
  for_each_char(utf8, [&](unsigned int c, const char* bytes, int length) {
    if (drawable(c)) {
      out.append(bytes, static_cast<std::size_t>(length));
    } else if (c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F)) {
      // The zero-width joiner and variation selectors inside emoji sequences draw nothing.
    } else {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", c);
      out += code;
    }
  });
  return out;
}

std::string fit_text(std::string text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  static const char* const kEllipsis = "\xE2\x80\xA6";
  while (!text.empty() && ImGui::CalcTextSize((text + kEllipsis).c_str()).x > width) {
    std::size_t cut = text.size() - 1;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a whole UTF-8 character
    text.resize(cut);
  }
  return text + kEllipsis;
}

namespace {
bool is_cjk(unsigned int c) { return (c >= 0x3000 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF); }
}  // namespace

bool lacks_cjk_glyph(const std::string& utf8) {
  bool lacks = false;
  for_each_char(utf8, [&](unsigned int c, const char*, int) { lacks = lacks || (is_cjk(c) && !drawable(c)); });
  return lacks;
}

namespace {
bool is_pictograph(unsigned int c) {
  return (c >= 0x2600 && c <= 0x27BF) || (c >= 0x2B00 && c <= 0x2BFF) || (c >= 0x1F000 && c <= 0x1FAFF);
}
}  // namespace

bool lacks_emoji_glyph(const std::string& utf8) {
  bool lacks = false;
  for_each_char(utf8, [&](unsigned int c, const char*, int) { lacks = lacks || (is_pictograph(c) && !drawable(c)); });
  return lacks;
}

bool has_cjk_character(const std::string& utf8) {
  bool found = false;
  for_each_char(utf8, [&](unsigned int c, const char*, int) { found = found || is_cjk(c); });
  return found;
}

TallItems::TallItems() {
  const ImGuiStyle& style = ImGui::GetStyle();
  // A selectable covers the spacing around it, so this spacing makes each item a frame tall.
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing,
                      ImVec2(style.ItemSpacing.x, std::max(style.ItemSpacing.y, ImGui::GetFrameHeight() - ImGui::GetTextLineHeight())));
}

void TallItems::end() {
  if (pushed_) ImGui::PopStyleVar();
  pushed_ = false;
}

bool choice_combo(const char* label, int& current, const std::vector<std::string>& names) {
  const int count = static_cast<int>(names.size());
  const char* preview = current >= 0 && current < count ? names[current].c_str() : "";
  if (!ImGui::BeginCombo(label, preview)) return false;
  bool changed = false;
  {
    TallItems tall;
    for (int i = 0; i < count; ++i) {
      ImGui::PushID(i);
      if (ImGui::Selectable(names[i].c_str(), i == current) && i != current) {
        current = i;
        changed = true;
      }
      if (i == current) ImGui::SetItemDefaultFocus();
      ImGui::PopID();
    }
  }
  ImGui::EndCombo();
  return changed;
}

}  // namespace headlab::ui
