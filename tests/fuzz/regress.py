#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""regress.py - the fuzzing regression corpus, run by `make check` (and `make asan`).

  regress.py CLI [--sanitized]

Every file of tests/fuzz/regressions/*.vx is given to each command of the CLI (check in
every format, parse, explain, roofline, emit-cuda, plot); every file of
tests/fuzz/regressions/machine/*.vx is given as --machine to `check` and `roofline` of a
small program. Each run must end with exit 0, 1 or 2 and a diagnostic, within its time and
memory bound (bounded.py). Each file is the reproducer of a finding; its first line says
which.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bounded import COMMANDS, run_commands  # noqa: E402


def main():
    cli = sys.argv[1]
    sanitized = "--sanitized" in sys.argv[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    programs = sorted(glob.glob(os.path.join(here, "regressions", "*.vx")))
    machines = sorted(glob.glob(os.path.join(here, "regressions", "machine", "*.vx")))
    failures = []
    for path in programs:
        failures += run_commands(cli, path, COMMANDS, sanitized)
    program = os.path.join(root, "examples", "blog", "peak_not_sum.vx")
    for path in machines:
        failures += run_commands(cli, program, [["check"], ["check", "--format", "json"],
                                                ["roofline"]], sanitized, machine=path)
    for f in failures:
        print("regressions: FAIL " + f)
    print("regressions: %d programs x %d commands, %d machine models: %s" % (
        len(programs), len(COMMANDS), len(machines),
        "all bounded" if not failures else "%d failures" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
