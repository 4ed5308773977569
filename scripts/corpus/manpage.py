"""Chinese prose from roff manual pages (manpages-zh, the zh_CN pages only).

zh_TW holds the same pages converted to traditional characters, so it would only repeat them. Kept:
running text and the arguments of font macros (.B, .BR, ...). Dropped: other requests (.SH
headings, .TH, .if, mdoc macros), no-fill blocks (.nf/.fi, .EX/.EE: commands and listings), macro
definitions, comments and escapes. Paragraph macros and blank lines end a paragraph. A document is
one page.
"""
import gzip
import pathlib
import re
import shlex

from document import Document
from text_lines import clean_lines

FONT_MACROS = {"B", "I", "BR", "BI", "IB", "IR", "RB", "RI", "SM", "SB"}
ALTERNATING = {"BR", "BI", "IB", "IR", "RB", "RI"}  # arguments joined with no space between
SPECIAL_CHARACTERS = {"em": "—", "en": "–", "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "bu": "•",
                      "co": "©", "hy": "-", "aq": "'", "dq": '"', "mi": "-", "ti": "~"}
ESCAPE = re.compile(r"""\\(?:
      "(?P<comment>.*)$            # comment to the end of the line
    | \((?P<special>..)            # \(xx special character
    | \[(?P<named>[^\]]*)\]        # \[name] special character
    | f(?:\(..|\[[^\]]*\]|.)       # font change
    | s[+-]?\d+                    # size change
    | \*(?:\(..|\[[^\]]*\]|.)      # string reference
    | n(?:\(..|\[[^\]]*\]|.)       # number register
    | (?P<plain>.)                 # anything else: \- \e \& \  ...
)""", re.X)
PLAIN_ESCAPES = {"-": "-", "e": "\\", " ": " ", "~": " ", "0": " ", "'": "'", "`": "`", ".": "."}


def _unescape(text):
    def replace(match):
        if match.group("special"):
            return SPECIAL_CHARACTERS.get(match.group("special"), "")
        if match.group("named") is not None:
            return SPECIAL_CHARACTERS.get(match.group("named"), "")
        if match.group("plain") is not None:
            return PLAIN_ESCAPES.get(match.group("plain"), "")
        return ""
    return ESCAPE.sub(replace, text)


def _font_macro_text(name, arguments):
    try:
        words = shlex.split(arguments, posix=True)
    except ValueError:
        words = arguments.split()
    return ("" if name in ALTERNATING else " ").join(words)


def manpage_paragraphs(text):
    paragraphs, current = [], []
    no_fill = defining = False

    def end_paragraph():
        if current:
            paragraphs.append(" ".join(current))
            current.clear()

    for line in text.splitlines():
        if defining:
            defining = not line.startswith("..")
            continue
        if line.startswith((".", "'")):
            request = line[1:].strip()
            name, _, arguments = request.partition(" ")
            if name in ("de", "de1", "am"):
                defining = True
            elif name in ("nf", "EX"):
                end_paragraph()
                no_fill = True
            elif name in ("fi", "EE"):
                no_fill = False
            elif name in FONT_MACROS and not no_fill:
                current.append(_unescape(_font_macro_text(name, arguments)))
            else:
                end_paragraph()
            continue
        if no_fill:
            continue
        if not line.strip():
            end_paragraph()
        else:
            current.append(_unescape(line))
    end_paragraph()
    return paragraphs


def manpage_documents(man_folder, source):
    documents = []
    for path in sorted(pathlib.Path(man_folder).glob("man*/*.gz")):
        if path.is_symlink():
            continue
        text = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
        if text.lstrip().startswith(".so "):
            continue
        lines = clean_lines(manpage_paragraphs(text), "zh")
        if lines:
            documents.append(Document(source, f"{path.parent.name}/{path.name[:-3]}", lines))
    return documents
