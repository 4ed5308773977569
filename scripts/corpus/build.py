#!/usr/bin/python3
"""Builds HeadLab's real-text corpus from extracted Debian packages.

usage: build.py PACKAGES_DIR OUT_DIR
PACKAGES_DIR holds one folder per package, each a `dpkg-deb -x` of its .deb, and bible-kjv's
`bible` program. Writes OUT_DIR/{en,zh}.{train,heldout}.txt (UTF-8, NFC, one sentence or short
paragraph a line) and OUT_DIR/stats.json.

The held-out split takes whole documents (a Bible chapter, a WordNet synset, a fortune, a manual
section, a help page, a man page): a document is held out when the SHA-256 of "source/name" read as a big-endian
number is 0 mod 20 (about 5%). A line of training text that also occurs in the held-out text is
dropped, and every line is kept once per split, so no held-out sentence is ever trained on.
"""
import hashlib
import json
import pathlib
import sys

from manual_html import html_documents
from fortunes import fortune_documents
from kjv import kjv_documents
from manpage import manpage_documents
from text_lines import han_count, word_count
from wordnet import wordnet_documents

HELD_OUT_MODULUS = 20


def is_held_out(document):
    digest = hashlib.sha256(f"{document.source}/{document.name}".encode("utf-8")).digest()
    return int.from_bytes(digest, "big") % HELD_OUT_MODULUS == 0


def english_documents(packages):
    return [
        *wordnet_documents(packages / "wordnet-base/usr/share/wordnet"),
        *kjv_documents(str(packages / "bible-kjv/usr/bin/bible"), str(packages / "bible-kjv-text/usr/lib")),
        *fortune_documents(packages / "fortunes/usr/share/games/fortunes", "fortunes"),
        *fortune_documents(packages / "fortunes-min/usr/share/games/fortunes", "fortunes-min"),
    ]


def chinese_documents(packages):
    return [
        *html_documents(packages / "debian-reference-zh-cn/usr/share/debian-reference", "*.zh-cn.html",
                        "debian-reference-zh-cn"),
        *html_documents(packages / "debian-faq-zh-cn/usr/share/doc/debian/FAQ/zh-cn", "*.zh-cn.html",
                        "debian-faq-zh-cn"),
        *html_documents(packages / "maint-guide-zh-cn/usr/share/doc/maint-guide-zh-cn/html", "*.zh-cn.html",
                        "maint-guide-zh-cn"),
        *html_documents(packages / "libreoffice-help-zh-cn/usr/share/libreoffice/help/zh-CN/text", "**/*.html",
                        "libreoffice-help-zh-cn"),
        *manpage_documents(packages / "manpages-zh/usr/share/man/zh_CN", "manpages-zh"),
    ]


def split(documents):
    """(train, held_out): lists of (source, line), each line once, none of held_out in train."""
    held_out, train, held_out_seen, train_seen = [], [], set(), set()
    for document in documents:
        if is_held_out(document):
            for line in document.lines:
                if line not in held_out_seen:
                    held_out_seen.add(line)
                    held_out.append((document.source, line))
    for document in documents:
        if not is_held_out(document):
            for line in document.lines:
                if line not in held_out_seen and line not in train_seen:
                    train_seen.add(line)
                    train.append((document.source, line))
    return train, held_out


def count(lines, measure):
    per_source = {}
    for source, line in lines:
        entry = per_source.setdefault(source, {"lines": 0, measure.__name__: 0})
        entry["lines"] += 1
        entry[measure.__name__] += measure(line)
    total = {"lines": sum(e["lines"] for e in per_source.values()),
             measure.__name__: sum(e[measure.__name__] for e in per_source.values())}
    return {"total": total, "sources": per_source}


def main():
    packages, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    stats = {"held_out_rule": f"sha256(source/document) mod {HELD_OUT_MODULUS} == 0"}
    for language, documents, measure in (("en", english_documents(packages), word_count),
                                         ("zh", chinese_documents(packages), han_count)):
        train, held_out = split(documents)
        for name, lines in (("train", train), ("heldout", held_out)):
            with (out / f"{language}.{name}.txt").open("w", encoding="utf-8") as file:
                file.writelines(line + "\n" for _, line in lines)
            stats[f"{language}.{name}"] = count(lines, measure)
    (out / "stats.json").write_text(json.dumps(stats, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for key, value in stats.items():
        if key != "held_out_rule":
            print(key, json.dumps(value["total"]))


if __name__ == "__main__":
    main()
