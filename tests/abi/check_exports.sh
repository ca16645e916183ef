#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_exports.sh SHARED_LIBRARY - the exported ABI is exactly what is promised.
#
# Four lists must agree: the functions `include/vxpeak.h` declares with VXP_API, the
# committed `lib/exports.txt`, the global names of the version script `lib/vxpeak.map`, and
# what the built shared library exports (`nm -D --defined-only`). A function added to the
# header but not to the lists, one hidden by a missing map entry, or a stray exported
# symbol (a helper that lost its `static`) fails here with a diff.
set -eu
export LC_ALL=C
lib=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sort "$root/lib/exports.txt" >"$tmp/exports"
sh "$root/tests/abi/header_functions.sh" "$root/include/vxpeak.h" | cut -d' ' -f1 >"$tmp/header"
# Names between `global:` and `local:` in the version script, without the ';'.
sed -n '/global:/,/local:/p' "$root/lib/vxpeak.map" | sed -n 's/^[ \t]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' |
  sort >"$tmp/map"
# nm prints "ADDRESS TYPE NAME@@VERSION"; keep the name. Data symbols count too.
nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | grep -v '^VXPEAK_' | sort >"$tmp/nm"

status=0
compare() {
  if ! cmp -s "$tmp/exports" "$tmp/$1"; then
    echo "check-exports: lib/exports.txt and $2 differ (< exports.txt, > $2):"
    diff "$tmp/exports" "$tmp/$1" | grep '^[<>]' || true
    status=1
  fi
}
compare header "include/vxpeak.h (VXP_API declarations)"
compare map "lib/vxpeak.map (global names)"
compare nm "the symbols $lib exports"
if [ $status = 0 ]; then
  echo "check-exports: $(wc -l <"$tmp/exports") functions; header, exports.txt, vxpeak.map and $lib agree"
fi
exit $status
