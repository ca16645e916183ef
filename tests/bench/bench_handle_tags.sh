#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_handle_tags.sh BUILD_DIR - what the handle checks (lib/tag.h) cost: the loop of cheap
# accessors of tests/bench/handle_tags_loop.c linked against BUILD_DIR/libvxpeak.a (checks
# on) and against the same sources built with -DVXP_NO_HANDLE_TAGS into
# BUILD_DIR/bench/notags (checks compiled out), run RUNS times each, alternating so that both
# see the same machine load. Prints the median ns per call of each and their ratio.
set -eu
build=${1:?usage: bench_handle_tags.sh BUILD_DIR}
runs=${RUNS:-9}
calls=${CALLS:-40000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=$(cd "$build" && pwd)
work="$build/bench/notags"
make --no-print-directory -s -j2 BUILD="$work" CFLAGS="-O2 -g -DVXP_NO_HANDLE_TAGS" static >/dev/null
cc=${CC:-cc}
libs=$(pkg-config --libs tree-sitter jansson 2>/dev/null || echo -ltree-sitter -ljansson)
# shellcheck disable=SC2086
$cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude tests/bench/handle_tags_loop.c \
  "$build/libvxpeak.a" $libs -lm -o "$work/loop_checked"
# shellcheck disable=SC2086
$cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude tests/bench/handle_tags_loop.c \
  "$work/libvxpeak.a" $libs -lm -o "$work/loop_unchecked"
# measure MODE ARG UNIT: both binaries RUNS times, alternating; the medians and their ratio.
measure() {
  : > "$work/checked.txt"
  : > "$work/unchecked.txt"
  i=0
  while [ "$i" -lt "$runs" ]; do
    # shellcheck disable=SC2086
    "$work/loop_checked" $1 >> "$work/checked.txt"
    # shellcheck disable=SC2086
    "$work/loop_unchecked" $1 >> "$work/unchecked.txt"
    i=$((i + 1))
  done
  on=$(median "$work/checked.txt")
  off=$(median "$work/unchecked.txt")
  echo "  checks on : median $on $2 (runs: $(tr '\n' ' ' < "$work/checked.txt"))"
  echo "  checks off: median $off $2 (runs: $(tr '\n' ' ' < "$work/unchecked.txt"))"
  awk -v a="$on" -v b="$off" -v u="$2" 'BEGIN { printf "  ratio on/off: %.3f (%+.3f %s)\n", a / b, a - b, u }'
}
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "handle checks, worst case: $calls calls of the cheapest accessors a run, $runs runs each"
measure "$calls" "ns/call"
analyses=${ANALYSES:-2000}
echo "handle checks in a whole call: $analyses vxp_analyze + vxp_analysis_free a run, $runs runs each"
measure "--analyze $analyses" "us/analysis"
