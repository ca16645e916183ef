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

echo "test_check_layers: the checker fails on a planted back edge, an undeclared and a missing module"
