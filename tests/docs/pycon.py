#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""pycon.py LIBRARY - the Python sessions of the documentation run as shown.

Every ```pycon block of bindings/*/README.md, README.md and docs/*.md is a doctest: its
`>>>` and `...` lines run, in order, in one namespace per block, from the repository root,
with the package of bindings/python imported against LIBRARY (the built libvxpeak), and
what each statement prints must be what the block shows (a `...` in a shown line stands for
any text: doctest's ELLIPSIS). A block that shows a figure the library no longer gives fails
`make docs-check`.

    python3 tests/docs/pycon.py build/libvxpeak.so.0.1
    python3 tests/docs/pycon.py --self-test      # the extraction and the matcher on samples

Prints each failure with its file and line; exits 1 when one fails.
"""
import doctest
import glob
import os
import re
import sys

BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)
FLAGS = doctest.ELLIPSIS


def blocks(path, text):
    """(line of the block's first session line, its text) for each ```pycon block."""
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def run_block(where, line, body, out):
    """Run one block as a doctest; the number of failed examples (reported to `out`)."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(body, {}, where, where, line - 1)
    runner = doctest.DocTestRunner(optionflags=FLAGS, verbose=False)
    runner.run(test, out=out)
    return runner.failures if test.examples else 1


def self_test():
    sample = "x\n```pycon\n>>> print(1 + 1)\n2\n>>> print('a b c')\na ...\n```\n"
    found = blocks("s.md", sample)
    assert found == [(3, ">>> print(1 + 1)\n2\n>>> print('a b c')\na ...\n")], found
    sink = []
    assert run_block("s.md", 3, found[0][1], sink.append) == 0, sink
    assert run_block("s.md", 3, ">>> print(3)\n4\n", sink.append) == 1  # a changed figure
    assert run_block("s.md", 3, ">>> print(3)\n", sink.append) == 1  # an unshown line
    assert run_block("s.md", 3, "no session\n", sink.append) == 1  # nothing to run
    print("pycon.py: self-test passed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print("usage: pycon.py LIBRARY | --self-test", file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.environ["VXPEAK_LIBRARY"] = os.path.abspath(argv[1])
    sys.path.insert(0, os.path.join(root, "bindings", "python"))
    os.chdir(root)
    files = sorted(glob.glob("bindings/*/README.md")) + ["README.md"] + sorted(glob.glob("docs/*.md"))
    failed = ran = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, body in blocks(path, text):
            ran += 1
            failed += 1 if run_block(path, line, body, sys.stdout.write) else 0
    if failed:
        print("pycon.py: %d of %d Python sessions differ from what they show" % (failed, ran))
        return 1
    print("pycon.py: %d Python sessions run as shown" % ran)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
