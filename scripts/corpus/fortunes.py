"""Fortune cookies (fortunes, fortunes-min): short quotations separated by lines holding "%".

A document is one fortune. Overstrike sequences (x BACKSPACE x) are undone, the attribution line
("-- Author") dropped, and the lines joined into one paragraph. Some files are left out (see
SKIPPED_FILES); `clean_lines` drops what is not prose (code, ASCII art).
"""
import pathlib
import re

from document import Document
from text_lines import clean_lines

# Pictures, non-English text, and files made mostly of verbatim lines from one copyrighted book,
# TV series, comic strip or songbook, which the collection's BSD notice cannot license.
SKIPPED_FILES = {"ascii-art", "translate-me", "pratchett", "startrek", "zippy", "songs-poems"}
OVERSTRIKE = re.compile(r".\x08")
ATTRIBUTION = re.compile(r"^\s*--\s")


def fortune_documents(fortune_folder, source):
    documents = []
    for path in sorted(pathlib.Path(fortune_folder).iterdir()):
        if path.suffix or path.is_symlink() or path.name in SKIPPED_FILES or not path.is_file():
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        for index, fortune in enumerate(re.split(r"^%\s*$", text, flags=re.M)):
            kept = [line for line in OVERSTRIKE.sub("", fortune).splitlines() if not ATTRIBUTION.match(line)]
            # A blank line inside a fortune separates paragraphs (dialogues, lists of rules).
            paragraphs = re.split(r"\n\s*\n", "\n".join(kept))
            lines = clean_lines(paragraphs, "en")
            if lines:
                documents.append(Document(source, f"{path.name}/{index}", lines))
    return documents
