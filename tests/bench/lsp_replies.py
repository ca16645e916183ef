# SPDX-License-Identifier: Apache-2.0
"""lsp_replies.py: the replies of `vxpeak lsp` on large and ordinary documents, to compare
two builds of the server and to time the requests an editor sends after every change.

  lsp_replies.py dump VXPEAK OUT FILE...   every reply, one JSON line each, into OUT
  lsp_replies.py time VXPEAK               whole-file requests on two generated programs

`dump` opens each FILE (a path, or GEN:big20k, GEN:big12k, GEN:generic, GEN:errors for the
generated programs below) and writes its published diagnostics, documentSymbol, codeLens,
inlay hints over the whole file and over five partial ranges, and hovers at both ends of
every identifier (about 3,000 of them, evenly spaced, on a large file) and on the name of
each function near both ends. Two builds give the same file when their replies are the
same: `cmp` the outputs. `time` prints how long each request on the analysed document
takes, from sending it to its reply (client decoding included)."""
import json
import pathlib
import re
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import lsp_latency  # noqa: E402

FUNCTION = """fn f{i}() -> i32 {{
  let t = transfer(Tensor<f32, [N, 1024]>::new(), Memory::HBM);
  let u = t;
  return 0;
}}
"""
# tests/lsp/test_cancel.py's program: 12,000 functions of two tiles.
BIG12K = "const N : i64 = 512;\n" + "".join(FUNCTION.format(i=i) for i in range(12000))
# A generic function with 4,000 instances before it.
GENERIC = """fn h<const K : i64>() -> i32 {
  let t = transfer(Tensor<f32, [K, 1024]>::new(), Memory::HBM);
  let u = t;
  return 0;
}
""" + "".join(f"fn c{i}() -> i32 {{\n  return h<{i + 1}>();\n}}\n" for i in range(4000)) + BIG12K
# 3,000 functions over the a100-40's HBM: an E6010 each, with related information.
ERRORS = "".join(f"""fn e{i}() -> i32 {{
  let t = transfer(Tensor<f32, [100000, 100000]>::new(), Memory::HBM);
  let u = transfer(Tensor<f32, [100000, 100000]>::new(), Memory::HBM);
  let v = t;
  let w = u;
  return 0;
}}
""" for i in range(3000))
GENERATED = {"big20k": lsp_latency.generate, "big12k": lambda: BIG12K,
             "generic": lambda: GENERIC, "errors": lambda: ERRORS}


def start(vxpeak):
    server = lsp_latency.Server([vxpeak, "lsp"])
    server.request("initialize", {"capabilities": {}, "processId": None})
    server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    return server


def open_doc(server, uri, text):
    server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "vx", "version": 1, "text": text}}})
    return server.wait_publish(uri, 1)


def span(start, end):
    return {"start": {"line": start[0], "character": start[1]},
            "end": {"line": end[0], "character": end[1]}}


def dump(vxpeak, out_path, files):
    server = start(vxpeak)
    with open(out_path, "w") as out:
        def put(**what):
            out.write(json.dumps(what) + "\n")
        for n, f in enumerate(files):
            text = GENERATED[f[4:]]() if f.startswith("GEN:") else \
                pathlib.Path(f).read_text(errors="replace")
            uri = f"file:///doc{n}.vx"
            doc = {"textDocument": {"uri": uri}}
            put(file=f, diagnostics=open_doc(server, uri, text))
            for method in ("textDocument/documentSymbol", "textDocument/codeLens"):
                put(file=f, method=method, reply=server.request(method, doc))
            lines = text.split("\n")
            put(file=f, method="inlayHint", reply=server.request(
                "textDocument/inlayHint", dict(doc, range=span((0, 0), (len(lines), 0)))))
            for a in range(0, len(lines), max(1, len(lines) // 5)):
                put(file=f, method="inlayHint", line=a, reply=server.request(
                    "textDocument/inlayHint", dict(doc, range=span((a, 3), (a + 7, 5)))))
            positions = []
            for ln, line in enumerate(lines):
                for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", line):
                    c0 = len(line[:m.start()].encode("utf-16-le")) // 2
                    positions += [(ln, c0), (ln, c0 + (m.end() - m.start()) // 2)]
            names = [(ln, 3) for ln, line in enumerate(lines)
                     if line.startswith("fn ") and (ln < 300 or ln > len(lines) - 300)]
            for ln, c in positions[::max(1, len(positions) // 3000)] + names:
                reply = server.request("textDocument/hover",
                                       dict(doc, position={"line": ln, "character": c}))
                put(file=f, hover=[ln, c], reply=reply.get("result", reply.get("error")))
            server.send({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": doc})
    server.close()


def timed(vxpeak):
    server = start(vxpeak)
    for name in ("big12k", "generic"):
        uri = f"file:///{name}.vx"
        t0 = time.perf_counter()
        open_doc(server, uri, GENERATED[name]())
        print(f"{name:8} open {(time.perf_counter() - t0) * 1e3:9.0f} ms")
        doc = {"textDocument": {"uri": uri}}
        for method, params in (
                ("textDocument/codeLens", doc),
                ("textDocument/inlayHint", dict(doc, range=span((0, 0), (100000, 0)))),
                ("textDocument/documentSymbol", doc),
                ("textDocument/hover", dict(doc, position={"line": 0, "character": 3}))):
            t0 = time.perf_counter()
            reply = server.request(method, params)
            print(f"{name:8} {method[13:]:15} {(time.perf_counter() - t0) * 1e3:9.0f} ms   "
                  f"({len(json.dumps(reply))} bytes)")
    server.close()


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 3 and sys.argv[1] == "time":
        timed(sys.argv[2])
    else:
        raise SystemExit(__doc__)
