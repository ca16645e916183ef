#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh BIN_DIR - run the C examples (examples/c/*.c, built into BIN_DIR) on example
# programs and compare what they print and return with tests/examples/expected/. Each case
# is a line of CASES: name, expected exit status, then the command line. UPDATE=1 rewrites
# the expected output (review the diff).
set -u
export LC_ALL=C
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CASES='
peak-loop 0 peak examples/blog/peak_not_sum.vx
peak-unrolled 1 peak examples/blog/unrolled.vx
peak-builtin 0 peak tests/examples/plain.vx a100-40
diagnostics-broken 1 diagnostics tests/examples/broken.vx
diagnostics-clean 0 diagnostics examples/blog/peak_not_sum.vx
json-own 0 json examples/blog/peak_not_sum.vx
json-builtin 0 json tests/examples/plain.vx a100-40
json-missing 2 json tests/examples/no-such-file.vx
'
pass=0
fail=0
echo "$CASES" | while read -r name want prog args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086 # args are words
  "$bin/$prog" $args >"$tmp/out" 2>&1
  got=$?
  expected=tests/examples/expected/$name.out
  if [ "${UPDATE:-0}" = 1 ]; then cp "$tmp/out" "$expected"; fi
  if [ "$got" != "$want" ] || ! cmp -s "$expected" "$tmp/out"; then
    echo "FAIL examples/$name: exit $got (want $want), output:"
    diff -u "$expected" "$tmp/out" | head -30
    echo x >>"$tmp/failed"
  else
    echo x >>"$tmp/passed"
  fi
done
# The loop ran in a subshell (a pipe); its results are in the files.
pass=$(cat "$tmp/passed" 2>/dev/null | wc -l)
fail=$(cat "$tmp/failed" 2>/dev/null | wc -l)
echo "examples: $pass passed, $fail failed"
[ "$fail" = 0 ]
