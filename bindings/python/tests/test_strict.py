# SPDX-License-Identifier: Apache-2.0
"""test_strict.py - every public function checks what it hands to libvxpeak (issue 35): a
handle of the wrong kind or a value of the wrong type is a TypeError, a number outside its C
type a ValueError or an OverflowError, never a crash or a truncated value; objects used
after they (or their parents) are closed raise Misuse; and a program that declares no machine
is analysed as `vxpeak check` analyses it."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
PLAIN = str(ROOT / "tests" / "examples" / "plain.vx")  # declares no machine
LOOP = str(ROOT / "examples" / "blog" / "peak_not_sum.vx")  # declares its own

# A program without a machine model whose peak grows with BATCH, so that a truncated
# override would show as another peak.
BATCHED = """
const BATCH: u64 = 2;
fn main() -> i32 {
  let kv = transfer(Tensor<f32, [BATCH, 1024]>::uninit(), Memory::HBM);
  print(kv);
  return 0;
}
"""


@pytest.fixture
def objs(ctx: vxpeak.Context) -> Any:
    src = ctx.load(PLAIN)
    return ctx, src, ctx.parse(src), ctx.builtin_machine("a100-40")


def test_a_handle_of_the_wrong_kind_is_a_type_error_naming_the_expected_kind(objs: Any) -> None:
    ctx, src, p, m = objs
    calls: list[Callable[[], object]] = [
        lambda: ctx.analyze(src),
        lambda: ctx.analyze(m),
        lambda: ctx.sweep(src, "BATCH", 1, 4),
        lambda: ctx.analyze(p, machine=src),
        lambda: ctx.analyze(p, host=p),
        lambda: ctx.frontier(p, "BATCH", 1, 4, machine=src),
        lambda: ctx.parse(p),
        lambda: ctx.reparse(src, src),
        lambda: ctx.sweep_report(p, "BATCH", 1, 4, machines=[src]),
        lambda: ctx.sweep_grid(src, "A", [1], "B", [1]),
        lambda: ctx.analyze(None),  # type: ignore[arg-type]
        lambda: ctx.analyze(12345),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(TypeError, match="expected (Program|Machine|Source)"):
            call()


def test_the_issue_calls_raise_in_a_child_interpreter_that_lives_on() -> None:
    # What crashed the interpreter before (SIGSEGV) now raises; the child prints "alive".
    script = """
import vxpeak
ctx = vxpeak.Context(); src = ctx.load(%r); p = ctx.parse(src)
m = ctx.builtin_machine("a100-40")
for call in (lambda: ctx.analyze(src), lambda: ctx.analyze(m),
             lambda: ctx.sweep(src, "BATCH", 1, 4), lambda: ctx.analyze(p, machine=src),
             lambda: ctx.frontier(p, "BATCH", 1, 4, machine=src)):
    try:
        call()
    except TypeError:
        continue
    raise SystemExit("returned")
print("alive")
""" % PLAIN
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=False)
    assert (out.returncode, out.stdout) == (0, "alive\n"), out.stderr


@pytest.mark.parametrize(
    "value, error",
    [
        (2**64 + 4, OverflowError),
        (2**70, OverflowError),
        (-1, ValueError),
        (1.5, TypeError),
        ("4", TypeError),
        (True, TypeError),
        (None, TypeError),
    ],
)
def test_an_override_outside_uint64_raises_instead_of_being_analysed(
    ctx: vxpeak.Context, value: object, error: type
) -> None:
    p = ctx.parse(ctx.source(BATCHED))
    with pytest.raises(error, match="BATCH"):
        ctx.analyze(p, overrides={"BATCH": value})  # type: ignore[dict-item]
    with pytest.raises(error, match="BATCH"):
        ctx.sweep(p, "BATCH", 1, 2, overrides={"BATCH": value})  # type: ignore[dict-item]
    with pytest.raises(error, match="BATCH"):
        ctx.frontier(p, "BATCH", 1, 2, overrides={"BATCH": value})  # type: ignore[dict-item]
    # The largest value that fits is taken as it is.
    ctx.analyze(p, overrides={"BATCH": 2**64 - 1})


def test_numbers_are_checked_against_their_c_type(ctx: vxpeak.Context) -> None:
    src = ctx.source("abc")
    p = ctx.parse(ctx.source(BATCHED))
    with pytest.raises(ValueError):
        ctx.sweep(p, "BATCH", -1, 4)
    with pytest.raises(OverflowError):
        ctx.sweep(p, "BATCH", 1, 2**64)
    with pytest.raises(TypeError):
        ctx.sweep(p, "BATCH", 1.0, 4)
    with pytest.raises(OverflowError):
        src.line(2**32)
    with pytest.raises(ValueError):
        src.edit(-1, 0, "x")
    with pytest.raises(OverflowError):
        src.utf16_column(0, 2**32)
    with pytest.raises(TypeError):
        ctx.frontier(p, "BATCH", 1, 2, tokens_per_call=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ctx.sweep(p, "BATCH", 1, 2, margin=float("nan"))
    with pytest.raises(TypeError):
        ctx.sweep(p, "BATCH", 1, 2, margin="10%")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ctx.analyze(p, machine_only=1)  # type: ignore[arg-type]


def test_strings_are_checked(ctx: vxpeak.Context) -> None:
    p = ctx.parse(ctx.source(BATCHED))
    with pytest.raises(TypeError, match="name"):
        ctx.builtin_machine(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="NUL"):
        ctx.builtin_machine("a100-40\0junk")  # C would read "a100-40"
    with pytest.raises(ValueError, match="NUL"):
        ctx.analyze(p, overrides={"BAT\0CH": 1})
    with pytest.raises(TypeError):
        ctx.sweep(p, b"BATCH", 1, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ctx.load(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ctx.source(["fn"])  # type: ignore[arg-type]
    an = ctx.analyze(p)
    with pytest.raises(TypeError):
        an.roofline(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        an.explain(function=1)  # type: ignore[arg-type]


def test_using_an_object_after_its_parent_is_closed_raises_misuse() -> None:
    ctx = vxpeak.Context()
    src = ctx.load(PLAIN)
    p = ctx.parse(src)
    m = ctx.builtin_machine("l4")
    an = ctx.analyze(p, machine=m)
    m.close()
    assert an.closed and not p.closed  # the analysis borrowed the machine
    with pytest.raises(vxpeak.Misuse, match="closed"):
        an.resident_sets
    with pytest.raises(vxpeak.Misuse):
        ctx.analyze(p, machine=m)
    ctx.close()
    for use in (lambda: src.text, lambda: p.diagnostics, lambda: ctx.parse(src)):
        with pytest.raises(vxpeak.Misuse):
            use()
    assert isinstance(vxpeak.Misuse("x"), vxpeak.InvalidArgument)


def test_objects_in_a_reference_cycle_are_freed_children_first() -> None:
    # The collector clears weak references before it runs finalizers: a context that found
    # its children through them would be freed before its program, whose own finalizer
    # then read freed memory. Run in a child so a crash is seen as one.
    script = """
import gc, vxpeak
for _ in range(50):
    ctx = vxpeak.Context()
    p = ctx.parse(ctx.load(%r))
    an = ctx.analyze(p)
    ctx.cycle = (ctx, p, an)   # every object reachable only through a cycle
    p.cycle = ctx
    del ctx, p, an
    gc.collect()
print("alive")
""" % PLAIN
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=False)
    assert (out.returncode, out.stdout) == (0, "alive\n"), out.stderr


def test_a_program_without_a_machine_gets_the_commands_default(ctx: vxpeak.Context) -> None:
    an = ctx.analyze(ctx.parse(ctx.load(PLAIN)))
    assert an.admitted and an.diagnostics == []
    command = subprocess.run(
        [str(Path(os.environ.get("VXPEAK_BUILD_DIR", ROOT / "build")) / "vxpeak"), "check", PLAIN,
         "--format", "json"],
        capture_output=True, text=True, check=False,
    )
    want = {(r["function"], r["space"]): r["total_bytes"]
            for r in json.loads(command.stdout)["resident_sets"]}
    assert {(r.function, r.space): r.peak_bytes for r in an.resident_sets} == want
    assert {r.space: r.capacity_bytes for r in an.resident_sets}["HBM"] == 40 * 2**30
    assert (vxpeak.default_machine(), vxpeak.default_host()) == ("a100-40", "host-default")
    sweep = ctx.sweep(ctx.parse(ctx.source(BATCHED)), "BATCH", 1, 4)
    assert sweep.largest is not None and sweep.largest.value == 4
    assert sweep.largest.capacity_bytes == 40 * 2**30
    assert sweep.report is not None and "a100-40 (built-in)" in sweep.report.text
    frontier = ctx.frontier(ctx.parse(ctx.source(BATCHED)), "BATCH", 1, 2)
    assert "a100-40 (built-in)" in frontier.text and "program's own" not in frontier.text
    # A host of the caller's own is kept; a program with its own machine gets none added.
    an2 = ctx.analyze(ctx.parse(ctx.load(PLAIN)), host=ctx.builtin_machine("host-default"))
    assert an2.admitted
    own = ctx.analyze(ctx.parse(ctx.load(LOOP)))
    assert [r.capacity_bytes for r in own.resident_sets] == [4 * 2**20]
    gc.collect()
