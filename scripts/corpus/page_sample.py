#!/usr/bin/python3
"""Writes the real-text sample the page trains on, from the corpus scripts/fetch-corpus built.

usage: page_sample.py CORPUS_DIR OUT_DIR
Writes OUT_DIR/sample.train.txt and OUT_DIR/sample.heldout.txt: runs of consecutive lines taken
at an even stride through each language's file, English first, then Chinese, up to a byte budget
per file. The page fetches them only when a learner trains on real text (the Training tab's
one-vs-many experiment); they are built on each machine from the Debian packages, never committed.
Deterministic: the same corpus gives the same sample, so `headlab-cli train --task lm --corpus
OUT_DIR/sample.train.txt` natively sees the ids the page sees.
"""
import pathlib
import sys

RUN = 16  # consecutive lines: a verse with its neighbours, a gloss with its examples
BUDGET = {  # bytes of UTF-8 per language and split: about 180k and 150k tokens of training text
    ("en", "train"): 640_000,
    ("zh", "train"): 320_000,
    ("en", "heldout"): 24_000,
    ("zh", "heldout"): 16_000,
}


def sample(lines, budget):
    total = sum(len(line.encode("utf-8")) + 1 for line in lines)
    if total <= budget:
        return lines
    runs = (len(lines) + RUN - 1) // RUN
    wanted = max(1, runs * budget // total)
    out, size = [], 0
    for k in range(wanted):
        start = (k * runs // wanted) * RUN
        for line in lines[start:start + RUN]:
            size += len(line.encode("utf-8")) + 1
            if size > budget:
                return out
            out.append(line)
    return out


def main():
    corpus, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for split in ("train", "heldout"):
        lines = []
        for language in ("en", "zh"):
            text = (corpus / f"{language}.{split}.txt").read_text(encoding="utf-8")
            lines += sample([line for line in text.split("\n") if line], BUDGET[(language, split)])
        (out / f"sample.{split}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
