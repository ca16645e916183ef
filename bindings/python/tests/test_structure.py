# SPDX-License-Identifier: Apache-2.0
"""The structure of an analysis from Python: each record's scope chain, each resident set's
records and each route's record."""
from __future__ import annotations

from pathlib import Path

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
LOOP = str(ROOT / "examples" / "blog" / "peak_not_sum.vx")


def test_records_carry_their_scope_chain_to_the_function(ctx: vxpeak.Context) -> None:
    analysis = ctx.analyze(ctx.parse(ctx.load(LOOP)))
    records = analysis.records
    assert records
    for rec in records:
        assert rec.scopes, rec
        assert rec.scopes[-1].kind == "function"
        assert sum(1 for s in rec.scopes if s.releases) == rec.scope_depth
        ids = [s.id for s in rec.scopes]
        assert len(set(ids)) == len(ids)
    nested = [r for r in records if r.scope_depth > 0]
    assert nested and nested[0].scopes[0].kind in ("for", "loop", "if", "else")


def test_resident_sets_and_routes_point_at_records(ctx: vxpeak.Context) -> None:
    analysis = ctx.analyze(ctx.parse(ctx.load(LOOP)))
    records = analysis.records
    listed = []
    for rs in analysis.resident_sets:
        assert rs.records
        for i in rs.records:
            assert records[i].function == rs.function and records[i].space == rs.space
        listed.extend(rs.records)
    assert sorted(listed) == list(range(len(records)))
    for route in analysis.routes:
        assert route.record is not None
        assert records[route.record].span.start_line == route.span.start_line


def test_the_json_report_gives_every_tile_its_scope_chain(ctx: vxpeak.Context) -> None:
    # A tile released in a loop before the peak is not live at it: it still appears, with
    # the scope chain the accessors give.
    analysis = ctx.analyze(ctx.parse(ctx.source("""
Memory CPU_DRAM {}
Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }
fn main() -> i32 {
  for i in 0..4 {
    let a = transfer(Tensor<f32, [1024]>::uninit(), Memory::W);
    print(a);
  }
  let b = transfer(Tensor<f32, [4096]>::uninit(), Memory::W);
  print(b);
  return 0;
}
""")))
    records = analysis.records
    report = analysis.to_dict()
    seen = 0
    for entry, rs in zip(report["resident_sets"], analysis.resident_sets):
        assert len(entry["records"]) == entry["record_count"] == len(rs.records)
        for tile, i in zip(entry["records"], rs.records):
            rec = records[i]
            assert tile["live_at_peak"] == rec.live_at_peak
            assert (tile["line"], tile["column"]) == (rec.span.start_line + 1,
                                                      rec.span.start_column + 1)
            assert [(s["id"], s["kind"], s["line"]) for s in tile["scopes"]] == [
                (s.id, s.kind, s.span.start_line + 1) for s in rec.scopes]
            seen += 1
    assert seen == len(records)
    assert any(not r.live_at_peak for r in records)
