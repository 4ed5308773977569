#!/usr/bin/python3
"""Builds the Chinese font subsets HeadLab ships.

cjk.ttf: exactly the CJK glyphs its assets use. Every character outside the Latin UI font's ranges
found in any JSON file under assets/ (lesson texts, presets, labels, UI strings) is kept; nothing
else, so the download stays small. The page fetches it right after its first frame, or before it
when the lab will open in Chinese.

cjk-startup.ttf: the few characters an English lab draws in its first frame (the 中文 language
button), embedded in the module so that frame needs no font download.

cjk-common.ttf: the characters a learner is likely to type that cjk.ttf lacks: the 3,755 level-1
hanzi of GB 2312 (the most common simplified characters), CJK punctuation and full-width forms.
The page fetches it only when a text holds a Chinese character the other fonts cannot draw.

usage: make-cjk-font.py ASSETS_DIR OUT_DIR STARTUP_CHARS [COMMON_OUT_DIR]
writes OUT_DIR/cjk.ttf and OUT_DIR/cjk-chars.txt (the characters, UTF-8, for ImGui's glyph ranges),
OUT_DIR/cjk-startup.ttf with STARTUP_CHARS, and with COMMON_OUT_DIR, COMMON_OUT_DIR/cjk-common.ttf
and cjk-common-chars.txt.
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


def gb2312_level1() -> set:
    """GB 2312 rows 16-55 (bytes 0xB0-0xD7, 0xA1-0xFE): level-1 hanzi, ordered by frequency of use."""
    chars = set()
    for row in range(0xB0, 0xD8):
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes([row, cell]).decode("gb2312"))
            except UnicodeDecodeError:
                pass  # the last row ends at 0xD7F9
    return chars


def common_chars() -> set:
    punctuation = {chr(cp) for cp in range(0x3000, 0x3040)}
    full_width = {chr(cp) for cp in range(0xFF01, 0xFF5F)}
    return gb2312_level1() | punctuation | full_width


def write_subset(text: str, path: pathlib.Path) -> None:
    options = subset.Options()
    options.font_number = SIMPLIFIED_CHINESE
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    font = subset.load_font(SOURCE, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    subset.save_font(font, str(path), options)


def main() -> int:
    assets, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    chars = set()
    for path in sorted(assets.rglob("*.json")):
        chars.update(ch for ch in path.read_text(encoding="utf-8") if needs_cjk_font(ch))
    text = "".join(sorted(chars))
    out.mkdir(parents=True, exist_ok=True)
    (out / "cjk-chars.txt").write_text(text, encoding="utf-8")
    write_subset(text, out / "cjk.ttf")
    print(f"cjk.ttf: {len(chars)} characters")
    write_subset(sys.argv[3], out / "cjk-startup.ttf")
    if len(sys.argv) > 4:
        common_out = pathlib.Path(sys.argv[4])
        common_out.mkdir(parents=True, exist_ok=True)
        common = "".join(sorted(common_chars() - chars))
        (common_out / "cjk-common-chars.txt").write_text(common, encoding="utf-8")
        write_subset(common, common_out / "cjk-common.ttf")
        print(f"cjk-common.ttf: {len(common)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
