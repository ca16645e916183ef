#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# test_check_layers.sh - check_layers.py fails, naming the edge, on what it exists to catch:
# each case plants one fault in a copy of lib/ and expects the checker to fail with the
# words that say which include, or which module, is wrong. The untouched copy passes first,
# so each failure is the planted fault's.
set -eu
here=$(dirname "$0")
checker="$here/check_layers.py"
layers="$here/layers.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fresh() { rm -rf "$tmp/lib"; cp -R lib "$tmp/lib"; }

# expect_fail NAME WORDS: the checker fails on the copy and its report holds WORDS.
expect_fail() {
  if python3 "$checker" --lib "$tmp/lib" --layers "$layers" >"$tmp/out" 2>&1; then
    echo "test_check_layers: $1: the checker passed; it must fail" >&2
    exit 1
  fi
  if ! grep -qF -- "$2" "$tmp/out"; then
    echo "test_check_layers: $1: the report does not say '$2':" >&2
    cat "$tmp/out" >&2
    exit 1
  fi
}

fresh
python3 "$checker" --lib "$tmp/lib" --layers "$layers" >/dev/null

# A module of the source layer reaching up to the analysis' data: a back edge across layers,
# named with its file and line.
fresh
printf '#include "analysis_data.h"\n' >>"$tmp/lib/source.c"
expect_fail "cross-layer back edge" "source.c:$(wc -l <"$tmp/lib/source.c" | tr -d ' '): back edge source -> analysis_data"

# Within one layer the order is one way too: lower_raw is listed before lower (lower.c
# includes lower_raw.h), so lower_raw including lower.h would make a cycle.
fresh
printf '#include "lower.h"\n' >>"$tmp/lib/lower_raw.c"
expect_fail "in-layer back edge" "back edge lower_raw -> lower"

# A header beside the including file is found first (the compiler's order): report.h from
# lib/report/numbers.h is lib/report/report.h, listed after it.
fresh
printf '#include "report.h"\n' >>"$tmp/lib/report/numbers.h"
expect_fail "back edge in a subdirectory" "back edge report/numbers -> report/report"

# A header reaching up from a header counts as well as from a .c file.
fresh
printf '#include "program.h"\n' >>"$tmp/lib/model.h"
expect_fail "back edge from a header" "back edge model -> program"

# A new module no layer declares, and a declared one that is gone.
fresh
printf '/* a module nobody placed */\n' >"$tmp/lib/stray.c"
expect_fail "undeclared module" "module stray is in no layer"
fresh
rm "$tmp/lib/peak.c" "$tmp/lib/peak.h"
expect_fail "declared module gone" "module peak is declared but"

# The header's checker: the untouched copy passes, then one fault at a time.
header="$here/check_header.py"
# hplant NAME WORDS CASE: plant fault CASE in a copy of the header; the checker must fail
# and say WORDS.
hplant() {
  cp include/vxpeak.h "$tmp/vxpeak.h"
  python3 - "$tmp/vxpeak.h" "$3" <<'PY'
import re
import sys

path, case = sys.argv[1], sys.argv[2]
s = open(path).read()
new = "/** Count the widgets. */\nVXP_API int vxp_widget_count(void);\n\n"
begin = s.index("\nVXP_BEGIN_DECL\n") + len("\nVXP_BEGIN_DECL\n")
end = s.rindex("\nVXP_END_DECL\n") + 1
if case == "outside":  # before the first section, where a hurried addition might land
    s = s[:begin] + new + s[begin:]
elif case == "unlisted":  # a section the contents do not list
    s = s[:end] + "/* ==== Widgets */\n\n" + new + s[end:]
elif case == "undocumented":
    s = s[:end] + "VXP_API int vxp_widget_count(void);\n\n" + s[end:]
elif case == "no-purpose":  # the comment opens with another function's name
    s = s[:end] + "/** vxp_widget_total with none. */\nVXP_API int vxp_widget_count(void);\n\n" + s[end:]
elif case == "order":  # the first two sections swapped
    lines = s.split("\n")
    marks = [k for k, l in enumerate(lines) if re.match(r"/\* =+ .* \*/$", l)]
    a, b, c = marks[0], marks[1], marks[2]
    lines = lines[:a] + lines[b:c] + lines[a:b] + lines[c:]
    s = "\n".join(lines)
elif case == "missing":  # a listed section whose line is gone
    s = re.sub(r"/\* =+ Codegen \*/", "/* ---- Codegen */", s)
open(path, "w").write(s)
PY
  if python3 "$header" --header "$tmp/vxpeak.h" >"$tmp/out" 2>&1; then
    echo "test_check_layers: $1: the header checker passed; it must fail" >&2
    exit 1
  fi
  if ! grep -qF -- "$2" "$tmp/out"; then
    echo "test_check_layers: $1: the report does not say '$2':" >&2
    cat "$tmp/out" >&2
    exit 1
  fi
}
cp include/vxpeak.h "$tmp/vxpeak.h"
python3 "$header" --header "$tmp/vxpeak.h" >/dev/null
hplant "function outside a section" "vxp_widget_count lies in no section" outside
hplant "section not in the contents" 'section "Widgets" is not in the Contents list' unlisted
hplant "no doc comment" "vxp_widget_count has no doc comment" undocumented
hplant "comment that says no purpose" "vxp_widget_count: its doc comment opens with another function's name" no-purpose
hplant "sections out of order" 'section "Contexts and errors" comes after "Sources and programs"' order
hplant "listed section missing" 'names "Codegen", which no section line opens' missing

echo "test_check_layers: the checkers fail on a planted back edge, an undeclared and a missing module, and a header function out of its sections or without its doc comment"
