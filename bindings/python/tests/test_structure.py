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
