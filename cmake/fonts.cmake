# Fonts generated at build time from Debian packages (never committed):
#   ui.ttf  - DejaVu Sans cut to Latin, Greek, general punctuation and the few arrows and mathematical
#     signs the UI or a learner's sentence uses (not the whole arrow, operator and shape blocks: 22 KB
#     of the first frame's download for glyphs nothing drew), without hinting and layout tables:
#     ImGui rasterises outlines with stb_truetype, which reads neither (116 -> 33 KB gzip)
#   cjk.ttf - Noto Sans CJK SC cut to exactly the Chinese characters in assets/ (scripts/make-cjk-font.py),
#     served beside the page: fetched after the first frame, or before it when the lab opens in Chinese
#   cjk-startup.ttf - the Chinese characters an English lab's first frame draws, embedded
#   lazy-fonts/cjk-common.ttf - the common Chinese characters cjk.ttf lacks, served beside the page
#     and fetched only when a text needs them (not embedded: English learners never download it)
#   lazy-fonts/emoji.ttf - Symbola's emoji (scripts/make-emoji-font.py), fetched the first time a
#     text holds an emoji no loaded font draws
set(HEADLAB_FONT_DIR "${CMAKE_BINARY_DIR}/fonts")
set(HEADLAB_LAZY_FONT_DIR "${CMAKE_BINARY_DIR}/lazy-fonts")
set(HEADLAB_UI_FONT "${HEADLAB_FONT_DIR}/ui.ttf")
set(HEADLAB_CJK_FONT "${HEADLAB_FONT_DIR}/cjk.ttf")
set(HEADLAB_CJK_STARTUP_FONT "${HEADLAB_FONT_DIR}/cjk-startup.ttf")
# The label of the language button (kLanguageButtonChinese in src/ui/widgets.h; the font coverage
# test checks that this font has it).
set(HEADLAB_CJK_STARTUP_CHARS "中文")
file(GLOB_RECURSE HEADLAB_JSON_ASSETS CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/assets/*.json")
add_custom_command(
  OUTPUT "${HEADLAB_UI_FONT}"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${HEADLAB_FONT_DIR}"
  COMMAND /usr/bin/python3 -m fontTools.subset /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
          "--unicodes=U+0020-00FF,U+0100-024F,U+0370-03FF,U+2010-205E,U+2190-2199,U+21B5,U+21E5,U+2202,U+2207-2209,U+220F,U+2211,U+2212,U+221A,U+221E,U+2227-222A,U+2248,U+2260,U+2264,U+2265,U+2423,U+25A0,U+25CF,U+2713,U+2714,U+FFFD"
          --no-hinting "--layout-features=" "--output-file=${HEADLAB_UI_FONT}"
  DEPENDS /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  COMMENT "Subsetting the UI font")
add_custom_command(
  OUTPUT "${HEADLAB_CJK_FONT}" "${HEADLAB_FONT_DIR}/cjk-chars.txt" "${HEADLAB_CJK_STARTUP_FONT}"
         "${HEADLAB_LAZY_FONT_DIR}/cjk-common.ttf" "${HEADLAB_LAZY_FONT_DIR}/cjk-common-chars.txt"
  COMMAND /usr/bin/python3 "${CMAKE_SOURCE_DIR}/scripts/make-cjk-font.py" "${CMAKE_SOURCE_DIR}/assets" "${HEADLAB_FONT_DIR}"
          "${HEADLAB_CJK_STARTUP_CHARS}" "${HEADLAB_LAZY_FONT_DIR}"
  DEPENDS "${CMAKE_SOURCE_DIR}/scripts/make-cjk-font.py" ${HEADLAB_JSON_ASSETS}
  COMMENT "Subsetting the Chinese font to the characters the assets use")
add_custom_command(
  OUTPUT "${HEADLAB_LAZY_FONT_DIR}/emoji.ttf" "${HEADLAB_LAZY_FONT_DIR}/emoji-chars.txt"
  COMMAND /usr/bin/python3 "${CMAKE_SOURCE_DIR}/scripts/make-emoji-font.py" "${HEADLAB_LAZY_FONT_DIR}"
  DEPENDS "${CMAKE_SOURCE_DIR}/scripts/make-emoji-font.py"
  COMMENT "Subsetting Symbola to its emoji")
add_custom_target(headlab_fonts ALL DEPENDS "${HEADLAB_UI_FONT}" "${HEADLAB_CJK_FONT}" "${HEADLAB_LAZY_FONT_DIR}/emoji.ttf")
