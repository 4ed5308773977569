"""Turns raw paragraphs into clean corpus lines: NFC, no URLs, single spaces, short enough.

Every extractor hands its paragraphs to `clean_lines`, which returns the lines worth keeping for one
language: one sentence or short paragraph per line, never a command line or a table row.
"""
import re
import unicodedata

URL = re.compile(r"(?:https?|ftp)://\S+|\bwww\.\S+|\S+@\S+\.\w+")
WHITESPACE = re.compile(r"\s+")
# Sentence ends: English needs a following capital or quote; Chinese ends at the mark itself.
ENGLISH_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z])")
CHINESE_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+")
# A sentence still too long is cut at its clauses.
CLAUSE_END = re.compile(r"(?<=[，、：])|(?<=[,:])\s+")

# A line break inside Chinese text (roff source, HTML) is no space: Han characters and CJK
# punctuation on both sides of white space join up.
CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
SPACE_BETWEEN_CJK = re.compile(f"(?<=[{CJK}])\\s+(?=[{CJK}])")

LONGEST_ENGLISH_LINE = 400  # characters; a longer paragraph is cut at sentence ends
LONGEST_CHINESE_LINE = 160


def is_han(ch):
    """A CJK unified ideograph (the blocks the tokenizer treats as one piece each)."""
    code = ord(ch)
    return (0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF
            or 0x20000 <= code <= 0x2FA1F)


def han_count(text):
    return sum(1 for ch in text if is_han(ch))


def word_count(text):
    """Whitespace-separated words holding at least one letter or digit."""
    return sum(1 for word in text.split() if any(ch.isalnum() for ch in word))


def normalise(text):
    text = unicodedata.normalize("NFC", text)
    text = URL.sub(" ", text)
    # Control characters (tabs, form feeds, stray backspaces) become spaces.
    text = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text)
    return WHITESPACE.sub(" ", text).strip()


def split_long(paragraph, sentence_end, longest):
    """Cuts a paragraph at sentence ends into pieces no longer than `longest` where it can."""
    if len(paragraph) <= longest:
        return [paragraph]
    sentences = []
    for sentence in sentence_end.split(paragraph):
        sentences.extend(CLAUSE_END.split(sentence) if len(sentence) > longest else [sentence])
    pieces, current = [], ""
    for sentence in sentences:
        sentence = sentence.strip()
        if not sentence:
            continue
        if current and len(current) + 1 + len(sentence) > longest:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current and not is_han(sentence[0]) else current + sentence
    if current:
        pieces.append(current)
    return pieces


def looks_english(line):
    """At least two words, and mostly letters: prose, not a command, a path or ASCII art."""
    visible = [ch for ch in line if not ch.isspace()]
    if word_count(line) < 2 or not visible:
        return False
    letters = sum(1 for ch in visible if ch.isalpha() and ord(ch) < 0x250)
    return letters / len(visible) >= 0.7 and not line.startswith(("$ ", "# ", "% "))


def looks_chinese(line):
    """At least four Han characters, and Han characters make up a third of what is visible."""
    visible = sum(1 for ch in line if not ch.isspace())
    han = han_count(line)
    return han >= 4 and han * 3 >= visible


def clean_lines(paragraphs, language):
    """The kept lines of `paragraphs` for `language` ("en" or "zh"), in order."""
    if language == "en":
        keep, end, longest = looks_english, ENGLISH_SENTENCE_END, LONGEST_ENGLISH_LINE
    else:
        keep, end, longest = looks_chinese, CHINESE_SENTENCE_END, LONGEST_CHINESE_LINE
    lines = []
    for paragraph in paragraphs:
        paragraph = normalise(paragraph)
        if language == "zh":
            paragraph = SPACE_BETWEEN_CJK.sub("", paragraph)
        if paragraph:
            lines.extend(piece for piece in split_long(paragraph, end, longest) if keep(piece))
    return lines
