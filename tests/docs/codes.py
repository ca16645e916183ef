#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""codes.py write|check - docs/codes.md is generated from the library's table of diagnostic
codes (lib/codes.def): `write` writes it, `check` fails when the checked-in file differs from
what the table gives (make docs-check), so the page never drifts from what the tool reports."""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ENTRY = re.compile(r"VXP__CODE\((.*?)\)\s*(?=VXP__CODE\(|\Z)", re.S)
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def entries(text):
    """(code, name, summary, detail, help, severity) of every VXP__CODE, string pieces joined."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    for m in ENTRY.finditer(text):
        body = m.group(1)
        # Split the arguments at top-level commas outside string literals.
        args, cur, in_str, esc = [], "", False, False
        for ch in body:
            if in_str:
                cur += ch
                if esc:
                    esc = False
                elif ch == "\\":
                    esc = True
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
                cur += ch
            elif ch == ",":
                args.append(cur)
                cur = ""
            else:
                cur += ch
        args.append(cur)
        if len(args) != 6:
            raise SystemExit("codes.py: cannot read an entry of lib/codes.def: %r" % body[:80])
        strings = ["".join(STRING.findall(a)) for a in args[:5]]
        out.append(tuple(strings) + (args[5].strip(),))
    return out


def render(rows):
    lines = [
        "# Diagnostic codes",
        "",
        "Every code vxpeak reports, with what it means and what to do about it. Generated from",
        "the library's table, `lib/codes.def`, by `python3 tests/docs/codes.py write`; `make",
        "docs-check` fails when this page and the table differ. Codes from vxc keep vxc's meaning;",
        "`VXP` codes are vxpeak's own. `docs/semantics.md` explains the rules behind them.",
        "",
        "| code | severity | name | summary |",
        "|---|---|---|---|",
    ]
    for code, name, summary, _, _, sev in rows:
        lines.append("| [%s](#%s) | %s | %s | %s |" % (code, code.lower(), "error" if sev == "E" else "warning",
                                                     name, summary.replace("|", "\\|")))
    for code, name, summary, detail, help_, sev in rows:
        lines += ["", "## %s" % code, "", "**%s** (%s): %s" % (name, "error" if sev == "E" else "warning", summary),
                  "", detail, "", "Remedy: " + help_]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 2 or argv[1] not in ("write", "check"):
        print("usage: codes.py write|check", file=sys.stderr)
        return 2
    with open(os.path.join(ROOT, "lib/codes.def"), encoding="utf-8") as f:
        rows = entries(f.read())
    page = render(rows)
    path = os.path.join(ROOT, "docs/codes.md")
    if argv[1] == "write":
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        print("codes.py: wrote docs/codes.md (%d codes)" % len(rows))
        return 0
    try:
        with open(path, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    if current != page:
        print("FAIL docs/codes.md differs from lib/codes.def: run python3 tests/docs/codes.py write")
        return 1
    print("docs/codes.md: the %d codes of lib/codes.def" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
