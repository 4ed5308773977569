"""WordNet 3.0 glosses (wordnet-base): each synset's definition and its example sentences.

A data.<pos> line ends in "| gloss", the gloss being the definition, then quoted examples:
`| an organism ...; "the dog barked"; "..."`. A document is one synset.
"""
import pathlib
import re

from document import Document
from text_lines import clean_lines

QUOTED = re.compile(r'"([^"]+)"')


def wordnet_documents(wordnet_folder):
    documents = []
    for part in ("noun", "verb", "adj", "adv"):
        for line in (pathlib.Path(wordnet_folder) / f"data.{part}").open(encoding="utf-8"):
            if line.startswith("  ") or " | " not in line:  # the licence header, indented
                continue
            offset = line.split(" ", 1)[0]
            gloss = line.split(" | ", 1)[1].strip()
            first_quote = gloss.find('"')
            definition = (gloss if first_quote < 0 else gloss[:first_quote]).strip().rstrip(";").strip()
            examples = QUOTED.findall(gloss)
            documents.append(Document("wordnet-base", f"{part}/{offset}",
                                      clean_lines([definition, *examples], "en")))
    return documents
