# SPDX-License-Identifier: Apache-2.0
"""vxpeak - static peak-memory analysis of Vx programs, from Python.

A thin, typed layer over libvxpeak's C API (through ctypes)::

    import vxpeak

    with vxpeak.Context() as ctx:
        program = ctx.parse(ctx.load("examples/admit/admit.vx"))
        analysis = ctx.analyze(program)  # no machine of its own: the built-in a100-40
        for rs in analysis.resident_sets:
            print(rs.function, rs.space, rs.peak_bytes, rs.capacity_bytes)
        report = analysis.to_dict()          # the JSON report, as Python objects

Objects mirror the C handles: a :class:`Context` makes :class:`Source`,
:class:`Program`, :class:`Machine` and :class:`Analysis` objects. Each keeps the objects
it borrows alive, and closing one (``close()``, a ``with`` block, or garbage collection)
first closes the objects made from it, so no C object is ever freed while another still
borrows it; using a closed one raises :class:`Misuse`. Every argument is checked before
it reaches C (a wrong kind of object or type is a TypeError, an integer outside its C type a
ValueError or an OverflowError). Results (:class:`Diagnostic`, :class:`ResidentSet`, :class:`Record`) are
plain immutable values copied out of the library, valid after everything is closed.

A failing call raises the :mod:`vxpeak.errors` class of its return code with libvxpeak's
message. A context, and what is made from it, is for one thread at a time.
"""

from __future__ import annotations

import ctypes
import dataclasses
import enum
import json
from dataclasses import dataclass, field
from os import PathLike, fspath
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union

from . import _check, _ffi, notebook
from .reports import (
    ExplainedSet,
    Explanation,
    ExplainRow,
    FrontierPoint,
    FrontierReport,
    GridCell,
    RooflineEntry,
    RooflineReport,
    RunGroup,
    SweepGrid,
    SweepMachine,
    SweepReport,
)
from ._ffi import LibraryNotFound
from .models import Optimizer, Workload, model
from .models import parameters as model_parameters
from .errors import (
    Cancelled,
    InputOutputError,
    InvalidArgument,
    Misuse,
    NotFound,
    OutOfMemory,
    VersionError,
    VxpeakError,
    error_for,
)

__all__ = [
    "model",
    "model_parameters",
    "Optimizer",
    "Workload",
    "Analysis",
    "CostBasis",
    "CostComposition",
    "CostUnit",
    "ScopeType",
    "CallHop",
    "CallTree",
    "Cancelled",
    "Context",
    "CudaProgram",
    "Diagnostic",
    "ExplainRow",
    "ExplainedSet",
    "Explanation",
    "FrontierPoint",
    "FrontierReport",
    "GridCell",
    "InputOutputError",
    "InvalidArgument",
    "LibraryNotFound",
    "Machine",
    "Misuse",
    "NotFound",
    "OutOfMemory",
    "Plot",
    "Program",
    "Record",
    "ResidentSet",
    "Roofline",
    "RooflineEntry",
    "RooflineReport",
    "RooflineSpace",
    "Route",
    "RunGroup",
    "Source",
    "Span",
    "Sweep",
    "SweepGrid",
    "SweepMachine",
    "SweepPoint",
    "SweepReport",
    "UnresolvedCall",
    "VersionError",
    "VxpeakError",
    "check",
    "default_host",
    "default_machine",
    "grammar_abi",
    "library_path",
    "version",
]

__version__ = "0.1.0"

PathArg = Union[str, "PathLike[str]"]


def _text(raw: Optional[bytes]) -> Optional[str]:
    """A borrowed C string as str (invalid UTF-8 survives as surrogate escapes)."""
    return None if raw is None else raw.decode("utf-8", "surrogateescape")


def version() -> str:
    """The library's version string (e.g. ``"0.1.0"``)."""
    return _text(_ffi.lib().vxp_version_string()) or ""


def grammar_abi() -> int:
    """The tree-sitter language ABI of the grammar compiled into the library."""
    return int(_ffi.lib().vxp_grammar_abi())


def default_machine() -> str:
    """The built-in machine a program declaring none is analysed on ("a100-40"), as the
    library names it (vxp_default_machine): the command's default too."""
    return _text(_ffi.lib().vxp_default_machine()) or ""


def default_host() -> str:
    """The built-in host used with :func:`default_machine` ("host-default")."""
    return _text(_ffi.lib().vxp_default_host()) or ""


def library_path() -> str:
    """The path of the libvxpeak shared library this package loaded."""
    return _ffi.library_path()


# ------------------------------------------------------------------ result values


@dataclass(frozen=True)
class Span:
    """Where a diagnostic or a record is: 0-based line, byte column and UTF-16 column
    (the LSP position) of both ends, and the byte offsets."""

    file: str
    start_line: int
    start_column: int
    start_utf16: int
    end_line: int
    end_column: int
    end_utf16: int
    start_byte: int
    end_byte: int


@dataclass(frozen=True)
class Diagnostic:
    """A diagnostic: ``severity`` is "error", "warning" or "note"; ``code`` the stable
    code ("E6010"), or None; ``span`` None for a diagnostic without a source range;
    ``notes`` its attached notes (``is_help`` marks a suggested fix)."""

    severity: str
    code: Optional[str]
    message: str
    span: Optional[Span]
    notes: Tuple["Diagnostic", ...] = ()
    is_help: bool = False
    function: Optional[str] = None  # the function or generic instance it is about

    @property
    def line(self) -> Optional[int]:
        """1-based line, as compilers print it (None without a range)."""
        return self.span.start_line + 1 if self.span else None

    @property
    def column(self) -> Optional[int]:
        """1-based byte column, as compilers print it (None without a range)."""
        return self.span.start_column + 1 if self.span else None

    def __str__(self) -> str:
        span = self.span
        where = (
            "%s:%d:%d: " % (span.file, span.start_line + 1, span.start_column + 1) if span else ""
        )
        code = "[%s]" % self.code if self.code else ""
        return "%s%s%s: %s" % (where, self.severity, code, self.message)


class ScopeType(str, enum.Enum):
    """What opens a scope (vxp_scope_type): each member is its word, so it equals the string
    the JSON report writes (ScopeType.IF == "if")."""

    FUNCTION = "function"
    IF = "if"
    ELSE = "else"
    FOR = "for"
    LOOP = "loop"
    SPAWN = "spawn"
    MATCH_ARM = "match_arm"
    UNSAFE = "unsafe"
    COMPTIME = "comptime"
    BLOCK = "block"


class CostUnit(str, enum.Enum):
    """The unit of a route's derived cost (vxp_cost_unit), as its word."""

    PS = "ps"
    CYCLES = "cyc"


class CostBasis(str, enum.Enum):
    """Where a route's derived cost comes from (vxp_cost_basis), as its word."""

    LINK_RATE = "link_rate"
    CONTAINMENT = "containment"


class CostComposition(str, enum.Enum):
    """How a containment cost combines its legs (vxp_cost_composition), as its word."""

    SUM = "sum"
    BOTTLENECK = "bottleneck"


_E = TypeVar("_E", bound=enum.Enum)


def _enum_of(kind: "type[_E]", name: Optional[bytes]) -> Optional[_E]:
    """The member of ``kind`` whose word the library's name function gave (None: none)."""
    return kind(name.decode("ascii")) if name else None


@dataclass(frozen=True)
class Scope:
    """A block enclosing a placement (``kind``, a ScopeType: "function", "if", "else", "for",
    "loop", "spawn", "match_arm", "unsafe" or "comptime"), where it is written, and whether it
    frees its tiles at its end. ``id`` is unique within the analysis."""

    id: int
    kind: ScopeType
    span: Span
    releases: bool


@dataclass(frozen=True)
class ResidentSet:
    """The peak working set of one function in one memory space."""

    function: str
    space: str
    peak_bytes: int
    capacity_bytes: int
    tiles: int
    overcommit: bool
    allocated_bytes: Optional[int]  # the naive sum over the run; None: trip count unknown
    # its tiles: indices into Analysis.records, in program order (a link, not compared)
    records: Tuple[int, ...] = field(default=(), compare=False)

    @property
    def utilization(self) -> float:
        return self.peak_bytes / self.capacity_bytes if self.capacity_bytes else 0.0

    @property
    def fits(self) -> bool:
        return self.peak_bytes <= self.capacity_bytes


@dataclass(frozen=True)
class Record:
    """One tile: a placement into a space with a capacity. ``role`` is what a
    ``// role: NAME`` comment says it is for; ``release_order`` the last program-order
    position it is live at (None: held until its function returns); ``runs`` how often the
    placement runs in one call (None: a trip count is not static)."""

    function: str
    space: str
    binding: Optional[str]
    bytes: int
    scope_depth: int
    order: int
    live_at_peak: bool
    span: Span
    role: Optional[str]
    release_order: Optional[int]
    runs: Optional[int]
    # the enclosing scopes, innermost first, ending with the function's (not compared)
    scopes: Tuple[Scope, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Route:
    """One hop of a transfer: the spaces it goes through (``path``, at least two, source
    first and destination last), each edge's integer routing weight (declared, Vx's
    built-in one, or 0 for a step along the ``within:`` tree; None: a rate, or nothing,
    which weighs 1), the total weight (their sum), the bytes moved and the derived cost
    (None when not static or not derivable),
    in ``derived_unit`` (a CostUnit: "ps" or "cyc"), from ``cost_source`` (a CostBasis:
    "link_rate" or "containment", combined by ``composition``, a CostComposition: "sum" or
    "bottleneck"). The enums' members equal their words."""

    function: str
    path: Tuple[str, ...]
    edge_costs: Tuple[Optional[int], ...]
    total_cost: int
    bytes: Optional[int]
    derived_cost: Optional[int]
    derived_unit: Optional[CostUnit]
    cost_source: Optional[CostBasis]
    composition: Optional[CostComposition]
    span: Span
    # the tile the hop places: an index into Analysis.records (a link, not compared)
    record: Optional[int] = field(default=None, compare=False)


@dataclass(frozen=True)
class CallHop:
    """One call on a call-tree path: ``caller`` calls ``callee`` at ``span`` while still
    holding ``held_bytes`` in the space."""

    caller: str
    callee: str
    held_bytes: int
    span: Span


@dataclass(frozen=True)
class CallTree:
    """The working set of ``function`` over its call tree in ``space``: its own peak
    (``self_peak_bytes``) and the total through its calls (``total_bytes``: the largest of
    the own peak and, over its calls, what it holds at the call plus the callee's total),
    realised along ``path`` (empty: the own peak is the total). ``bounded`` is False when a
    recursion that places tiles is reachable: the total is then unbounded (E6028)."""

    function: str
    space: str
    self_peak_bytes: int
    total_bytes: int
    capacity_bytes: int
    bounded: bool
    path: Tuple[CallHop, ...]

    @property
    def fits(self) -> bool:
        return self.bounded and self.total_bytes <= self.capacity_bytes


@dataclass(frozen=True)
class UnresolvedCall:
    """A call of user code the analysis could not follow (a function value, an extern, an
    unknown name): what it calls is not in any total."""

    function: str
    callee: Optional[str]
    reason: str
    span: Span


@dataclass(frozen=True)
class CudaProgram:
    """CUDA C++ generated from an analysis (:meth:`Analysis.generate_cuda`): ``text`` is
    None when the program was refused, and ``diagnostics`` say why."""

    text: Optional[str]
    diagnostics: Tuple["Diagnostic", ...]


@dataclass(frozen=True)
class SweepPoint:
    """One value a sweep analysed: whether it fits, the selected resident set closest to
    (or furthest over) its capacity, and why it does not fit ("over_capacity",
    "within_margin", "size_unknown", "error"; None when it fits) with the code behind it."""

    value: int
    fits: bool
    peak_bytes: int
    capacity_bytes: int
    function: Optional[str]
    space: Optional[str]
    reason: Optional[str]
    code: Optional[str]
    #: The function the deciding diagnostic is about (or, for a margin, the selected one
    #: closest to its capacity); None when it fits or no one function decided.
    cause_function: Optional[str] = None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "SweepPoint":
        """A point of a sweep report's JSON (vxpeak-sweep-v1)."""
        return cls(
            value=int(d["value"]),
            fits=bool(d["fits"]),
            peak_bytes=int(d["peak_bytes"]),
            capacity_bytes=int(d["capacity_bytes"]),
            function=d["function"],
            space=d["space"],
            reason=d["reason"],
            code=d["code"],
            cause_function=d["cause_function"],
        )


def _sweep_report(doc: Dict[str, Any], text: str) -> SweepReport:
    """A sweep report read from the library's JSON (and its text)."""

    def point(d: Optional[Dict[str, Any]]) -> Optional[SweepPoint]:
        return None if d is None else SweepPoint.from_dict(d)

    return SweepReport(
        file=doc["file"],
        defines={str(k): int(v) for k, v in doc["defines"].items()},
        const=doc["const"],
        lo=int(doc["lo"]),
        hi=int(doc["hi"]),
        margin=float(doc["margin"]),
        function=doc["function"],
        space=doc["space"],
        machines=tuple(
            SweepMachine(
                machine=m["machine"],
                method=m["method"],
                reason=m["reason"],
                analyses=int(m["analyses"]),
                largest=point(m["largest"]),
                first_rejected=point(m["first_rejected"]),
                points=tuple(SweepPoint.from_dict(p) for p in m["points"]),
            )
            for m in doc["machines"]
        ),
        text=text,
        _json=doc,
    )


@dataclass(frozen=True)
class Sweep:
    """The largest value of a constant that fits (:meth:`Context.sweep`): ``method`` is
    "formula" (solved from the peaks' formulas, then confirmed by analysing the answer and
    the value above it), "bisection" (proven safe; ``reason`` says why) or "scan" (``reason``
    says what ruled bisection out); ``points`` every value analysed, in increasing order."""

    name: str
    method: str
    reason: str
    evaluations: int
    points: Tuple[SweepPoint, ...]
    largest: Optional[SweepPoint]
    first_rejected: Optional[SweepPoint]
    #: The report ``vxpeak sweep`` prints for this sweep alone, rendered by libvxpeak
    #: (vxp_report_sweep); its machine is named by the machine's label.
    report: Optional[SweepReport] = field(default=None, compare=False, repr=False)

    def to_dict(self) -> Dict[str, Any]:
        """The sweep's report as ``vxpeak sweep --format json`` prints it (vxpeak-sweep-v1),
        as Python objects."""
        return self.report.to_dict() if self.report is not None else {}

    def _repr_html_(self) -> str:
        return notebook.sweep_html(self)

    def to_dataframe(self) -> Any:
        """One row per value analysed (needs pandas)."""
        return notebook.to_dataframe(
            self.points, [f.name for f in dataclasses.fields(SweepPoint)]
        )


@dataclass(frozen=True)
class RooflineSpace:
    """Bytes one call's spawn regions read and write in a space, its device-wide
    bandwidth (bytes/s) and the time they take (ps); None where not derivable."""

    space: str
    read_bytes: int
    written_bytes: int
    bandwidth: Optional[int]
    time_ps: Optional[int]


@dataclass(frozen=True)
class Roofline:
    """How fast one call of ``function`` can run when bandwidth binds
    (:meth:`Analysis.roofline`): ``traffic`` is "exact", "upper_bound" or "unknown"
    (``reason`` says why); ``time_ps`` the slowest space's time; ``streamed`` the
    bindings of the host-loaded tiles the regions read, and ``stream_time_ps`` what moving
    them every call would take."""

    function: str
    regions: int
    traffic: str
    reason: Optional[str]
    spaces: Tuple[RooflineSpace, ...]
    time_ps: Optional[int]
    bound_space: Optional[str]
    streamed: Tuple[Optional[str], ...]
    stream_bytes: int
    stream_time_ps: Optional[int]

    @property
    def steps_per_second(self) -> Optional[float]:
        return 1e12 / self.time_ps if self.time_ps else None


@dataclass(frozen=True)
class Plot:
    """An SVG picture of the bytes live along program order (:meth:`Analysis.plot`)."""

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: "PathArg") -> None:
        """Write the picture to ``path`` (as ``vxpeak plot -o`` does)."""
        with open(fspath(path), "w", encoding="utf-8") as out:
            out.write(self.svg)


_SEVERITY = {1: "note", 2: "warning", 3: "error"}


def _sweep_point(ptr: Any) -> Optional[SweepPoint]:
    if not ptr:
        return None
    lib = _ffi.lib()
    return SweepPoint(
        value=int(lib.vxp_sweep_point_value(ptr)),
        fits=bool(lib.vxp_sweep_point_fits(ptr)),
        peak_bytes=int(lib.vxp_sweep_point_peak_bytes(ptr)),
        capacity_bytes=int(lib.vxp_sweep_point_capacity_bytes(ptr)),
        function=_text(lib.vxp_sweep_point_function(ptr)),
        space=_text(lib.vxp_sweep_point_space(ptr)),
        reason=_text(lib.vxp_misfit_name(lib.vxp_sweep_point_reason(ptr))),
        code=_text(lib.vxp_sweep_point_code(ptr)),
        cause_function=_text(lib.vxp_sweep_point_cause_function(ptr)),
    )


# ------------------------------------------------------------------ handles


_HandleT = TypeVar("_HandleT", bound="_Handle")
_T = TypeVar("_T")


class _Node:
    """The C object of a handle: its pointer (None once freed), its free function, and the
    nodes of the objects made from it, held strongly. Closing a node closes its children
    first. The tree is kept apart from the Python objects so that no order of garbage
    collection can free a parent before its children: in a reference cycle the collector
    clears weak references before it runs finalizers, so a parent that found its children
    through weak references would free itself under a child still open, and the child's
    finalizer would then free memory its parent's arena already gave back."""

    __slots__ = ("ptr", "free_name", "children")

    def __init__(self, ptr: Any, free_name: str):
        self.ptr: Any = ptr
        self.free_name = free_name
        self.children: List["_Node"] = []

    def adopt(self, child: "_Node") -> None:
        self.children = [c for c in self.children if c.ptr is not None]
        self.children.append(child)

    def close(self) -> None:
        if self.ptr is None:
            return
        for child in reversed(self.children):
            child.close()
        self.children = []
        ptr, self.ptr = self.ptr, None
        getattr(_ffi.lib(), self.free_name)(ptr)


class _Handle:
    """A C object: its node (pointer and children), and the Python objects it borrows (kept
    alive). Closing one (``close()``, a ``with`` block, or garbage collection) first closes
    the objects made from it, newest first; using a closed one raises Misuse."""

    _free_name = ""

    def __init__(self, ptr: Any, parents: Tuple["_Handle", ...]):
        if not ptr:
            raise VxpeakError("libvxpeak returned no %s" % type(self).__name__)
        self._node = _Node(ptr, self._free_name)
        self._parents = parents
        for parent in parents:
            parent._node.adopt(self._node)

    @property
    def closed(self) -> bool:
        return self._node.ptr is None

    def close(self) -> None:
        """Free the C object, after closing every object made from it. Idempotent."""
        self._node.close()

    def _handle(self) -> Any:
        ptr = self._node.ptr
        if ptr is None:
            raise Misuse("%s is closed (or what it was made from is)" % type(self).__name__)
        return ptr

    def __enter__(self: _HandleT) -> _HandleT:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            node = self.__dict__.get("_node")
            if node is not None:
                node.close()
        except Exception:  # interpreter shutdown: the library may be gone already
            pass


def _h(value: object, cls: "type[_HandleT]", what: str) -> Any:
    """The C handle of ``value``, a ``cls`` that is not closed: TypeError naming what was
    expected for anything else, Misuse for a closed one."""
    obj = _check.instance(value, cls, what)
    assert obj is not None
    return obj._handle()


def _h_opt(value: object, cls: "type[_HandleT]", what: str) -> Any:
    """As _h, with None allowed (returned as None)."""
    return None if value is None else _h(value, cls, what)


class Context(_Handle):
    """A libvxpeak context: the allocator, the parser and the last error. Everything is
    made through it; closing it closes everything made from it."""

    _free_name = "vxp_context_free"

    def __init__(self) -> None:
        out = _ffi.H.context()
        rc = _ffi.lib().vxp_context_new(ctypes.byref(out), None)
        if rc != 0:
            raise error_for(rc, _text(_ffi.lib().vxp_strerror(rc)) or "")
        super().__init__(out, ())

    def _check(self, rc: int) -> None:
        if rc != 0:
            raise error_for(rc, _text(_ffi.lib().vxp_context_errmsg(self._handle())) or "")

    def source(self, text: Union[str, bytes], label: str = "<input>") -> "Source":
        """A source holding a copy of ``text`` (str is encoded as UTF-8)."""
        data = _check.data(text, "source: text")
        name = _check.text(label, "source: label")
        out = _ffi.H.source()
        self._check(
            _ffi.lib().vxp_source_new(ctypes.byref(out), self._handle(), name, data, len(data))
        )
        return Source(out, self)

    def load(self, path: PathArg) -> "Source":
        """A source read from a file (InputOutputError names the path and the reason)."""
        name = _check.path(path, "load: path")
        out = _ffi.H.source()
        self._check(_ffi.lib().vxp_source_load_file(ctypes.byref(out), self._handle(), name))
        return Source(out, self)

    def parse(self, source: "Source") -> "Program":
        """Parse and lower ``source``. Syntax errors are diagnostics, not exceptions."""
        src = _h(source, Source, "parse: source")
        out = _ffi.H.program()
        self._check(_ffi.lib().vxp_program_parse(ctypes.byref(out), self._handle(), src))
        return Program(out, self, source)

    def reparse(self, program: "Program", source: "Source") -> "Program":
        """Parse ``source`` (an edited version of ``program``'s source, see
        :meth:`Source.edit`) reusing ``program``'s syntax tree."""
        prog = _h(program, Program, "reparse: program")
        src = _h(source, Source, "reparse: source")
        out = _ffi.H.program()
        self._check(_ffi.lib().vxp_program_reparse(ctypes.byref(out), self._handle(), prog, src))
        return Program(out, self, source)

    def machine(self, source: Union["Source", PathArg]) -> "Machine":
        """A machine model read from a source or a file (fleet/*.vx)."""
        if not isinstance(source, Source):
            _check.path(source, "machine: source")
        src = source if isinstance(source, Source) else self.load(source)
        out = _ffi.H.machine()
        self._check(_ffi.lib().vxp_machine_load(ctypes.byref(out), self._handle(), src._handle()))
        return Machine(out, self, src)

    def builtin_machine(self, name: str) -> "Machine":
        """A machine model compiled into the library ("a100-40", "host-default", ...);
        NotFound when there is none of that name."""
        word = _check.text(name, "builtin_machine: name")
        out = _ffi.H.machine()
        self._check(_ffi.lib().vxp_machine_builtin(ctypes.byref(out), self._handle(), word))
        return Machine(out, self, None)

    def analyze(
        self,
        program: "Program",
        machine: Optional["Machine"] = None,
        host: Optional["Machine"] = None,
        overrides: Optional[Mapping[str, int]] = None,
        machine_only: bool = False,
        retype: Optional[Mapping[str, str]] = None,
    ) -> "Analysis":
        """Analyse ``program`` against its own declarations plus ``machine`` and ``host``.
        ``retype`` maps a role (a ``// role:`` label) to the element type its tiles take
        (``vxpeak check --retype ROLE=TYPE``).
        ``overrides`` gives constants other values (``vxpeak check -D NAME=VALUE``).
        ``machine_only`` checks against ``machine`` alone, ignoring the program's own
        ``Memory``/``Topology`` declarations (``vxpeak check --machine-only``); it needs a
        ``machine`` (InvalidArgument without one). A program that declares no machine model,
        given no ``machine``, is analysed as ``vxpeak check`` analyses it: on the built-in
        a100-40 (:func:`default_machine`) with ``host`` or the built-in default host."""
        prog = _h(program, Program, "analyze: program")
        opts, table = _options("analyze", machine, host, overrides, machine_only, retype)
        out = _ffi.H.analysis()
        self._check(_ffi.lib().vxp_analyze(ctypes.byref(out), self._handle(), prog,
                                           ctypes.byref(opts)))
        del table
        parents = tuple(p for p in (self, program, machine, host) if p is not None)
        return Analysis(out, parents, program)

    def _sweep_run(
        self,
        program: "Program",
        name: str,
        lo: int,
        hi: int,
        machine: Optional["Machine"],
        host: Optional["Machine"],
        overrides: Optional[Mapping[str, int]],
        margin: float,
        function: Optional[str],
        space: Optional[str],
        machine_only: bool = False,
        what: str = "sweep",
    ) -> Any:
        """Run vxp_sweep_run; the caller frees the returned vxp_sweep."""
        prog = _h(program, Program, what + ": program")
        opts, table = _options(what, machine, host, overrides, machine_only)
        so = _ffi.SweepOptions()
        self._check(_ffi.lib().vxp_sweep_options_init(ctypes.byref(so), _ffi.SWEEP_OPTIONS_VERSION))
        so.name = _check.text(name, what + ": name")
        so.lo = _check.unsigned(lo, what + ": lo")
        so.hi = _check.unsigned(hi, what + ": hi")
        so.margin_ppm = int(round(_check.fraction(margin, what + ": margin") * 1e6))
        so.function = _check.text(function, what + ": function", optional=True)
        so.space = _check.text(space, what + ": space", optional=True)
        out = _ffi.H.sweep()
        self._check(
            _ffi.lib().vxp_sweep_run(
                ctypes.byref(out), self._handle(), prog, ctypes.byref(opts), ctypes.byref(so),
            )
        )
        del table
        return out

    def _render_sweeps(self, sweeps: List[Any], names: Optional[List[str]]) -> SweepReport:
        """One vxp_report_sweep of `sweeps` (named by `names`, or by their machines' labels),
        in JSON and in text."""
        array = (ctypes.c_void_p * len(sweeps))(*(sw.value for sw in sweeps))
        labels = None
        if names is not None:
            labels = (ctypes.c_char_p * len(names))(
                *(_check.text(n, "sweep_report: names") for n in names))

        def make(rep: Any, ro: Any) -> int:
            return int(_ffi.lib().vxp_report_sweep(rep, self._handle(), array, labels,
                                                   len(sweeps), ro))

        doc = json.loads(self._report(make, _ffi.REPORT_JSON))
        return _sweep_report(doc, self._report(make, _ffi.REPORT_TEXT))

    def sweep(
        self,
        program: "Program",
        name: str,
        lo: int,
        hi: int,
        machine: Optional["Machine"] = None,
        host: Optional["Machine"] = None,
        overrides: Optional[Mapping[str, int]] = None,
        margin: float = 0.0,
        function: Optional[str] = None,
        space: Optional[str] = None,
        machine_only: bool = False,
    ) -> Sweep:
        """The largest value of ``const name`` in ``lo..hi`` that fits (``vxpeak sweep``):
        ``margin`` is the share of each capacity to keep free (0.1 for 10%);
        ``machine_only`` as for :meth:`analyze`."""
        sw = self._sweep_run(program, name, lo, hi, machine, host, overrides, margin, function,
                             space, _check.flag(machine_only, "sweep: machine_only"))
        lib = _ffi.lib()
        try:
            return Sweep(
                name=name,
                method=_text(lib.vxp_search_name(lib.vxp_sweep_method(sw))) or "",
                reason=_text(lib.vxp_sweep_reason(sw)) or "",
                evaluations=int(lib.vxp_sweep_evaluation_count(sw)),
                points=tuple(
                    p for p in (
                        _sweep_point(lib.vxp_sweep_point_at(sw, i))
                        for i in range(lib.vxp_sweep_point_count(sw))
                    ) if p is not None
                ),
                largest=_sweep_point(lib.vxp_sweep_largest(sw)),
                first_rejected=_sweep_point(lib.vxp_sweep_first_rejected(sw)),
                report=self._render_sweeps([sw], None),
            )
        finally:
            lib.vxp_sweep_free(sw)

    def sweep_report(
        self,
        program: "Program",
        name: str,
        lo: int,
        hi: int,
        machines: Sequence["Machine"],
        names: Optional[Sequence[str]] = None,
        host: Optional["Machine"] = None,
        overrides: Optional[Mapping[str, int]] = None,
        margin: float = 0.0,
        function: Optional[str] = None,
        space: Optional[str] = None,
        machine_only: bool = False,
    ) -> SweepReport:
        """``vxpeak sweep --machine a,b,c``: the same sweep on each of ``machines`` (at least
        one), in one report, each machine named by ``names`` (default: its label);
        ``machine_only`` as for :meth:`analyze`."""
        machines = _sequence(machines, "sweep_report: machines")
        for m in machines:
            _h(m, Machine, "sweep_report: machines[]")
        if names is not None:
            names = _sequence(names, "sweep_report: names")
            for n in names:
                _check.text(n, "sweep_report: names[]")
        if not machines:
            raise InvalidArgument("sweep_report: no machines")
        if names is not None and len(names) != len(machines):
            raise InvalidArgument("sweep_report: %d names for %d machines" % (len(names), len(machines)))
        _check.flag(machine_only, "sweep_report: machine_only")
        sweeps: List[Any] = []
        try:
            for m in machines:
                sweeps.append(self._sweep_run(program, name, lo, hi, m, host, overrides, margin,
                                              function, space, machine_only, "sweep_report"))
            return self._render_sweeps(sweeps, list(names) if names is not None else None)
        finally:
            for sw in sweeps:
                _ffi.lib().vxp_sweep_free(sw)

    def frontier(
        self,
        program: "Program",
        name: str,
        lo: int,
        hi: int,
        machine: Optional["Machine"] = None,
        host: Optional["Machine"] = None,
        overrides: Optional[Mapping[str, int]] = None,
        margin: float = 0.0,
        function: Optional[str] = None,
        space: Optional[str] = None,
        traffic: str = "compulsory",
        tokens_per_call: Union[int, str] = 1,
        machine_name: Optional[str] = None,
    ) -> FrontierReport:
        """``vxpeak frontier``: every value of ``const name`` in ``lo..hi`` analysed and
        priced (fits with ``margin`` kept free, one call's time under ``traffic``, tokens per
        second with ``tokens_per_call`` tokens a call: a count, or a const item's name read at
        each value), as libvxpeak renders it (vxp_report_frontier): typed, with ``to_dict()``,
        ``text`` and ``svg`` (naming the machine ``machine_name``, by default its label)."""
        prog = _h(program, Program, "frontier: program")
        opts, table = _options("frontier", machine, host, overrides)
        lib = _ffi.lib()
        fo = _ffi.FrontierOptions()
        self._check(lib.vxp_frontier_options_init(ctypes.byref(fo),
                                                  _ffi.FRONTIER_OPTIONS_VERSION))
        fo.name = _check.text(name, "frontier: name")
        fo.lo = _check.unsigned(lo, "frontier: lo")
        fo.hi = _check.unsigned(hi, "frontier: hi")
        fo.margin_ppm = int(round(_check.fraction(margin, "frontier: margin") * 1e6))
        fo.function = _check.text(function, "frontier: function", optional=True)
        fo.space = _check.text(space, "frontier: space", optional=True)
        fo.traffic = _check.choice(traffic, _TRAFFIC, "frontier: traffic")
        if isinstance(tokens_per_call, str):
            fo.tokens_const = _check.text(tokens_per_call, "frontier: tokens_per_call")
        else:
            fo.tokens_per_call = _check.unsigned(tokens_per_call, "frontier: tokens_per_call")
        _check.text(machine_name, "frontier: machine_name", optional=True)
        out = _ffi.H.frontier()
        self._check(lib.vxp_frontier_run(ctypes.byref(out), self._handle(), prog,
                                         ctypes.byref(opts), ctypes.byref(fo)))
        del table
        f = out

        def make(rep: Any, ro: Any) -> int:
            return int(lib.vxp_report_frontier(rep, self._handle(), f, ro))

        try:
            doc = json.loads(self._report(make, _ffi.REPORT_JSON))
            return FrontierReport.from_json(
                doc, self._report(make, _ffi.REPORT_TEXT, machine=machine_name),
                self._report(make, _ffi.REPORT_SVG, machine=machine_name))
        finally:
            lib.vxp_frontier_free(f)

    def sweep_grid(
        self,
        program: "Program",
        rows: str,
        row_values: Sequence[int],
        columns: str,
        column_values: Sequence[int],
        machine: Optional["Machine"] = None,
        host: Optional["Machine"] = None,
        overrides: Optional[Mapping[str, int]] = None,
        margin: float = 0.0,
        space: Optional[str] = None,
        machine_name: Optional[str] = None,
    ) -> SweepGrid:
        """``vxpeak sweep --const ROWS=.. --const COLUMNS=..``: every pair of values analysed on
        one machine, whether it fits with ``margin`` kept free and how full the tightest
        capacity is, as libvxpeak renders it (vxp_report_sweep_grid)."""
        prog = _h(program, Program, "sweep_grid: program")
        row_name = _check.text(rows, "sweep_grid: rows")
        column_name = _check.text(columns, "sweep_grid: columns")
        row_values = [_check.unsigned(r, "sweep_grid: row_values[]")
                      for r in _sequence(row_values, "sweep_grid: row_values")]
        column_values = [_check.unsigned(c, "sweep_grid: column_values[]")
                         for c in _sequence(column_values, "sweep_grid: column_values")]
        ppm = int(round(_check.fraction(margin, "sweep_grid: margin") * 1e6))
        space_name = _check.text(space, "sweep_grid: space", optional=True)
        _check.text(machine_name, "sweep_grid: machine_name", optional=True)
        given = _check.overrides(overrides, "sweep_grid: overrides")
        if not row_values or not column_values:
            raise InvalidArgument("sweep_grid: no values")
        lib = _ffi.lib()
        cells: List[Any] = []
        try:
            for r in row_values:
                defined = dict(given)
                defined.pop(rows, None)
                defined[rows] = r
                opts, table = _options("sweep_grid", machine, host, defined)
                for c in column_values:
                    fo = _ffi.FrontierOptions()
                    self._check(lib.vxp_frontier_options_init(ctypes.byref(fo),
                                                              _ffi.FRONTIER_OPTIONS_VERSION))
                    fo.name = column_name
                    fo.lo = fo.hi = c
                    fo.margin_ppm = ppm
                    fo.space = space_name
                    out = _ffi.H.frontier()
                    self._check(lib.vxp_frontier_run(ctypes.byref(out), self._handle(), prog,
                                                     ctypes.byref(opts), ctypes.byref(fo)))
                    cells.append(out)
                del table
            array = (ctypes.c_void_p * len(cells))(*(f.value for f in cells))

            def make(rep: Any, ro: Any) -> int:
                return int(lib.vxp_report_sweep_grid(rep, self._handle(), array, len(row_values),
                                                      len(column_values), row_name, ro))

            doc = json.loads(self._report(make, _ffi.REPORT_JSON))
            return SweepGrid.from_json(doc, self._report(make, _ffi.REPORT_TEXT,
                                                         machine=machine_name))
        finally:
            for f in cells:
                lib.vxp_frontier_free(f)

    def _report(
        self,
        make: Callable[[Any, Any], int],
        fmt: int,
        function: Optional[str] = None,
        space: Optional[str] = None,
        machine: Optional[str] = None,
        configure: Optional[Callable[[_ffi.ReportOptions], None]] = None,
    ) -> str:
        """The text of a vxp_report made by ``make(out, options)`` (then freed); ``configure``
        sets the options a report of its own reads."""
        lib = _ffi.lib()
        ro = _ffi.ReportOptions()
        self._check(lib.vxp_report_options_init(ctypes.byref(ro), _ffi.REPORT_OPTIONS_VERSION))
        ro.format = fmt
        ro.function = _check.text(function, "function", optional=True) or None
        ro.space = _check.text(space, "space", optional=True) or None
        ro.machine = _check.text(machine, "machine name", optional=True) or None
        if configure is not None:
            configure(ro)
        out = _ffi.H.report()
        self._check(make(ctypes.byref(out), ctypes.byref(ro)))
        try:
            size = ctypes.c_size_t()
            ptr = lib.vxp_report_text(out, ctypes.byref(size))
            return ctypes.string_at(ptr, size.value).decode("utf-8")
        finally:
            lib.vxp_report_free(out)


_TRAFFIC = {"compulsory": 0, "no_reuse": 1, "no-reuse": 1}


def _sequence(value: object, what: str) -> List[Any]:
    """A sequence (list, tuple, range) as a list; a str, bytes, a mapping or a lone value is
    refused: TypeError."""
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes, bytearray)):
        raise TypeError("%s: expected a sequence, got %s" % (what, type(value).__name__))
    return list(value)


def _options(
    what: str,
    machine: Optional["Machine"],
    host: Optional["Machine"],
    overrides: Optional[Mapping[str, int]],
    machine_only: bool = False,
    retype: Optional[Mapping[str, str]] = None,
) -> Tuple[_ffi.AnalyzeOptions, Any]:
    """vxp_analyze_options for the arguments of ``what`` (checked), and the table it points
    into (keep it)."""
    machine_ptr = _h_opt(machine, Machine, what + ": machine")
    host_ptr = _h_opt(host, Machine, what + ": host")
    only = _check.flag(machine_only, what + ": machine_only")
    defined = _check.overrides(overrides, what + ": overrides")
    roles = _check.retypes(retype, what + ": retype")
    opts = _ffi.AnalyzeOptions()
    rc = _ffi.lib().vxp_analyze_options_init(ctypes.byref(opts), _ffi.ANALYZE_OPTIONS_VERSION)
    if rc:
        raise error_for(rc, "vxp_analyze_options_init")
    opts.machine = machine_ptr.value if machine_ptr is not None else None
    opts.host = host_ptr.value if host_ptr is not None else None
    opts.machine_only = 1 if only else 0
    items = list(defined.items())
    table = (_ffi.ConstOverride * max(len(items), 1))()
    for i, (name, value) in enumerate(items):
        table[i] = _ffi.ConstOverride(name.encode("utf-8", "surrogateescape"), value)
    if items:
        opts.overrides = ctypes.cast(table, ctypes.POINTER(_ffi.ConstOverride))
        opts.override_count = len(items)
    retypes = (_ffi.Retype * max(len(roles), 1))()
    for i, (role, elem) in enumerate(roles.items()):
        retypes[i] = _ffi.Retype(role, elem)
    if roles:
        opts.retypes = ctypes.cast(retypes, ctypes.POINTER(_ffi.Retype))
        opts.retype_count = len(roles)
    return opts, (table, retypes)


def _scopes_of(rec: Any, src: Any) -> Tuple[Scope, ...]:
    """A record's scope chain, innermost first."""
    lib = _ffi.lib()
    chain = []
    sc = lib.vxp_record_scope(rec)
    while sc:
        chain.append(
            Scope(
                id=int(lib.vxp_scope_id(sc)),
                kind=_enum_of(ScopeType, lib.vxp_scope_type_name(lib.vxp_scope_type_of(sc)))
                or ScopeType.BLOCK,
                span=_span_of(lib.vxp_scope_range(sc), src),
                releases=bool(lib.vxp_scope_releases(sc)),
            )
        )
        sc = lib.vxp_scope_parent(sc)
    return tuple(chain)


def _span_of(range_: _ffi.Range, src_ptr: Any) -> Span:
    lib = _ffi.lib()
    return Span(
        file=_text(lib.vxp_source_label(src_ptr)) or "",
        start_line=range_.start.line,
        start_column=range_.start.column,
        start_utf16=int(lib.vxp_source_utf16_column(src_ptr, range_.start)),
        end_line=range_.end.line,
        end_column=range_.end.column,
        end_utf16=int(lib.vxp_source_utf16_column(src_ptr, range_.end)),
        start_byte=range_.start_byte,
        end_byte=range_.end_byte,
    )


def _diagnostic(ptr: Any) -> Diagnostic:
    lib = _ffi.lib()
    span = None
    if lib.vxp_diagnostic_has_range(ptr):
        span = _span_of(lib.vxp_diagnostic_range(ptr), lib.vxp_diagnostic_source(ptr))
    notes = tuple(
        _diagnostic(lib.vxp_diagnostic_note(ptr, i))
        for i in range(lib.vxp_diagnostic_note_count(ptr))
    )
    return Diagnostic(
        severity=_SEVERITY.get(lib.vxp_diagnostic_severity(ptr), "note"),
        code=_text(lib.vxp_diagnostic_code(ptr)),
        message=_text(lib.vxp_diagnostic_message(ptr)) or "",
        span=span,
        notes=notes,
        is_help=bool(lib.vxp_diagnostic_is_help(ptr)),
        function=_text(lib.vxp_diagnostic_function(ptr)),
    )


class Source(_Handle):
    """A private copy of a program's text (immutable: edits make new versions)."""

    _free_name = "vxp_source_free"

    def __init__(self, ptr: Any, ctx: Context):
        super().__init__(ptr, (ctx,))
        self.context = ctx

    @property
    def label(self) -> str:
        return _text(_ffi.lib().vxp_source_label(self._handle())) or ""

    @property
    def data(self) -> bytes:
        """The text, as the bytes libvxpeak holds."""
        size = ctypes.c_size_t()
        ptr = _ffi.lib().vxp_source_text(self._handle(), ctypes.byref(size))
        return ctypes.string_at(ptr, size.value) if size.value else b""

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "surrogateescape")

    @property
    def line_count(self) -> int:
        return int(_ffi.lib().vxp_source_line_count(self._handle()))

    def line(self, index: int) -> Optional[str]:
        """0-based line ``index`` without its terminator, or None past the end."""
        i = _check.unsigned(index, "line: index", 32)
        size = ctypes.c_size_t()
        ptr = _ffi.lib().vxp_source_line(self._handle(), i, ctypes.byref(size))
        if ptr is None:
            return None
        return ctypes.string_at(ptr, size.value).decode("utf-8", "surrogateescape")

    def utf16_column(self, line: int, column: int) -> int:
        """The UTF-16 column (LSP) of 0-based ``line`` and byte ``column``."""
        point = _ffi.Point(_check.unsigned(line, "utf16_column: line", 32),
                           _check.unsigned(column, "utf16_column: column", 32))
        return int(_ffi.lib().vxp_source_utf16_column(self._handle(), point))

    def edit(self, start_byte: int, old_end_byte: int, text: Union[str, bytes]) -> "Source":
        """The next version: bytes [start_byte, old_end_byte) replaced by ``text``. This
        source is unchanged; use :meth:`Context.reparse` to reparse incrementally."""
        start = _check.unsigned(start_byte, "edit: start_byte", 32)
        end = _check.unsigned(old_end_byte, "edit: old_end_byte", 32)
        data = _check.data(text, "edit: text")
        out = _ffi.H.source()
        self.context._check(
            _ffi.lib().vxp_source_edit(ctypes.byref(out), self._handle(), start, end, data,
                                       len(data))
        )
        return Source(out, self.context)


class Program(_Handle):
    """A parsed program: its syntax tree, model and syntax diagnostics."""

    _free_name = "vxp_program_free"

    def __init__(self, ptr: Any, ctx: Context, source: Source):
        super().__init__(ptr, (ctx, source))
        self.context = ctx
        self.source = source

    @property
    def diagnostics(self) -> List[Diagnostic]:
        lib, h = _ffi.lib(), self._handle()
        return [
            _diagnostic(lib.vxp_program_diagnostic(h, i))
            for i in range(lib.vxp_program_diagnostic_count(h))
        ]

    @property
    def sexp(self) -> str:
        """The syntax tree as an S-expression."""
        raw = _ffi.lib().vxp_program_sexp(self._handle())
        if raw is None:
            self.context._check(_ffi.lib().vxp_context_errcode(self.context._handle()) or -2)
        return _text(raw) or ""

    @property
    def declares_machine(self) -> bool:
        """True when the program declares a Topology or a Memory with a capacity."""
        return bool(_ffi.lib().vxp_program_declares_machine(self._handle()))


class Machine(_Handle):
    """A machine model: Memory and Topology declarations."""

    _free_name = "vxp_machine_free"

    def __init__(self, ptr: Any, ctx: Context, source: Optional[Source]):
        super().__init__(ptr, (ctx,) + ((source,) if source else ()))
        self.context = ctx

    @property
    def label(self) -> str:
        return _text(_ffi.lib().vxp_machine_label(self._handle())) or ""

    @property
    def diagnostics(self) -> List[Diagnostic]:
        lib, h = _ffi.lib(), self._handle()
        return [
            _diagnostic(lib.vxp_machine_diagnostic(h, i))
            for i in range(lib.vxp_machine_diagnostic_count(h))
        ]


class Analysis(_Handle):
    """The result of :meth:`Context.analyze`: verdict, diagnostics, resident sets,
    records, routes and the JSON report."""

    _free_name = "vxp_analysis_free"

    def __init__(self, ptr: Any, parents: Tuple[_Handle, ...], program: Program):
        super().__init__(ptr, parents)
        self.program = program
        self._report: Optional[Dict[str, Any]] = None

    @property
    def admitted(self) -> bool:
        return bool(_ffi.lib().vxp_analysis_admitted(self._handle()))

    @property
    def error_count(self) -> int:
        return int(_ffi.lib().vxp_analysis_error_count(self._handle()))

    @property
    def warning_count(self) -> int:
        return int(_ffi.lib().vxp_analysis_warning_count(self._handle()))

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """The program's, the machines' and the analysis' own diagnostics, in that order."""
        lib, h = _ffi.lib(), self._handle()
        return [
            _diagnostic(lib.vxp_analysis_diagnostic(h, i))
            for i in range(lib.vxp_analysis_diagnostic_count(h))
        ]

    @property
    def resident_sets(self) -> List[ResidentSet]:
        lib, h = _ffi.lib(), self._handle()
        index = self._record_index()
        sets = []
        for i in range(lib.vxp_analysis_resident_set_count(h)):
            rs = lib.vxp_analysis_resident_set(h, i)
            allocated = ctypes.c_uint64()
            known = lib.vxp_resident_set_allocated_bytes(rs, ctypes.byref(allocated))
            sets.append(
                ResidentSet(
                    function=_text(lib.vxp_resident_set_function(rs)) or "",
                    space=_text(lib.vxp_resident_set_space(rs)) or "",
                    peak_bytes=int(lib.vxp_resident_set_peak_bytes(rs)),
                    capacity_bytes=int(lib.vxp_resident_set_capacity_bytes(rs)),
                    tiles=int(lib.vxp_resident_set_tile_count(rs)),
                    overcommit=bool(lib.vxp_resident_set_overcommit(rs)),
                    allocated_bytes=int(allocated.value) if known else None,
                    records=tuple(
                        index[lib.vxp_resident_set_record(rs, k).value]
                        for k in range(lib.vxp_resident_set_record_count(rs))
                    ),
                )
            )
        return sets

    def _record_index(self) -> Dict[int, int]:
        """Record handle -> its index in ``records``."""
        lib, h = _ffi.lib(), self._handle()
        return {
            lib.vxp_analysis_record(h, i).value: i
            for i in range(lib.vxp_analysis_record_count(h))
        }

    @property
    def records(self) -> List[Record]:
        lib, h = _ffi.lib(), self._handle()
        src = lib.vxp_program_source(self.program._handle())
        out = []
        order = ctypes.c_uint32()
        runs = ctypes.c_uint64()
        for i in range(lib.vxp_analysis_record_count(h)):
            rec = lib.vxp_analysis_record(h, i)
            released = lib.vxp_record_release_order(rec, ctypes.byref(order))
            runs_known = lib.vxp_record_runs(rec, ctypes.byref(runs))
            out.append(
                Record(
                    function=_text(lib.vxp_record_function(rec)) or "",
                    space=_text(lib.vxp_record_space(rec)) or "",
                    binding=_text(lib.vxp_record_binding(rec)),
                    bytes=int(lib.vxp_record_bytes(rec)),
                    scope_depth=int(lib.vxp_record_scope_depth(rec)),
                    order=int(lib.vxp_record_order(rec)),
                    live_at_peak=bool(lib.vxp_record_live_at_peak(rec)),
                    span=_span_of(lib.vxp_record_range(rec), src),
                    role=_text(lib.vxp_record_role(rec)),
                    release_order=int(order.value) if released else None,
                    runs=int(runs.value) if runs_known else None,
                    scopes=_scopes_of(rec, src),
                )
            )
        return out

    @property
    def functions(self) -> List[str]:
        """The analysed functions (non-generic functions and closures), in program order."""
        lib, h = _ffi.lib(), self._handle()
        return [
            _text(lib.vxp_analysis_function(h, i)) or ""
            for i in range(lib.vxp_analysis_function_count(h))
        ]

    @property
    def routes(self) -> List[Route]:
        """One route per hop of every transfer whose route was found, in program order."""
        lib, h = _ffi.lib(), self._handle()
        src = lib.vxp_program_source(self.program._handle())
        value = ctypes.c_uint64()

        def optional(getter: Any, *args: Any) -> Optional[int]:
            return int(value.value) if getter(*args, ctypes.byref(value)) else None

        index = self._record_index()
        out = []
        for i in range(lib.vxp_analysis_route_count(h)):
            r = lib.vxp_analysis_route(h, i)
            spaces = lib.vxp_route_path_length(r)
            out.append(
                Route(
                    function=_text(lib.vxp_route_function(r)) or "",
                    path=tuple(_text(lib.vxp_route_path_space(r, k)) or "" for k in range(spaces)),
                    edge_costs=tuple(
                        optional(lib.vxp_route_edge_cost, r, k) for k in range(spaces - 1)
                    ),
                    total_cost=int(lib.vxp_route_total_cost(r)),
                    bytes=optional(lib.vxp_route_bytes, r),
                    derived_cost=optional(lib.vxp_route_derived_cost, r),
                    derived_unit=_enum_of(
                        CostUnit, lib.vxp_cost_unit_name(lib.vxp_route_cost_unit(r))),
                    cost_source=_enum_of(
                        CostBasis, lib.vxp_cost_basis_name(lib.vxp_route_cost_basis(r))),
                    composition=_enum_of(
                        CostComposition,
                        lib.vxp_cost_composition_name(lib.vxp_route_cost_composition(r))),
                    span=_span_of(lib.vxp_route_range(r), src),
                    record=index.get(lib.vxp_route_record(r).value),
                )
            )
        return out

    @property
    def call_trees(self) -> List[CallTree]:
        """Per (function, space) with bytes in its call tree: own peak, total and path, by
        function in analysis order (generic instances, such as ``admit<32, 32, 128>``,
        after the functions written without generic arguments), then by space name."""
        lib, h = _ffi.lib(), self._handle()
        src = lib.vxp_program_source(self.program._handle())
        out = []
        for i in range(lib.vxp_analysis_call_tree_count(h)):
            ct = lib.vxp_analysis_call_tree(h, i)
            hops = []
            t = ct
            while t and lib.vxp_call_tree_callee(t):
                hops.append(
                    CallHop(
                        caller=_text(lib.vxp_call_tree_function(t)) or "",
                        callee=_text(lib.vxp_call_tree_callee(t)) or "",
                        held_bytes=int(lib.vxp_call_tree_held_bytes(t)),
                        span=_span_of(lib.vxp_call_tree_call_range(t), src),
                    )
                )
                t = lib.vxp_call_tree_next(t)
            path = tuple(hops)
            out.append(
                CallTree(
                    function=_text(lib.vxp_call_tree_function(ct)) or "",
                    space=_text(lib.vxp_call_tree_space(ct)) or "",
                    self_peak_bytes=int(lib.vxp_call_tree_self_peak_bytes(ct)),
                    total_bytes=int(lib.vxp_call_tree_total_bytes(ct)),
                    capacity_bytes=int(lib.vxp_call_tree_capacity_bytes(ct)),
                    bounded=bool(lib.vxp_call_tree_bounded(ct)),
                    path=path,
                )
            )
        return out

    @property
    def unresolved_calls(self) -> List[UnresolvedCall]:
        """Calls of user code the call-tree fold could not follow, in call order."""
        lib, h = _ffi.lib(), self._handle()
        src = lib.vxp_program_source(self.program._handle())
        out = []
        for i in range(lib.vxp_analysis_unresolved_call_count(h)):
            u = lib.vxp_analysis_unresolved_call(h, i)
            out.append(
                UnresolvedCall(
                    function=_text(lib.vxp_unresolved_call_function(u)) or "",
                    callee=_text(lib.vxp_unresolved_call_callee(u)),
                    reason=_text(lib.vxp_unresolved_call_reason(u)) or "",
                    span=_span_of(lib.vxp_unresolved_call_range(u), src),
                )
            )
        return out

    def generate_cuda(self) -> CudaProgram:
        """Generate CUDA for the analysed program (the optional code-generation stage)."""
        lib = _ffi.lib()
        out = _ffi.H.cuda()
        self.program.context._check(lib.vxp_cuda_generate(
            ctypes.byref(out), self.program.context._handle(), self._handle()))
        try:
            size = ctypes.c_size_t()
            ptr = lib.vxp_cuda_text(out, ctypes.byref(size))
            text = ctypes.string_at(ptr, size.value).decode("utf-8") if ptr else None
            diagnostics = tuple(
                _diagnostic(lib.vxp_cuda_diagnostic(out, i))
                for i in range(lib.vxp_cuda_diagnostic_count(out))
            )
        finally:
            lib.vxp_cuda_free(out)
        return CudaProgram(text=text, diagnostics=diagnostics)

    def formula(self, names: Union[str, Sequence[str]]) -> List[Dict[str, Any]]:
        """Each resident set's peak as an exact formula in the named ``const`` items
        (``vxpeak check --symbolic``), every other constant folded: a list, one dict per
        resident set in :attr:`resident_sets` order, with ``function``, ``space``,
        ``total_bytes``, ``peak_formula`` (alternatives whose maximum is the peak, each a
        list of terms ``{"coefficient": int, "constants": [name, ...]}``; None when the peak
        is no polynomial in them, with ``peak_formula_reason`` saying why) and ``text``."""
        if isinstance(names, str):
            names = [n for n in names.split(",") if n]
        if not isinstance(names, (list, tuple)):
            raise TypeError("formula: names: expected a str or a sequence of str, got %s"
                            % type(names).__name__)
        lib = _ffi.lib()
        encoded = [_check.text(n, "formula: names[%d]" % i) for i, n in enumerate(names)]
        array = (ctypes.c_char_p * max(len(encoded), 1))(*encoded)
        out = _ffi.H.formula()
        self.program.context._check(
            lib.vxp_formula_new(ctypes.byref(out), self._handle(), array, len(encoded))
        )
        try:
            size = ctypes.c_size_t()
            ptr = lib.vxp_formula_json(out, ctypes.byref(size))
            if not ptr:
                self.program.context._check(-2)
            doc = json.loads(ctypes.string_at(ptr, size.value).decode("utf-8"))
        finally:
            lib.vxp_formula_free(out)
        return list(doc["resident_sets"])

    @property
    def json(self) -> str:
        """The JSON report (schema vxpeak-report-v1), as libvxpeak renders it."""
        size = ctypes.c_size_t()
        ptr = _ffi.lib().vxp_analysis_json(self._handle(), ctypes.byref(size))
        if not ptr:
            self.program.context._check(
                _ffi.lib().vxp_context_errcode(self.program.context._handle()) or -2
            )
        return ctypes.string_at(ptr, size.value).decode("utf-8")

    def roofline(self, function: str) -> Roofline:
        """The roofline of one call of ``function`` (``vxpeak roofline``)."""
        name = _check.text(function, "roofline: function")
        lib = _ffi.lib()
        out = _ffi.H.roofline()
        rc = lib.vxp_roofline_new(
            ctypes.byref(out), self.program.context._handle(), self._handle(), name)
        self.program.context._check(rc)
        rf = out
        value = ctypes.c_uint64()

        def optional(getter: Any, *args: Any) -> Optional[int]:
            return int(value.value) if getter(*args, ctypes.byref(value)) else None

        try:
            spaces = tuple(
                RooflineSpace(
                    space=_text(lib.vxp_roofline_space_name(rf, i)) or "",
                    read_bytes=int(lib.vxp_roofline_space_read_bytes(rf, i)),
                    written_bytes=int(lib.vxp_roofline_space_written_bytes(rf, i)),
                    bandwidth=optional(lib.vxp_roofline_space_bandwidth, rf, i),
                    time_ps=optional(lib.vxp_roofline_space_time_ps, rf, i),
                )
                for i in range(lib.vxp_roofline_space_count(rf))
            )
            return Roofline(
                function=_text(lib.vxp_roofline_function(rf)) or "",
                regions=int(lib.vxp_roofline_region_count(rf)),
                traffic=_text(lib.vxp_certainty_name(lib.vxp_roofline_traffic(rf))) or "",
                reason=_text(lib.vxp_roofline_reason(rf)),
                spaces=spaces,
                time_ps=optional(lib.vxp_roofline_time_ps, rf),
                bound_space=_text(lib.vxp_roofline_bound_space(rf)),
                streamed=tuple(
                    _text(lib.vxp_record_binding(lib.vxp_roofline_streamed_record(rf, i)))
                    for i in range(lib.vxp_roofline_streamed_count(rf))
                ),
                stream_bytes=int(lib.vxp_roofline_stream_bytes(rf)),
                stream_time_ps=optional(lib.vxp_roofline_stream_time_ps, rf),
            )
        finally:
            lib.vxp_roofline_free(rf)

    def roofline_report(
        self,
        function: Optional[str] = None,
        traffic: str = "compulsory",
        tokens_per_call: int = 1,
        tokens_name: Optional[str] = None,
        machine: Optional[str] = None,
    ) -> RooflineReport:
        """``vxpeak roofline``: the roofline of ``function`` (None: of every function with a
        spawn region) under ``traffic`` ("compulsory" or "no_reuse"), each call making
        ``tokens_per_call`` tokens (read from the const ``tokens_name`` when given), as
        libvxpeak renders it (vxp_report_roofline): typed, with ``to_dict()`` (the command's
        JSON) and ``text`` (its text, naming the machine ``machine``)."""
        model = _check.choice(traffic, _TRAFFIC, "roofline_report: traffic")
        tokens = _check.unsigned(tokens_per_call, "roofline_report: tokens_per_call")
        tokens_const = _check.text(tokens_name, "roofline_report: tokens_name", optional=True)
        ctx = self.program.context

        def configure(ro: _ffi.ReportOptions) -> None:
            ro.traffic = model
            ro.tokens_per_call = tokens
            ro.tokens_name = tokens_const or None

        def make(rep: Any, ro: Any) -> int:
            return int(_ffi.lib().vxp_report_roofline(rep, ctx._handle(), self._handle(), ro))

        doc = json.loads(ctx._report(make, _ffi.REPORT_JSON, function, None, machine, configure))
        return RooflineReport.from_json(
            doc, ctx._report(make, _ffi.REPORT_TEXT, function, None, machine, configure))

    @property
    def sarif(self) -> str:
        """The diagnostics as a SARIF 2.1.0 log (for code scanning), as libvxpeak renders
        it: a rule per code, a result per diagnostic with its notes and fingerprint."""
        size = ctypes.c_size_t()
        ptr = _ffi.lib().vxp_analysis_sarif(self._handle(), ctypes.byref(size))
        if not ptr:
            self.program.context._check(
                _ffi.lib().vxp_context_errcode(self.program.context._handle()) or -2
            )
        return ctypes.string_at(ptr, size.value).decode("utf-8")

    def _repr_html_(self) -> str:
        return notebook.analysis_html(self)

    def to_dataframe(self, what: str = "records") -> Any:
        """A pandas DataFrame (pandas is optional) of ``what``: "records" (one row per
        tile), "resident_sets", "routes" or "call_trees"."""
        kinds: Dict[str, Tuple[Any, Any]] = {
            "records": (lambda: self.records, Record),
            "resident_sets": (lambda: self.resident_sets, ResidentSet),
            "routes": (lambda: self.routes, Route),
            "call_trees": (lambda: self.call_trees, CallTree),
        }
        _check.instance(what, str, "to_dataframe: what")
        if what not in kinds:
            raise InvalidArgument(
                "to_dataframe(%r): choose one of %s" % (what, ", ".join(sorted(kinds)))
            )
        items, cls = kinds[what]
        return notebook.to_dataframe(items(), [f.name for f in dataclasses.fields(cls)])

    def explain(
        self, function: Optional[str] = None, space: Optional[str] = None,
        machine: Optional[str] = None,
    ) -> Explanation:
        """What fills each peak (``vxpeak explain``), for the resident sets of ``function``
        and ``space`` (None: all), as libvxpeak renders it (vxp_report_explain): typed, with
        ``to_dict()`` (the command's JSON) and ``text`` (its table, naming the machine
        ``machine``, by default the analysed machine's label)."""
        ctx = self.program.context

        def make(rep: Any, ro: Any) -> int:
            return int(_ffi.lib().vxp_report_explain(rep, ctx._handle(), self._handle(), ro))

        doc = json.loads(ctx._report(make, _ffi.REPORT_JSON, function, space, machine))
        return Explanation.from_json(doc, ctx._report(make, _ffi.REPORT_TEXT, function, space,
                                                      machine))

    def check_text(self, margin: float = 0.0, machine: Optional[str] = None) -> str:
        """The verdict as ``vxpeak check`` prints it (vxp_report_check): each peak against
        its capacity with the tiles that fill it, the call trees, the routes, the pairs with
        less than ``margin`` (a fraction, 0 <= margin < 1) of their capacity free, and the
        verdict line; the machine is named ``machine`` (by default its label)."""
        ppm = int(round(_check.fraction(margin, "check_text: margin") * 1000000))
        ctx = self.program.context

        def configure(ro: _ffi.ReportOptions) -> None:
            ro.margin_ppm = ppm

        def make(rep: Any, ro: Any) -> int:
            return int(_ffi.lib().vxp_report_check(rep, ctx._handle(), self._handle(), ro))

        return ctx._report(make, _ffi.REPORT_TEXT, machine=machine, configure=configure)

    def inside_margin(self, margin: float) -> int:
        """How many (function, space) pairs fit their capacity but not with ``margin`` (a
        fraction) of it free (vxp_analysis_inside_margin): the command rejects the program
        when this is not zero."""
        ppm = int(round(_check.fraction(margin, "inside_margin: margin") * 1000000))
        return int(_ffi.lib().vxp_analysis_inside_margin(self._handle(), ppm))

    def plot(self, function: Optional[str] = None, space: Optional[str] = None) -> "Plot":
        """The bytes live along program order as SVG (``vxpeak plot``; vxp_report_plot):
        one panel per resident set of ``function`` and ``space`` (None: all). Shows itself
        in Jupyter. NotFound when nothing of that selection is placed in a space with a
        capacity."""
        ctx = self.program.context

        def make(rep: Any, ro: Any) -> int:
            return int(_ffi.lib().vxp_report_plot(rep, ctx._handle(), self._handle(), ro))

        return Plot(ctx._report(make, _ffi.REPORT_SVG, function, space))

    def to_dict(self) -> Dict[str, Any]:
        """The JSON report as Python objects (the same keys, in the same order)."""
        if self._report is None:
            self._report = json.loads(self.json)
        copy: Dict[str, Any] = json.loads(json.dumps(self._report))
        return copy  # a copy the caller may change


def check(
    path: PathArg,
    machine: Optional[str] = None,
    host: Optional[str] = None,
) -> Dict[str, Any]:
    """Analyse the program in ``path`` as ``vxpeak check`` does and return the JSON report
    as a dict. ``machine`` and ``host`` are files or built-in names ("a100-40";
    host "default" is the built-in host). A program without a machine model of its own
    and no ``machine`` is checked against the built-in a100-40 with the default host."""
    _check.path(path, "check: path")
    _check.text(machine, "check: machine", optional=True)
    _check.text(host, "check: host", optional=True)
    with Context() as ctx:
        program = ctx.parse(ctx.load(path))

        def model(name: Optional[str]) -> Optional[Machine]:
            if name is None:
                return None
            if "/" in name or name.endswith(".vx"):
                return ctx.machine(name)
            return ctx.builtin_machine(default_host() if name == "default" else name)

        return ctx.analyze(program, machine=model(machine), host=model(host)).to_dict()
