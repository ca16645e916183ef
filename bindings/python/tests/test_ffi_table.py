# SPDX-License-Identifier: Apache-2.0
"""test_ffi_table.py - the ctypes table is the header: every function vxpeak.h exports is
declared in vxpeak/_ffi.py with the same number of arguments, and with argument and
result types of the same size and kind; the table, the header and lib/exports.txt list
the same functions; and the loaded library has them all."""

from __future__ import annotations

import ctypes
import functools
import re
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from vxpeak import _ffi

ROOT = Path(__file__).resolve().parents[3]
HEADER = ROOT / "include" / "vxpeak.h"


def split_params(params: str) -> List[str]:
    """Split a parameter list at top-level commas (not inside function-pointer types)."""
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [] if out == ["void"] else out


def header_functions() -> Dict[str, Tuple[str, List[str]]]:
    """name -> (result type, parameter declarations) of every VXP_API declaration."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    found = {}
    for decl in re.findall(r"^VXP_API\b(.*?);", text, flags=re.S | re.M):
        decl = " ".join(decl.replace("VXP_WARN_UNUSED", "").split())
        head, params = decl.split("(", 1)
        params = params.rsplit(")", 1)[0]
        name = re.findall(r"\w+$", head.strip())[0]
        result = head.strip()[: -len(name)].strip()
        found[name] = (result, split_params(params))
    return found


def c_kind(decl: str, named: bool) -> object:
    """The size-and-kind class of a C type: a parameter declaration (`named`: it ends with
    the parameter's name, as every parameter in vxpeak.h does) or a result type."""
    if "*" in decl or "(" in decl:
        return "pointer"
    words = [w for w in re.findall(r"\w+", decl) if w != "const"]
    ctype = " ".join(words[:-1] if named else words)
    table = {
        "void": None,
        "int": ("int", 4, True),
        "unsigned int": ("int", 4, False),
        "uint32_t": ("int", 4, False),
        "uint64_t": ("int", 8, False),
        "size_t": ("int", ctypes.sizeof(ctypes.c_size_t), False),
        "vxp_severity": ("int", 4, True),  # enums with int values
        "vxp_error": ("int", 4, True),
        "vxp_traffic_model": ("int", 4, True),
        "vxp_search": ("int", 4, True),
        "vxp_misfit": ("int", 4, True),
        "vxp_certainty": ("int", 4, True),
        "vxp_bound": ("int", 4, True),
        "vxp_item_type": ("int", 4, True),
        "vxp_scope_type": ("int", 4, True),
        "vxp_cost_unit": ("int", 4, True),
        "vxp_cost_basis": ("int", 4, True),
        "vxp_cost_composition": ("int", 4, True),
        "vxp_model_workload": ("int", 4, True),
        "vxp_model_optimizer": ("int", 4, True),
        "vxp_point": "struct vxp_point",
        "vxp_range": "struct vxp_range",
        "vxp_write_fn": "pointer",  # a function pointer (typedef int (*vxp_write_fn)(...))
    }
    assert ctype in table, "no ctypes kind known for C type %r (%r)" % (ctype, decl)
    return table[ctype]


def py_kind(t: object) -> object:
    if t is None:
        return None
    if t in (ctypes.c_void_p, ctypes.c_char_p) or (
        isinstance(t, type)
        and issubclass(t, (ctypes._Pointer, ctypes.c_void_p))  # type: ignore[attr-defined]
    ):
        return "pointer"
    if t is _ffi.Point:
        return "struct vxp_point"
    if t is _ffi.Range:
        return "struct vxp_range"
    assert isinstance(t, type) and issubclass(t, ctypes._SimpleCData), t  # type: ignore[attr-defined]
    signed = t(-1).value == -1
    return ("int", ctypes.sizeof(t), signed)


def test_table_lists_exactly_the_header_functions() -> None:
    header = set(header_functions())
    table = set(_ffi.PROTOTYPES)
    assert header - table == set(), "declared in vxpeak.h, missing in _ffi.PROTOTYPES"
    assert table - header == set(), "in _ffi.PROTOTYPES, not declared in vxpeak.h"


def test_exports_list_agrees_with_the_header() -> None:
    exports = set((ROOT / "lib" / "exports.txt").read_text().split())
    assert exports == set(header_functions())


def test_every_function_has_the_header_arity_and_types() -> None:
    problems = []
    for name, (result, params) in sorted(header_functions().items()):
        if name not in _ffi.PROTOTYPES:
            continue  # reported by test_table_lists_exactly_the_header_functions
        restype, argtypes = _ffi.PROTOTYPES[name]
        if len(argtypes) != len(params):
            problems.append("%s: %d arguments in C, %d in _ffi" % (name, len(params), len(argtypes)))
            continue
        if c_kind(result, named=False) != py_kind(restype):
            problems.append("%s: returns %s in C, %r in _ffi" % (name, result, restype))
        for i, (param, argtype) in enumerate(zip(params, argtypes)):
            if c_kind(param, named=True) != py_kind(argtype):
                problems.append("%s: argument %d is '%s' in C, %r in _ffi" % (name, i, param, argtype))
    assert problems == []


@functools.lru_cache(maxsize=None)
def opaque_types() -> frozenset:
    """The header's opaque types (`typedef struct vxp_K vxp_K;`): handles and views."""
    text = (ROOT / "include" / "vxpeak.h").read_text()
    return frozenset(re.findall(r"typedef struct (vxp_\w+) \1;", text))


def handle_kind(decl: str, named: bool) -> object:
    """K of a `vxp_K *` (or `vxp_K **out`) declaration naming a handle type, else None."""
    words = [w for w in re.findall(r"\w+", decl) if w != "const"]
    ctype = " ".join(words[:-1] if named else words)
    if "*" not in decl or not ctype.startswith("vxp_") or ctype.endswith(("_options", "_fn")):
        return None
    if ctype not in opaque_types():
        return None  # a struct the header spells out (vxp_model_config): data, not a handle
    return (ctype[len("vxp_"):], decl.count("*"))


def test_each_handle_is_its_own_ctypes_type() -> None:
    # A `vxp_program *` argument is declared as the program's type, so ctypes refuses a
    # Source (or an int) before C reads it as a program.
    problems = []
    for name, (result, params) in sorted(header_functions().items()):
        restype, argtypes = _ffi.PROTOTYPES[name]
        pairs = [(result, restype, False)] + [(p, a, True) for p, a in zip(params, argtypes)]
        for decl, have, named in pairs:
            kind = handle_kind(decl, named)
            if kind is None:
                continue
            k, stars = kind
            want = _ffi.HANDLE_TYPES[k] if stars == 1 else ctypes.POINTER(_ffi.HANDLE_TYPES[k])
            if stars == 2 and not re.search(r"\*\s*\*\s*\w*out$", decl):
                continue  # an array of handles, passed as c_void_p
            if have is not want:
                problems.append("%s: %s is %r, not %r" % (name, decl, have, want))
    assert problems == []


def test_a_handle_of_another_kind_is_refused_before_the_call() -> None:
    lib = _ffi.lib()
    # ctypes reports a from_param TypeError as an ArgumentError naming the argument.
    with pytest.raises(ctypes.ArgumentError, match="expected a vxp_program handle, got vxp_source"):
        lib.vxp_program_free(_ffi.H.source())
    with pytest.raises(ctypes.ArgumentError, match="expected a vxp_analysis handle, got int"):
        lib.vxp_analysis_admitted(1234)
    out = _ffi.H.source()
    with pytest.raises(ctypes.ArgumentError):
        lib.vxp_program_parse(ctypes.byref(out), None, None)  # a Source where a Program goes
    lib.vxp_program_free(None)  # NULL is still NULL


def test_the_structs_have_the_c_layout() -> None:
    assert ctypes.sizeof(_ffi.Point) == 8
    assert ctypes.sizeof(_ffi.Range) == 24
    assert [f[0] for f in _ffi.Range._fields_] == ["start", "end", "start_byte", "end_byte"]


def header_struct_fields(name: str) -> List[str]:
    """Field names of `typedef struct NAME { ... } NAME;` in the header."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), text, flags=re.S)
    assert body, name
    return [re.findall(r"(\w+)\s*$", decl.strip())[0] for decl in body.group(1).split(";") if decl.strip()]


def test_the_options_structs_have_the_header_fields() -> None:
    assert [f[0] for f in _ffi.AnalyzeOptions._fields_] == header_struct_fields("vxp_analyze_options")
    assert [f[0] for f in _ffi.ConstOverride._fields_] == header_struct_fields("vxp_const_override")
    assert [f[0] for f in _ffi.Range._fields_] == header_struct_fields("vxp_range")
    header = HEADER.read_text()
    version = re.search(r"#define VXP_ANALYZE_OPTIONS_VERSION (\d+)", header).group(1)
    assert _ffi.ANALYZE_OPTIONS_VERSION == int(version)


def test_the_parser_of_this_test_counts_like_the_build() -> None:
    # The same numbers tests/abi/header_functions.sh prints for make check-exports.
    functions = header_functions()
    assert len(functions["vxp_source_new"][1]) == 5
    assert functions["vxp_version"][1] == []
    assert split_params("int (*cb)(int, void *), void *payload") == [
        "int (*cb)(int, void *)",
        "void *payload",
    ]


def test_the_loaded_library_exports_every_function() -> None:
    lib = _ffi.lib()
    for name in _ffi.PROTOTYPES:
        assert hasattr(lib, name), name
