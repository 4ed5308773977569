#!/usr/bin/env python3
"""headlab-cli forward on a .safetensors model and a text: its ids are the tokenizer's, every
position has the top-K predictions, most likely first, and every head's rows sum to 1.

  check_checkpoint_forward.py HEADLAB_CLI MODEL.safetensors TOKENIZER TEXT [forward options...]
"""
import json
import subprocess
import sys

cli, model, tokenizer, text, *options = sys.argv[1:]
forward = json.loads(subprocess.run([cli, "forward", model, "--text", text, *options], check=True,
                                    capture_output=True, text=True).stdout)
tokenized = json.loads(subprocess.run([cli, "tokenize", "--tokenizer", tokenizer, "--text", text], check=True,
                                      capture_output=True, text=True).stdout)
assert forward["ids"] == tokenized["ids"], (forward["ids"], tokenized["ids"])
n = len(forward["ids"])
assert len(forward["tokens"]) == n
assert len(forward["predictions"]) == n
for position in forward["predictions"]:
    assert len(position) == 5, position
    probabilities = [p["p"] for p in position]
    assert probabilities == sorted(probabilities, reverse=True), probabilities
    assert 0 < sum(probabilities) <= 1.0001, probabilities
for layer in forward["layers"]:
    for head in layer["heads"]:
        for i, row in enumerate(head["attention"]):
            assert abs(sum(row) - 1) < 1e-4, row
            assert all(v == 0 for v in row[i + 1:]), "causal"
        assert "label" in head
print(f"{n} tokens, {len(forward['layers'])} layers: ok")
