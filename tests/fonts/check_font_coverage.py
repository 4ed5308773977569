#!/usr/bin/python3
"""Every character of every Chinese text in assets/ has a glyph in the fonts HeadLab ships, and the
label of the language button has one in the font embedded for an English first frame.

usage: check_font_coverage.py ASSETS_DIR FONT_DIR WIDGETS_H
Walks every JSON file, takes every "zh" string, and checks each character against the cmaps of
cjk.ttf and ui.ttf; reads kLanguageButtonChinese from WIDGETS_H and checks it against
cjk-startup.ttf. Prints the missing characters and exits 1 when any is missing.
"""
import json
import pathlib
import re
import sys

from fontTools.ttLib import TTFont


def zh_strings(value):
    if isinstance(value, dict):
        for key, child in value.items():
            if key == "zh" and isinstance(child, str):
                yield child
            else:
                yield from zh_strings(child)
    elif isinstance(value, list):
        for child in value:
            yield from zh_strings(child)


def main() -> int:
    assets, fonts = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    covered = set()
    for name in ("cjk.ttf", "ui.ttf"):
        covered.update(TTFont(fonts / name).getBestCmap().keys())
    missing, texts = {}, 0
    for path in sorted(assets.rglob("*.json")):
        for text in zh_strings(json.loads(path.read_text(encoding="utf-8"))):
            texts += 1
            for ch in text:
                if ord(ch) >= 0x20 and ord(ch) not in covered:
                    missing.setdefault(ch, path.name)
    if texts == 0:
        print("no Chinese texts found: is the assets path right?")
        return 1
    # The C++ literal spells the label's UTF-8 bytes as \xNN escapes.
    widgets = pathlib.Path(sys.argv[3]).read_text(encoding="utf-8")
    literal = re.search(r'kLanguageButtonChinese = "([^"]*)"', widgets)
    if not literal:
        print("kLanguageButtonChinese not found: is the widgets.h path right?")
        return 1
    label = literal.group(1).encode("ascii").decode("unicode_escape").encode("latin-1").decode("utf-8")
    startup = TTFont(fonts / "cjk-startup.ttf").getBestCmap().keys()
    for ch in label:
        if ord(ch) not in startup:
            missing.setdefault(ch, "cjk-startup.ttf, the language button")
    for ch, where in sorted(missing.items()):
        print(f"missing glyph U+{ord(ch):04X} {ch!r} (first used in {where})")
    print(f"{texts} Chinese texts checked, {len(missing)} characters without a glyph")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
