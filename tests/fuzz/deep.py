#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""deep.py - every nesting form at its depth limit, through the walks that follow the tree.

  deep.py CLI OUTDIR [--sanitized] [--all-commands] [--only SUBSTRING] [--list]

Each walk the input's nesting drives stops somewhere: lowering at VXP_MAX_NESTING (1000
levels, VXP0003), the parsable-length scan at 4096 tokens of open statements or 8192 brackets
(VXP0003), constant folding at 512 levels, instantiation at 128. A walk that recurses holds a
frame per level, and a frame can be kilobytes under clang's ASan: lowering's expression walk
took about 8 KB a level and overflowed an 8 MB stack at 958 levels of parentheses, calls,
casts, operators or closures, which gcc's ASan build passed. So every form that nests is
generated at the deepest it is processed whole and one level more, where the first limit
stops it (each form's figure is in the table; without --sanitized the run checks that `check`
does not cut the first and cuts the second, so the table follows the limits when they move),
and the forms no limit cuts (chains of items: consts, calls, instances, `within:`) at depths
past every limit. The deepest text goes through check, parse, parse --sexp and emit-cuda
(every command with --all-commands); the cut one through check. `make test` runs it, so
`make asan` and `make asan-clang` run it on the sanitized command: a stack overflow or any
sanitizer report fails. Each run must end with exit 0, 1 or 2 and a diagnostic, within its
time bound (bounded.py).
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bounded import COMMANDS, run_commands  # noqa: E402

MACHINE = (b"Memory CPU_DRAM {}\nMemory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB }\n"
           b"Topology Dev { arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
           b"  transfer Memory::CPU_DRAM -> Memory::HBM : 10 GB/s }\n")
PLACE = b"let t = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);"


def place(shape=b"[16, 16]"):
    return b"let t = transfer(Tensor<f32, %s>::uninit(), Memory::HBM);" % shape


def program(stmts, before=b""):
    """A machine, items before main, and main's statements (x and y are in scope)."""
    return MACHINE + before + b"fn main() -> i32 {\n  let x = 1;\n  let y = 2;\n  " + stmts \
        + b"\n  return 0;\n}\n"


def nest(open_, inner, close):
    return lambda n: open_ * n + inner + close * n


# Each form with the depths it is run at: the deepest that is lowered (or parsed) whole and
# one more, where lowering's VXP0003 ("syntax nested more than 1000 levels") or the scan's cut
# (VXP0003: open-statement tokens, brackets) stops it, so the deepest tree any walk is given
# is among them. `expect_cut` below checks that each first depth is not cut and each second
# is, so the table follows the limits when they move. Forms without a cut (chains of items)
# run at a depth past every limit instead.
LOWERING = 1000   # VXP_MAX_NESTING (lower.h)
FOLD = 512        # consteval's fold depth
BRACKETS = 8192   # VXP_MAX_BRACKET_DEPTH (program.h)
INSTANCES = 128   # VXP_MAX_INSTANCE_DEPTH (instance.h)
IF = b"if x { "
GENERIC = b"fn g<const N: i32>() -> i32 {\n  " + place(b"[N]") + b"\n  return 0;\n}\n"
LOWERING_HEAD = (MACHINE + b"impl Transfer<Memory::CPU_DRAM, Memory::HBM> for Topology::Dev {\n"
                 b"  fn move_tile(src: &Tensor<f32, [64]>, dst: &mut Tensor<f32, [64]>) -> i32 {\n    ")
LOWERING_TAIL = (b"\n    raw::async_wait();\n    return 0;\n  }\n}\n"
                 b"fn main() -> i32 {\n  " + PLACE + b"\n  return 0;\n}\n")

FORMS = [
    # statements and blocks
    ("nested-if", 498, [BRACKETS + 1], lambda n: program(nest(IF, PLACE, b" }")(n))),
    ("else-if-chain", 581, [], lambda n: program(
        b"if x == 0 { " + PLACE + b" } " + (b"else if x == 2 { " + PLACE + b" } ") * n
        + b"else { return 1; }")),
    ("nested-while", 815, [], lambda n: program(nest(b"while x < 1 { ", PLACE, b" }")(n))),
    ("nested-for", 509, [], lambda n: program(nest(b"for i in 0..2 { ", PLACE, b" }")(n))),
    ("nested-loop", 996, [], lambda n: program(nest(b"loop { ", PLACE + b" break;", b" }")(n))),
    ("nested-spawn", 498, [],
     lambda n: program(nest(b"spawn on(Topology::Dev) { ", PLACE, b" };")(n))),
    ("nested-unsafe", 498, [BRACKETS + 1],
     lambda n: program(nest(b"unsafe { ", PLACE, b" }")(n))),
    ("nested-comptime", 499, [],
     lambda n: program(b"let c = " + nest(b"comptime { ", b"1", b" }")(n) + b";")),
    ("nested-if-comptime", 498, [],
     lambda n: program(nest(b"if comptime 1 > 0 { ", PLACE, b" }")(n))),
    ("nested-match", 499, [],
     lambda n: program(b"let m = " + nest(b"match x { _ => ", b"1", b" }")(n) + b";")),
    ("nested-closure", 998, [], lambda n: program(b"let f = " + b"|x| " * n + b"x;")),
    # expressions
    ("paren", 998, [BRACKETS + 1],
     lambda n: program(b"let a = " + nest(b"(", b"1", b")")(n) + b";")),
    ("array-expr", 998, [], lambda n: program(b"let a = " + nest(b"[", b"1", b"]")(n) + b";")),
    ("tuple-expr", 998, [],
     lambda n: program(b"let a = " + nest(b"(1, ", b"1", b")")(n) + b";")),
    ("unary-minus", 998, [], lambda n: program(b"let a = " + b"-" * n + b"1;")),
    ("unary-not", 998, [], lambda n: program(b"let a = " + b"!" * n + b"x;")),
    ("deref", 998, [], lambda n: program(b"let a = " + b"*" * n + b"x;")),
    ("reference", 998, [], lambda n: program(b"let a = " + b"&" * n + b"x;")),
    ("plus-chain", 998, [], lambda n: program(b"let a = x" + b" + x" * n + b";")),
    ("plus-right", 499, [],
     lambda n: program(b"let a = " + nest(b"x + (", b"x", b")")(n) + b";")),
    ("mixed-precedence", 498, [],
     lambda n: program(b"let a = x" + b" * x + x - x / x" * n + b";")),
    ("comparison-chain", 510, [],
     lambda n: program(b"let a = x" + b" == x && x < x" * n + b";")),
    ("compound-assign", 997, [], lambda n: program(b"x += x" + b" * x" * n + b";")),
    ("range-chain", 998, [], lambda n: program(b"let a = x" + b"..x" * n + b";")),
    ("call-nest", 998, [], lambda n: program(b"let a = " + nest(b"f(", b"1", b")")(n) + b";",
                                                b"fn f(a: i32) -> i32 { return a; }\n")),
    ("method-chain", 998, [], lambda n: program(b"let a = x" + b".f()" * n + b";")),
    ("index-chain", 998, [], lambda n: program(b"let a = x" + b"[0]" * n + b";")),
    ("field-chain", 998, [], lambda n: program(b"let a = x" + b".b" * n + b";")),
    ("cast-chain", 998, [], lambda n: program(b"let a = x" + b" as i32" * n + b";")),
    ("if-expression-nest", 499, [], lambda n: program(
        b"let a = " + nest(b"if x > 0 { ", b"1", b" } else { 2 }")(n) + b";")),
    ("struct-expression-nest", 998, [],
     lambda n: program(b"let a = " + nest(b"S { a: ", b"1", b" }")(n) + b";")),
    ("transfer-nest", 997, [], lambda n: program(
        b"let a = " + nest(b"transfer(", b"Tensor<f32, [4]>::uninit()", b", Memory::HBM)")(n)
        + b";")),
    ("macro-token-trees", 998, [], lambda n: program(b"m!" + nest(b"(", b"1", b")")(n) + b";")),
    # types
    ("generic-type", 1361, [],
     lambda n: program(b"let a: " + nest(b"A<", b"i32", b">")(n) + b" = 1;")),
    ("tensor-type", 2042, [],
     lambda n: program(b"let a: " + nest(b"Tensor<", b"f32", b", [4]>")(n) + b" = 1;")),
    ("reference-type", 4083, [], lambda n: program(b"let a: " + b"&" * n + b"i32 = x;")),
    ("pointer-type", 2041, [], lambda n: program(b"let a: " + b"*mut " * n + b"i32 = x;")),
    ("tuple-type", 4085, [],
     lambda n: program(b"let a: " + nest(b"(i32, ", b"i32", b")")(n) + b" = x;")),
    ("parameter-type", 1362, [], lambda n: program(
        b"", b"fn g(a: " + nest(b"A<", b"i32", b">")(n) + b") -> " + nest(b"A<", b"i32", b">")(n)
        + b" { return a; }\n")),
    # constant expressions: shapes, const items, generic arguments, clauses
    ("shape-paren", 996, [FOLD - 1, FOLD + 1],
     lambda n: program(place(b"[" + nest(b"(", b"16", b")")(n) + b"]"))),
    ("shape-plus-chain", 996, [FOLD - 1, FOLD + 1],
     lambda n: program(place(b"[1" + b" + 1" * n + b"]"))),
    ("shape-plus-right", 498, [],
     lambda n: program(place(b"[" + nest(b"1 + (", b"1", b")")(n) + b"]"))),
    ("const-paren", 999, [FOLD - 1, FOLD + 1], lambda n: program(
        place(b"[N]"), b"const N: i32 = " + nest(b"(", b"4", b")")(n) + b";\n")),
    ("const-plus-chain", 999, [FOLD - 1, FOLD + 1], lambda n: program(
        place(b"[N]"), b"const N: i32 = 1" + b" + 1" * n + b";\n")),
    ("const-comptime", 999, [], lambda n: program(
        place(b"[N]"), b"const N: i32 = " + nest(b"comptime { ", b"4", b" }")(n) + b";\n")),
    ("const-chain", None, [FOLD - 1, FOLD + 1, 20000], lambda n: program(
        place(b"[C%d]" % (n - 1)), b"const C0: i32 = 1;\n" + b"".join(
            b"const C%d: i32 = C%d + 1;\n" % (i, i - 1) for i in range(1, n)))),
    ("generic-argument", 4083, [], lambda n: program(
        b"let r = g<" + nest(b"(", b"2", b")")(n) + b">();", GENERIC)),
    ("generic-argument-chain", 996, [FOLD - 1, FOLD + 1],
     lambda n: program(b"let r = g<1" + b" + 1" * n + b">();", GENERIC)),
    ("requires-clause", 2034, [], lambda n: program(
        b"let r = g<4>();", b"fn g<const N: i32>() -> i32 requires N" + b" + 1" * n
        + b" > 0 {\n  " + place(b"[N]") + b"\n  return 0;\n}\n")),
    # calls and instances
    ("call-chain", None, [LOWERING, 5000], lambda n: program(b"let r = f0();", b"".join(
        b"fn f%d() -> i32 {\n  %s\n  return f%d();\n}\n" % (i, PLACE, i + 1) for i in range(n))
        + b"fn f%d() -> i32 { return 0; }\n" % n)),
    ("instance-chain", None, [INSTANCES - 1, INSTANCES + 1], lambda n: program(
        b"let r = g<%d>();" % n, b"fn g<const N: i32>() -> i32 {\n  " + place(b"[N]")
        + b"\n  if comptime N > 0 { let r = g<N - 1>(); }\n  return 0;\n}\n")),
    ("generic-chain", None, [INSTANCES - 1, INSTANCES + 1, 2000], lambda n: program(
        b"let r = g0<4>();", b"".join(
            b"fn g%d<const N: i32>() -> i32 {\n  %s\n  return g%d<N + 1>();\n}\n"
            % (i, place(b"[N]"), i + 1) for i in range(n))
        + b"fn g%d<const N: i32>() -> i32 { return 0; }\n" % n)),
    # machine models: a within chain in the program
    ("within-chain", None, [LOWERING, 20000], lambda n: b"Memory S0 { capacity: 1 GiB }\n" + b"".join(
        b"Memory S%d { within: Memory::S%d, capacity: 1 GiB }\n" % (i, i - 1) for i in range(1, n))
        + b"Topology T { arch: nvptx64, memory: Memory::S%d, visible: [Memory::S%d] }\n"
        % (n - 1, n - 1) + b"fn main() -> i32 {\n  let t = transfer(Tensor<f32, [4]>::uninit(), "
        b"Memory::S%d);\n  return 0;\n}\n" % (n - 1)),
    # transfer lowerings: their bodies are read into count programs and bounds
    ("lowering-for-nest", None, [LOWERING, BRACKETS + 1], lambda n: LOWERING_HEAD
        + nest(b"for i in 0..raw::extent(src) { ", b"raw::async_copy(dst, i, src, i);", b" }")(n)
        + LOWERING_TAIL),
    ("lowering-index-nest", None, [FOLD - 1, FOLD + 1, LOWERING], lambda n: LOWERING_HEAD
        + b"for i in 0..raw::extent(src) { raw::async_copy(dst, " + nest(b"(", b"i", b")")(n)
        + b", src, i + 0" + b" + 0" * n + b"); }" + LOWERING_TAIL),
    ("lowering-if-nest", None, [LOWERING, BRACKETS + 1], lambda n: LOWERING_HEAD
        + nest(b"if comptime 1 > 0 { ", b"raw::async_copy(dst, 0, src, 0);", b" }")(n)
        + LOWERING_TAIL),
]

# The machine-file form: a --machine whose within chain is that deep.
MACHINE_FORMS = [
    ("machine-within-chain", None, [LOWERING, 20000], lambda n: b"Memory S0 { capacity: 1 GiB }\n"
        + b"".join(b"Memory S%d { within: Memory::S%d, capacity: 1 GiB }\n" % (i, i - 1)
                   for i in range(1, n))),
]


# The commands whose work follows the tree: lowering and the analysis (check), the printers
# (parse, parse --sexp) and code generation; --all-commands adds every report.
TREE_COMMANDS = [["check"], ["parse"], ["parse", "--sexp"], ["emit-cuda", "-o", "{out}/out.cu"]]
MACHINE_COMMANDS = [["check"], ["roofline"], ["emit-cuda", "-o", "{out}/out.cu"]]


def brief(failure):
    """A failure line cut to its command, its cause and the frames that say where."""
    if "Sanitizer" not in failure:
        return failure[:600]
    head = failure.split(":", 1)[0]
    frames = [ln.strip() for ln in failure.splitlines() if " in " in ln and "#" in ln][:6]
    summary = [ln for ln in failure.splitlines() if "SUMMARY" in ln]
    return "%s: %s | %s" % (head, " ".join(summary), " <- ".join(
        f.split(" in ", 1)[1] for f in frames))


def cut_at(cli, path):
    """Whether `check` says the text or a function was cut (VXP0003)."""
    p = subprocess.run([cli, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=60)
    return b"[VXP0003]" in p.stderr


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    cli, outdir = args[0], args[1]
    sanitized = "--sanitized" in sys.argv
    every = "--all-commands" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    os.makedirs(outdir, exist_ok=True)
    failures, runs, start = [], 0, time.monotonic()
    program_path = os.path.join(outdir, "deep-program.vx")
    with open(program_path, "wb") as f:
        f.write(program(PLACE))
    for name, deepest, others, make in FORMS + MACHINE_FORMS:
        if only and only not in name:
            continue
        runs_of = [(deepest, "deepest"), (deepest + 1, "cut")] if deepest else []
        runs_of += [(n, "other") for n in others]
        for n, role in runs_of:
            if "--list" in sys.argv:
                print("%s-%d" % (name, n))
                continue
            t0 = time.monotonic()
            text = make(n)
            path = os.path.join(outdir, "%s-%d.vx" % (name, n))
            with open(path, "wb") as f:
                f.write(text)
            fails = []
            if name.startswith("machine-"):
                commands = MACHINE_COMMANDS
                fails += run_commands(cli, program_path, commands, sanitized, machine=path)
            else:
                # The deepest tree through every walk; one more level only through the
                # check that says where it stops (the reports read the analysis, not the tree).
                commands = COMMANDS if every else TREE_COMMANDS if role != "cut" else [["check"]]
                fails += run_commands(cli, path, commands, sanitized)
                if role != "other" and not sanitized and cut_at(cli, path) != (role == "cut"):
                    fails.append("check %s: %s at depth %d (update the table: the limits moved)"
                                 % (path, "not cut" if role == "cut" else "cut", n))
            runs += len(commands)
            print("deep: %-28s %6d  %7d bytes  %5.1fs  %s" % (
                name, n, len(text), time.monotonic() - t0, "ok" if not fails else "FAIL"))
            for f in fails:
                print("deep:   " + brief(f))
            failures += fails
            os.remove(path)
    os.remove(program_path)
    if "--list" not in sys.argv:
        print("deep: %d runs, %d failing, %.0fs" % (runs, len(failures), time.monotonic() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
