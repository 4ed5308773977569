#pragma once
// Which characters stand upright in a column label: CJK ideographs and their extensions, kana,
// hangul, CJK punctuation, the fullwidth forms and emoji (Unicode's Vertical_Orientation U,
// roughly). A rotated 猫 lies on its side; the heatmap's axes and its SVG export both ask here.

namespace headlab::ui {

inline bool stands_upright(char32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x20000 && c <= 0x3FFFF) ||
         (c >= 0x2600 && c <= 0x27BF) || (c >= 0x1F000 && c <= 0x1FAFF);
}

}  // namespace headlab::ui
