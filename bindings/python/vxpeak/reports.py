# SPDX-License-Identifier: Apache-2.0
"""reports.py - the reports libvxpeak renders (vxp_report_explain, vxp_report_sweep) as typed
Python values.

Each report is read from the library's JSON (the text ``vxpeak ... --format json`` prints, byte
for byte), so its fields are the command's keys; ``to_dict()`` gives that JSON back as Python
objects (json.loads of the command's output) and ``text`` (or ``str()``) the table the command
prints. Nothing here computes a figure: the library does, once, for C, the command and Python.
"""

from __future__ import annotations

import copy
import html
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

if TYPE_CHECKING:  # the point type is the package's own (vxpeak.SweepPoint)
    from . import SweepPoint


def _opt_int(value: Any) -> Optional[int]:
    return None if value is None else int(value)


def _opt_float(value: Any) -> Optional[float]:
    return None if value is None else float(value)


@dataclass(frozen=True)
class ExplainRow:
    """A row of explain's role table (``line`` and the other site fields None) or site table:
    a run of tiles live at the peak, their bytes and share of the peak."""

    role: Optional[str]
    bindings: Tuple[Optional[str], ...]
    tiles: int
    bytes: int
    gib: float
    share: float
    line: Optional[int] = None
    last_line: Optional[int] = None
    depth: Optional[int] = None
    released: Optional[bool] = None
    tile_bytes: Optional[int] = None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ExplainRow":
        return cls(
            role=d["role"],
            bindings=tuple(d["bindings"]),
            tiles=int(d["tiles"]),
            bytes=int(d["bytes"]),
            gib=float(d["gib"]),
            share=float(d["share"]),
            line=_opt_int(d.get("line")),
            last_line=_opt_int(d.get("last_line")),
            depth=_opt_int(d.get("depth")),
            released=d.get("released"),
            tile_bytes=_opt_int(d.get("tile_bytes")),
        )


@dataclass(frozen=True)
class RunGroup:
    """A group of the sum over the run: ``tiles`` tiles placed ``runs`` times each, ``held``
    until the function returns or released at the end of their block; ``bytes`` in all."""

    held: bool
    runs: int
    tiles: int
    bytes: int

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "RunGroup":
        return cls(bool(d["held"]), int(d["runs"]), int(d["tiles"]), int(d["bytes"]))


@dataclass(frozen=True)
class ExplainedSet:
    """What fills one (function, space) peak. The sum over the run (``allocated_bytes``) is
    None when a trip count does not fold."""

    function: str
    space: str
    peak_bytes: int
    peak_gib: float
    capacity_bytes: int
    utilization: float
    tiles: int
    allocated_bytes: Optional[int]
    allocated_gib: Optional[float]
    never_live_at_once_bytes: Optional[int]
    by_role: Tuple[ExplainRow, ...]
    by_site: Tuple[ExplainRow, ...]
    sum_over_run: Tuple[RunGroup, ...]

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ExplainedSet":
        return cls(
            function=d["function"],
            space=d["space"],
            peak_bytes=int(d["peak_bytes"]),
            peak_gib=float(d["peak_gib"]),
            capacity_bytes=int(d["capacity_bytes"]),
            utilization=float(d["utilization"]),
            tiles=int(d["tiles"]),
            allocated_bytes=_opt_int(d["allocated_bytes"]),
            allocated_gib=_opt_float(d["allocated_gib"]),
            never_live_at_once_bytes=_opt_int(d["never_live_at_once_bytes"]),
            by_role=tuple(ExplainRow.from_dict(r) for r in d["by_role"]),
            by_site=tuple(ExplainRow.from_dict(r) for r in d["by_site"]),
            sum_over_run=tuple(RunGroup.from_dict(g) for g in d["sum_over_run"]),
        )


@dataclass(frozen=True)
class Explanation:
    """``vxpeak explain``'s report (schema vxpeak-explain-v1): per resident set, the tiles
    live at the peak by role and by site, and the sum over the run beside the peak."""

    file: str
    machine: Optional[str]
    host: Optional[str]
    defines: Dict[str, int]
    resident_sets: Tuple[ExplainedSet, ...]
    #: The table ``vxpeak explain`` prints.
    text: str = field(default="", compare=False, repr=False)
    _json: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, doc: Dict[str, Any], text: str) -> "Explanation":
        return cls(
            file=doc["file"],
            machine=doc["machine"],
            host=doc["host"],
            defines={str(k): int(v) for k, v in doc["defines"].items()},
            resident_sets=tuple(ExplainedSet.from_dict(s) for s in doc["resident_sets"]),
            text=text,
            _json=doc,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``vxpeak explain --format json`` prints it, as Python objects (a
        copy the caller may change)."""
        return copy.deepcopy(self._json)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return "<pre>%s</pre>" % html.escape(self.text)


@dataclass(frozen=True)
class SweepMachine:
    """One machine's line of a sweep report: how the value was searched, the largest that
    fits and the first that does not (``None`` when there is none), every value analysed."""

    machine: str
    method: str
    reason: str
    analyses: int
    largest: Optional[SweepPoint]
    first_rejected: Optional[SweepPoint]
    points: Tuple[SweepPoint, ...]


@dataclass(frozen=True)
class SweepReport:
    """``vxpeak sweep``'s report (schema vxpeak-sweep-v1) of one question asked on one or
    more machines: the constant, its range, the margin and selection, and per machine the
    largest value that fits."""

    file: str
    defines: Dict[str, int]
    const: str
    lo: int
    hi: int
    margin: float
    function: Optional[str]
    space: Optional[str]
    machines: Tuple[SweepMachine, ...]
    #: The table ``vxpeak sweep`` prints.
    text: str = field(default="", compare=False, repr=False)
    _json: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``vxpeak sweep --format json`` prints it, as Python objects (a copy
        the caller may change)."""
        return copy.deepcopy(self._json)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return "<pre>%s</pre>" % html.escape(self.text)


@dataclass(frozen=True)
class RooflineEntry:
    """One function's part of ``vxpeak roofline``'s report: its traffic (``traffic``
    "exact", "upper_bound" or "unknown", ``reason`` why), the time its slowest space takes
    (``time_ps``), and under ``traffic_model`` the memory and compute times, which of them
    ``bound``s the call and by how much, and the ceiling in calls and tokens per second. The
    spaces, buffers, operations and streamed tiles are in ``to_dict()``."""

    function: str
    regions: int
    traffic: str
    reason: Optional[str]
    time_ps: Optional[int]
    bound_space: Optional[str]
    topology: Optional[str]
    traffic_model: str
    memory_time_ps: Optional[int]
    memory_bound_space: Optional[str]
    memory_bytes: Optional[int]
    compute_time_ps: Optional[int]
    compute_reason: Optional[str]
    arithmetic_intensity: Optional[float]
    ridge_point: Optional[float]
    bound: Optional[str]
    bound_ratio: Optional[float]
    call_time_ps: Optional[int]
    calls_per_second: Optional[float]
    tokens_per_call: int
    tokens_per_call_from: Optional[str]
    tokens_per_second: Optional[float]
    stream_bytes: int
    stream_time_ps: Optional[int]

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "RooflineEntry":
        return cls(
            function=d["function"],
            regions=int(d["regions"]),
            traffic=d["traffic"],
            reason=d["reason"],
            time_ps=_opt_int(d["time_ps"]),
            bound_space=d["bound_space"],
            topology=d["topology"],
            traffic_model=d["traffic_model"],
            memory_time_ps=_opt_int(d["memory_time_ps"]),
            memory_bound_space=d["memory_bound_space"],
            memory_bytes=_opt_int(d["memory_bytes"]),
            compute_time_ps=_opt_int(d["compute_time_ps"]),
            compute_reason=d["compute_reason"],
            arithmetic_intensity=_opt_float(d["arithmetic_intensity"]),
            ridge_point=_opt_float(d["ridge_point"]),
            bound=d["bound"],
            bound_ratio=_opt_float(d["bound_ratio"]),
            call_time_ps=_opt_int(d["call_time_ps"]),
            calls_per_second=_opt_float(d["calls_per_second"]),
            tokens_per_call=int(d["tokens_per_call"]),
            tokens_per_call_from=d["tokens_per_call_from"],
            tokens_per_second=_opt_float(d["tokens_per_second"]),
            stream_bytes=int(d["streamed"]["bytes"]),
            stream_time_ps=_opt_int(d["streamed"]["time_ps"]),
        )


@dataclass(frozen=True)
class RooflineReport:
    """``vxpeak roofline``'s report (schema vxpeak-roofline-v1): how fast one call of each
    function with device work (or the one asked for) can run on the analysed machine."""

    file: str
    machine: Optional[str]
    host: Optional[str]
    defines: Dict[str, int]
    functions: Tuple[RooflineEntry, ...]
    #: The text ``vxpeak roofline`` prints.
    text: str = field(default="", compare=False, repr=False)
    _json: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, doc: Dict[str, Any], text: str) -> "RooflineReport":
        return cls(
            file=doc["file"],
            machine=doc["machine"],
            host=doc["host"],
            defines={str(k): int(v) for k, v in doc["defines"].items()},
            functions=tuple(RooflineEntry.from_dict(f) for f in doc["functions"]),
            text=text,
            _json=doc,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``vxpeak roofline --format json`` prints it, as Python objects."""
        return copy.deepcopy(self._json)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return "<pre>%s</pre>" % html.escape(self.text)


@dataclass(frozen=True)
class FrontierPoint:
    """One value of a frontier: whether it fits (``reason``/``code`` why not), the peak
    against the capacity, one call's memory, compute and call time (ps; None where not
    derivable), tokens per call and per second, and the bound."""

    value: int
    fits: bool
    reason: Optional[str]
    code: Optional[str]
    space: Optional[str]
    peak_bytes: int
    capacity_bytes: int
    memory_bytes: int
    operations: int
    memory_time_ps: Optional[int]
    compute_time_ps: Optional[int]
    call_time_ps: Optional[int]
    tokens_per_call: int
    tokens_per_second: Optional[float]
    bound: Optional[str]
    bound_space: Optional[str]
    unbound_reason: Optional[str]

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "FrontierPoint":
        return cls(
            value=int(d["value"]),
            fits=bool(d["fits"]),
            reason=d["reason"],
            code=d["code"],
            space=d["space"],
            peak_bytes=int(d["peak_bytes"]),
            capacity_bytes=int(d["capacity_bytes"]),
            memory_bytes=int(d["memory_bytes"]),
            operations=int(d["operations"]),
            memory_time_ps=_opt_int(d["memory_time_ps"]),
            compute_time_ps=_opt_int(d["compute_time_ps"]),
            call_time_ps=_opt_int(d["call_time_ps"]),
            tokens_per_call=int(d["tokens_per_call"]),
            tokens_per_second=_opt_float(d["tokens_per_second"]),
            bound=d["bound"],
            bound_space=d["bound_space"],
            unbound_reason=d["unbound_reason"],
        )


def _frontier_point(d: Optional[Dict[str, Any]]) -> Optional[FrontierPoint]:
    return None if d is None else FrontierPoint.from_dict(d)


@dataclass(frozen=True)
class FrontierReport:
    """``vxpeak frontier``'s report (schema vxpeak-frontier-v1): every value of ``const`` in
    ``lo..hi`` analysed and priced, the largest that fits, the first bound by compute and the
    best throughput that fits (None when there is none)."""

    file: str
    machine: Optional[str]
    host: Optional[str]
    defines: Dict[str, int]
    const: str
    lo: int
    hi: int
    margin_ppm: int
    traffic_model: str
    tokens_per_call: str
    function: Optional[str]
    largest_fit: Optional[FrontierPoint]
    first_compute_bound: Optional[FrontierPoint]
    best_fit: Optional[FrontierPoint]
    points: Tuple[FrontierPoint, ...]
    #: The table ``vxpeak frontier`` prints.
    text: str = field(default="", compare=False, repr=False)
    #: The picture ``vxpeak frontier --format svg`` draws (tokens/s against the constant).
    svg: str = field(default="", compare=False, repr=False)
    _json: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, doc: Dict[str, Any], text: str, svg: str = "") -> "FrontierReport":
        return cls(
            file=doc["file"],
            machine=doc["machine"],
            host=doc["host"],
            defines={str(k): int(v) for k, v in doc["defines"].items()},
            const=doc["const"],
            lo=int(doc["lo"]),
            hi=int(doc["hi"]),
            margin_ppm=int(doc["margin_ppm"]),
            traffic_model=doc["traffic_model"],
            tokens_per_call=doc["tokens_per_call"],
            function=doc["function"],
            largest_fit=_frontier_point(doc["largest_fit"]),
            first_compute_bound=_frontier_point(doc["first_compute_bound"]),
            best_fit=_frontier_point(doc["best_fit"]),
            points=tuple(FrontierPoint.from_dict(p) for p in doc["points"]),
            text=text,
            svg=svg,
            _json=doc,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``vxpeak frontier --format json`` prints it, as Python objects."""
        return copy.deepcopy(self._json)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return "<pre>%s</pre>" % html.escape(self.text)


@dataclass(frozen=True)
class GridCell:
    """One pair of a two-constant sweep: ``row`` and ``column`` are the two constants' values;
    whether it fits with the margin (``reason``/``code`` why not) and the tightest capacity's
    peak."""

    row: int
    column: int
    fits: bool
    peak_bytes: int
    capacity_bytes: int
    reason: Optional[str]
    code: Optional[str]


@dataclass(frozen=True)
class SweepGrid:
    """``vxpeak sweep --const A=.. --const B=..``'s report (schema vxpeak-sweep-grid-v1):
    every pair of ``rows`` (A) and ``columns`` (B) on one machine."""

    file: str
    machine: Optional[str]
    host: Optional[str]
    defines: Dict[str, int]
    rows: str
    columns: str
    margin: float
    cells: Tuple[GridCell, ...]
    #: The table ``vxpeak sweep`` prints.
    text: str = field(default="", compare=False, repr=False)
    _json: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, doc: Dict[str, Any], text: str) -> "SweepGrid":
        rows, columns = doc["rows"], doc["columns"]
        return cls(
            file=doc["file"],
            machine=doc["machine"],
            host=doc["host"],
            defines={str(k): int(v) for k, v in doc["defines"].items()},
            rows=rows,
            columns=columns,
            margin=float(doc["margin"]),
            cells=tuple(
                GridCell(int(c[rows]), int(c[columns]), bool(c["fits"]), int(c["peak_bytes"]),
                         int(c["capacity_bytes"]), c["reason"], c["code"])
                for c in doc["cells"]
            ),
            text=text,
            _json=doc,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``vxpeak sweep --format json`` prints it, as Python objects."""
        return copy.deepcopy(self._json)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return "<pre>%s</pre>" % html.escape(self.text)
