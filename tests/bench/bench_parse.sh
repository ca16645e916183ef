#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_parse.sh BUILD_DIR - parse throughput: the Vx grammar on a generated Vx file of at
# least 5 MB beside the C grammar (npm package tree-sitter-c, downloaded into BUILD_DIR, never
# committed) on a C file of about the same size, both parsed by the libtree-sitter we link, in
# the same run. Prints the median MB/s of each over RUNS parses and the ratio.
set -eu
build=${1:?usage: bench_parse.sh BUILD_DIR}
runs=${RUNS:-9}
# 0.21.4 is generated for ABI 14, which the Debian 0.20.7 runtime loads (later releases of
# the package are ABI 15).
tsc_version=0.21.4
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$build/bench/parse"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cd "$root"

tsc="$work/tree-sitter-c-$tsc_version"
if [ ! -f "$tsc/src/parser.c" ]; then
  echo "fetching tree-sitter-c $tsc_version with npm into $work"
  (cd "$work" && npm pack "tree-sitter-c@$tsc_version" --silent >/dev/null &&
    rm -rf "$tsc" && mkdir -p "$tsc" &&
    tar xzf "tree-sitter-c-$tsc_version.tgz" -C "$tsc" --strip-components=1 &&
    rm -f "tree-sitter-c-$tsc_version.tgz")
fi
grep -q 'LANGUAGE_VERSION 14' "$tsc/src/parser.c" || { echo "tree-sitter-c $tsc_version is not ABI 14"; exit 1; }

cc=${CC:-cc}
flags=$(pkg-config --cflags tree-sitter 2>/dev/null || true)
libs=$(pkg-config --libs tree-sitter 2>/dev/null || echo -ltree-sitter)
[ "$work/c_parser.o" -nt "$tsc/src/parser.c" ] || $cc -O2 -c -I"$tsc/src" "$tsc/src/parser.c" -o "$work/c_parser.o"
$cc -O2 -c -Igrammar/src grammar/src/parser.c -o "$work/vx_parser.o"
$cc -O2 -c -Igrammar/src grammar/src/scanner.c -o "$work/vx_scanner.o"
# shellcheck disable=SC2086
$cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L $flags tests/bench/parse_bench.c \
  "$work/vx_parser.o" "$work/vx_scanner.o" "$work/c_parser.o" $libs -o "$work/parse_bench"

# Inputs: our own Vx programs (tests/corpus, examples, fleet) repeated to at least 5 MB, and
# this project's C sources (those tree-sitter-c parses without error) repeated to the same
# size. Real code on both sides.
target=5300000
gen() { # gen OUT FILES...: concatenate FILES until OUT holds at least $target bytes
  out=$1; shift
  : > "$out"
  while [ "$(wc -c < "$out")" -lt "$target" ]; do cat "$@" >> "$out"; done
}
gen "$work/input.vx" tests/corpus/*.vx examples/blog/*.vx fleet/*.vx
clean_c=""
for f in lib/*.c lib/*.h bindings/cli/*.c tests/unit/*.c examples/c/*.c /usr/include/tree_sitter/api.h; do
  [ -f "$f" ] && "$work/parse_bench" --c-is-clean "$f" && clean_c="$clean_c $f"
done
[ -n "$clean_c" ] || { echo "no C file parses cleanly with tree-sitter-c"; exit 1; }
echo "C input from $(echo $clean_c | wc -w) files that tree-sitter-c parses without error"
# shellcheck disable=SC2086
gen "$work/input.c" $clean_c
"$work/parse_bench" "$work/input.vx" "$work/input.c" "$runs"
