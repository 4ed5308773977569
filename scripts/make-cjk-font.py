#!/usr/bin/python3
"""Builds the Chinese font subset HeadLab ships: exactly the CJK glyphs its assets use.

Every character outside the Latin UI font's ranges found in any JSON file under assets/ (lesson
texts, presets, labels, UI strings) is kept; nothing else, so the download stays small.

usage: make-cjk-font.py ASSETS_DIR OUT_DIR
writes OUT_DIR/cjk.ttf and OUT_DIR/cjk-chars.txt (the characters, UTF-8, for ImGui's glyph ranges).
Needs Debian's python3-fonttools and fonts-noto-cjk.
"""
import pathlib
import sys

from fontTools import subset

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SIMPLIFIED_CHINESE = 2  # index of "Noto Sans CJK SC" in the collection


def needs_cjk_font(ch: str) -> bool:
    cp = ord(ch)
    return cp >= 0x2E80 and not (0xFFF0 <= cp <= 0xFFFF)


def main() -> int:
    assets, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    chars = set()
    for path in sorted(assets.rglob("*.json")):
        chars.update(ch for ch in path.read_text(encoding="utf-8") if needs_cjk_font(ch))
    text = "".join(sorted(chars))
    out.mkdir(parents=True, exist_ok=True)
    (out / "cjk-chars.txt").write_text(text, encoding="utf-8")
    options = subset.Options()
    options.font_number = SIMPLIFIED_CHINESE
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    font = subset.load_font(SOURCE, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    subset.save_font(font, str(out / "cjk.ttf"), options)
    print(f"cjk.ttf: {len(chars)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
