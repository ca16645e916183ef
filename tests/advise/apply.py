#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""apply.py CLI - `vxpeak advise` is held to its word (issue 32, item 3).

For programs that do not fit, every suggestion advise makes must be admitted by `vxpeak check`
when applied as its "apply" field says (-D, --machine, --retype), with the same margin; each
constant suggestion must be `vxpeak sweep`'s answer over 1..the constant's value; the
suggestions must come most useful first (fewest bytes given up, then the most tokens/s). A
program that fits gets exit status 0 and its headroom, and no suggestion.
"""
import json
import shlex
import subprocess
import sys

CASES = [
    ("examples/llama2/decode.vx", ["-D", "BATCH=16", "--tokens-per-call", "BATCH"]),
    ("examples/llama2/prefill.vx", ["-D", "BATCH=12"]),
    ("examples/formula/kv.vx", ["-D", "CONTEXT=32768", "-D", "BATCH=12", "--margin", "10%"]),
]


def run(cli, args):
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def without_define(args, name):
    """The arguments less -D NAME=... and --tokens-per-call (which check does not take)."""
    out, i = [], 0
    while i < len(args):
        if args[i] == "-D" and args[i + 1].startswith(name + "="):
            i += 2
            continue
        if args[i] == "--tokens-per-call":
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def main(argv):
    cli = argv[1]
    failures = []
    for path, args in CASES:
        rc, out, err = run(cli, ["advise", path] + args + ["--format", "json"])
        if rc != 1:
            failures.append("%s %s: advise exited %d, expected 1 (does not fit)\n%s" % (path, args, rc, err))
            continue
        doc = json.loads(out)
        suggestions = doc["suggestions"]
        kinds = {s["kind"] for s in suggestions}
        if not {"constant", "machine"} <= kinds:
            failures.append("%s: expected constant and machine suggestions, got %s" % (path, sorted(kinds)))
        keys = [(s["bytes_given_up"], -(s["tokens_per_second"] or -1)) for s in suggestions]
        if keys != sorted(keys):
            failures.append("%s: suggestions not most useful first: %s" % (path, keys))
        base = without_define(args, "\0")
        for s in suggestions:
            check = ["check", path] + base + shlex.split(s["apply"])
            rc, out, err = run(cli, check)
            if rc != 0:
                failures.append("%s: applying %r is not admitted (exit %d):\n%s%s" % (path, s["apply"], rc, out[-300:], err[-300:]))
            if s["kind"] == "constant":
                name = s["name"]
                now = next(int(a.split("=", 1)[1]) for a in args if a.startswith(name + "=")) \
                    if any(a.startswith(name + "=") for a in args) else None
                if now is None:
                    rc, out, _ = run(cli, ["check", path] + without_define(args, "\0") + ["--format", "json"])
                    continue
                sweep = ["sweep", path, "--const", "%s=1..%d" % (name, now), "--format", "json"] + \
                    without_define(args, name)
                rc, out, err = run(cli, sweep)
                largest = json.loads(out)["machines"][0]["largest"]
                if not largest or largest["value"] != s["value"]:
                    failures.append("%s: advise says %s=%s, sweep says %s" % (path, name, s["value"], largest))
        print("ok   %s %s: %d suggestions, each admitted when applied" % (path, " ".join(args), len(suggestions)))
    rc, out, err = run(cli, ["advise", "examples/llama2/decode.vx", "--format", "json"])
    doc = json.loads(out) if out else {}
    if rc != 0 or not doc.get("fits") or doc.get("suggestions") or not doc.get("headroom"):
        failures.append("a program that fits: exit %d, %s" % (rc, out[:400]))
    for f in failures:
        print("FAIL " + f)
    print("advise: %d cases, %d failures" % (len(CASES) + 1, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
