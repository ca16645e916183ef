#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""sealed_tables.py - every table of an analysis and of a program model is in its list.

An analysis builds its tables as growable arrays and `vxp_analysis__seal` moves the ones
listed in `analysis_tables` (lib/analysis.c) into its arena, which `vxp_analysis_free` gives
back in one call; `vxp_model__free` frees the tables `vxp_model__each_table` (lib/model.c)
lists. A table left off a list would never be freed.
This reads the fields of `struct vxp_analysis` (lib/analysis_data.h) and of the two structs it
embeds, the machine view and the routing graph, and of `vxp_model` and `vxp_function`
(lib/model.h), and fails unless every growable array (`Array(T)` or a typedef of one) and
every name index among them is listed, or is one of the named exceptions.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIB = ROOT / "lib"

# Fields that are tables but are not sealed, and why.
EXCEPTIONS = {
    "diags": "deep-copied into the arena after the tables (vxp_diag__list_to_arena)",
}


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def array_typedefs(headers: str) -> set[str]:
    return set(re.findall(r"typedef\s+Array\([^;]*?\)\s*(\w+)\s*;", headers))


def body(text: str, opener: str) -> str:
    at = text.find(opener)
    if at < 0:
        sys.exit(f"sealed_tables: '{opener}' not found")
    start = text.index("{", at)
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    sys.exit(f"sealed_tables: '{opener}' is not closed")


def tables(fields: str, arrays: set[str]) -> list[str]:
    """Names of the fields that are growable arrays or name indexes."""
    out = []
    # Array(T) fields: the type holds parentheses, so match them first.
    for m in re.finditer(r"\bArray\((?:[^()]|\([^()]*\))*\)\s*([^;]+);", fields):
        out += [n.strip().lstrip("*") for n in m.group(1).split(",")]
    for m in re.finditer(r"(?:^|;|\n)\s*(\w+)\s+([\w\s,*]+);", fields):
        if m.group(1) in arrays or m.group(1) == "vxp_name_index":
            out += [n.strip().lstrip("*") for n in m.group(2).split(",")]
    return out


def main() -> int:
    headers = strip_comments("".join(p.read_text() for p in sorted(LIB.glob("*.h"))))
    arrays = array_typedefs(headers)
    analysis_h = strip_comments((LIB / "analysis_data.h").read_text())
    fields = body(analysis_h, "struct vxp_analysis {")
    expected = set(tables(fields, arrays))
    for embedded, typedef_name in (("view", "vxp_machine_view"), ("graph", "vxp_graph")):
        if not re.search(rf"\b{typedef_name}\s+{embedded}\s*;", fields):
            sys.exit(f"sealed_tables: struct vxp_analysis has no '{typedef_name} {embedded}'")
        inner = body(headers, f"typedef struct {typedef_name} {{")
        expected |= {f"{embedded}.{n}" for n in tables(inner, arrays)}
    analysis_c = strip_comments((LIB / "analysis_data.c").read_text())
    listed_in = body(analysis_c, "static void analysis_tables(")
    listed = set(re.findall(r"\b(?:TABLE|INDEX)\(an->([\w.]+)\)", listed_in))
    missing = sorted(expected - listed - set(EXCEPTIONS))
    stale = sorted(listed - expected)
    for name in missing:
        print(f"sealed_tables: an->{name} is a table of the analysis but is not in "
              "analysis_tables (lib/analysis_data.c): it would never be freed")
    for name in stale:
        print(f"sealed_tables: analysis_tables lists an->{name}, which is not a table field")
    model_h = strip_comments((LIB / "model.h").read_text())
    model_c = strip_comments((LIB / "model.c").read_text())
    each = body(model_c, "void vxp_model__each_table(")
    model_listed = set(re.findall(r"\bTABLE\(fn, data, m->([\w.]+)\)", each))
    function_listed = set(re.findall(r"\bTABLE\(fn, data, f->(\w+)\)", each))
    model_expected = set(tables(body(model_h, "typedef struct vxp_model {"), arrays))
    model_expected |= {"names.strings", "names.lengths"}  # the name table's own tables
    function_expected = set(tables(body(model_h, "typedef struct vxp_function {"), arrays))
    problems = len(missing) + len(stale)
    for name in sorted(model_expected - model_listed):
        print(f"sealed_tables: model->{name} is a table of the model but is not in "
              "vxp_model__each_table (lib/model.c): it would never be freed")
        problems += 1
    for name in sorted(function_expected - function_listed):
        print(f"sealed_tables: a function's {name} is a table but is not in "
              "vxp_model__each_table (lib/model.c): it would never be freed")
        problems += 1
    if problems:
        return 1
    print(f"sealed_tables: {len(listed)} tables of the analysis sealed, "
          f"{len(EXCEPTIONS)} exception(s): {', '.join(sorted(EXCEPTIONS))}; "
          f"{len(model_listed)} of the model and {len(function_listed)} of each function listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
