#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_layers.py - lib/'s include graph against the layers of tests/layers/layers.txt.

A module is a file of lib/ without its extension (program.c and program.h are `program`,
lib/report/json.c is `report/json`). layers.txt lists the layers from the bottom up, each
with its modules in an order that may only reach down: a module may include a header of its
own layer that is listed before it, or of any layer below. So the order is one line through
every module, and an include that reaches forward on that line is an edge that runs back up:
the check names it (file, line, header) and fails. A module of lib/ that layers.txt does not
declare fails too (a new file says where it lies), and so does a declared one that is gone.

Usage: check_layers.py [--lib DIR] [--layers FILE]     (defaults: lib, tests/layers/layers.txt)
Exit status 0 when every include keeps to the order, 1 when not (each breach on stderr).
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_EXTS = ('.c', '.h', '.def')


def read_layers(path):
    """[(layer, [module, ...])] bottom up, and the problems of the file itself."""
    layers, problems, seen = [], [], {}
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            if ':' not in line:
                problems.append(f'{path}:{number}: expected "layer: module module ..."')
                continue
            name, mods = line.split(':', 1)
            mods = mods.split()
            for m in mods:
                if m in seen:
                    problems.append(f'{path}:{number}: module {m} is declared twice '
                                    f'(first in layer {seen[m]})')
                seen[m] = name.strip()
            layers.append((name.strip(), mods))
    return layers, problems


def module_of(lib, path):
    return os.path.splitext(os.path.relpath(path, lib))[0].replace(os.sep, '/')


def lib_files(lib):
    out = []
    for d, dirs, files in os.walk(lib):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_EXTS):
                out.append(os.path.join(d, name))
    return out


def includes(lib, path):
    """(line number, header as written, module it is) for each include of a file of lib/.
    A header is looked for beside the including file first, then in lib/ (the compiler's
    order: "x.h", then -Ilib); one found in neither (vxpeak.h, tree-sitter's) is no module."""
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            header = m.group(1)
            for base in (os.path.dirname(path), lib):
                cand = os.path.normpath(os.path.join(base, header))
                if os.path.isfile(cand) and os.path.abspath(cand).startswith(os.path.abspath(lib) + os.sep):
                    yield number, header, module_of(lib, cand)
                    break


def check(lib, layers_path):
    layers, problems = read_layers(layers_path)
    rank, layer_of = {}, {}
    for name, mods in layers:
        for m in mods:
            rank.setdefault(m, len(rank))
            layer_of.setdefault(m, name)
    files = lib_files(lib)
    present = {module_of(lib, p) for p in files}
    for m in sorted(present - set(rank)):
        problems.append(f'{lib}/{m}: module {m} is in no layer of {layers_path}: add it to '
                        f'the layer it belongs to')
    for m in sorted(set(rank) - present):
        problems.append(f'{layers_path}: module {m} is declared but {lib}/ has no such file')
    edges = 0
    for path in files:
        src = module_of(lib, path)
        if src not in rank:
            continue
        for number, header, dst in includes(lib, path):
            if dst == src or dst not in rank:
                continue
            edges += 1
            if rank[dst] > rank[src]:
                where = (f'layer {layer_of[dst]}' if layer_of[dst] != layer_of[src]
                         else f'later in layer {layer_of[src]}')
                problems.append(f'{path}:{number}: back edge {src} -> {dst}: #include "{header}" '
                                f'reaches up from {src} (layer {layer_of[src]}) to {dst} ({where})')
    return problems, len(present), edges, len(layers)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--lib', default='lib')
    ap.add_argument('--layers', default='tests/layers/layers.txt')
    args = ap.parse_args()
    problems, modules, edges, layers = check(args.lib, args.layers)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f'layers: {len(problems)} problem(s)', file=sys.stderr)
        return 1
    print(f'layers: {modules} modules in {layers} layers, {edges} includes, none reaches up')
    return 0


if __name__ == '__main__':
    sys.exit(main())
