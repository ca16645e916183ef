# SPDX-License-Identifier: Apache-2.0
"""test_misuse.py - misuse as a property (issue 35): Hypothesis draws sequences of public calls
whose arguments come from every kind (each kind of object, closed objects, None, strings,
negative and huge integers, floats, bools, bytes, mappings), runs each sequence in an
interpreter of its own (misuse_child.py), and fails when the interpreter dies by a signal or
when a call whose arguments are not of the kinds it takes returns instead of raising
(TypeError, ValueError or OverflowError, Misuse included).

VXPEAK_MISUSE_EXAMPLES sets how many sequences are drawn (default 8, a few seconds in make
check; a few hundred for a longer hunt)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CHILD = str(Path(__file__).resolve().parent / "misuse_child.py")
EXAMPLES = int(os.environ.get("VXPEAK_MISUSE_EXAMPLES", "8"))

# (call, receiver kind): the parameter types, in order.
SIGNATURES: Dict[Tuple[str, str], List[str]] = {
    ("parse", "context"): ["source"],
    ("analyze", "context"): ["program", "machine?", "machine?", "overrides?"],
    ("sweep", "context"): ["program", "str", "u64", "u64", "machine?"],
    ("frontier", "context"): ["program", "str", "u64", "u64", "machine?"],
    ("builtin_machine", "context"): ["str"],
    ("source", "context"): ["text", "str"],
    ("line", "source"): ["u32"],
    ("edit", "source"): ["u32", "u32", "text"],
    ("roofline", "analysis"): ["str"],
    ("check_text", "analysis"): ["fraction"],
    ("records", "analysis"): [],
    ("label", "machine"): [],
}
KINDS = ["context", "source", "program", "machine", "analysis"]
OBJECTS = KINDS + ["closed_" + k for k in KINDS]
INTS = [-1, 0, 1, 3, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 2**64, 2**70, -(2**70)]
FLOATS = [0.0, 0.5, 1.5, -0.5, "nan", "inf"]
STRINGS = ["BATCH", "main", "l4", "a100-40", "", "x\0y", "é"]
RAISES = {"TypeError", "ValueError", "OverflowError", "InvalidArgument", "Misuse"}

any_arg = st.one_of(
    st.sampled_from(OBJECTS).map(lambda k: ["obj", k]),
    st.just(["none"]),
    st.sampled_from(STRINGS).map(lambda s: ["str", s]),
    st.sampled_from(INTS).map(lambda n: ["int", n]),
    st.sampled_from(FLOATS).map(lambda x: ["float", x]),
    st.booleans().map(lambda b: ["bool", b]),
    st.just(["bytes", "fn"]),
    st.sampled_from(INTS + [1.5, "4", True]).map(
        lambda v: ["dict", {"BATCH": ["int", v] if isinstance(v, int) and not isinstance(v, bool)
                            else ["float", v] if isinstance(v, float)
                            else ["bool", v] if isinstance(v, bool) else ["str", v]}]),
    st.just(["list", [["obj", "machine"]]]),
)


def good(kind: str) -> Any:
    """A strategy for arguments valid as `kind`."""
    return {
        "source": st.just(["obj", "source"]),
        "program": st.just(["obj", "program"]),
        "machine?": st.sampled_from([["none"], ["obj", "machine"]]),
        "overrides?": st.sampled_from([["none"], ["dict", {"BATCH": ["int", 2]}]]),
        "str": st.sampled_from(["BATCH", "main", "l4"]).map(lambda s: ["str", s]),
        "text": st.sampled_from([["str", "fn main() -> i32 { return 0; }"], ["bytes", "fn"]]),
        "u64": st.sampled_from([0, 1, 4, 2**64 - 1]).map(lambda n: ["int", n]),
        "u32": st.sampled_from([0, 1, 2**32 - 1]).map(lambda n: ["int", n]),
        "fraction": st.sampled_from([["float", 0.0], ["float", 0.25], ["int", 0]]),
    }[kind]


def is_int(arg: List[Any], lo: int, hi: int) -> bool:
    return arg[0] == "int" and lo <= arg[1] < hi


def valid(kind: str, arg: List[Any]) -> bool:
    """Whether `arg` is of parameter type `kind` (the contract _check.py enforces)."""
    tag = arg[0]
    if kind in ("source", "program"):
        return arg == ["obj", kind]
    if kind == "machine?":
        return arg in (["none"], ["obj", "machine"])
    if kind == "overrides?":
        return arg == ["none"] or (tag == "dict" and all(
            is_int(v, 0, 2**64) for v in arg[1].values()))
    if kind == "str":
        return tag == "str" and "\0" not in arg[1]
    if kind == "text":
        return tag == "bytes" or (tag == "str" and True)
    if kind == "u64":
        return is_int(arg, 0, 2**64)
    if kind == "u32":
        return is_int(arg, 0, 2**32)
    if kind == "fraction":
        if tag == "int":
            return arg[1] == 0
        return tag == "float" and math.isfinite(float(arg[1])) and 0 <= float(arg[1]) < 1
    raise AssertionError(kind)


@st.composite
def steps(draw: Any) -> List[Any]:
    out = []
    for _ in range(draw(st.integers(1, 6))):
        call, receiver = draw(st.sampled_from(sorted(SIGNATURES)))
        if draw(st.integers(0, 4)) == 0:
            receiver = "closed_" + receiver
        args = [draw(st.one_of(good(k), any_arg) if draw(st.booleans()) else good(k))
                for k in SIGNATURES[(call, receiver.replace("closed_", ""))]]
        out.append([call, receiver, args])
    return out


def should_raise(step: List[Any]) -> bool:
    call, receiver, args = step
    kinds = SIGNATURES[(call, receiver.replace("closed_", ""))]
    return receiver.startswith("closed_") or not all(valid(k, a) for k, a in zip(kinds, args))


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(steps())
def test_misused_calls_raise_and_the_interpreter_lives(sequence: List[Any]) -> None:
    child = subprocess.run([sys.executable, CHILD], input=json.dumps(sequence),
                           capture_output=True, text=True, timeout=120, check=False)
    assert child.returncode >= 0, "the interpreter died by signal %d running %s\n%s" % (
        -child.returncode, sequence, child.stderr[-2000:])
    assert child.returncode == 0, child.stderr[-2000:]
    outcomes = [json.loads(line) for line in child.stdout.splitlines()]
    assert len(outcomes) == len(sequence)
    for step, (call, outcome) in zip(sequence, outcomes):
        if should_raise(step):
            assert outcome in RAISES, "%s returned (or raised %s) where it should raise: %s" % (
                call, outcome, step)


def test_the_oracle_tells_misuse_from_use() -> None:
    # The property is only as good as should_raise: a few cases by hand.
    assert should_raise(["analyze", "context", [["obj", "source"]]])
    assert should_raise(["analyze", "context", [["obj", "program"], ["none"], ["none"],
                                                ["dict", {"BATCH": ["int", 2**64]}]]])
    assert should_raise(["line", "closed_source", [["int", 0]]])
    assert should_raise(["check_text", "analysis", [["float", "nan"]]])
    assert should_raise(["sweep", "context", [["obj", "program"], ["str", "N"], ["bool", True],
                                              ["int", 4], ["none"]]])
    assert not should_raise(["analyze", "context", [["obj", "program"], ["obj", "machine"],
                                                    ["none"], ["none"]]])
    assert not should_raise(["edit", "source", [["int", 0], ["int", 0], ["bytes", "x"]]])
