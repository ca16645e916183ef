# SPDX-License-Identifier: Apache-2.0
"""_ffi.py - finding and loading libvxpeak, and the ctypes prototype of every function.

The table below is the Python side of ``include/vxpeak.h``: one entry per exported
function, with its result and argument types. It is generated from the header by
``lib/abi_lists.py`` (``make abi-lists``; ``make check`` fails when it is stale), and
``tests/test_ffi_table.py`` checks each entry's arity and argument kinds against the header.

Where the library comes from, in order (the first that loads wins):

1. ``$VXPEAK_LIBRARY``: the path of the shared library, or of a directory holding it.
   When it is set nothing else is tried.
2. The library bundled in the installed package (``vxpeak/_native/``), which
   ``pip install ./bindings/python`` builds from the repository's sources.
3. The build tree, when this package is imported from a libvxpeak checkout
   (``bindings/python/vxpeak`` next to ``build/``); ``$VXPEAK_BUILD_DIR`` names another
   build directory.
4. The installed prefix: ``pkg-config --variable=libdir vxpeak``, ``sys.prefix/lib``,
   ``/usr/local/lib``, ``/usr/lib``, then the dynamic linker's own search
   (``ctypes.util.find_library``).

When none loads, :class:`LibraryNotFound` lists every place tried and why it failed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
from ctypes import (
    POINTER,
    Structure,
    c_char_p,
    c_int,
    c_size_t,
    c_uint,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

#: The ABI this package is written for: the library's SONAME is libvxpeak.so.<SOVERSION>.
SOVERSION = "0.1"
#: The library versions this package accepts: (major, minor) must match.
VERSION_MAJOR, VERSION_MINOR = 0, 1
LIBRARY_NAME = "libvxpeak.so." + SOVERSION


class LibraryNotFound(ImportError):
    """libvxpeak could not be loaded; the message lists every place that was tried."""

    def __init__(self, tried: Sequence[Tuple[str, str, str]]):
        self.tried = list(tried)
        lines = ["cannot load %s; tried:" % LIBRARY_NAME]
        lines += ["  %s: %s (%s)" % entry for entry in self.tried]
        lines.append(
            "set VXPEAK_LIBRARY to the library's path, or install libvxpeak "
            "(make install PREFIX=...)"
        )
        super().__init__("\n".join(lines))


# ------------------------------------------------------------------ ABI structs


class Point(Structure):
    """vxp_point: 0-based line, 0-based column in bytes."""

    _fields_ = [("line", c_uint32), ("column", c_uint32)]


class Range(Structure):
    """vxp_range: half-open, with byte offsets."""

    _fields_ = [
        ("start", Point),
        ("end", Point),
        ("start_byte", c_uint32),
        ("end_byte", c_uint32),
    ]


class ConstOverride(Structure):
    """vxp_const_override: a constant's name and the value it takes."""

    _fields_ = [("name", c_char_p), ("value", c_uint64)]


class Retype(Structure):
    """vxp_retype: a role and the element type its tiles take."""

    _fields_ = [("role", c_char_p), ("type", c_char_p)]


class AnalyzeOptions(Structure):
    """vxp_analyze_options, version ANALYZE_OPTIONS_VERSION (field for field)."""

    _fields_ = [
        ("version", c_uint),
        ("machine", c_void_p),
        ("host", c_void_p),
        ("overrides", POINTER(ConstOverride)),
        ("override_count", c_size_t),
        ("machine_only", c_int),
        ("retypes", POINTER(Retype)),
        ("retype_count", c_size_t),
    ]


ANALYZE_OPTIONS_VERSION = 3


class SweepOptions(Structure):
    """vxp_sweep_options, version SWEEP_OPTIONS_VERSION (field for field)."""

    _fields_ = [
        ("version", c_uint),
        ("name", c_char_p),
        ("lo", c_uint64),
        ("hi", c_uint64),
        ("margin_ppm", c_uint32),
        ("function", c_char_p),
        ("space", c_char_p),
        ("max_scan", c_uint64),
    ]


SWEEP_OPTIONS_VERSION = 1


class FrontierOptions(Structure):
    """vxp_frontier_options, version FRONTIER_OPTIONS_VERSION (field for field)."""

    _fields_ = [
        ("version", c_uint),
        ("name", c_char_p),
        ("lo", c_uint64),
        ("hi", c_uint64),
        ("margin_ppm", c_uint32),
        ("function", c_char_p),
        ("space", c_char_p),
        ("traffic", c_int),
        ("tokens_const", c_char_p),
        ("tokens_per_call", c_uint64),
        ("max_points", c_uint64),
    ]


FRONTIER_OPTIONS_VERSION = 1


class ReportOptions(Structure):
    """vxp_report_options, version REPORT_OPTIONS_VERSION (field for field)."""

    _fields_ = [
        ("version", c_uint),
        ("format", c_int),
        ("function", c_char_p),
        ("space", c_char_p),
        ("machine", c_char_p),
        ("traffic", c_int),
        ("tokens_per_call", c_uint64),
        ("tokens_name", c_char_p),
        ("margin_ppm", c_uint32),
        ("formula", c_void_p),
    ]


REPORT_OPTIONS_VERSION = 4
REPORT_TEXT = 1
REPORT_JSON = 2
REPORT_SVG = 3

_SIZE_OUT = POINTER(c_size_t)


class Handle(c_void_p):
    """An opaque pointer to one kind of libvxpeak object (``KIND``, "program" for
    ``vxp_program *``). Each kind is its own subclass, and an argument declared as one kind
    accepts only that kind (or None, NULL): ctypes refuses a Source where a Program belongs,
    or a plain integer, with a TypeError before the call, where a bare ``c_void_p`` would hand
    C a pointer to the wrong struct. A function returning a handle returns an instance of its
    kind (ctypes does not turn a subclass of ``c_void_p`` into an int)."""

    KIND = ""

    @classmethod
    def from_param(cls, obj: object) -> "Handle":
        if obj is None:
            return cls()  # NULL
        if isinstance(obj, cls):
            return obj
        raise TypeError(
            "expected a vxp_%s handle, got %s"
            % (cls.KIND, "vxp_%s" % obj.KIND if isinstance(obj, Handle) else type(obj).__name__)
        )


class _Kinds:
    """One attribute per handle kind: H.program is the type of ``vxp_program *``, OUT.program
    that of ``vxp_program **out`` (the generated table below names them)."""

    def __init__(self, kinds: Sequence[str], out: bool):
        for kind in kinds:
            cls = HANDLE_TYPES.setdefault(kind, type("vxp_%s_p" % kind, (Handle,), {"KIND": kind}))
            setattr(self, kind, POINTER(cls) if out else cls)

    def __getattr__(self, kind: str) -> type:  # for mypy: the attributes are made above
        raise AttributeError("no handle kind %r" % kind)


#: kind -> its Handle subclass.
HANDLE_TYPES: Dict[str, type] = {}
_KIND_NAMES = (
    "context source program machine analysis diagnostic resident_set record scope route "
    "call_tree unresolved_call cuda sweep sweep_point roofline frontier frontier_point report "
    "formula"
).split()
H = _Kinds(_KIND_NAMES, out=False)
OUT = _Kinds(_KIND_NAMES, out=True)

#: name -> (result type, argument types), in header order.
PROTOTYPES: Dict[str, Tuple[object, List[object]]] = {
    # BEGIN GENERATED by lib/abi_lists.py from include/vxpeak.h: do not edit
    # contexts and errors
    "vxp_version": (c_int, []),
    "vxp_version_string": (c_char_p, []),
    "vxp_grammar_abi": (c_uint, []),
    "vxp_strerror": (c_char_p, [c_int]),
    "vxp_context_options_init": (c_int, [c_void_p, c_uint]),
    "vxp_context_new": (c_int, [OUT.context, c_void_p]),
    "vxp_context_free": (None, [H.context]),
    "vxp_context_errmsg": (c_char_p, [H.context]),
    "vxp_context_errcode": (c_int, [H.context]),
    "vxp_context_set_cancel_flag": (None, [H.context, POINTER(c_size_t)]),
    "vxp_context_set_time_budget": (None, [H.context, c_uint64]),
    # sources and programs
    "vxp_source_new": (c_int, [OUT.source, H.context, c_char_p, c_char_p, c_size_t]),
    "vxp_source_load_file": (c_int, [OUT.source, H.context, c_char_p]),
    "vxp_source_free": (None, [H.source]),
    "vxp_source_label": (c_char_p, [H.source]),
    "vxp_source_text": (c_void_p, [H.source, _SIZE_OUT]),
    "vxp_source_line": (c_void_p, [H.source, c_uint32, _SIZE_OUT]),
    "vxp_source_line_count": (c_uint32, [H.source]),
    "vxp_source_utf16_column": (c_uint32, [H.source, Point]),
    "vxp_source_utf16_offset": (c_uint32, [H.source, c_uint32, c_uint32]),
    "vxp_source_point": (Point, [H.source, c_uint32]),
    "vxp_source_line_starts": (c_void_p, [H.source, _SIZE_OUT]),
    "vxp_program_parse": (c_int, [OUT.program, H.context, H.source]),
    "vxp_program_parse_flags": (c_int, [OUT.program, H.context, H.source, c_uint]),
    "vxp_program_free": (None, [H.program]),
    "vxp_program_source": (H.source, [H.program]),
    "vxp_program_const_count": (c_size_t, [H.program]),
    "vxp_program_const_name": (c_char_p, [H.program, c_size_t]),
    "vxp_program_diagnostic_count": (c_size_t, [H.program]),
    "vxp_program_diagnostic": (H.diagnostic, [H.program, c_size_t]),
    "vxp_program_sexp": (c_char_p, [H.program]),
    "vxp_program_write_sexp": (c_int, [H.program, c_void_p, c_void_p]),
    "vxp_program_declares_machine": (c_int, [H.program]),
    "vxp_program_item_count": (c_size_t, [H.program]),
    "vxp_program_item_type": (c_int, [H.program, c_size_t]),
    "vxp_item_type_name": (c_char_p, [c_int]),
    "vxp_program_item_kind": (c_char_p, [H.program, c_size_t]),
    "vxp_program_item_name": (c_char_p, [H.program, c_size_t]),
    "vxp_program_item_range": (Range, [H.program, c_size_t]),
    "vxp_program_item_name_range": (Range, [H.program, c_size_t]),
    # machines
    "vxp_machine_load": (c_int, [OUT.machine, H.context, H.source]),
    "vxp_machine_builtin": (c_int, [OUT.machine, H.context, c_char_p]),
    "vxp_default_machine": (c_char_p, []),
    "vxp_default_host": (c_char_p, []),
    "vxp_machine_builtin_count": (c_size_t, []),
    "vxp_machine_builtin_name": (c_char_p, [c_size_t]),
    "vxp_machine_builtin_label": (c_char_p, [c_size_t]),
    "vxp_machine_builtin_file": (c_char_p, [c_size_t]),
    "vxp_machine_free": (None, [H.machine]),
    "vxp_machine_label": (c_char_p, [H.machine]),
    "vxp_machine_diagnostic_count": (c_size_t, [H.machine]),
    "vxp_machine_diagnostic": (H.diagnostic, [H.machine, c_size_t]),
    # analyses and verdicts
    "vxp_analyze_options_init": (c_int, [c_void_p, c_uint]),
    "vxp_analyze": (c_int, [OUT.analysis, H.context, H.program, c_void_p]),
    "vxp_analysis_free": (None, [H.analysis]),
    "vxp_analysis_admitted": (c_int, [H.analysis]),
    "vxp_analysis_error_count": (c_size_t, [H.analysis]),
    "vxp_analysis_warning_count": (c_size_t, [H.analysis]),
    "vxp_analysis_diagnostic_count": (c_size_t, [H.analysis]),
    "vxp_analysis_diagnostic": (H.diagnostic, [H.analysis, c_size_t]),
    "vxp_analysis_resident_set_count": (c_size_t, [H.analysis]),
    "vxp_analysis_resident_set": (H.resident_set, [H.analysis, c_size_t]),
    "vxp_analysis_record_count": (c_size_t, [H.analysis]),
    "vxp_analysis_record": (H.record, [H.analysis, c_size_t]),
    "vxp_analysis_function_count": (c_size_t, [H.analysis]),
    "vxp_analysis_function": (c_char_p, [H.analysis, c_size_t]),
    "vxp_analysis_route_count": (c_size_t, [H.analysis]),
    "vxp_analysis_route": (H.route, [H.analysis, c_size_t]),
    "vxp_analysis_call_tree_count": (c_size_t, [H.analysis]),
    "vxp_analysis_call_tree": (H.call_tree, [H.analysis, c_size_t]),
    "vxp_analysis_unresolved_call_count": (c_size_t, [H.analysis]),
    "vxp_analysis_unresolved_call": (H.unresolved_call, [H.analysis, c_size_t]),
    "vxp_diagnostic_severity": (c_int, [H.diagnostic]),
    "vxp_diagnostic_code": (c_char_p, [H.diagnostic]),
    "vxp_diagnostic_message": (c_char_p, [H.diagnostic]),
    "vxp_diagnostic_function": (c_char_p, [H.diagnostic]),
    "vxp_diagnostic_has_range": (c_int, [H.diagnostic]),
    "vxp_diagnostic_source": (H.source, [H.diagnostic]),
    "vxp_diagnostic_range": (Range, [H.diagnostic]),
    "vxp_diagnostic_note_count": (c_size_t, [H.diagnostic]),
    "vxp_diagnostic_note": (H.diagnostic, [H.diagnostic, c_size_t]),
    "vxp_diagnostic_is_help": (c_int, [H.diagnostic]),
    "vxp_diagnostic_render": (c_size_t, [H.diagnostic, c_uint, c_char_p, c_size_t]),
    "vxp_analysis_const_value": (c_int, [H.analysis, c_char_p, POINTER(c_uint64)]),
    # records and scopes
    "vxp_resident_set_function": (c_char_p, [H.resident_set]),
    "vxp_resident_set_space": (c_char_p, [H.resident_set]),
    "vxp_resident_set_peak_bytes": (c_uint64, [H.resident_set]),
    "vxp_resident_set_capacity_bytes": (c_uint64, [H.resident_set]),
    "vxp_resident_set_budget_bytes": (c_uint64, [H.resident_set, c_uint32]),
    "vxp_resident_set_tile_count": (c_size_t, [H.resident_set]),
    "vxp_resident_set_overcommit": (c_int, [H.resident_set]),
    "vxp_resident_set_record_count": (c_size_t, [H.resident_set]),
    "vxp_resident_set_record": (H.record, [H.resident_set, c_size_t]),
    "vxp_resident_set_allocated_bytes": (c_int, [H.resident_set, POINTER(c_uint64)]),
    "vxp_record_function": (c_char_p, [H.record]),
    "vxp_record_space": (c_char_p, [H.record]),
    "vxp_record_binding": (c_char_p, [H.record]),
    "vxp_record_bytes": (c_uint64, [H.record]),
    "vxp_record_scope_depth": (c_uint32, [H.record]),
    "vxp_record_scope": (H.scope, [H.record]),
    "vxp_record_order": (c_uint32, [H.record]),
    "vxp_record_range": (Range, [H.record]),
    "vxp_record_live_at_peak": (c_int, [H.record]),
    "vxp_record_role": (c_char_p, [H.record]),
    "vxp_record_release_order": (c_int, [H.record, POINTER(c_uint32)]),
    "vxp_record_runs": (c_int, [H.record, POINTER(c_uint64)]),
    "vxp_scope_parent": (H.scope, [H.scope]),
    "vxp_scope_type_of": (c_int, [H.scope]),
    "vxp_scope_type_name": (c_char_p, [c_int]),
    "vxp_scope_kind": (c_char_p, [H.scope]),
    "vxp_scope_id": (c_uint32, [H.scope]),
    "vxp_scope_range": (Range, [H.scope]),
    "vxp_scope_releases": (c_int, [H.scope]),
    "vxp_scope_function": (c_char_p, [H.scope]),
    "vxp_route_function": (c_char_p, [H.route]),
    "vxp_route_path_length": (c_size_t, [H.route]),
    "vxp_route_path_space": (c_char_p, [H.route, c_size_t]),
    "vxp_route_edge_cost": (c_int, [H.route, c_size_t, POINTER(c_uint64)]),
    "vxp_route_total_cost": (c_uint64, [H.route]),
    "vxp_route_bytes": (c_int, [H.route, POINTER(c_uint64)]),
    "vxp_route_derived_cost": (c_int, [H.route, POINTER(c_uint64)]),
    "vxp_route_cost_unit": (c_int, [H.route]),
    "vxp_route_cost_basis": (c_int, [H.route]),
    "vxp_route_cost_composition": (c_int, [H.route]),
    "vxp_cost_unit_name": (c_char_p, [c_int]),
    "vxp_cost_basis_name": (c_char_p, [c_int]),
    "vxp_cost_composition_name": (c_char_p, [c_int]),
    "vxp_route_derived_unit": (c_char_p, [H.route]),
    "vxp_route_cost_source": (c_char_p, [H.route]),
    "vxp_route_composition": (c_char_p, [H.route]),
    "vxp_route_range": (Range, [H.route]),
    "vxp_route_record": (H.record, [H.route]),
    "vxp_call_tree_function": (c_char_p, [H.call_tree]),
    "vxp_call_tree_space": (c_char_p, [H.call_tree]),
    "vxp_call_tree_self_peak_bytes": (c_uint64, [H.call_tree]),
    "vxp_call_tree_total_bytes": (c_uint64, [H.call_tree]),
    "vxp_call_tree_capacity_bytes": (c_uint64, [H.call_tree]),
    "vxp_call_tree_bounded": (c_int, [H.call_tree]),
    "vxp_call_tree_hop_count": (c_size_t, [H.call_tree]),
    "vxp_call_tree_callee": (c_char_p, [H.call_tree]),
    "vxp_call_tree_held_bytes": (c_uint64, [H.call_tree]),
    "vxp_call_tree_call_range": (Range, [H.call_tree]),
    "vxp_call_tree_next": (H.call_tree, [H.call_tree]),
    "vxp_unresolved_call_function": (c_char_p, [H.unresolved_call]),
    "vxp_unresolved_call_callee": (c_char_p, [H.unresolved_call]),
    "vxp_unresolved_call_reason": (c_char_p, [H.unresolved_call]),
    "vxp_unresolved_call_range": (Range, [H.unresolved_call]),
    # answers
    "vxp_formula_new": (c_int, [OUT.formula, H.analysis, c_void_p, c_size_t]),
    "vxp_formula_free": (None, [H.formula]),
    "vxp_formula_set_count": (c_size_t, [H.formula]),
    "vxp_formula_is_polynomial": (c_int, [H.formula, c_size_t]),
    "vxp_formula_reason": (c_char_p, [H.formula, c_size_t]),
    "vxp_formula_text": (c_char_p, [H.formula, c_size_t]),
    "vxp_formula_alternative_count": (c_size_t, [H.formula, c_size_t]),
    "vxp_formula_evaluate": (c_int, [H.formula, c_size_t, POINTER(c_uint64), POINTER(c_uint64)]),
    "vxp_formula_json": (c_void_p, [H.formula, _SIZE_OUT]),
    "vxp_analysis_json_write_symbolic": (c_int, [H.analysis, H.formula, c_void_p, c_void_p]),
    "vxp_search_name": (c_char_p, [c_int]),
    "vxp_misfit_name": (c_char_p, [c_int]),
    "vxp_sweep_options_init": (c_int, [c_void_p, c_uint]),
    "vxp_sweep_run": (c_int, [OUT.sweep, H.context, H.program, c_void_p, c_void_p]),
    "vxp_sweep_free": (None, [H.sweep]),
    "vxp_sweep_method": (c_int, [H.sweep]),
    "vxp_sweep_reason": (c_char_p, [H.sweep]),
    "vxp_sweep_evaluation_count": (c_size_t, [H.sweep]),
    "vxp_sweep_point_count": (c_size_t, [H.sweep]),
    "vxp_sweep_point_at": (H.sweep_point, [H.sweep, c_size_t]),
    "vxp_sweep_largest": (H.sweep_point, [H.sweep]),
    "vxp_sweep_first_rejected": (H.sweep_point, [H.sweep]),
    "vxp_sweep_point_value": (c_uint64, [H.sweep_point]),
    "vxp_sweep_point_fits": (c_int, [H.sweep_point]),
    "vxp_sweep_point_peak_bytes": (c_uint64, [H.sweep_point]),
    "vxp_sweep_point_capacity_bytes": (c_uint64, [H.sweep_point]),
    "vxp_sweep_point_function": (c_char_p, [H.sweep_point]),
    "vxp_sweep_point_space": (c_char_p, [H.sweep_point]),
    "vxp_sweep_point_reason": (c_int, [H.sweep_point]),
    "vxp_sweep_point_code": (c_char_p, [H.sweep_point]),
    "vxp_sweep_point_cause_function": (c_char_p, [H.sweep_point]),
    "vxp_certainty_name": (c_char_p, [c_int]),
    "vxp_bound_name": (c_char_p, [c_int]),
    "vxp_roofline_new": (c_int, [OUT.roofline, H.context, H.analysis, c_char_p]),
    "vxp_roofline_free": (None, [H.roofline]),
    "vxp_roofline_function": (c_char_p, [H.roofline]),
    "vxp_roofline_region_count": (c_size_t, [H.roofline]),
    "vxp_roofline_traffic": (c_int, [H.roofline]),
    "vxp_roofline_reason": (c_char_p, [H.roofline]),
    "vxp_roofline_space_count": (c_size_t, [H.roofline]),
    "vxp_roofline_space_name": (c_char_p, [H.roofline, c_size_t]),
    "vxp_roofline_space_read_bytes": (c_uint64, [H.roofline, c_size_t]),
    "vxp_roofline_space_written_bytes": (c_uint64, [H.roofline, c_size_t]),
    "vxp_roofline_space_bandwidth": (c_int, [H.roofline, c_size_t, POINTER(c_uint64)]),
    "vxp_roofline_space_time_ps": (c_int, [H.roofline, c_size_t, POINTER(c_uint64)]),
    "vxp_roofline_time_ps": (c_int, [H.roofline, POINTER(c_uint64)]),
    "vxp_roofline_bound_space": (c_char_p, [H.roofline]),
    "vxp_roofline_buffer_count": (c_size_t, [H.roofline]),
    "vxp_roofline_buffer_name": (c_char_p, [H.roofline, c_size_t]),
    "vxp_roofline_buffer_space": (c_char_p, [H.roofline, c_size_t]),
    "vxp_roofline_buffer_read_bytes": (c_uint64, [H.roofline, c_size_t]),
    "vxp_roofline_buffer_written_bytes": (c_uint64, [H.roofline, c_size_t]),
    "vxp_roofline_streamed_count": (c_size_t, [H.roofline]),
    "vxp_roofline_streamed_record": (H.record, [H.roofline, c_size_t]),
    "vxp_roofline_streamed_cost_ps": (c_int, [H.roofline, c_size_t, POINTER(c_uint64)]),
    "vxp_roofline_stream_bytes": (c_uint64, [H.roofline]),
    "vxp_roofline_stream_time_ps": (c_int, [H.roofline, POINTER(c_uint64)]),
    "vxp_roofline_space_bytes": (c_uint64, [H.roofline, c_size_t, c_int, POINTER(c_uint64)]),
    "vxp_roofline_buffer_bytes": (c_uint64, [H.roofline, c_size_t, c_int, POINTER(c_uint64)]),
    "vxp_roofline_buffer_tile_bytes": (c_int, [H.roofline, c_size_t, POINTER(c_uint64)]),
    "vxp_roofline_memory_time_ps": (c_int, [H.roofline, c_int, POINTER(c_uint64)]),
    "vxp_roofline_memory_bound_space": (c_char_p, [H.roofline, c_int]),
    "vxp_roofline_ops_status": (c_int, [H.roofline]),
    "vxp_roofline_ops_reason": (c_char_p, [H.roofline]),
    "vxp_roofline_topology": (c_char_p, [H.roofline]),
    "vxp_roofline_op_type_count": (c_size_t, [H.roofline]),
    "vxp_roofline_op_type": (c_char_p, [H.roofline, c_size_t]),
    "vxp_roofline_op_count": (c_uint64, [H.roofline, c_size_t]),
    "vxp_roofline_op_peak": (c_int, [H.roofline, c_size_t, POINTER(c_uint64)]),
    "vxp_roofline_total_ops": (c_uint64, [H.roofline]),
    "vxp_roofline_compute_time_ps": (c_int, [H.roofline, POINTER(c_uint64)]),
    "vxp_roofline_compute_reason": (c_char_p, [H.roofline]),
    "vxp_roofline_bound": (c_int, [H.roofline, c_int]),
    "vxp_roofline_call_time_ps": (c_int, [H.roofline, c_int, POINTER(c_uint64)]),
    "vxp_frontier_options_init": (c_int, [c_void_p, c_uint]),
    "vxp_frontier_run": (c_int, [OUT.frontier, H.context, H.program, c_void_p, c_void_p]),
    "vxp_frontier_free": (None, [H.frontier]),
    "vxp_frontier_function": (c_char_p, [H.frontier]),
    "vxp_frontier_point_count": (c_size_t, [H.frontier]),
    "vxp_frontier_point_at": (H.frontier_point, [H.frontier, c_size_t]),
    "vxp_frontier_largest_fit": (H.frontier_point, [H.frontier]),
    "vxp_frontier_first_compute_bound": (H.frontier_point, [H.frontier]),
    "vxp_frontier_best_fit": (H.frontier_point, [H.frontier]),
    "vxp_frontier_point_value": (c_uint64, [H.frontier_point]),
    "vxp_frontier_point_fits": (c_int, [H.frontier_point]),
    "vxp_frontier_point_peak_bytes": (c_uint64, [H.frontier_point]),
    "vxp_frontier_point_capacity_bytes": (c_uint64, [H.frontier_point]),
    "vxp_frontier_point_space": (c_char_p, [H.frontier_point]),
    "vxp_frontier_point_reason": (c_int, [H.frontier_point]),
    "vxp_frontier_point_code": (c_char_p, [H.frontier_point]),
    "vxp_frontier_point_tokens": (c_uint64, [H.frontier_point]),
    "vxp_frontier_point_memory_time_ps": (c_int, [H.frontier_point, POINTER(c_uint64)]),
    "vxp_frontier_point_compute_time_ps": (c_int, [H.frontier_point, POINTER(c_uint64)]),
    "vxp_frontier_point_call_time_ps": (c_int, [H.frontier_point, POINTER(c_uint64)]),
    "vxp_frontier_point_memory_bytes": (c_uint64, [H.frontier_point]),
    "vxp_frontier_point_ops": (c_uint64, [H.frontier_point]),
    "vxp_frontier_point_bound": (c_int, [H.frontier_point]),
    "vxp_frontier_point_bound_space": (c_char_p, [H.frontier_point]),
    "vxp_frontier_point_unbound_reason": (c_char_p, [H.frontier_point]),
    # reports
    "vxp_analysis_json": (c_void_p, [H.analysis, _SIZE_OUT]),
    "vxp_analysis_json_write": (c_int, [H.analysis, c_void_p, c_void_p]),
    "vxp_analysis_sarif": (c_void_p, [H.analysis, _SIZE_OUT]),
    "vxp_report_options_init": (c_int, [c_void_p, c_uint]),
    "vxp_report_machine_overhead": (c_int, [OUT.report, H.context, H.machine, c_char_p, c_uint64, c_char_p]),
    "vxp_report_machine_calibrate": (c_int, [OUT.report, H.context, H.machine, c_char_p, c_uint64, c_uint64, c_char_p]),
    "vxp_report_check": (c_int, [OUT.report, H.context, H.analysis, c_void_p]),
    "vxp_analysis_inside_margin": (c_size_t, [H.analysis, c_uint32]),
    "vxp_report_explain": (c_int, [OUT.report, H.context, H.analysis, c_void_p]),
    "vxp_report_sweep": (c_int, [OUT.report, H.context, c_void_p, c_void_p, c_size_t, c_void_p]),
    "vxp_report_roofline": (c_int, [OUT.report, H.context, H.analysis, c_void_p]),
    "vxp_report_plot": (c_int, [OUT.report, H.context, H.analysis, c_void_p]),
    "vxp_report_plot_write": (c_int, [H.context, H.analysis, c_void_p, c_void_p, c_void_p]),
    "vxp_report_frontier": (c_int, [OUT.report, H.context, H.frontier, c_void_p]),
    "vxp_report_sweep_grid": (c_int, [OUT.report, H.context, c_void_p, c_size_t, c_size_t, c_char_p, c_void_p]),
    "vxp_report_text": (c_void_p, [H.report, _SIZE_OUT]),
    "vxp_report_free": (None, [H.report]),
    # editing
    "vxp_source_edit": (c_int, [OUT.source, H.source, c_uint32, c_uint32, c_char_p, c_size_t]),
    "vxp_program_reparse": (c_int, [OUT.program, H.context, H.program, H.source]),
    "vxp_program_reused_tree": (c_int, [H.program]),
    "vxp_program_changed_range_count": (c_size_t, [H.program]),
    "vxp_program_changed_range": (Range, [H.program, c_size_t]),
    "vxp_analyze_incremental": (c_int, [OUT.analysis, H.context, H.program, H.analysis, c_void_p]),
    # model programs
    "vxp_model_workload_name": (c_char_p, [c_int]),
    "vxp_model_optimizer_name": (c_char_p, [c_int]),
    "vxp_model_generate": (c_int, [H.context, c_void_p, c_void_p, c_void_p, c_void_p]),
    "vxp_model_parameters": (c_int, [H.context, c_void_p, POINTER(c_uint64)]),
    "vxp_model_checkpoint": (c_int, [H.context, c_void_p, c_void_p, c_size_t, POINTER(c_uint64), _SIZE_OUT, _SIZE_OUT]),
    # codegen
    "vxp_cuda_generate": (c_int, [OUT.cuda, H.context, H.analysis]),
    "vxp_cuda_generate_flags": (c_int, [OUT.cuda, H.context, H.analysis, c_uint]),
    "vxp_cuda_generate_write": (c_int, [OUT.cuda, H.context, H.analysis, c_uint, c_void_p, c_void_p]),
    "vxp_cuda_free": (None, [H.cuda]),
    "vxp_cuda_text": (c_void_p, [H.cuda, _SIZE_OUT]),
    "vxp_cuda_diagnostic_count": (c_size_t, [H.cuda]),
    "vxp_cuda_diagnostic": (H.diagnostic, [H.cuda, c_size_t]),
    # END GENERATED
}


# ------------------------------------------------------------------ finding the library


def bundled_dir() -> Path:
    """Where a built wheel keeps the library and the command (``vxpeak/_native``)."""
    return Path(__file__).resolve().parent / "_native"


def package_build_dir() -> Optional[Path]:
    """build/ of the checkout this package is imported from, if it is one."""
    env = os.environ.get("VXPEAK_BUILD_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    # <checkout>/bindings/python/vxpeak/_ffi.py
    if len(here.parents) > 3 and here.parents[2].name == "bindings":
        return here.parents[3] / "build"
    return None


def _pkg_config_libdir() -> Tuple[Optional[str], str]:
    """(libdir, "") from pkg-config's vxpeak.pc, or (None, why not)."""
    if not shutil.which("pkg-config"):
        return None, "no pkg-config command"
    try:
        out = subprocess.run(
            ["pkg-config", "--variable=libdir", "vxpeak"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as err:
        return None, str(err)
    if out.returncode != 0 or not out.stdout.strip():
        return None, "no vxpeak.pc on PKG_CONFIG_PATH"
    return out.stdout.strip(), ""


def candidates() -> List[Tuple[str, Optional[str], str]]:
    """(where, path, note) triples to try, in order: `where` says where the path came
    from; a None path is a place that could not even be asked (`note` says why)."""
    env = os.environ.get("VXPEAK_LIBRARY")
    if env:
        path = Path(env)
        if path.is_dir():
            path = path / LIBRARY_NAME
        return [("$VXPEAK_LIBRARY", str(path), "")]
    found: List[Tuple[str, Optional[str], str]] = []
    bundled = bundled_dir() / LIBRARY_NAME
    if bundled.exists():
        found.append(("bundled with the package", str(bundled), ""))
    build = package_build_dir()
    if build is not None:
        found.append(("build tree", str(build / LIBRARY_NAME), ""))
    libdir, why = _pkg_config_libdir()
    found.append(("pkg-config", str(Path(libdir) / LIBRARY_NAME) if libdir else None, why))
    for prefix in (sys.prefix, "/usr/local", "/usr"):
        found.append(("installed prefix %s" % prefix, str(Path(prefix) / "lib" / LIBRARY_NAME), ""))
    system = ctypes.util.find_library("vxpeak")
    found.append(("dynamic linker search", system if system else LIBRARY_NAME, ""))
    return found


def _version_ok(lib: ctypes.CDLL) -> Optional[str]:
    """None when the library's version is one this package supports, else why not."""
    try:
        version = lib.vxp_version
    except AttributeError:
        return "not libvxpeak (no vxp_version)"
    version.restype = c_int
    version.argtypes = []
    number = version()
    major, minor = number // 10000, number // 100 % 100
    if (major, minor) != (VERSION_MAJOR, VERSION_MINOR):
        return "version %d.%d.%d, this package needs %d.%d.x" % (
            major,
            minor,
            number % 100,
            VERSION_MAJOR,
            VERSION_MINOR,
        )
    return None


def load(
    places: Optional[Sequence[Tuple[str, Optional[str], str]]] = None,
) -> Tuple[ctypes.CDLL, str]:
    """Load the first usable library of ``places`` (default: :func:`candidates`),
    declare every prototype, and return it with its path. LibraryNotFound lists every
    place and why it was not used."""
    tried: List[Tuple[str, str, str]] = []
    for where, path, note in places if places is not None else candidates():
        if path is None:
            tried.append((where, "-", note))
            continue
        if os.sep in path and not os.path.exists(path):
            tried.append((where, path, "no such file"))
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as err:
            tried.append((where, path, str(err)))
            continue
        problem = _version_ok(lib) or _missing(lib)
        if problem:
            tried.append((where, path, problem))
            continue
        declare(lib)
        return lib, path
    raise LibraryNotFound(tried)


def _missing(lib: ctypes.CDLL) -> Optional[str]:
    names = [name for name in PROTOTYPES if not hasattr(lib, name)]
    return "lacks " + ", ".join(names) if names else None


def declare(lib: ctypes.CDLL) -> None:
    """Set restype/argtypes of every function in PROTOTYPES."""
    for name, (restype, argtypes) in PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


_lib: Optional[ctypes.CDLL] = None
_lib_path: Optional[str] = None


def lib() -> ctypes.CDLL:
    """The loaded library (loaded on first use)."""
    global _lib, _lib_path
    if _lib is None:
        _lib, _lib_path = load()
    return _lib


def library_path() -> str:
    """The path of the library in use."""
    lib()
    assert _lib_path is not None
    return _lib_path
