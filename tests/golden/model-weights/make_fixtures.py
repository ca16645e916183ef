#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make_fixtures.py - the safetensors headers the `model-weights*` golden cases read, written
from a description (run it here to make them again; the files are committed). Each file is
a header only: `vxpeak model --weights` reads no tensor data, so none is written.

The model is examples/models/stories15m.json (6 layers, hidden 288, MLP 768, vocabulary
32000, tied embeddings)."""
import json
import os
import struct

H, F, L, V = 288, 768, 6, 32000
SIZE = {"F32": 4, "F16": 2, "BF16": 2, "I32": 4}


def header(tensors):
    """tensors: [(name, dtype, shape)] -> {name: {dtype, shape, data_offsets}}, packed."""
    out, at = {"__metadata__": {"format": "pt"}}, 0
    for name, dtype, shape in tensors:
        n = SIZE[dtype]
        for d in shape:
            n *= d
        out[name] = {"dtype": dtype, "shape": shape, "data_offsets": [at, at + n]}
        at += n
    return out


def write(path, doc=None, raw=None):
    text = raw if raw is not None else json.dumps(doc, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)


def dense(dtype="F32", skip=()):
    t = [("model.embed_tokens.weight", dtype, [V, H]), ("model.norm.weight", dtype, [H])]
    for i in range(L):
        p = "model.layers.%d." % i
        for m in ("q_proj", "k_proj", "v_proj", "o_proj"):
            t.append((p + "self_attn.%s.weight" % m, dtype, [H, H]))
        t += [(p + "mlp.gate_proj.weight", dtype, [F, H]), (p + "mlp.up_proj.weight", dtype, [F, H]),
              (p + "mlp.down_proj.weight", dtype, [H, F])]
        t += [(p + "input_layernorm.weight", dtype, [H]),
              (p + "post_attention_layernorm.weight", dtype, [H])]
    return [x for x in t if x[0] not in skip]


def gptq(skip=()):
    """4-bit GPTQ: each projection a packed qweight (8 values an I32), group-32 scales and
    zeros; embeddings and norms in F16; plus a rotary table the architecture does not have."""
    t = [("model.embed_tokens.weight", "F16", [V, H]), ("model.norm.weight", "F16", [H]),
         ("model.rotary_emb.inv_freq", "F32", [24])]
    for i in range(L):
        p = "model.layers.%d." % i
        mods = [("self_attn.%s" % m, H, H) for m in ("q_proj", "k_proj", "v_proj", "o_proj")]
        mods += [("mlp.gate_proj", H, F), ("mlp.up_proj", H, F), ("mlp.down_proj", F, H)]
        for m, cin, cout in mods:
            if p + m in skip:
                continue
            t += [(p + m + ".qweight", "I32", [cin // 8, cout]),
                  (p + m + ".scales", "F16", [cin // 32, cout]),
                  (p + m + ".qzeros", "I32", [cin // 32, cout // 8])]
        t += [(p + "input_layernorm.weight", "F16", [H]),
              (p + "post_attention_layernorm.weight", "F16", [H])]
    return t


here = os.path.dirname(os.path.abspath(__file__))
os.chdir(here)
write("tiny.safetensors", header(dense()))
write("quantized.safetensors", header(gptq(skip=("model.layers.5.mlp.down_proj",))))
with open("truncated.safetensors", "wb") as f:
    f.write(b"\x10\x00\x00\x00\x00")
with open("short.safetensors", "wb") as f:
    f.write(struct.pack("<Q", 1000) + b'{"model.norm.weight":')
write("badjson.safetensors", raw=b'{"model.norm.weight": {"dtype": "F32",, "shape": [288]}}')
with open("huge.safetensors", "wb") as f:
    f.write(struct.pack("<Q", 1 << 63) + b"{}")
write("badshape.safetensors",
      {"model.norm.weight": {"dtype": "F32", "shape": [288], "data_offsets": [0, 1000]}})
# Two shards and their index.
tensors = dense()
half = len(tensors) // 2
os.makedirs("sharded", exist_ok=True)
write("sharded/model-00001-of-00002.safetensors", header(tensors[:half]))
write("sharded/model-00002-of-00002.safetensors", header(tensors[half:]))
index = {"metadata": {"total_size": 0}, "weight_map": {}}
for i, (name, _, _) in enumerate(tensors):
    index["weight_map"][name] = "model-0000%d-of-00002.safetensors" % (1 if i < half else 2)
with open("sharded/model.safetensors.index.json", "w") as f:
    json.dump(index, f, indent=1, sort_keys=True)
    f.write("\n")
