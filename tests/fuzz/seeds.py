#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""seeds.py - write the libFuzzer seed corpora and the Vx token dictionary.

  seeds.py ROOT OUTDIR

OUTDIR/program/   every Vx program of the checkout: examples/, tests/corpus/, the inputs of
                  the grammar's test corpus (grammar/test/corpus/*.txt), the regression
                  corpus (tests/fuzz/regressions/*.vx) - the seeds of fuzz_check and fuzz_cuda
OUTDIR/machine/   fleet/*.vx and the machine regressions - the seeds of fuzz_machine
OUTDIR/edit/      each program prefixed by a small edit script (see fuzz_edit.c), and again
                  parsed for editing with three blanks put at line starts (body_edits)
OUTDIR/lsp/       a framed language-server session per program: initialize, didOpen, a
                  didChange, hover, inlay hints, shutdown, exit (see fuzz_lsp.c)
OUTDIR/vx.dict    every keyword and punctuation token of the grammar (grammar/src/grammar.json)

Seeds larger than --max-len bytes are left out: small inputs keep the harnesses fast.
"""
import glob
import json
import os
import re
import sys


def body_edits(program):
    """fuzz_edit's script for `program` parsed for editing (bit 3), then three edits that
    each put a blank into a line at a third, a half and two thirds of the text (mostly inside
    a function's body, so that the reparse may parse only the window around it)."""
    n = len(program) + 1
    script = bytes([8 | 3])
    for at in (n // 3, n // 2, 2 * n // 3):
        at = program.rfind(b"\n", 0, max(at, 1)) + 1  # the start of that line
        script += bytes([at & 0xFF, (at >> 8) & 0xFF, 0, 1]) + b" "
    return script + program


def corpus_inputs(path):
    """The program text of each case of a tree-sitter corpus file."""
    text = open(path, encoding="utf-8", errors="surrogateescape").read()
    parts = re.split(r"^={3,}\n.*\n={3,}\n", text, flags=re.M)
    for part in parts[1:]:
        yield part.split("\n---\n")[0].strip("\n").encode("utf-8", "surrogateescape")


def grammar_tokens(grammar_json):
    tokens = set()

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "STRING":
                tokens.add(node["value"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(json.load(open(grammar_json)))
    return sorted(tokens)


def lsp_session(text):
    """A framed JSON-RPC session that opens `text` (bytes) as a document."""
    uri = "file:///fuzz.vx"
    doc = text.decode("utf-8", "replace")
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "vx", "version": 1, "text": doc}}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{
                "range": {"start": {"line": 1, "character": 0},
                          "end": {"line": 1, "character": 3}}, "text": "let"}]}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 2, "character": 6}}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/inlayHint", "params": {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
                                                    "end": {"line": 99, "character": 0}}}},
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    out = b""
    for m in messages:
        body = json.dumps(m).encode()
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return out


def main():
    root, out = sys.argv[1], sys.argv[2]
    max_len = 4096
    programs = []
    for pattern in ("examples/**/*.vx", "tests/corpus/*.vx", "tests/fuzz/regressions/*.vx"):
        for f in sorted(glob.glob(os.path.join(root, pattern), recursive=True)):
            programs.append(open(f, "rb").read())
    for f in sorted(glob.glob(os.path.join(root, "grammar/test/corpus/*.txt"))):
        programs.extend(corpus_inputs(f))
    machines = [open(f, "rb").read() for f in sorted(glob.glob(os.path.join(root, "fleet/*.vx")))]
    machines += [open(f, "rb").read() for f in
                 sorted(glob.glob(os.path.join(root, "tests/fuzz/regressions/machine/*.vx")))]
    for sub, items in (("program", programs), ("machine", machines),
                       ("edit", [bytes([3, 10, 0, 2, 3]) + b"}{ " + p for p in programs] +
                        [body_edits(p) for p in programs]),
                       ("lsp", [lsp_session(p) for p in programs if len(p) <= 2048])):
        d = os.path.join(out, sub)
        os.makedirs(d, exist_ok=True)
        n = 0
        for i, data in enumerate(items):
            if len(data) <= max_len:
                with open(os.path.join(d, "seed-%04d" % i), "wb") as f:
                    f.write(data)
                n += 1
        print("seeds: %d in %s" % (n, d))
    with open(os.path.join(out, "vx.dict"), "w") as f:
        for t in grammar_tokens(os.path.join(root, "grammar/src/grammar.json")):
            f.write('"%s"\n' % "".join(c if c.isalnum() or c in "_:<>=!-+*/%&|^.,;()[]{}?@#$~ "
                                       else "\\x%02x" % ord(c) for c in t))
        for t in ("Memory::HBM", "Memory::SRAM", "capacity:", "within:", "granule:", "clock:",
                  "bandwidth:", "Topology", "MHz", "GB", "KiB", "B/cyc", "transfer(", ".load(",
                  "Tensor<f32, [", "99999999999999999999", "18446744073709551615", "\\xff"):
            f.write('"%s"\n' % t)


if __name__ == "__main__":
    main()
