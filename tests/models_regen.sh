#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# models_regen.sh CLI - the shipped programs of examples/models/ are what `vxpeak model` writes
# today: each one is generated again by the command its header quotes (line 4) and compared
# with the file up to its hand-written expectations (the line starting "// ---- Expectations").
# A change to the generator must regenerate them (the command below prints how) and
# re-check their expectations (make examples).
set -u
cli=$1
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for f in examples/models/*.vx; do
  line=$(sed -n 4p "$f")
  case $line in
    "//   vxpeak model "*) ;;
    *) echo "FAIL models-regen $f: line 4 is not the 'vxpeak model' command that made it"; fail=$((fail + 1)); continue;;
  esac
  cmd=${line#"//   vxpeak "}
  # shellcheck disable=SC2086 # the quoted command is whitespace-separated words
  if ! "$cli" $cmd -o "$tmp/new.vx" 2>"$tmp/err"; then
    echo "FAIL models-regen $f: the command fails: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
  fi
  sed '/^\/\/ ---- Expectations/,$d' "$f" | sed '$d' >"$tmp/old.vx"
  if ! grep -q '^// ---- Expectations' "$f"; then
    echo "FAIL models-regen $f: no '// ---- Expectations' section"; fail=$((fail + 1)); continue
  fi
  if cmp -s "$tmp/old.vx" "$tmp/new.vx"; then
    pass=$((pass + 1))
  else
    echo "FAIL models-regen $f differs from a fresh generation (regenerate it with"
    echo "  $cli $cmd -o new.vx, keep its expectations section, and run make examples):"
    diff -u "$tmp/old.vx" "$tmp/new.vx" | head -30
    fail=$((fail + 1))
  fi
done
echo "models-regen: $pass shipped programs as generated, $fail differing"
[ "$fail" = 0 ]
