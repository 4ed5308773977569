"""The King James Bible (bible-kjv-text), read with the `bible` program of bible-kjv.

The text ships compressed in the program's own format, so the program itself prints it: with -f
(plain output) one verse a line, "Ge1:1 In the beginning ...". A document is one chapter.
"""
import re
import subprocess

from document import Document
from text_lines import clean_lines

VERSE = re.compile(r"^(\S+?\d+):\d+ (.*)$")


def kjv_documents(bible_program, data_folder):
    output = subprocess.run([bible_program, "-f", "-p", data_folder, "gen1:1-rev22:21"],
                            check=True, capture_output=True, text=True, encoding="utf-8").stdout
    documents = {}
    for line in output.splitlines():
        match = VERSE.match(line)
        if match:
            chapter, verse = match.groups()
            documents.setdefault(chapter, []).append(verse)
    return [Document("bible-kjv-text", chapter, clean_lines(verses, "en"))
            for chapter, verses in documents.items()]
