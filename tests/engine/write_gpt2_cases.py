#!/usr/bin/env python3
"""Writes tiny GPT-2-shaped checkpoints in Hugging Face's layout, each with its float64 reference.

For each case: <out>/<case>/model.safetensors, config.json (unless the case has none) and
reference.json: the token ids, every head's attention (layer, head, query, key) and, per position,
the logits and the top-5 next tokens, all computed here with numpy in float64 from the values as
stored (F16 and BF16 rounded first). The C++ reader and forward are checked against these; nothing
here shares code with them.

  python3 write_gpt2_cases.py OUT_DIR
"""
import json
import math
import os
import struct
import sys

import numpy as np

# name, layers, heads, d_model, vocab, positions, d_ff, dtype, prefix, extras (lm_head, mask buffers, metadata)
CASES = [
    ("small_f32", 2, 2, 16, 64, 16, 64, "F32", "", False),
    ("prefixed_f16", 3, 4, 32, 100, 24, 128, "F16", "transformer.", True),
    ("bf16_three_heads", 1, 3, 24, 40, 12, 96, "BF16", "", False),
    ("one_head_f32", 2, 1, 8, 30, 10, 20, "F32", "transformer.", True),
    # GPT-2's whole vocabulary, so that the command line can run it on text (tests/cli).
    ("gpt2_vocabulary_f16", 1, 2, 8, 50257, 32, 32, "F16", "", False),
    # Deep and wide enough for every head lesson 22 names (up to L6H9), with GPT-2's vocabulary.
    ("seven_layers_f16", 7, 12, 24, 50257, 64, 96, "F16", "", False),
]
NO_CONFIG = {"bf16_three_heads"}  # opened with the head count given instead of config.json
TOKENS = 9  # length of the reference input


def to_bf16_bits(x):
    """float32 -> bfloat16 bits, rounded to nearest even."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def from_bf16_bits(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


def stored(values, dtype):
    """The tensor's bytes and the float64 values HeadLab will read back from them."""
    values = np.ascontiguousarray(values, dtype=np.float32)
    if dtype == "F32":
        return values.astype("<f4").tobytes(), values.astype(np.float64)
    if dtype == "F16":
        half = values.astype("<f2")
        return half.tobytes(), half.astype(np.float64)
    bits = to_bf16_bits(values).astype("<u2")
    return bits.tobytes(), from_bf16_bits(bits).astype(np.float64)


def write_safetensors(path, tensors, metadata=None):
    """tensors: list of (name, dtype string, shape, bytes), written in this order."""
    header = {}
    offset = 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)  # Hugging Face pads the header with spaces
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, _, _, data in tensors:
            f.write(data)


def layer_norm(x, gamma, beta):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * gamma + beta


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def make_case(out_dir, name, layers, heads, d, vocab, positions, d_ff, dtype, prefix, extras, rng):
    weights = {}  # name (no prefix) -> float32 array
    weights["wte.weight"] = rng.normal(0, 0.5, (vocab, d))
    weights["wpe.weight"] = rng.normal(0, 0.3, (positions, d))
    for l in range(layers):
        p = f"h.{l}."
        weights[p + "ln_1.weight"] = 1 + rng.normal(0, 0.2, d)
        weights[p + "ln_1.bias"] = rng.normal(0, 0.1, d)
        # Q and K large enough that attention is far from uniform: a wrong head shows.
        weights[p + "attn.c_attn.weight"] = rng.normal(0, 0.6, (d, 3 * d))
        weights[p + "attn.c_attn.bias"] = rng.normal(0, 0.3, 3 * d)
        weights[p + "attn.c_proj.weight"] = rng.normal(0, 0.3, (d, d))
        weights[p + "attn.c_proj.bias"] = rng.normal(0, 0.1, d)
        weights[p + "ln_2.weight"] = 1 + rng.normal(0, 0.2, d)
        weights[p + "ln_2.bias"] = rng.normal(0, 0.1, d)
        weights[p + "mlp.c_fc.weight"] = rng.normal(0, 0.3, (d, d_ff))
        weights[p + "mlp.c_fc.bias"] = rng.normal(0, 0.1, d_ff)
        weights[p + "mlp.c_proj.weight"] = rng.normal(0, 0.3, (d_ff, d))
        weights[p + "mlp.c_proj.bias"] = rng.normal(0, 0.1, d)
    weights["ln_f.weight"] = 1 + rng.normal(0, 0.2, d)
    weights["ln_f.bias"] = rng.normal(0, 0.1, d)

    tensors, read_back = [], {}
    names = list(weights)
    rng.shuffle(names)  # file order is not the model's order
    for key in names:
        data, back = stored(weights[key], dtype)
        tensors.append((prefix + key, dtype, weights[key].shape, data))
        read_back[key] = back
    if extras:
        # What some exports add: the tied output matrix and the causal mask buffers (not weights).
        data, _ = stored(weights["wte.weight"], dtype)
        tensors.append(("lm_head.weight", dtype, weights["wte.weight"].shape, data))
        for l in range(layers):
            mask = np.tril(np.ones((positions, positions), dtype=np.uint8)).reshape(1, 1, positions, positions)
            tensors.append((f"{prefix}h.{l}.attn.bias", "U8", mask.shape, mask.tobytes()))
            tensors.append((f"{prefix}h.{l}.attn.masked_bias", "F32", (), struct.pack("<f", -1e4)))
    case_dir = os.path.join(out_dir, name)
    os.makedirs(case_dir, exist_ok=True)
    write_safetensors(os.path.join(case_dir, "model.safetensors"), tensors,
                      {"format": "pt"} if extras else None)
    if name not in NO_CONFIG:
        config = {"model_type": "gpt2", "n_layer": layers, "n_head": heads, "n_embd": d, "n_positions": positions,
                  "vocab_size": vocab, "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new",
                  "n_inner": d_ff if d_ff != 4 * d else None}
        with open(os.path.join(case_dir, "config.json"), "w") as f:
            json.dump(config, f, indent=1)

    # The float64 reference forward.
    ids = [int(i) for i in rng.integers(0, vocab, TOKENS)]
    w = read_back
    x = w["wte.weight"][ids] + w["wpe.weight"][:TOKENS]
    d_head = d // heads
    mask = np.triu(np.full((TOKENS, TOKENS), -np.inf), 1)
    attention = []
    for l in range(layers):
        p = f"h.{l}."
        h = layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"])
        qkv = h @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        z = np.zeros((TOKENS, d))
        layer_attention = []
        for i in range(heads):
            cols = slice(i * d_head, (i + 1) * d_head)
            logits = q[:, cols] @ k[:, cols].T / math.sqrt(d_head) + mask
            logits -= logits.max(axis=1, keepdims=True)
            a = np.exp(logits)
            a /= a.sum(axis=1, keepdims=True)
            layer_attention.append(a.tolist())
            z[:, cols] = a @ v[:, cols]
        attention.append(layer_attention)
        x = x + z @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        h = layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"])
        x = x + gelu(h @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]) @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    logits = layer_norm(x, w["ln_f.weight"], w["ln_f.bias"]) @ w["wte.weight"].T
    top = []
    for row in logits:
        p = np.exp(row - row.max())
        p /= p.sum()
        order = sorted(range(vocab), key=lambda t: (-row[t], t))[:5]
        top.append([{"id": t, "p": float(p[t])} for t in order])
    reference = {"layers": layers, "heads": heads, "d_model": d, "dtype": dtype, "has_config": name not in NO_CONFIG,
                 "ids": ids, "attention": attention, "logits": logits.tolist(), "top": top}
    with open(os.path.join(case_dir, "reference.json"), "w") as f:
        json.dump(reference, f)


def main():
    out_dir = sys.argv[1]
    rng = np.random.default_rng(20261207)
    for case in CASES:
        make_case(out_dir, *case, rng)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(c[0] for c in CASES) + "\n")


if __name__ == "__main__":
    main()
