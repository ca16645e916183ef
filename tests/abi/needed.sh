#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# needed.sh SHARED_LIBRARY - the shared library depends on tree-sitter and not on jansson.
#
# The library makes no jansson calls (its JSON is streamed by lib/report/jsonw.c); only the
# command's language server and the tests use jansson. The library is linked with
# --no-as-needed, so its NEEDED entries are exactly the libraries its link line names: a
# jansson left on that line (or in vxpeak.pc's Requires.private) fails here.
set -eu
export LC_ALL=C
lib=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
status=0
case "$needed" in
*libjansson*)
  echo "check-needed: $lib has a NEEDED entry for jansson:" $needed
  status=1
  ;;
esac
case "$needed" in
*libtree-sitter*) ;;
*)
  echo "check-needed: $lib has no NEEDED entry for tree-sitter:" $needed
  status=1
  ;;
esac
if grep -q '^Requires.*jansson' "$root/lib/vxpeak.pc.in"; then
  echo "check-needed: lib/vxpeak.pc.in still requires jansson"
  status=1
fi
if [ $status = 0 ]; then
  echo "check-needed: $lib needs" $needed "(no jansson)"
fi
exit $status
