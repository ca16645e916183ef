#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - compile include/vxpeak.h (through headertest.c) as C89, C99 and C11 with gcc and,
# when installed, clang, and as C++98/11/17 with g++ (and clang++), every warning an error.
# The C++ object must reference the library's functions by their unmangled C names, which
# proves the extern "C" block.
set -eu
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=tests/headertest/headertest.c
warn="-Wall -Wextra -pedantic -Werror"
count=0
for cc in gcc clang; do
  command -v $cc >/dev/null 2>&1 || continue
  for std in c89 c99 c11; do
    $cc -std=$std $warn -Wstrict-prototypes -Wmissing-prototypes -Wdeclaration-after-statement \
      -Iinclude -c $src -o "$tmp/h.o"
    count=$((count + 1))
  done
done
for cxx in g++ clang++; do
  command -v $cxx >/dev/null 2>&1 || continue
  for std in c++98 c++11 c++17; do
    $cxx -x c++ -std=$std $warn -Iinclude -c $src -o "$tmp/h.o"
    if ! nm -u "$tmp/h.o" | grep -q ' vxp_context_new$'; then
      echo "headertest: $cxx -std=$std refers to vxp_context_new by a mangled name (extern \"C\" missing?)"
      nm -u "$tmp/h.o"
      exit 1
    fi
    count=$((count + 1))
  done
done
echo "headertest: include/vxpeak.h compiles cleanly in $count compiler/standard combinations"
