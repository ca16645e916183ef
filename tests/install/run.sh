#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - `make install-test`: install libvxpeak into a temporary prefix and use it the way
# a downstream project would.
#
#  1. make install with PREFIX (what the files are built for) and DESTDIR (where they are
#     staged), in a build directory of its own, so the checkout's build/ is not touched;
#  2. check the installed tree: SONAME links, static library, header, vxpeak.pc, man
#     page, fleet;
#  3. compile examples/c/*.c with `pkg-config --cflags --libs vxpeak` against it and run
#     them; the installed `vxpeak` must find the installed fleet (the report names the
#     file it loaded);
#  4. pip install ./bindings/python into a virtual environment finds the installed
#     library and runs examples/python/peak.py;
#  5. make uninstall removes every file.
set -eu
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
stage=$tmp/stage
make_args="--no-print-directory BUILD=$tmp/build PREFIX=$prefix"

fail() {
  echo "install-test: $*"
  exit 1
}

echo "install-test: make install PREFIX=$prefix DESTDIR=$stage"
make $make_args -j2 all >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build failed"; }
make $make_args DESTDIR="$stage" install >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "make install failed"; }
# The staged tree is what a package would contain; move it to where it was built for.
mkdir -p "$(dirname "$prefix")"
mv "$stage$prefix" "$prefix"

version=$(sed -n 's/^#define VXP_VERSION_STRING "\(.*\)"/\1/p' include/vxpeak.h)
soversion=$(sed -n 's/^#define VXP_SOVERSION "\(.*\)"/\1/p' include/vxpeak.h)
lib=$prefix/lib
[ -f "$lib/libvxpeak.so.$version" ] || fail "libvxpeak.so.$version missing"
[ "$(readlink "$lib/libvxpeak.so.$soversion")" = "libvxpeak.so.$version" ] ||
  fail "libvxpeak.so.$soversion does not link to libvxpeak.so.$version"
[ "$(readlink "$lib/libvxpeak.so")" = "libvxpeak.so.$soversion" ] ||
  fail "libvxpeak.so does not link to libvxpeak.so.$soversion"
soname=$(objdump -p "$lib/libvxpeak.so.$version" | awk '/SONAME/ {print $2}')
[ "$soname" = "libvxpeak.so.$soversion" ] || fail "SONAME is '$soname'"
[ -f "$lib/libvxpeak.a" ] || fail "libvxpeak.a missing"
cmp -s include/vxpeak.h "$prefix/include/vxpeak.h" || fail "header not installed"
[ -x "$prefix/bin/vxpeak" ] || fail "vxpeak not installed"
[ -f "$prefix/share/man/man1/vxpeak.1" ] || fail "man page not installed"
grep -q "^\.TH VXPEAK 1 .*vxpeak $version" "$prefix/share/man/man1/vxpeak.1" ||
  fail "the man page's .TH line does not name version $version"
for f in fleet/*.vx; do
  cmp -s "$f" "$prefix/share/vxpeak/fleet/${f#fleet/}" || fail "$f not installed"
done
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -ww -z "$prefix/share/man/man1/vxpeak.1" 2>&1)
  [ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
fi

# A downstream build: nothing but pkg-config, the installed files and the examples.
export PKG_CONFIG_PATH=$lib/pkgconfig
[ "$(pkg-config --modversion vxpeak)" = "$version" ] || fail "pkg-config reports another version"
flags=$(pkg-config --cflags --libs vxpeak)
fleetdir=$(pkg-config --variable=fleetdir vxpeak)
[ -f "$fleetdir/a100-40.vx" ] || fail "pkg-config's fleetdir ($fleetdir) holds no a100-40.vx"
echo "install-test: pkg-config --cflags --libs vxpeak: $flags"
for src in examples/c/*.c; do
  name=$(basename "$src" .c)
  # shellcheck disable=SC2086 # flags are words
  cc -std=c99 -Wall -Wextra -Werror -o "$tmp/$name" "$src" $flags ||
    fail "examples/c/$name.c does not build against the installed library"
done
# A static link pulls tree-sitter through Requires.private, and nothing of jansson: the
# library makes no jansson calls, so the static link succeeding without -ljansson shows it.
static_libs=$(pkg-config --libs --static vxpeak)
case "$static_libs" in *jansson*) fail "pkg-config --libs --static vxpeak names jansson: $static_libs" ;; esac
# shellcheck disable=SC2086
cc -std=c99 -o "$tmp/peak-static" examples/c/peak.c $(pkg-config --cflags vxpeak) \
  "$lib/libvxpeak.a" $(echo "$static_libs" | sed 's/-lvxpeak//') ||
  fail "examples/c/peak.c does not link statically"
sh tests/abi/needed.sh "$lib/libvxpeak.so.$version" >/dev/null ||
  fail "the installed library: $(sh tests/abi/needed.sh "$lib/libvxpeak.so.$version")"
export LD_LIBRARY_PATH=$lib
"$tmp/peak" examples/blog/peak_not_sum.vx >"$tmp/out" || fail "peak failed"
grep -q "main in HBM: peak 2097152 of 4194304 bytes" "$tmp/out" || fail "peak printed: $(cat "$tmp/out")"
ldd "$tmp/peak" | grep -q "$lib/libvxpeak.so.$soversion" || fail "peak is not linked to the installed library"
"$tmp/peak-static" examples/blog/peak_not_sum.vx >"$tmp/out2" || fail "static peak failed"
cmp -s "$tmp/out" "$tmp/out2" || fail "the static and shared examples disagree"
"$tmp/diagnostics" examples/blog/unrolled.vx >"$tmp/out" && fail "diagnostics admitted unrolled.vx"
grep -q "error\[E6010\]" "$tmp/out" || fail "diagnostics printed: $(cat "$tmp/out")"
"$tmp/json" examples/blog/peak_not_sum.vx - "$tmp/report.json" 2>/dev/null || fail "json failed"
grep -q '"schema": "vxpeak-report-v1"' "$tmp/report.json" || fail "json wrote no report"

# The installed command finds the installed fleet by name, before anything else.
cd "$tmp"
"$prefix/bin/vxpeak" --version | grep -q "vxpeak $version" || fail "vxpeak --version"
"$prefix/bin/vxpeak" check "$root/examples/blog/peak_not_sum.vx" --machine a100-40 \
  --format json >"$tmp/cli.json" || true
grep -q "\"machine\": \"$prefix/share/vxpeak/fleet/a100-40.vx\"" "$tmp/cli.json" ||
  fail "vxpeak --machine a100-40 did not load the installed fleet: $(grep machine "$tmp/cli.json")"
if "$prefix/bin/vxpeak" check "$root/examples/blog/peak_not_sum.vx" --machine no-such 2>"$tmp/err"; then
  fail "an unknown machine was accepted"
fi
grep -q "$root/fleet" "$tmp/err" && fail "the installed vxpeak searches the source tree: $(cat "$tmp/err")"
cd "$root"

# The Python package without a library of its own (VXPEAK_SYSTEM_LIBRARY=1; the default
# wheel, with the library inside, is make python-test's): pip install into a fresh virtual
# environment (from a copy, so the build does not write into the checkout; offline with the
# environment's own setuptools when it has one), then peak.py must find the installed
# library through pkg-config, as a user's program would.
if python3 -c 'import venv' 2>/dev/null; then
  python3 -m venv "$tmp/venv" >/dev/null
  cp -r bindings/python "$tmp/pkg"
  rm -rf "$tmp/pkg/tests"
  VXPEAK_SYSTEM_LIBRARY=1 "$tmp/venv/bin/python" -m pip install --quiet --no-build-isolation \
    --no-index "$tmp/pkg" >"$tmp/pip.log" 2>&1 ||
    VXPEAK_SYSTEM_LIBRARY=1 "$tmp/venv/bin/python" -m pip install --quiet "$tmp/pkg" \
    >>"$tmp/pip.log" 2>&1 ||
    { cat "$tmp/pip.log"; fail "pip install ./bindings/python failed"; }
  (cd "$tmp" && env -u LD_LIBRARY_PATH "$tmp/venv/bin/python" -c \
    'import vxpeak; print(vxpeak.library_path())') >"$tmp/pylib" ||
    fail "the installed package cannot load the installed library"
  [ "$(cat "$tmp/pylib")" = "$lib/libvxpeak.so.$soversion" ] ||
    fail "the package loaded $(cat "$tmp/pylib"), not the installed $lib/libvxpeak.so.$soversion"
  env -u LD_LIBRARY_PATH "$tmp/venv/bin/python" examples/python/peak.py \
    examples/blog/peak_not_sum.vx >"$tmp/py.out" || fail "examples/python/peak.py failed"
  cmp -s "$tmp/py.out" tests/examples/expected/peak-loop.out ||
    fail "examples/python/peak.py printed: $(cat "$tmp/py.out")"
  echo "install-test: pip install ./bindings/python: loads $(cat "$tmp/pylib")"
else
  echo "install-test: no python3 venv module; the Python package was not tested (make deps)"
fi

# make uninstall (with the same DESTDIR) leaves nothing behind but empty directories.
mkdir -p "$stage$(dirname "$prefix")"
mv "$prefix" "$stage$prefix"
make $make_args DESTDIR="$stage" uninstall >"$tmp/uninstall.log" 2>&1 ||
  { cat "$tmp/uninstall.log"; fail "make uninstall failed"; }
left=$(find "$stage" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install-test: installed, built and ran examples/c/*.c with pkg-config, uninstalled: ok"
