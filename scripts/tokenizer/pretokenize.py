"""The "gpt2-cjk" pre-tokenizer: text -> pieces, which BPE then merges inside, never across.

First every CJK ideograph and every CJK or full-width punctuation mark becomes a piece of its own.
Each stretch of text between them is then split as GPT-2 splits text (Radford et al. 2019):

    's|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+

tried in that order at each position, the stretch's end counting as the end of the text (so white
space just before a Chinese character stays one piece and takes no character with it). Letters are
Unicode categories L*, numbers N*, white space str.isspace(). The C++ tokenizer is the reference at
run time; this one only has to agree with it on the training text.
"""
import unicodedata

CONTRACTIONS = ("s", "t", "re", "ve", "m", "ll", "d")
CJK_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FA1F),
              (0x3000, 0x303F), (0xFF00, 0xFFEF))
LETTER, NUMBER, SPACE, OTHER, CJK = "L", "N", "S", "O", "C"
_classes = {}


def char_class(ch):
    kind = _classes.get(ch)
    if kind is None:
        code = ord(ch)
        if any(low <= code <= high for low, high in CJK_RANGES):
            kind = CJK
        elif ch.isspace():
            kind = SPACE
        else:
            kind = {"L": LETTER, "N": NUMBER}.get(unicodedata.category(ch)[0], OTHER)
        _classes[ch] = kind
    return kind


def _split_stretch(text, pieces):
    """GPT-2's split of text holding no CJK character."""
    classes = [char_class(ch) for ch in text]
    end, start = len(text), 0
    while start < end:
        ch = text[start]
        if ch == "'":
            contraction = next((c for c in CONTRACTIONS if text.startswith(c, start + 1)), None)
            if contraction:
                pieces.append(text[start:start + 1 + len(contraction)])
                start += 1 + len(contraction)
                continue
        # " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": an optional leading space, then a run.
        first = start + 1 if ch == " " and start + 1 < end and classes[start + 1] != SPACE else start
        kind = classes[first]
        if kind != SPACE:
            stop = first + 1
            while stop < end and classes[stop] == kind:
                stop += 1
            pieces.append(text[start:stop])
            start = stop
            continue
        # "\s+(?!\S)" then "\s+": a run of white space leaves its last character to the next piece.
        stop = start + 1
        while stop < end and classes[stop] == SPACE:
            stop += 1
        if stop < end and stop - start >= 2:
            stop -= 1
        pieces.append(text[start:stop])
        start = stop


def pre_tokenize(text):
    """The pieces of `text`, in order; they concatenate back to `text`."""
    pieces, stretch_start = [], 0
    for index, ch in enumerate(text):
        if char_class(ch) == CJK:
            if stretch_start < index:
                _split_stretch(text[stretch_start:index], pieces)
            pieces.append(ch)
            stretch_start = index + 1
    if stretch_start < len(text):
        _split_stretch(text[stretch_start:], pieces)
    return pieces
