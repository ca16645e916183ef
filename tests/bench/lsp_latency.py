# SPDX-License-Identifier: Apache-2.0
"""lsp_latency.py VXPEAK - what a person typing feels: the time from sending a
`textDocument/didChange` to receiving its `publishDiagnostics` (matched by version), over
stdio through the real `vxpeak lsp` process, p50 and p99 over many one-line edits; then,
on the analysed 20,000-line program, the time of a `textDocument/codeLens` request and of a
`textDocument/inlayHint` request over the whole file (the two an editor sends after every
change), from sending each to its reply, median and max of LSP_BENCH_REQUESTS.

Two documents: the 20,000-line program of bench_incremental.c (the loop bound of a
pseudo-random function edited), and examples/llama2/prefill.vx (BATCH typed from 1 to 9
and back, so the verdict flips: each publish is checked to carry E6010 exactly when BATCH
is 9). Edits are sent one at a time, each after the previous publish, as keystrokes
spaced further apart than an analysis."""
import json
import os
import pathlib
import random
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
EDITS = int(os.environ.get("LSP_BENCH_EDITS", "200"))
REQUESTS = int(os.environ.get("LSP_BENCH_REQUESTS", "20"))


def generate():
    """bench_incremental.c's program: a machine header, then 1,999 functions of 10 lines."""
    out = ["// bench_incremental: generated, 20000 lines\n", "Memory CPU_DRAM {}\n", "Memory HBM {\n",
           "  within: Memory::CPU_DRAM, capacity: 40 GiB, managed: explicit\n", "}\n", "Topology Dev {\n",
           "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n",
           "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n", "}\n", "\n"]
    for k in range((20000 - 10) // 10):
        out.append(f"fn f{k:05d}(x: i32) -> i32 {{\n"
                   "  let w = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::HBM);\n"
                   "  for i in 0..10 {\n"
                   "    let s = transfer(Tensor<f16, [256, 256]>::uninit(), Memory::HBM);\n"
                   "    print(s);\n"
                   "  }\n"
                   "  print(w);\n"
                   f"  f{max(k - 1, 0):05d}(x);\n"
                   "  return 0;\n"
                   "}\n")
    return "".join(out)


class Server:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def recv(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("lsp_latency: the server closed its output")
            if line == b"\r\n":
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            m = self.recv()
            if m.get("id") == self.next_id:
                return m

    def wait_publish(self, uri, version):
        while True:
            m = self.recv()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri \
                    and m["params"].get("version") == version:
                return m["params"]["diagnostics"]

    def close(self):
        self.request("shutdown", None)
        self.send({"jsonrpc": "2.0", "method": "exit"})
        return self.p.wait(timeout=30)


def percentile(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))]


def run(server, name, uri, text, edit):
    """`edit(i, lines, diagnostics at open)` returns (line, start, end, new text, check) for edit i; the
    returned check is called with the published diagnostics."""
    server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": uri, "languageId": "vx", "version": 0, "text": text}}})
    t0 = time.perf_counter()
    opened = server.wait_publish(uri, 0)
    open_ms = (time.perf_counter() - t0) * 1e3
    lines = text.split("\n")
    times = []
    for i in range(1, EDITS + 1):
        line, start, end, new, check = edit(i, lines, opened)
        lines[line] = lines[line][:start] + new + lines[line][end:]
        t0 = time.perf_counter()
        server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": i},
            "contentChanges": [{"range": {"start": {"line": line, "character": start},
                                          "end": {"line": line, "character": end}}, "text": new}]}})
        diags = server.wait_publish(uri, i)
        times.append((time.perf_counter() - t0) * 1e3)
        if not check(diags):
            raise SystemExit(f"lsp_latency: {name}: edit {i}: unexpected diagnostics {diags[:2]}")
    print(f"  {name:<34} open {open_ms:8.1f} ms   didChange -> publishDiagnostics: "
          f"p50 {percentile(times, 50):7.2f} ms   p99 {percentile(times, 99):7.2f} ms   ({EDITS} edits)")
    return lines


def whole_file_requests(server, name, uri, lines):
    """Code lenses and inlay hints for the whole (analysed) document: only building the
    reply, since nothing changed since the last publish. Each reply is checked to hold a
    lens per function / a hint per placement, as counted by the caller's `expect`."""
    doc = {"textDocument": {"uri": uri}}
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}
    for method, params, what in (("textDocument/codeLens", doc, "lenses"),
                                 ("textDocument/inlayHint", dict(doc, range=whole), "hints")):
        times, count = [], None
        for _ in range(REQUESTS):
            t0 = time.perf_counter()
            reply = server.request(method, params)
            times.append((time.perf_counter() - t0) * 1e3)
            if "result" not in reply or not reply["result"]:
                raise SystemExit(f"lsp_latency: {name}: {method}: no result: {str(reply)[:200]}")
            count = len(reply["result"])
        print(f"  {name:<34} {method[13:]:<10} whole file: median {percentile(times, 50):8.2f} ms   "
              f"max {max(times):8.2f} ms   ({count} {what}, {REQUESTS} requests)")


def main():
    vxpeak = sys.argv[1]
    server = Server([vxpeak, "lsp"])
    server.request("initialize", {"capabilities": {}, "processId": os.getpid()})
    server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    print(f"lsp_latency: {vxpeak} lsp over stdio, one-line edits, each sent after the previous publish")

    rnd = random.Random(42)
    big = generate()

    codes = lambda d: sorted(x.get("code") or "" for x in d)

    def loop_bound(i, lines, opened):
        # The bound of a loop does not change the verdict (f00000's recursion, E6028).
        k = rnd.randrange(1999)
        line = 10 + k * 10 + 2
        old = lines[line]
        new = f"  for i in 0..{rnd.randint(1, 99)} {{"
        return line, 0, len(old), new, lambda d: codes(d) == codes(opened)

    lines = run(server, "20,000-line program (loop bound)", "file:///bench/big.vx", big, loop_bound)
    whole_file_requests(server, "20,000-line program", "file:///bench/big.vx", lines)

    llama = (ROOT / "examples" / "llama2" / "prefill.vx").read_text()
    batch_line = next(n for n, l in enumerate(llama.split("\n")) if l.startswith("const BATCH"))

    def batch(i, lines, opened):
        old = lines[batch_line]
        col = old.index("= ") + 2
        value = 9 if i % 2 else 1
        want = value == 9
        return batch_line, col, col + 1, str(value), \
            lambda d: any(x.get("code") == "E6010" for x in d) == want

    run(server, "examples/llama2/prefill.vx (BATCH)", "file:///bench/prefill.vx", llama, batch)
    rc = server.close()
    if rc != 0:
        raise SystemExit(f"lsp_latency: the server exited with {rc}")


if __name__ == "__main__":
    main()
