#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# semantic.py - compare vxpeak's verdicts and figures with what vxc's own capacity tests expect.
#
# usage: python3 tests/conformance/semantic.py VXPEAK [DIR]
#        python3 tests/conformance/semantic.py --self-test   (the FileCheck subset, both ways)
#
# DIR (default tests/conformance/vx) holds copies of the Vx repository's test programs, laid
# out with their repository paths (never committed; see README.md). semantic.txt names the
# capacity-, placement- and transfer-related ones and how each is compared:
#
#   checks   run every `// RUN:` line of the file that invokes vxc, as `vxpeak check` with the
#            same --machine/--host (relative to DIR, so `fleet/...` means the fetched copies of
#            vxc's own machine files), --format json where vxc was asked for
#            --diagnostics-json and text otherwise, and apply that line's FileCheck directives
#            to our output; the exit status must match `not vxc` (rejected) or its absence;
#   verdict  the same runs, but only the exit status and the codes are compared (the file's
#            CHECK lines are about MLIR, LLVM or program output, which vxpeak does not make).
#
# A third column `agree` or `differs:<why>` states the expected outcome; `differs` cases are
# reported with their reason and do not fail the run while they differ as stated
# (`differs:schema` must agree in everything but the JSON schema's name). The
# directives are read from the fetched file at run time: nothing of vxc's text is kept here.
#
# Prints one line per case and "semantic conformance: N cases, A agree, D known differences,
# U unexpected"; exit status 1 when any case is unexpected (or 2 when DIR is missing).
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# ------------------------------------------------------------------ a small FileCheck

def _pattern(text):
    """A FileCheck pattern as a Python regex: literal text, {{regex}} blocks, [[VAR:re]]
    definitions and [[VAR]] uses (named groups / backreferences are resolved by the caller
    through `defs`). Horizontal whitespace runs match any horizontal whitespace run."""
    out, i, names = [], 0, []
    while i < len(text):
        if text.startswith("{{", i):
            j = text.find("}}", i + 2)
            if j < 0:
                raise ValueError("unterminated {{ in pattern: " + text)
            out.append("(?:" + text[i + 2:j] + ")")
            i = j + 2
        elif text.startswith("[[", i):
            j = text.find("]]", i + 2)
            if j < 0:
                raise ValueError("unterminated [[ in pattern: " + text)
            body = text[i + 2:j]
            if ":" in body:
                name, rx = body.split(":", 1)
                names.append(name)
                out.append("(?P<%s>%s)" % (name, rx))
            else:
                out.append(("\0VAR:%s\0" % body))
            i = j + 2
        elif text[i] in " \t":
            while i < len(text) and text[i] in " \t":
                i += 1
            out.append(r"[ \t]+")
        else:
            out.append(re.escape(text[i]))
            i += 1
    return "".join(out), names


def _compile(text, defs):
    rx, names = _pattern(text.strip())
    rx = re.sub("\0VAR:([A-Za-z_][A-Za-z0-9_]*)\0",
                lambda m: re.escape(defs.get(m.group(1), "\0undefined\0")), rx)
    return re.compile(rx), names


def directives(source, prefix):
    """[(kind, pattern, line_number)] for `prefix` in the fetched file, in file order."""
    kinds = ("-SAME", "-NEXT", "-NOT", "-DAG", "-LABEL", "-EMPTY", "-COUNT-", "")
    out = []
    for n, line in enumerate(source.splitlines(), 1):
        at = line.find(prefix)
        while at >= 0:
            rest = line[at + len(prefix):]
            for k in kinds:
                if k == "-COUNT-":
                    m = re.match(r"-COUNT-(\d+):", rest)
                    if m:
                        out.append(("COUNT%s" % m.group(1), rest[m.end():], n))
                        break
                elif rest.startswith(k + ":"):
                    out.append((k.lstrip("-") or "CHECK", rest[len(k) + 1:], n))
                    break
            else:
                at = line.find(prefix, at + 1)
                continue
            break
    return out


def filecheck(checks, output):
    """Apply the directives to `output`; returns None when they hold, else the first failure."""
    buf = re.sub(r"[ \t]+", " ", output)
    defs = {}
    pos, line_start, line_end = 0, 0, 0   # after the last positive match; its line's extent
    pending_not, pending_dag = [], []

    def line_bounds(p):
        s = buf.rfind("\n", 0, p) + 1
        e = buf.find("\n", p)
        return s, (len(buf) if e < 0 else e)

    def settle(upto):
        for rx, src in pending_not:
            m = rx.search(buf, pos, upto)
            if m:
                return "CHECK-NOT matched %r (line %d)" % (m.group(0)[:80], src)
        del pending_not[:]
        return None

    for kind, text, src in checks:
        rx, names = _compile(text, defs)
        if kind == "NOT":
            pending_not.append((rx, src))
            continue
        if kind == "DAG":
            m = rx.search(buf, pos)
            if not m:
                return "CHECK-DAG %r not found (line %d)" % (text.strip(), src)
            pending_dag.append(m.end())
            defs.update({k: m.group(k) for k in names})
            continue
        if pending_dag:
            pos = max(pending_dag)
            line_start, line_end = line_bounds(max(pos - 1, 0))
            pending_dag = []
        if kind == "SAME":
            m = rx.search(buf, pos, line_end)
        elif kind == "NEXT":
            nxt = line_end + 1
            if nxt > len(buf):
                return "CHECK-NEXT %r: no next line (line %d)" % (text.strip(), src)
            s, e = line_bounds(nxt)
            m = rx.search(buf, s, e)
        elif kind == "EMPTY":
            nxt = line_end + 1
            s, e = line_bounds(min(nxt, len(buf)))
            if s != e:
                return "CHECK-EMPTY: next line is not empty (line %d)" % src
            pos, line_start, line_end = e, s, e
            continue
        elif kind.startswith("COUNT"):
            want = int(kind[5:])
            p = pos
            for _ in range(want):
                m = rx.search(buf, p)
                if not m:
                    return "CHECK-COUNT-%d %r: fewer matches (line %d)" % (want, text.strip(), src)
                p = m.end()
            err = settle(p)
            if err:
                return err
            pos = p
            line_start, line_end = line_bounds(max(p - 1, 0))
            continue
        else:
            m = rx.search(buf, pos)
        if not m:
            return "%s %r not found (line %d)" % (
                "CHECK" if kind in ("CHECK", "LABEL") else "CHECK-" + kind, text.strip(), src)
        err = settle(m.start())
        if err:
            return err
        defs.update({k: m.group(k) for k in names})
        pos = m.end()
        line_start, line_end = line_bounds(max(m.end() - 1, m.start()))
    if pending_dag:
        pos = max(pending_dag)
    return settle(len(buf))


# ------------------------------------------------------------------ RUN lines

def run_lines(source):
    """The file's RUN commands (continuations joined), as strings."""
    cmds, cur = [], None
    for line in source.splitlines():
        m = re.search(r"//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if cur is not None:
            cur += " " + part
        else:
            cur = part
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        if cur.endswith("|"):
            continue
        cmds.append(cur)
        cur = None
    if cur:
        cmds.append(cur)
    return cmds


def parse_run(cmd):
    """What a RUN line asks of vxc: expected rejection, flags, output form, check prefixes.
    None when it does not run vxc on the file."""
    negated = False
    # `(vxc ...; echo ...)` and `env NAME=VALUE vxc ...` run vxc too.
    cmd = re.sub(r"\s+", " ", cmd)  # continuation lines join with their indentation
    cmd = re.sub(r"^\s*\(\s*", "", cmd)
    cmd = re.sub(r"^\s*env\s+(\w+=\S*\s+)+", "", cmd)
    m = re.match(r"\s*(not\s+)?vxc\s+(.*)$", cmd)
    if not m:
        return None
    negated = bool(m.group(1))
    rest = m.group(2)
    vxc_part, _, fc_part = rest.partition("| FileCheck")
    if "|" in vxc_part:   # piped through another tool first (mlir-translate, ...)
        vxc_part = vxc_part.split("|")[0]
    try:
        words = shlex.split(vxc_part)
    except ValueError:
        words = vxc_part.split()
    machine = host = None
    for i, w in enumerate(words):
        if w == "--machine" and i + 1 < len(words):
            machine = words[i + 1]
        if w == "--host" and i + 1 < len(words):
            host = words[i + 1]
    json_out = "--diagnostics-json" in words
    with_stderr = "2>&1" in vxc_part
    prefixes = ["CHECK"]
    pm = re.search(r"--check-prefix(?:es)?[= ](\S+)", fc_part)
    if pm:
        prefixes = pm.group(1).split(",")
    return {"negated": negated, "machine": machine, "host": host, "json": json_out,
            "stderr": with_stderr, "prefixes": prefixes, "filecheck": bool(fc_part)}


def vxpeak_run(vxpeak, root, rel, run):
    args = [vxpeak, "check", rel]
    if run["machine"]:
        args += ["--machine", run["machine"]]
    if run["host"]:
        args += ["--host", run["host"]]
    args += ["--format", "json" if run["json"] else "text"]
    env = dict(os.environ, NO_COLOR="1")
    p = subprocess.run(args, cwd=root, capture_output=True, text=True, env=env)
    out = p.stdout if run["json"] else p.stdout + "\n" + p.stderr
    return p.returncode, out


# ------------------------------------------------------------------ the comparison

# vxpeak's JSON names its own schema; everything else in vxc's record keeps its shape.
VXC_SCHEMA, OUR_SCHEMA = '"schema": "vx-diagnostics-v1"', '"schema": "vxpeak-report-v1"'


def compare(vxpeak, root, rel, mode, our_schema_as_vxcs=False):
    """(ok, detail) for one case. With our_schema_as_vxcs, vxpeak's schema name is read as
    vxc's, so that a case differing only there can show that it does."""
    source = open(os.path.join(root, rel), encoding="utf-8").read()
    runs = [r for r in (parse_run(c) for c in run_lines(source)) if r]
    if not runs:
        return False, "no RUN line invokes vxc"
    seen = set()
    for run in runs:
        key = (run["machine"], run["host"], run["json"], tuple(run["prefixes"]))
        if key in seen:
            continue
        seen.add(key)
        rc, out = vxpeak_run(vxpeak, root, rel, run)
        if our_schema_as_vxcs:
            out = out.replace(OUR_SCHEMA, VXC_SCHEMA)
        if rc not in (0, 1):
            return False, "vxpeak exited %d: %s" % (rc, out.strip().splitlines()[-1:] or "")
        want = 1 if run["negated"] else 0
        codes = sorted(set(re.findall(r"\b([EW]\d{4})\b", out)))
        if rc != want:
            return False, "expected %s, got %s %s (%s)" % (
                "rejected" if want else "admitted", "rejected" if rc else "admitted",
                ",".join(codes) or "no codes", flags(run))
        if mode == "checks":
            for prefix in run["prefixes"]:
                checks = directives(source, prefix)
                if not checks:
                    continue
                err = filecheck(checks, out)
                if err:
                    return False, "%s: %s (%s)" % (prefix, err, flags(run))
    return True, ""


def flags(run):
    f = []
    if run["machine"]:
        f.append("--machine " + run["machine"])
    if run["host"]:
        f.append("--host " + run["host"])
    f.append("json" if run["json"] else "text")
    return " ".join(f)


def self_test():
    """The FileCheck subset against outputs where the answer is known, both ways, so that a
    comparison cannot pass by checking nothing. Returns the number of failures."""
    out = ('error[E6027]: call path \'f -> g\' peaks at 6291456 bytes\n'
           '  note: held\n'
           '{"space": "W", "total_bytes": 3145728, "tiles": 1}\n'
           '{"space": "W", "total_bytes": 67108864, "tiles": 1}\n')
    cases = [  # (directives as a fetched file writes them, should they hold)
        ("// CHECK: E6027\n// CHECK-SAME: call path 'f -> g'\n// CHECK-SAME: 6291456", True),
        ("// CHECK: E6027\n// CHECK-SAME: held", False),            # SAME stays on its line
        ("// CHECK: E6027\n// CHECK-NEXT: note: held", True),
        ("// CHECK: E6027\n// CHECK-NEXT: total_bytes", False),
        ("// CHECK: \"total_bytes\": 3145728\n// CHECK: \"total_bytes\": 3145728", False),
        ("// CHECK-NOT: E6028\n// CHECK: E6027", True),
        ("// CHECK: E6027\n// CHECK-NOT: 67108864", False),
        ("// CHECK-DAG: 67108864\n// CHECK-DAG: 3145728", True),
        ("// CHECK: E{{60[0-9]+}}\n// CHECK-SAME: peaks at [[N:[0-9]+]] bytes", True),
        ("// CHECK-COUNT-2: \"space\": \"W\"", True),
        ("// CHECK-COUNT-3: \"space\": \"W\"", False),
    ]
    failures = 0
    for text, holds in cases:
        got = filecheck(directives(text, "CHECK"), out) is None
        if got != holds:
            failures += 1
            print("FAIL self-test: %r should %s" % (text, "hold" if holds else "fail"))
    runs = [parse_run(c) for c in run_lines(
        "// RUN: not vxc %s --machine fleet/a.vx --host default 2>&1 | FileCheck %s\n"
        "// RUN: vxc %s --action emit-mlir -o /dev/null --diagnostics-json 2>/dev/null | \\\n"
        "// RUN:   FileCheck %s --check-prefix=J\n"
        "// RUN: env N=1 vxc %s | FileCheck %s\n")]
    want = [(True, "fleet/a.vx", "default", False, ["CHECK"]),
            (False, None, None, True, ["J"]), (False, None, None, False, ["CHECK"])]
    got = [(r["negated"], r["machine"], r["host"], r["json"], r["prefixes"]) for r in runs]
    if got != want:
        failures += 1
        print("FAIL self-test: RUN lines read as %r" % got)
    print("semantic.py self-test: %d cases, %d failed" % (len(cases) + 1, failures))
    return failures


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return 1 if self_test() else 0
    if len(argv) < 2:
        print("usage: semantic.py VXPEAK [DIR]", file=sys.stderr)
        return 2
    vxpeak = os.path.abspath(argv[1])
    root = argv[2] if len(argv) > 2 else "tests/conformance/vx"
    if not os.path.isdir(root):
        print("semantic conformance: %s does not exist; fetch the Vx programs first "
              "(see tests/conformance/README.md)" % root)
        return 2
    cases = []
    for line in open(os.path.join(HERE, "semantic.txt"), encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 3)
        cases.append((parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else ""))
    agree = known = unexpected = missing = 0
    for rel, mode, expect, note in cases:
        if not os.path.exists(os.path.join(root, rel)):
            missing += 1
            print("SKIP %s (not fetched)" % rel)
            continue
        ok, detail = compare(vxpeak, root, rel, mode)
        if not ok and expect == "differs:schema":
            # Known to differ in the schema name only: everything else must agree.
            only, rest = compare(vxpeak, root, rel, mode, our_schema_as_vxcs=True)
            if not only:
                ok, detail = False, "besides the schema name: " + rest
                expect = "agree"
        if ok and expect == "agree":
            agree += 1
            print("ok   %s" % rel)
        elif not ok and expect.startswith("differs"):
            known += 1
            print("diff %s [%s] %s" % (rel, expect[len("differs:"):], detail))
        elif ok:
            unexpected += 1
            print("FAIL %s: listed as %s but now agrees; update semantic.txt" % (rel, expect))
        else:
            unexpected += 1
            print("FAIL %s: %s" % (rel, detail))
    total = agree + known + unexpected
    print("semantic conformance: %d cases, %d agree, %d known differences, %d unexpected%s"
          % (total, agree, known, unexpected,
             (", %d not fetched" % missing) if missing else ""))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
