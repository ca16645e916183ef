#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - parse-rate conformance on real Vx programs from the vx-lang/Vx repository.
#
# usage: sh tests/conformance/run.sh VXPEAK [DIR]
#
# DIR (default tests/conformance/vx) holds copies of the repository's own programs, laid out
# as in that repository (tests/frontend/pass/..., fleet/..., benchmarks/...). They are read
# from the public repository and never committed (the directory is ignored). manifest.txt
# names each file and what vxc does with it:
#   parse         vxc parses it (pass/ files, and fail/ files that test a semantic rule):
#                 our tree must have no ERROR or MISSING node;
#   syntax-error  the file exists to test a syntax error (or vxc's parser refuses it):
#                 our parse must report at least one syntax error.
# A fetched file the manifest does not name is expected to parse.
# Prints every failure, a table per folder (files; parsed where vxc parses; refused where vxc
# refuses), then "conformance: N files, P as expected (R%)", and the closing line
# "N passed, N failed". Exit status 1 when any file is not as expected.
set -u
vxpeak=${1:?usage: run.sh VXPEAK [DIR]}
dir=${2:-tests/conformance/vx}
here=$(dirname "$0")
manifest="$here/manifest.txt"
if [ ! -d "$dir" ]; then
  echo "conformance: $dir does not exist; fetch the Vx programs first (see tests/conformance/README.md)"
  exit 2
fi
total=0; ok=0; bad=0
list=$(mktemp); tally=$(mktemp); trap 'rm -f "$list" "$tally"' EXIT
(cd "$dir" && find . -name '*.vx' | sed 's|^\./||' | LC_ALL=C sort) > "$list"
while IFS= read -r rel; do
  expect=$(awk -v p="$rel" '$1 == p { print $2; exit }' "$manifest")
  [ -n "$expect" ] || expect=parse
  total=$((total + 1))
  if "$vxpeak" parse "$dir/$rel" > /dev/null 2> "$list.err"; then got=parse; else got=syntax-error; fi
  echo "$(dirname "$rel") $expect $got" >> "$tally"
  if [ "$got" = "$expect" ]; then
    ok=$((ok + 1))
  else
    bad=$((bad + 1))
    echo "FAIL $rel: expected $expect, got $got"
    [ "$got" = syntax-error ] && sed -n '1p' "$list.err" | sed 's/^/     /'
  fi
done < "$list"
rm -f "$list.err"
# Per folder: files; of those vxc parses, how many parse here; of those it refuses, how many
# are refused here.
awk '{ n[$1]++; if ($2 == "parse") { p[$1]++; if ($3 == "parse") pp[$1]++ }
       else { r[$1]++; if ($3 == "syntax-error") rr[$1]++ } }
     END { printf "%-44s %6s %16s %16s\n", "folder", "files", "parsed as vxc", "refused as vxc"
           for (f in n) printf "%-44s %6d %10d of %-4d %10d of %-4d\n", f, n[f], pp[f], p[f], rr[f], r[f] }' \
  "$tally" | { IFS= read -r head; echo "$head"; LC_ALL=C sort; }
rate=$(awk -v a="$ok" -v b="$total" 'BEGIN { if (b) printf "%.1f", 100 * a / b; else print "0" }')
echo "conformance: $total files, $ok as expected ($rate%)"
echo "$ok passed, $bad failed"
[ "$bad" -eq 0 ]
