# SPDX-License-Identifier: Apache-2.0
"""test_reports.py - the reports libvxpeak renders (vxp_report_explain, vxp_report_sweep) are
what the command prints: the same text, and dicts equal to json.loads of its JSON (the golden
files of tests/golden, which the command's tests compare byte for byte), read into typed
values whose fields are those of the JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"
LLAMA = "examples/llama2/prefill.vx"  # relative, as the goldens name it


def golden(name: str) -> str:
    return (GOLDEN / name / "expected.stdout").read_text()


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def _llama(ctx: vxpeak.Context, overrides: object = None) -> vxpeak.Analysis:
    program = ctx.parse(ctx.load(LLAMA))
    return ctx.analyze(
        program,
        machine=ctx.builtin_machine("a100-40"),
        host=ctx.builtin_machine("host-default"),
        overrides=overrides,  # type: ignore[arg-type]
    )


def test_explain_is_the_commands_json_and_text(ctx: vxpeak.Context, at_root: None) -> None:
    report = _llama(ctx).explain(function="main", machine="a100-40")
    assert report.to_dict() == json.loads(golden("explain-llama-json"))
    assert report.text == golden("explain-llama-text")
    assert str(report) == report.text
    # The typed values are the JSON's fields.
    [rs] = report.resident_sets
    doc = report.to_dict()["resident_sets"][0]
    assert (rs.function, rs.space, rs.peak_bytes, rs.tiles) == (
        doc["function"], doc["space"], doc["peak_bytes"], doc["tiles"])
    assert sum(row.tiles for row in rs.by_role) == rs.tiles
    assert sum(row.tiles for row in rs.by_site) == rs.tiles
    assert all(row.line is None for row in rs.by_role)
    assert all(row.line is not None and row.tile_bytes for row in rs.by_site)
    assert rs.allocated_bytes == sum(g.bytes for g in rs.sum_over_run)
    # to_dict is a copy.
    report.to_dict()["resident_sets"].clear()
    assert report.to_dict()["resident_sets"]


def test_explain_with_a_define_is_the_commands_text(ctx: vxpeak.Context, at_root: None) -> None:
    # explain-batch9-text: --machine fleet/a100-40.vx --host default -D BATCH=9
    program = ctx.parse(ctx.load(LLAMA))
    an = ctx.analyze(program, machine=ctx.machine("fleet/a100-40.vx"),
                     host=ctx.builtin_machine("host-default"), overrides={"BATCH": 9})
    assert an.explain(function="main", machine="fleet/a100-40.vx").text == golden(
        "explain-batch9-text")


def test_explain_selects_by_space_and_reports_nothing_for_no_match(
    ctx: vxpeak.Context, at_root: None
) -> None:
    an = _llama(ctx)
    assert an.explain().resident_sets
    hbm = an.explain(space="HBM")
    assert {rs.space for rs in hbm.resident_sets} == {"HBM"}
    nothing = an.explain(function="no_such_function")
    assert nothing.resident_sets == ()
    assert nothing.text == (
        "no tile is placed in a space with a capacity by no_such_function: nothing to explain\n")


def test_explain_keeps_every_row_past_256(ctx: vxpeak.Context) -> None:
    # 300 tiles of distinct sizes, all live at the peak: 300 site rows (the command used to
    # stop at 256 without saying so).
    lets = "\n".join(
        "    let t%d = transfer(Tensor<f32, [%d]>::new(), Memory::W);" % (i, i + 1)
        for i in range(300)
    )
    uses = " + ".join("t%d[0]" % i for i in range(300))
    text = ("Memory CPU_DRAM {}\n"
            "Memory W { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit }\n")
    text += "fn main() -> f32 {\n%s\n    %s\n}\n" % (lets, uses)
    an = ctx.analyze(ctx.parse(ctx.source(text, "many.vx")))
    [rs] = an.explain(function="main").resident_sets
    assert rs.tiles == 300
    assert len(rs.by_site) == 300
    assert sum(site.tiles for site in rs.by_site) == 300


def test_sweep_report_on_two_machines_is_the_commands_json(
    ctx: vxpeak.Context, at_root: None
) -> None:
    # sweep-llama-json: --const BATCH=1..64 --host default --machine a100-40 --machine h200
    program = ctx.parse(ctx.load(LLAMA))
    names = ["a100-40", "h200"]
    report = ctx.sweep_report(program, "BATCH", 1, 64,
                              machines=[ctx.builtin_machine(n) for n in names], names=names,
                              host=ctx.builtin_machine("host-default"))
    expected = json.loads(golden("sweep-llama-json"))
    assert report.to_dict() == expected
    assert [m.machine for m in report.machines] == names
    for typed, raw in zip(report.machines, expected["machines"]):
        assert typed.largest is not None and typed.largest.value == raw["largest"]["value"]
        assert typed.analyses == raw["analyses"] == len(typed.points)
        assert typed.method == raw["method"]
    assert (report.const, report.lo, report.hi, report.margin) == ("BATCH", 1, 64, 0.0)


def test_sweep_report_on_eight_machines_is_the_commands_text(
    ctx: vxpeak.Context, at_root: None
) -> None:
    cmd = (GOLDEN / "sweep-llama-text" / "args").read_text().split()
    names = cmd[cmd.index("--machine") + 1].split(",")
    program = ctx.parse(ctx.load(LLAMA))
    report = ctx.sweep_report(program, "BATCH", 1, 64,
                              machines=[ctx.builtin_machine(n) for n in names], names=names,
                              host=ctx.builtin_machine("host-default"))
    assert report.text == golden("sweep-llama-text")


def test_sweep_with_a_margin_is_the_commands_text(ctx: vxpeak.Context, at_root: None) -> None:
    # sweep-margin-text: the built-in a100-40 and the default host, 10% kept free.
    program = ctx.parse(ctx.load(LLAMA))
    a100, host = ctx.builtin_machine("a100-40"), ctx.builtin_machine("host-default")
    report = ctx.sweep_report(program, "BATCH", 1, 64, machines=[a100], names=["a100-40"],
                              host=host, margin=0.1)
    assert report.text == golden("sweep-margin-text")
    # A lone sweep's own report names its machine by the machine's label.
    sweep = ctx.sweep(program, "BATCH", 1, 64, machine=a100, host=host, margin=0.1)
    doc = sweep.to_dict()
    assert doc["margin"] == 0.1
    assert doc["machines"][0]["machine"] == "a100-40 (built-in)"
    assert sweep.largest is not None
    assert doc["machines"][0]["largest"]["value"] == sweep.largest.value == 6
    assert sweep.first_rejected is not None
    assert sweep.first_rejected.cause_function == "main"
    assert sweep.first_rejected.reason == "within_margin"
    assert sweep.report is not None and sweep.report.machines[0].first_rejected == sweep.first_rejected


def test_sweep_report_refuses_mismatched_names(ctx: vxpeak.Context, at_root: None) -> None:
    program = ctx.parse(ctx.load(LLAMA))
    with pytest.raises(vxpeak.InvalidArgument):
        ctx.sweep_report(program, "BATCH", 1, 4, machines=[ctx.builtin_machine("l4")],
                         names=["a", "b"])
    with pytest.raises(vxpeak.InvalidArgument):
        ctx.sweep_report(program, "BATCH", 1, 4, machines=[])


def _decode(ctx: vxpeak.Context, machine: str = "a100-40") -> vxpeak.Analysis:
    program = ctx.parse(ctx.load("examples/llama2/decode.vx"))
    return ctx.analyze(program, machine=ctx.builtin_machine(machine),
                       host=ctx.builtin_machine("host-default"))


def test_roofline_report_is_the_commands_text(ctx: vxpeak.Context, at_root: None) -> None:
    # roofline-decode7b-text: --tokens-per-call BATCH (BATCH is 8 in decode.vx)
    an = _decode(ctx)
    report = an.roofline_report(tokens_per_call=8, tokens_name="BATCH", machine="a100-40")
    assert report.text == golden("roofline-decode7b-text")
    noreuse = an.roofline_report(traffic="no_reuse", tokens_per_call=8, tokens_name="BATCH",
                                 machine="a100-40")
    assert noreuse.text == golden("roofline-decode7b-noreuse-text")
    [main] = report.functions
    assert (main.function, main.traffic_model, main.bound) == ("main", "compulsory", "memory")
    assert main.tokens_per_call == 8 and main.tokens_per_call_from == "BATCH"
    assert noreuse.functions[0].traffic_model == "no_reuse"
    with pytest.raises(vxpeak.InvalidArgument):
        an.roofline_report(traffic="cached")


def test_roofline_report_is_the_commands_json(ctx: vxpeak.Context, at_root: None) -> None:
    # roofline-decode7b-json: --machine h100-sxm (the fleet file) --host default --format json
    expected = json.loads(golden("roofline-decode7b-json"))
    report = _decode(ctx, "h100-sxm").roofline_report(tokens_per_call=8, tokens_name="BATCH")
    got = report.to_dict()
    # The command loaded the fleet's file (its path is the label); here the built-in copy.
    assert got.pop("machine") == "h100-sxm (built-in)"
    expected.pop("machine")
    assert got == expected
    entry = report.functions[0]
    raw = expected["functions"][0]
    assert (entry.call_time_ps, entry.tokens_per_second, entry.stream_bytes) == (
        raw["call_time_ps"], raw["tokens_per_second"], raw["streamed"]["bytes"])
    # The typed roofline and the report agree.
    assert _decode(ctx, "h100-sxm").roofline("main").time_ps == entry.time_ps


def test_frontier_is_the_commands_json_and_text(ctx: vxpeak.Context, at_root: None) -> None:
    program = ctx.parse(ctx.load("examples/llama2/decode.vx"))
    host = ctx.builtin_machine("host-default")
    # frontier-decode-json: --const BATCH=1..16 --tokens-per-call BATCH --margin 10%
    report = ctx.frontier(program, "BATCH", 1, 16, machine=ctx.builtin_machine("a100-40"),
                          host=host, margin=0.1, tokens_per_call="BATCH")
    expected = json.loads(golden("frontier-decode-json"))
    assert report.to_dict() == expected
    assert [p.value for p in report.points] == list(range(1, 17))
    assert report.points[3].tokens_per_call == 4
    assert report.points[0].call_time_ps == expected["points"][0]["call_time_ps"]
    assert (report.const, report.margin_ppm, report.tokens_per_call) == ("BATCH", 100000, "BATCH")
    # frontier-nocompute-text: --const BATCH=1..4 --machine m4-uma --host default
    text = ctx.frontier(program, "BATCH", 1, 4, machine=ctx.builtin_machine("m4-uma"), host=host,
                        tokens_per_call="BATCH", machine_name="m4-uma").text
    assert text == golden("frontier-nocompute-text")
    with pytest.raises(vxpeak.InvalidArgument):
        ctx.frontier(program, "BATCH", 1, 2, traffic="cached")
    # frontier-decode-svg: --const BATCH=1..256 --tokens-per-call BATCH --format svg
    picture = ctx.frontier(program, "BATCH", 1, 256, machine=ctx.builtin_machine("a100-40"),
                           host=host, tokens_per_call="BATCH", machine_name="a100-40").svg
    assert picture == golden("frontier-decode-svg")


def test_sweep_grid_is_the_commands_text_and_json(ctx: vxpeak.Context, at_root: None) -> None:
    program = ctx.parse(ctx.load("examples/llama2/decode.vx"))
    l4, host = ctx.builtin_machine("l4"), ctx.builtin_machine("host-default")
    # sweep-grid-text: --const BATCH=1..8 --const CONTEXT=1024,..,16384 --machine l4 --margin 10%
    contexts = [1024, 2048, 4096, 8192, 16384]
    grid = ctx.sweep_grid(program, "BATCH", range(1, 9), "CONTEXT", contexts, machine=l4,
                          host=host, margin=0.1, machine_name="l4")
    assert grid.text == golden("sweep-grid-text")
    assert len(grid.cells) == 40
    assert (grid.cells[6].row, grid.cells[6].column) == (2, 2048)
    # sweep-grid-json: --const BATCH=1..2 --const CONTEXT=4096,8192
    small = ctx.sweep_grid(program, "BATCH", [1, 2], "CONTEXT", [4096, 8192], machine=l4,
                           host=host, margin=0.1)
    expected = json.loads(golden("sweep-grid-json"))
    got = small.to_dict()
    assert got.pop("machine") == "l4 (built-in)"
    expected.pop("machine")
    assert got == expected
    assert [c.fits for c in small.cells] == [c["fits"] for c in expected["cells"]]


def test_check_text_is_the_commands_text_with_a_margin(ctx: vxpeak.Context, at_root: None) -> None:
    program = ctx.parse(ctx.load("examples/llama2/decode.vx"))
    an = ctx.analyze(
        program,
        machine=ctx.builtin_machine("l4"),
        host=ctx.builtin_machine("host-default"),
        overrides={"BATCH": 4},
    )
    assert an.check_text(margin=0.10, machine="l4") == golden("check-decode-l4-margin")
    assert an.inside_margin(0.10) == 1
    assert an.inside_margin(0.0) == 0
    with pytest.raises(vxpeak.InvalidArgument):
        an.check_text(margin=1.0)


def test_closed_sets_are_enums_equal_to_the_json_words(ctx: vxpeak.Context, at_root: None) -> None:
    an = _llama(ctx)
    doc = json.loads(an.json)
    routes = doc["routes"]
    assert len(an.routes) == len(routes) > 0
    for route, r in zip(an.routes, routes):
        assert route.derived_unit == r["derived_unit"]
        assert route.cost_source == r["cost_source"]
        assert route.composition == r["composition"]
        if route.derived_unit is not None:
            assert isinstance(route.derived_unit, vxpeak.CostUnit)
            assert isinstance(route.cost_source, vxpeak.CostBasis)
    kinds = {s.kind for rec in an.records for s in rec.scopes}
    assert vxpeak.ScopeType.FUNCTION in kinds
    assert all(isinstance(k, vxpeak.ScopeType) for k in kinds)
    words = {s["kind"] for rs in doc["resident_sets"] for rec in rs["records"]
             for s in rec["scopes"]}
    assert {k.value for k in kinds} >= words
    assert vxpeak.CostUnit("cyc") is vxpeak.CostUnit.CYCLES
