# SPDX-License-Identifier: Apache-2.0
"""misuse_child.py - one interpreter's run of a sequence of public calls (test_misuse.py).

Reads a JSON list of steps on stdin: [call, receiver, [arg, ...]]: the method or property
`call` of the object named `receiver` (see `objects`), with encoded arguments (see `value`). Makes one object of each kind, and one of each kind already
closed, runs the steps in order, and prints one JSON line per step: "returned" or the name of
the exception raised. A crash (a signal) shows as the child's exit status, which the parent
reads."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
PLAIN = str(ROOT / "tests" / "examples" / "plain.vx")


def objects() -> Dict[str, Any]:
    """One live object of each kind, and closed ones (their context closed)."""
    ctx = vxpeak.Context()
    src = ctx.load(PLAIN)
    prog = ctx.parse(src)
    machine = ctx.builtin_machine("l4")
    analysis = ctx.analyze(prog)
    dead = vxpeak.Context()
    dsrc = dead.load(PLAIN)
    dprog = dead.parse(dsrc)
    dmachine = dead.builtin_machine("l4")
    danalysis = dead.analyze(dprog)
    dead.close()
    return {
        "context": ctx, "source": src, "program": prog, "machine": machine,
        "analysis": analysis, "closed_context": dead, "closed_source": dsrc,
        "closed_program": dprog, "closed_machine": dmachine, "closed_analysis": danalysis,
    }


def value(arg: Any, objs: Dict[str, Any]) -> Any:
    """An encoded argument: ["obj", kind], ["none"], ["str", s], ["int", n], ["float", x]
    (x a float or "nan"/"inf"), ["bool", b], ["bytes", s], ["dict", {name: encoded}],
    ["list", [encoded...]]."""
    tag = arg[0]
    if tag == "obj":
        return objs[arg[1]]
    if tag == "none":
        return None
    if tag == "float":
        return float(arg[1])
    if tag == "bytes":
        return arg[1].encode()
    if tag == "dict":
        return {k: value(v, objs) for k, v in arg[1].items()}
    if tag == "list":
        return [value(v, objs) for v in arg[1]]
    return arg[1]  # str, int, bool


def main() -> int:
    steps = json.load(sys.stdin)
    objs = objects()
    for call, receiver, raw in steps:
        args = [value(a, objs) for a in raw]
        try:
            attr = getattr(objs[receiver], call)  # a property (records, label) is read here
            if callable(attr):
                attr(*args)
            outcome = "returned"
        except Exception as err:  # every exception is an answer; only its kind is compared
            outcome = type(err).__name__
        print(json.dumps([call, outcome]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
