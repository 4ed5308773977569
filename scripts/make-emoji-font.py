#!/usr/bin/python3
"""Builds the emoji font the page fetches when a sentence holds an emoji (emoji.ttf).

ImGui draws outlines with stb_truetype, which reads no colour-glyph tables, so the colour emoji fonts
are out; Symbola (Debian's fonts-symbola, "free for any use") draws emoji of Unicode 9.0 as black
outlines, which the lab tints like any text. Kept: every code point the Unicode emoji data marks
Emoji (Debian's unicode-data) that Symbola has, beyond ASCII, plus the invisible joiners of emoji
sequences (zero-width joiner, variation selectors, the combining keycap) so they take no room.

usage: make-emoji-font.py OUT_DIR
writes OUT_DIR/emoji.ttf and OUT_DIR/emoji-chars.txt (the characters, UTF-8, for ImGui's glyph
ranges). Needs Debian's python3-fonttools, fonts-symbola and unicode-data.
"""
import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"
EMOJI_DATA = "/usr/share/unicode/emoji/emoji-data.txt"
JOINERS = {0x200D, 0x20E3, *range(0xFE00, 0xFE10)}


def emoji_code_points() -> set:
    points = set()
    with open(EMOJI_DATA, encoding="utf-8") as data:
        for line in data:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) != 2 or fields[1].strip() != "Emoji":
                continue
            first, _, last = fields[0].strip().partition("..")
            points.update(range(int(first, 16), int(last or first, 16) + 1))
    return {cp for cp in points if cp >= 0x80}


def main() -> int:
    out = pathlib.Path(sys.argv[1])
    has = TTFont(SOURCE).getBestCmap()
    kept = sorted(cp for cp in emoji_code_points() | JOINERS if cp in has)
    text = "".join(chr(cp) for cp in kept)
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    font = subset.load_font(SOURCE, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=kept)
    subsetter.subset(font)
    out.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(out / "emoji.ttf"), options)
    (out / "emoji-chars.txt").write_text(text, encoding="utf-8")
    print(f"emoji.ttf: {len(kept)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
