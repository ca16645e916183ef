# SPDX-License-Identifier: Apache-2.0
"""notebook.py - how results show themselves in Jupyter, and pandas DataFrames of them.

Jupyter calls ``_repr_html_`` (and ``_repr_svg_``) on the last value of a cell; the
classes of this package delegate to the functions here, which build small, self-contained
HTML tables from the same fields the dataclasses carry (no figure is computed here: every
number is one the library reported).

pandas is optional: :func:`to_dataframe` imports it only when called, and says how to get it
when it is missing. Every column is a dataclass field, so a DataFrame and the objects agree
by construction.
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple


def _pandas() -> Any:
    try:
        import pandas  # type: ignore[import-untyped,unused-ignore]
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(
            "DataFrames need pandas, an optional dependency: pip install pandas "
            "(or pip install './bindings/python[pandas]')"
        ) from err
    return pandas


def _flat(value: Any) -> Any:
    """A cell: tuples of simple values joined ("CPU_DRAM -> HBM" for a path), spans as
    "file:line:col", nested dataclasses as their string."""
    if isinstance(value, tuple):
        return " -> ".join("" if v is None else str(_flat(v)) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        if {"file", "start_line", "start_column"} <= fields.keys():
            return "%s:%d:%d" % (
                fields["file"], fields["start_line"] + 1, fields["start_column"] + 1
            )
        return str(value)
    return value


def rows(items: Iterable[Any]) -> List[Dict[str, Any]]:
    """One dict per dataclass instance, fields in declaration order, cells flattened."""
    out: List[Dict[str, Any]] = []
    for item in items:
        out.append({f.name: _flat(getattr(item, f.name)) for f in dataclasses.fields(item)})
    return out


def to_dataframe(items: Sequence[Any], columns: Optional[Sequence[str]] = None) -> Any:
    """A pandas DataFrame with one row per item (records, routes, resident sets, sweep
    points, ...). ``columns`` names the columns of an empty sequence (default: none)."""
    pandas = _pandas()
    table = rows(items)
    if not table and columns is not None:
        return pandas.DataFrame(columns=list(columns))
    return pandas.DataFrame(table)


def _bytes(n: Optional[int]) -> str:
    if n is None:
        return "&mdash;"
    units: Tuple[Tuple[int, str], ...] = ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"))
    for size, unit in units:
        if n >= size:
            return "{:,} <small>({:.2f} {})</small>".format(n, n / size, unit)
    return "{:,}".format(n)


def table(headers: Sequence[str], body: Iterable[Sequence[str]]) -> str:
    """An HTML table; cells are already escaped HTML."""
    head = "".join("<th>%s</th>" % html.escape(h) for h in headers)
    lines = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % c for c in row) for row in body)
    return "<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>" % (head, lines)


def analysis_html(analysis: Any) -> str:
    """The verdict, each (function, space) peak against its capacity, and the diagnostics."""
    verdict = "admitted" if analysis.admitted else "rejected"
    colour = "#2a7d2a" if analysis.admitted else "#b22222"
    parts = [
        "<div class=\"vxpeak-analysis\"><p><b style=\"color:%s\">%s</b>: %d errors, %d "
        "warnings &mdash; %s</p>"
        % (colour, verdict, analysis.error_count, analysis.warning_count,
           html.escape(analysis.program.source.label))
    ]
    parts.append(
        table(
            ["function", "space", "peak bytes", "capacity bytes", "use", "tiles at peak",
             "sum over the run"],
            (
                [
                    html.escape(rs.function),
                    html.escape(rs.space),
                    _bytes(rs.peak_bytes),
                    _bytes(rs.capacity_bytes),
                    "%.1f%%" % (100 * rs.utilization),
                    str(rs.tiles),
                    _bytes(rs.allocated_bytes),
                ]
                for rs in analysis.resident_sets
            ),
        )
    )
    diagnostics = analysis.diagnostics
    if diagnostics:
        parts.append(
            "<ul>%s</ul>" % "".join("<li><code>%s</code></li>" % html.escape(str(d))
                                    for d in diagnostics)
        )
    parts.append("</div>")
    return "".join(parts)


def sweep_html(sweep: Any) -> str:
    """Every value analysed, whether it fits, and the largest that does."""
    largest = sweep.largest.value if sweep.largest is not None else None
    head = "<p>largest <code>%s</code> that fits: <b>%s</b> (%s, %d analyses)</p>" % (
        html.escape(sweep.name),
        "none" if largest is None else largest,
        html.escape(sweep.method),
        sweep.evaluations,
    )
    body = table(
        [sweep.name, "fits", "peak bytes", "capacity bytes", "function", "space", "why not"],
        (
            [
                str(p.value),
                "yes" if p.fits else "no",
                _bytes(p.peak_bytes),
                _bytes(p.capacity_bytes),
                html.escape(p.function or ""),
                html.escape(p.space or ""),
                html.escape(" ".join(x for x in (p.reason, p.code) if x)),
            ]
            for p in sweep.points
        ),
    )
    return "<div class=\"vxpeak-sweep\">%s%s</div>" % (head, body)
