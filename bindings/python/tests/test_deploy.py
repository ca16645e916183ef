# SPDX-License-Identifier: Apache-2.0
"""test_deploy.py - the deployment answers from Python: roles, release orders and run
counts of records, the notes of capacity errors, SARIF, constant sweeps and rooflines."""

from __future__ import annotations

from pathlib import Path

import pytest

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
LLAMA = str(ROOT / "examples" / "llama2" / "prefill.vx")
UNROLLED = str(ROOT / "examples" / "blog" / "unrolled.vx")


def _llama(ctx: vxpeak.Context, **kwargs: object) -> vxpeak.Analysis:
    return ctx.analyze(
        ctx.parse(ctx.load(LLAMA)),
        machine=ctx.builtin_machine("a100-40"),
        host=ctx.builtin_machine("host-default"),
        **kwargs,
    )


def test_records_carry_roles_release_orders_and_run_counts(ctx: vxpeak.Context) -> None:
    analysis = _llama(ctx)
    assert analysis.functions[-2:] == ["main", "decode_step"]
    live = [r for r in analysis.records if r.function == "main" and r.live_at_peak]
    by_role: dict = {}
    for r in live:
        by_role[r.role] = by_role.get(r.role, 0) + r.bytes
    assert by_role == {
        "embeddings": 524288000,
        "KV cache": 2147483648,
        "layer weights": 12952010752,
        "one layer's activations": 1488977920,
    }
    ffn = next(r for r in live if r.binding == "ffn")
    assert ffn.runs == 32 and ffn.release_order is not None and ffn.release_order >= ffn.order
    w0 = next(r for r in live if r.binding == "w0")
    assert w0.runs == 1 and w0.release_order is None
    # The timeline the release orders describe peaks where the analysis says it does.
    main = [r for r in analysis.records if r.function == "main"]
    ends = {r.order for r in main} | {r.release_order for r in main if r.release_order}

    def live_at(p: int) -> int:
        return sum(
            r.bytes
            for r in main
            if r.order <= p and (r.release_order is None or r.release_order >= p)
        )

    [rs] = [s for s in analysis.resident_sets if s.function == "main"]
    assert max(live_at(p) for p in ends) == rs.peak_bytes == 17112760320


def test_e6010_says_what_is_live_and_what_would_fit(ctx: vxpeak.Context) -> None:
    analysis = ctx.analyze(ctx.parse(ctx.load(UNROLLED)))
    [d] = analysis.diagnostics
    notes = [n for n in d.notes if not n.is_help]
    helps = [n for n in d.notes if n.is_help]
    assert notes[0].message.startswith("33 tiles live at the peak (weights ... scratch31")
    assert any("must shrink by 30,408,704 bytes" in n.message for n in notes)
    assert helps[0].message.startswith("if each of scratch0 ... scratch31 is needed for one step")
    assert "move this placement into the loop body" in helps[0].message
    assert helps[0].line == 19
    assert "declare the space `overcommit`" in helps[-1].message


def test_sarif_has_a_rule_per_code_and_a_result_per_diagnostic(ctx: vxpeak.Context) -> None:
    import json

    analysis = ctx.analyze(ctx.parse(ctx.load(UNROLLED)))
    log = json.loads(analysis.sarif)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    [result] = run["results"]
    rule = run["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["id"] == result["ruleId"] == "E6010"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 81
    assert "move this placement into the loop body" in result["message"]["text"]


def test_sweep_finds_the_largest_batch_per_machine(ctx: vxpeak.Context) -> None:
    program = ctx.parse(ctx.load(LLAMA))
    host = ctx.builtin_machine("host-default")
    sweep = ctx.sweep(program, "BATCH", 1, 64, machine=ctx.builtin_machine("a100-40"), host=host)
    assert sweep.method == "formula"  # solved from the peak's formula, then confirmed
    assert sweep.largest is not None and sweep.largest.value == 8
    assert sweep.largest.peak_bytes == 42567991296
    assert sweep.first_rejected is not None and sweep.first_rejected.value == 9
    assert sweep.first_rejected.peak_bytes == 46204452864
    assert (sweep.first_rejected.reason, sweep.first_rejected.code) == ("over_capacity", "E6010")
    assert [p.value for p in sweep.points] == sorted(p.value for p in sweep.points)
    # A margin: 8 leaves only 0.89% of 40 GiB free.
    tight = ctx.sweep(program, "BATCH", 1, 64, machine=ctx.builtin_machine("a100-40"),
                      host=host, margin=0.01)
    assert tight.largest is not None and tight.largest.value == 7
    h200 = ctx.sweep(program, "BATCH", 1, 64, machine=ctx.builtin_machine("h200"), host=host)
    assert h200.largest is not None and h200.largest.value == 35
    with pytest.raises(vxpeak.NotFound):
        ctx.sweep(program, "NO_SUCH_CONST", 1, 2)


def test_roofline_of_the_llama_decode_step(ctx: vxpeak.Context) -> None:
    rf = _llama(ctx).roofline("decode_step")
    assert (rf.traffic, rf.regions, rf.reason) == ("exact", 1, None)
    [hbm] = rf.spaces
    assert (hbm.space, hbm.read_bytes, hbm.written_bytes) == ("HBM", 13476298752, 0)
    assert hbm.bandwidth == 1555 * 10**9
    assert rf.time_ps == 8666430066 and rf.bound_space == "HBM"
    assert int(rf.steps_per_second) == 115
    assert rf.streamed == tuple("w%d" % i for i in range(32))
    assert rf.stream_time_ps == 32 * 12849217016
    assert round(rf.stream_time_ps / rf.time_ps) == 47
    with pytest.raises(vxpeak.NotFound):
        _llama(ctx).roofline("no_such_function")
