#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""filecheck.py CLI [FILE...] - run the expectations that Vx examples carry in their own text.

An example states what the tool answers about it, in comments, the way vxc's own tests do:

    // RUN: vxpeak frontier %s --const BATCH=1..64 --tokens-per-call BATCH
    // CHECK: largest BATCH that fits: 13 (peak 42,096,994,048 bytes
    // CHECK-NOT: error[
    // RUN: not vxpeak check %s -D BATCH=14

- `RUN:` is a command line; `vxpeak` is the command under test (the CLI argument), `%s` the
  example's path from the repository root. A trailing backslash continues the command on the
  next `// RUN:` line. `not` in front expects a non-zero exit status; without it the command
  must exit 0. The words are split as a POSIX shell splits them (quotes work), but no shell
  runs: no pipes, no redirections.
- `CHECK:` lines after a RUN line belong to it: each must be found in the command's output
  (its standard output, then its standard error), in order, as a substring of one line; the
  next CHECK is looked for after the end of the previous match (on the same line or later).
- `CHECK-NOT:` text must not appear between the previous CHECK's match (or the start) and the
  next CHECK's match (or the end of the output).

With no FILE, every .vx file under examples/ is run, and a file without a RUN line fails: every
example states what it answers. A notebook (.ipynb) under examples/ must keep no stored
outputs, which nothing would check. Exits 0 when every expectation holds; prints each failure with
the example's file and line. `--self-test` checks the checker itself on made-up outputs.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

DIRECTIVE = re.compile(r"^\s*//\s*(RUN|CHECK|CHECK-NOT):\s?(.*?)\s*$")
TIMEOUT_S = 60


class Run:
    def __init__(self, line, words, expect_failure):
        self.line = line
        self.words = words
        self.expect_failure = expect_failure
        self.checks = []  # (kind, text, line)


def parse(path, text):
    """The RUN lines of a file and the CHECK lines that follow each; errors as (line, why)."""
    runs, errors = [], []
    pending = None  # a RUN command continued by a trailing backslash: (first line, text)
    for number, raw in enumerate(text.splitlines(), 1):
        m = DIRECTIVE.match(raw)
        if not m:
            if pending:
                errors.append((pending[0], "RUN line ends with '\\' but no RUN line follows"))
                pending = None
            continue
        kind, body = m.group(1), m.group(2)
        if kind == "RUN":
            if pending:
                body = pending[1] + " " + body
                first = pending[0]
                pending = None
            else:
                first = number
            if body.endswith("\\"):
                pending = (first, body[:-1].rstrip())
                continue
            try:
                words = shlex.split(body)
            except ValueError as e:
                errors.append((first, "cannot split the RUN line: %s" % e))
                continue
            expect_failure = bool(words) and words[0] == "not"
            if expect_failure:
                words = words[1:]
            if not words or words[0] != "vxpeak":
                errors.append((first, "a RUN line runs vxpeak (optionally after 'not')"))
                continue
            runs.append(Run(first, [path if w == "%s" else w.replace("%s", path) for w in words],
                            expect_failure))
        else:
            if pending:
                errors.append((pending[0], "RUN line ends with '\\' but a %s line follows" % kind))
                pending = None
            if not runs:
                errors.append((number, "%s before any RUN line" % kind))
                continue
            if not body:
                errors.append((number, "empty %s" % kind))
                continue
            runs[-1].checks.append((kind, body, number))
    if pending:
        errors.append((pending[0], "RUN line ends with '\\' at the end of the file"))
    return runs, errors


def match(output, checks):
    """None when the checks hold on output, else (line of the failed directive, why)."""
    lines = output.split("\n")
    pos = (0, 0)  # (line index, column) where the next CHECK may start
    nots = []  # CHECK-NOT texts waiting for the next CHECK's match

    def found_between(text, start, end):
        (sl, sc), (el, ec) = start, end
        for i in range(sl, min(el, len(lines) - 1) + 1):
            lo = sc if i == sl else 0
            hi = ec if i == el else len(lines[i])
            if text in lines[i][lo:hi]:
                return i
        return None

    for kind, text, number in checks:
        if kind == "CHECK-NOT":
            nots.append((text, number))
            continue
        hit = None
        for i in range(pos[0], len(lines)):
            col = lines[i].find(text, pos[1] if i == pos[0] else 0)
            if col >= 0:
                hit = (i, col)
                break
        if hit is None:
            return number, "CHECK not found after output line %d: %s" % (pos[0] + 1, text)
        for not_text, not_number in nots:
            where = found_between(not_text, pos, hit)
            if where is not None:
                return not_number, "CHECK-NOT text found on output line %d: %s" % (where + 1, not_text)
        nots = []
        pos = (hit[0], hit[1] + len(text))
    end = (len(lines) - 1, len(lines[-1]))
    for not_text, not_number in nots:
        where = found_between(not_text, pos, end)
        if where is not None:
            return not_number, "CHECK-NOT text found on output line %d: %s" % (where + 1, not_text)
    return None


def run_file(cli, path, require_runs):
    """The failures of one example, each a printable line."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return ["%s: cannot read: %s" % (path, e)], 0
    runs, errors = parse(path, text)
    failures = ["%s:%d: %s" % (path, line, why) for line, why in errors]
    if require_runs and not runs and not errors:
        failures.append("%s:1: no RUN line: an example states what vxpeak answers about it" % path)
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C")
    for run in runs:
        argv = [cli] + run.words[1:]
        try:
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, env=env, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            failures.append("%s:%d: timed out after %d s: %s" % (path, run.line, TIMEOUT_S,
                                                                  " ".join(run.words)))
            continue
        output = (proc.stdout + proc.stderr).decode("utf-8", "replace")
        shown = " ".join(shlex.quote(w) for w in run.words)
        if proc.returncode < 0:
            failures.append("%s:%d: killed by signal %d: %s" % (path, run.line, -proc.returncode, shown))
            continue
        if run.expect_failure != (proc.returncode != 0):
            want = "a non-zero exit status" if run.expect_failure else "exit status 0"
            failures.append("%s:%d: exit status %d, expected %s: %s\n%s" % (
                path, run.line, proc.returncode, want, shown, excerpt(output)))
            continue
        bad = match(output, run.checks)
        if bad:
            failures.append("%s:%d: %s\n  (RUN at line %d: %s)\n%s" % (
                path, bad[0], bad[1], run.line, shown, excerpt(output)))
    return failures, len(runs)


def notebook_failures(path):
    """A notebook under examples/ keeps no stored outputs: nothing checks a figure saved in one
    (the notebook's test runs it and checks the outputs it makes then), so a stale one would
    be an unchecked claim. Clear them before committing (Jupyter: Clear All Outputs)."""
    try:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        return ["%s: cannot read the notebook: %s" % (path, e)]
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        return ["%s: not a notebook (no list of cells)" % path]
    stored = [i + 1 for i, c in enumerate(cells)
              if isinstance(c, dict) and (c.get("outputs") or c.get("execution_count") is not None)]
    if stored:
        return ["%s: cell(s) %s keep stored outputs, which nothing checks: clear them" % (
            path, ", ".join(str(i) for i in stored))]
    return []


def excerpt(output, limit=40):
    lines = output.rstrip("\n").split("\n")
    shown = lines[:limit] + (["  ... (%d more lines)" % (len(lines) - limit)] if len(lines) > limit else [])
    return "\n".join("  | " + l for l in shown)


def self_test():
    """The checker on made-up outputs: each case must hold or fail as stated."""
    out = "a 1\nb 22 c\nd\n"
    C = lambda t: ("CHECK", t, 1)
    N = lambda t: ("CHECK-NOT", t, 2)
    cases = [
        ([C("a 1"), C("22"), C("d")], True),
        ([C("22"), C("a 1")], False),             # order matters
        ([C("b"), C("c")], True),                  # same line, after the match
        ([C("22"), C("b")], False),                # not before the previous match
        ([C("a"), N("22"), C("d")], False),        # CHECK-NOT between two matches
        ([C("a"), N("zz"), C("d")], True),
        ([N("a 1"), C("d")], False),               # CHECK-NOT from the start
        ([C("22"), N("d")], False),                # CHECK-NOT to the end
        ([C("d"), N("a 1")], True),                # ... but only after the last match
        ([C("42,096,994,049")], False),
    ]
    bad = 0
    for checks, holds in cases:
        got = match(out, checks) is None
        if got != holds:
            print("filecheck self-test: %r should %s" % (checks, "hold" if holds else "fail"))
            bad += 1
    runs, errors = parse("x.vx", "// RUN: not vxpeak check %s \\\n// RUN:   --machine a100-40\n"
                         "// CHECK: yes\n// CHECK-NOT: no\n")
    if errors or len(runs) != 1 or not runs[0].expect_failure or \
            runs[0].words != ["vxpeak", "check", "x.vx", "--machine", "a100-40"] or len(runs[0].checks) != 2:
        print("filecheck self-test: RUN continuation or 'not' parsed wrongly: %r" % (errors,))
        bad += 1
    for text in ("// CHECK: x\n", "// RUN: vxpeak x \\\n", "// RUN: ls %s\n", "// RUN: vxpeak a\n// CHECK:\n"):
        if not parse("x.vx", text)[1]:
            print("filecheck self-test: %r should be refused" % text)
            bad += 1
    with tempfile.TemporaryDirectory() as tmp:
        # An example without a RUN line fails when every example must have one, and only then.
        plain = os.path.join(tmp, "plain.vx")
        with open(plain, "w", encoding="utf-8") as f:
            f.write("fn main() -> i32 { return 0; }\n")
        if not run_file("vxpeak", plain, True)[0] or run_file("vxpeak", plain, False)[0]:
            print("filecheck self-test: an example without RUN lines must fail only when required")
            bad += 1
        # A notebook with a stored output (or an execution count) fails; a cleared one passes.
        cell = {"cell_type": "code", "source": "1 + 1", "metadata": {}}
        for outputs, count, fails in (([], None, False), ([{"output_type": "stream", "text": "2"}], None, True),
                                      ([], 3, True)):
            book = os.path.join(tmp, "book.ipynb")
            with open(book, "w", encoding="utf-8") as f:
                json.dump({"cells": [dict(cell, outputs=outputs, execution_count=count)]}, f)
            if bool(notebook_failures(book)) != fails:
                print("filecheck self-test: a notebook with outputs %r, count %r should %s" % (
                    outputs, count, "fail" if fails else "pass"))
                bad += 1
    return bad


def main(argv):
    if len(argv) >= 2 and argv[1] == "--self-test":
        bad = self_test()
        print("filecheck self-test: %s" % ("ok" if not bad else "%d failed" % bad))
        return 1 if bad else 0
    if len(argv) < 2:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    cli = os.path.abspath(argv[1])
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    os.chdir(root)
    files = argv[2:]
    # Run over the whole tree, every example must state what it answers; a file named on the
    # command line (a scratch copy, a test of the runner) need not.
    require_runs = not files
    notebooks = []
    if not files:
        found = [os.path.join(d, f) for d, _, fs in os.walk("examples") for f in fs]
        files = sorted(f for f in found if f.endswith(".vx"))
        notebooks = sorted(f for f in found if f.endswith(".ipynb"))
    passed = failed = 0
    for path in notebooks:
        failures = notebook_failures(path)
        for f in failures:
            print("FAIL " + f)
        if failures:
            failed += 1
        else:
            passed += 1
            print("ok   %s (no stored outputs)" % path)
    for path in files:
        failures, count = run_file(cli, path, require_runs)
        for f in failures:
            print("FAIL " + f)
        if failures:
            failed += 1
        else:
            passed += 1
            print("ok   %s (%d runs)" % (path, count))
    print("example expectations: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
