"""A unit of the corpus: the held-out split takes or leaves whole documents."""
from dataclasses import dataclass, field


@dataclass
class Document:
    source: str  # the Debian package it comes from, e.g. "bible-kjv-text"
    name: str  # stable within the source, e.g. "Ge1" (a chapter) or "man1/ls"
    lines: list = field(default_factory=list)  # clean lines, one sentence or short paragraph each
