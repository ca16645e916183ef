# SPDX-License-Identifier: Apache-2.0
"""test_api.py - the Pythonic API against the C library: results, exceptions, lifetimes,
incremental reparsing, and to_dict() agreeing with the accessors."""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path

import pytest

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
LOOP = str(ROOT / "examples" / "blog" / "peak_not_sum.vx")
UNROLLED = str(ROOT / "examples" / "blog" / "unrolled.vx")

MACHINE = """
Memory CPU_DRAM {}
Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }
"""


def test_version_matches_the_header() -> None:
    header = (ROOT / "include" / "vxpeak.h").read_text()
    version = re.search(r'#define VXP_VERSION_STRING "(.*)"', header).group(1)
    assert vxpeak.version() == version
    assert vxpeak.__version__ == version
    pyproject = (ROOT / "bindings" / "python" / "pyproject.toml").read_text()
    assert 'version = "%s"' % version in pyproject
    assert vxpeak.grammar_abi() == 14
    assert Path(vxpeak.library_path()).name == "libvxpeak.so.0.1"


def test_blog_loop_peaks_at_two_tiles(ctx: vxpeak.Context) -> None:
    analysis = ctx.analyze(ctx.parse(ctx.load(LOOP)))
    assert analysis.admitted
    assert (analysis.error_count, analysis.warning_count) == (0, 0)
    [rs] = analysis.resident_sets
    assert rs == vxpeak.ResidentSet(
        function="main",
        space="HBM",
        peak_bytes=2 * 1024 * 1024,
        capacity_bytes=4 * 1024 * 1024,
        tiles=2,
        overcommit=False,
        allocated_bytes=33 * 1024 * 1024,
    )
    assert rs.utilization == 0.5 and rs.fits
    live = [r for r in analysis.records if r.live_at_peak]
    assert [r.binding for r in live] == ["weights", "scratch"]
    assert [r.scope_depth for r in live] == [0, 1]
    assert live[0].span.start_line == 16  # 0-based: line 17 in the file


def test_unrolled_program_is_rejected_with_e6010(ctx: vxpeak.Context) -> None:
    analysis = ctx.analyze(ctx.parse(ctx.load(UNROLLED)))
    assert not analysis.admitted
    [d] = analysis.diagnostics
    assert (d.severity, d.code) == ("error", "E6010")
    assert "(33 tiles)" in d.message
    assert (d.line, d.column) == (81, 19)
    assert str(d).startswith(UNROLLED + ":81:19: error[E6010]: the working set")


def test_to_dict_is_the_json_report_and_agrees_with_the_accessors(ctx: vxpeak.Context) -> None:
    machine = ctx.builtin_machine("a100-40")
    host = ctx.builtin_machine("host-default")
    program = ctx.parse(ctx.load(ROOT / "tests" / "examples" / "plain.vx"))
    analysis = ctx.analyze(program, machine=machine, host=host)
    report = analysis.to_dict()
    assert report == json.loads(analysis.json)
    # The keys in the report's own order (the JSON's key order is part of its schema).
    assert list(report) == [k for k, _ in json.loads(analysis.json, object_pairs_hook=list)]
    assert {"schema", "verdict", "diagnostics", "routes", "resident_sets"} <= set(report)
    assert report["schema"] == "vxpeak-report-v1"
    assert report["verdict"] == ("admitted" if analysis.admitted else "rejected")
    assert report["machine"] == machine.label == "a100-40 (built-in)"
    sets = analysis.resident_sets
    assert len(report["resident_sets"]) == len(sets) >= 2
    for entry, rs in zip(report["resident_sets"], sets):
        assert (entry["function"], entry["space"]) == (rs.function, rs.space)
        assert entry["total_bytes"] == rs.peak_bytes
        assert entry["capacity_bytes"] == rs.capacity_bytes
        assert entry["tiles"] == rs.tiles
        assert entry["allocated_bytes"] == rs.allocated_bytes
    routes = analysis.routes
    assert len(routes) == len(report["routes"]) >= 3
    for entry, route in zip(report["routes"], routes):
        assert list(route.path) == entry["path"]
        assert [e["cost"] for e in entry["edges"]] == list(route.edge_costs)
        assert entry["total_cost"] == route.total_cost
        assert entry["bytes"] == route.bytes
        assert entry["derived_cost"] == route.derived_cost
        assert entry["derived_unit"] == route.derived_unit
        assert entry["cost_source"] == route.cost_source
        assert entry["composition"] == route.composition
        assert (entry["function"], entry["line"], entry["column"]) == (
            route.function, route.span.start_line + 1, route.span.start_column + 1)
    assert {r.cost_source for r in routes} == {"link_rate", "containment"}
    # The dict is the caller's: changing it changes nothing else.
    report["verdict"] = "changed"
    assert analysis.to_dict()["verdict"] != "changed"


def test_diagnostics_carry_notes_and_utf16_columns(ctx: vxpeak.Context) -> None:
    analysis = ctx.analyze(ctx.parse(ctx.load(ROOT / "tests" / "examples" / "broken.vx")))
    by_code = {d.code: d for d in analysis.diagnostics}
    assert set(by_code) == {"VXP0001", "E6009", "W1029"}
    e6009 = by_code["E6009"]
    # Line 7 holds "données — 1 €" before the tile: more bytes than UTF-16 units.
    assert e6009.span.start_column == 41
    assert e6009.span.start_utf16 == 36
    w1029 = by_code["W1029"]
    assert w1029.severity == "warning"
    note, help_ = w1029.notes
    assert note.message == "dimension 0 is the runtime value 'n'"
    assert not note.is_help
    assert help_.is_help and help_.message.startswith("give every dimension a compile-time")


def test_program_diagnostics_and_tree(ctx: vxpeak.Context) -> None:
    program = ctx.parse(ctx.source("fn main() -> i32 { let x = ; return 0; }\n", "t.vx"))
    [d] = program.diagnostics
    assert d.code == "VXP0001" and d.span.file == "t.vx"
    assert program.sexp.startswith("(source_file")
    assert not program.declares_machine
    assert ctx.parse(ctx.source(MACHINE)).declares_machine


def test_sources_hold_text_lines_and_labels(ctx: vxpeak.Context) -> None:
    src = ctx.source("é\nsecond\n", label="lab.vx")
    assert src.label == "lab.vx"
    assert src.text == "é\nsecond\n" and src.data == "é\nsecond\n".encode()
    assert src.line_count == 2
    assert src.line(1) == "second" and src.line(2) is None
    assert src.utf16_column(0, 2) == 1


def test_errors_raise_the_class_of_their_code(ctx: vxpeak.Context, tmp_path: Path) -> None:
    missing = tmp_path / "missing.vx"
    with pytest.raises(vxpeak.InputOutputError) as err:
        ctx.load(missing)
    assert str(missing) in str(err.value) and err.value.code == -4
    assert isinstance(err.value, OSError)
    with pytest.raises(vxpeak.NotFound) as nf:
        ctx.builtin_machine("no-such-gpu")
    assert "no-such-gpu" in nf.value.message and isinstance(nf.value, LookupError)
    src = ctx.source("abc")
    with pytest.raises(vxpeak.InvalidArgument):
        src.edit(2, 1, "x")
    assert isinstance(vxpeak.errors.error_for(-2, "m"), MemoryError)
    assert type(vxpeak.errors.error_for(-99, "m")) is vxpeak.VxpeakError


def test_edit_and_reparse(ctx: vxpeak.Context) -> None:
    v1 = ctx.load(LOOP)
    p1 = ctx.parse(v1)
    a1 = ctx.analyze(p1)
    text = v1.data
    start = text.index(b"0..32") + 3
    v2 = v1.edit(start, start + 2, "8")
    p2 = ctx.reparse(p1, v2)
    a2 = ctx.analyze(p2)
    assert a1.resident_sets[0].allocated_bytes == 33 * 1024 * 1024
    assert a2.resident_sets[0].allocated_bytes == 9 * 1024 * 1024
    assert a2.to_dict() == ctx.analyze(ctx.parse(ctx.source(v2.data, v1.label))).to_dict()
    # The old version and its analysis are untouched.
    assert b"0..32" in v1.data and a1.resident_sets[0].allocated_bytes == 33 * 1024 * 1024


def test_constant_overrides(ctx: vxpeak.Context) -> None:
    program = ctx.parse(ctx.source(MACHINE + """
const N: u64 = 256;
fn main() -> i32 {
  let a = transfer(Tensor<f32, [N, N]>::uninit(), Memory::W);
  print(a);
  return 0;
}
"""))
    assert ctx.analyze(program).resident_sets[0].peak_bytes == 256 * 256 * 4
    bigger = ctx.analyze(program, overrides={"N": 512})
    assert bigger.resident_sets[0].peak_bytes == 512 * 512 * 4
    unused = ctx.analyze(program, overrides={"NOPE": 1})
    assert [d.code for d in unused.diagnostics] == ["VXP0020"]


CALL_TREE = MACHINE + """
fn g() -> i32 {
  let y = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);
  print(y);
  return 1;
}
fn stage<const N: i64>() -> i32 {
  let z = transfer(Tensor<f32, [N, 1024]>::uninit(), Memory::W);
  print(z);
  return 1;
}
fn f() -> i32 {
  let x = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);
  let r = g();
  print(x);
  return r + stage<256>() + h();
}
fn main() -> i32 {
  let h = f;
  return h() + f();
}
"""


def test_call_trees_paths_and_unresolved_calls(ctx: vxpeak.Context) -> None:
    analysis = ctx.analyze(ctx.parse(ctx.source(CALL_TREE, "calls.vx")))
    assert not analysis.admitted
    [e6027] = [d for d in analysis.diagnostics if d.code == "E6027"]
    assert e6027.function == "f"
    assert "call path 'f -> g'" in e6027.message
    assert "'f' holds 3145728 bytes across its call" in e6027.message
    assert [n.line for n in e6027.notes] == [17, 6]
    trees = {(t.function, t.space): t for t in analysis.call_trees}
    # stage<256> places 256 x 1024 f32 = 1 MiB, after g returned: sequential calls take
    # the max, so f's total is its 3 MiB held across g plus g's own 3 MiB.
    assert set(trees) == {("g", "W"), ("f", "W"), ("main", "W"), ("stage<256>", "W")}
    assert trees[("stage<256>", "W")].self_peak_bytes == 1048576
    f = trees[("f", "W")]
    assert (f.self_peak_bytes, f.total_bytes, f.capacity_bytes) == (3145728, 6291456, 4194304)
    assert f.bounded and not f.fits
    [hop] = f.path
    assert (hop.caller, hop.callee, hop.held_bytes) == ("f", "g", 3145728)
    assert (hop.span.start_line + 1, hop.span.start_column + 1) == (17, 11)
    main = trees[("main", "W")]
    assert main.self_peak_bytes == 0 and main.total_bytes == 6291456
    assert [(h.caller, h.callee) for h in main.path] == [("main", "f"), ("f", "g")]
    report = analysis.to_dict()
    assert [(t["function"], t["total_bytes"]) for t in report["call_tree"]] == [
        (t.function, t.total_bytes) for t in analysis.call_trees]
    unresolved = analysis.unresolved_calls
    assert [(u.function, u.callee) for u in unresolved] == [("f", "h"), ("main", "h")]
    assert unresolved[0].reason.startswith("not defined in this program")
    assert unresolved[1].reason.startswith("a call through a function value")
    assert report["unresolved_calls"][1]["line"] == unresolved[1].span.start_line + 1


def test_cuda_generation(ctx: vxpeak.Context) -> None:
    cuda = ctx.analyze(ctx.parse(ctx.load(LOOP))).generate_cuda()
    assert cuda.text is not None and "__global__" in cuda.text and cuda.diagnostics == ()
    refused = ctx.analyze(ctx.parse(ctx.source("fn main() -> i32 { let x = ; return 0; }\n")))
    cuda = refused.generate_cuda()
    assert cuda.text is None and cuda.diagnostics


def test_closing_cascades_and_closed_objects_refuse_use() -> None:
    ctx = vxpeak.Context()
    src = ctx.load(LOOP)
    program = ctx.parse(src)
    analysis = ctx.analyze(program)
    src.close()  # closes the program and the analysis first
    assert program.closed and analysis.closed and src.closed and not ctx.closed
    with pytest.raises(vxpeak.InvalidArgument, match="closed"):
        analysis.resident_sets
    ctx.close()
    ctx.close()  # idempotent
    with pytest.raises(vxpeak.InvalidArgument):
        ctx.source("x")


def test_results_outlive_their_objects() -> None:
    with vxpeak.Context() as ctx:
        analysis = ctx.analyze(ctx.parse(ctx.load(UNROLLED)))
        diagnostics, sets = analysis.diagnostics, analysis.resident_sets
    assert analysis.closed
    assert diagnostics[0].code == "E6010" and sets[0].tiles == 33


def test_borrowed_objects_stay_alive_without_references() -> None:
    def make() -> vxpeak.Analysis:
        ctx = vxpeak.Context()
        return ctx.analyze(ctx.parse(ctx.load(LOOP)), machine=None)

    analysis = make()  # the context, source and program exist only through it
    gc.collect()
    assert analysis.resident_sets[0].peak_bytes == 2 * 1024 * 1024
    del analysis
    gc.collect()


def test_check_is_the_command(root: Path) -> None:
    report = vxpeak.check(root / "tests" / "examples" / "plain.vx")
    assert report["machine"] == "a100-40 (built-in)"
    assert report["host"] == "host-default (built-in)"
    assert report["verdict"] == "admitted"
    assert vxpeak.check(UNROLLED)["verdict"] == "rejected"
    with pytest.raises(vxpeak.InputOutputError):
        vxpeak.check(root / "no-such.vx")


def test_machine_only_checks_against_the_given_machine_alone(ctx: vxpeak.Context) -> None:
    program = ctx.parse(ctx.load(LOOP))  # declares its own HBM of 4 MiB
    h100 = ctx.builtin_machine("h100-sxm")
    host = ctx.builtin_machine("host-default")
    # Without machine_only the program's own spaces meet the machine's: E6012.
    both = ctx.analyze(program, machine=h100, host=host)
    assert "E6012" in [d.code for d in both.diagnostics]
    alone = ctx.analyze(program, machine=h100, host=host, machine_only=True)
    assert alone.admitted and alone.diagnostics == []
    [rs] = alone.resident_sets
    assert (rs.space, rs.peak_bytes, rs.capacity_bytes) == ("HBM", 2 * 1024 * 1024, 80 * 10**9)
    with pytest.raises(vxpeak.InvalidArgument):
        ctx.analyze(program, machine_only=True)
    small = ctx.parse(ctx.source("""
Memory CPU_DRAM {}
Memory HBM { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }
const N: u64 = 1;
fn main() -> i32 {
  let a = transfer(Tensor<f32, [N, 1024]>::uninit(), Memory::HBM);
  print(a);
  return 0;
}
"""))
    # The program's own 1 KiB HBM refuses N = 1; the H100's 80 GB takes all of 1..64.
    assert ctx.sweep(small, "N", 1, 64).largest is None
    swept = ctx.sweep(small, "N", 1, 64, machine=h100, host=host, machine_only=True)
    assert swept.largest is not None and swept.largest.value == 64


def test_formula_is_the_decode_peak_in_batch_and_context(ctx: vxpeak.Context) -> None:
    program = ctx.parse(ctx.load(str(ROOT / "examples" / "llama2" / "decode.vx")))
    analysis = ctx.analyze(
        program, ctx.builtin_machine("a100-40"), ctx.builtin_machine("host-default")
    )
    (main,) = analysis.formula("BATCH,CONTEXT")
    assert main["function"] == "main" and main["space"] == "HBM"
    assert main["text"] == "14,176,298,752 + 262,144 x BATCH + 524,288 x BATCH x CONTEXT"
    assert main["peak_formula"] == [
        [
            {"coefficient": 14176298752, "constants": []},
            {"coefficient": 262144, "constants": ["BATCH"]},
            {"coefficient": 524288, "constants": ["BATCH", "CONTEXT"]},
        ]
    ]
    batch, context = 8, 4096
    terms = main["peak_formula"][0]
    value = sum(
        t["coefficient"] * (batch ** t["constants"].count("BATCH"))
        * (context ** t["constants"].count("CONTEXT"))
        for t in terms
    )
    assert value == analysis.resident_sets[0].peak_bytes
    with pytest.raises(vxpeak.errors.NotFound, match="'SEQ' is not a const item"):
        analysis.formula(["SEQ"])


def test_retype_puts_the_kv_cache_in_f8(ctx: vxpeak.Context) -> None:
    program = ctx.parse(ctx.load(str(ROOT / "examples" / "llama2" / "decode.vx")))
    a100, host = ctx.builtin_machine("a100-40"), ctx.builtin_machine("host-default")
    f16 = ctx.analyze(program, a100, host)
    f8 = ctx.analyze(program, a100, host, retype={"KV cache": "f8e4m3"})
    # the cache is 2 x 32 x 4096 x 8 x 4096 elements: half its 17,179,869,184 bytes go
    assert f16.resident_sets[0].peak_bytes - f8.resident_sets[0].peak_bytes == 8589934592
    with pytest.raises(vxpeak.errors.NotFound, match="the program's roles: layer weights"):
        ctx.analyze(program, a100, host, retype={"kv": "f8e4m3"})
