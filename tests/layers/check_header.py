#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_header.py - include/vxpeak.h keeps to its table of contents.

The header's first comment has a "Contents" list: the sections, in order, each with what it
holds. A section opens with a line `/* ==== NAME */` (the name that lib/abi_lists.py files
the function under); lines of `-` divide a section and are not sections. This checks what
keeps the header findable as functions are added:

  - every section line names a section of the contents, in the contents' order, once;
    every section of the contents has its line;
  - every function (a VXP_API declaration) lies inside a section;
  - every function has a doc comment (`/** ... */`) right above it, whose first sentence
    says what the function is for: it does not open with a function's name (`vxp_x with
    options`), a return value (`1 when`, `"word" or "word"`) or a bare number.

Usage: check_header.py [--header FILE]      (default include/vxpeak.h)
Exit status 0 when the header keeps to its contents, 1 when not (each problem on stderr).
"""
import argparse
import re
import sys

SECTION = re.compile(r'^/\* =+ (.+?) \*/$')
ENTRY = re.compile(r'^ \*   (\S.*?)  +\S')
# A first sentence that opens with one of these describes the result or points elsewhere
# instead of saying what the function is for.
NOT_A_PURPOSE = [
    (re.compile(r'^vxp_\w+'), 'another function\'s name'),
    (re.compile(r'^[0-9]'), 'a return value'),
    (re.compile(r'^"'), 'a list of words'),
]


def contents(lines):
    """The section names the Contents list of the first comment gives, in order."""
    names, state = [], 'before'
    for i, line in enumerate(lines):
        if line.startswith(' */'):
            break
        if state == 'before':
            if line.strip() == '* Contents' and lines[i + 1].strip().startswith('* ---'):
                state = 'intro'
        elif state == 'intro':
            if line.strip() == '*':
                state = 'list'
        elif state == 'list':
            if line.strip() == '*':
                break
            m = ENTRY.match(line)
            if m:
                names.append(m.group(1))
    return names


def doc_comment(lines, at):
    """The doc comment that ends on the line before `at`, as one string, or None."""
    end = at - 1
    if end < 0 or not lines[end].rstrip().endswith('*/'):
        return None
    start = end
    while start > 0 and not lines[start].lstrip().startswith('/*'):
        start -= 1
    if not lines[start].lstrip().startswith('/**'):
        return None
    text = ' '.join(l.strip() for l in lines[start:end + 1])
    text = re.sub(r'^/\*\*|\*/$', '', text)
    text = re.sub(r'\s\*\s', ' ', text)
    return ' '.join(text.split())


def check(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    problems = []
    toc = contents(lines)
    if not toc:
        return [f'{path}: no Contents list in the first comment'], 0, 0
    seen, section = [], None
    functions = 0
    for i, line in enumerate(lines):
        m = SECTION.match(line)
        if m:
            name = m.group(1)
            if name not in toc:
                problems.append(f'{path}:{i + 1}: section "{name}" is not in the Contents list '
                                f'({", ".join(toc)})')
            elif name in seen:
                problems.append(f'{path}:{i + 1}: section "{name}" opens a second time')
            elif seen and seen[-1] in toc and toc.index(name) < toc.index(seen[-1]):
                problems.append(f'{path}:{i + 1}: section "{name}" comes after "{seen[-1]}", '
                                f'but before it in the Contents list')
            seen.append(name)
            section = name
            continue
        if not line.startswith('VXP_API'):
            continue
        functions += 1
        decl = line
        k = i
        while '(' not in decl and k + 1 < len(lines):
            k += 1
            decl += ' ' + lines[k]
        fn = re.search(r'(\w+)\s*\(', decl)
        fn = fn.group(1) if fn else '?'
        if section is None or section not in toc:
            problems.append(f'{path}:{i + 1}: {fn} lies in no section of the Contents list')
        doc = doc_comment(lines, i)
        if doc is None:
            problems.append(f'{path}:{i + 1}: {fn} has no doc comment (/** ... */) right above it')
            continue
        for pattern, what in NOT_A_PURPOSE:
            if pattern.match(doc):
                problems.append(f'{path}:{i + 1}: {fn}: its doc comment opens with {what} '
                                f'("{doc[:40]}..."); say first what the function is for')
    for name in toc:
        if name not in seen:
            problems.append(f'{path}: the Contents list names "{name}", which no section line opens')
    return problems, functions, len(toc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--header', default='include/vxpeak.h')
    args = ap.parse_args()
    problems, functions, sections = check(args.header)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f'header: {len(problems)} problem(s)', file=sys.stderr)
        return 1
    print(f'header: {functions} functions in the {sections} sections of the contents, '
          f'each with a doc comment')
    return 0


if __name__ == '__main__':
    sys.exit(main())
