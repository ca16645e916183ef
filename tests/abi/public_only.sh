#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# public_only.sh OBJECT... - the clients of the library (the vxpeak command, the examples)
# use nothing but include/vxpeak.h. The language server (bindings/lsp/) may also include
# its own lsp.h and jansson's header (its messages are JSON), never tree-sitter's; so may the
# command's config.json and safetensors readers (bindings/cli/model.c and safetensors.c,
# `vxpeak model`).
#
# Two checks: their sources include no private header (quoted includes may name only
# vxpeak.h and the command's own cli.h; no tree-sitter or jansson header; the build also
# compiles them with -Iinclude and no -Ilib), and every library function their objects
# call is in lib/exports.txt. The second catches a private `vxp_module__helper` reached
# through the static library, which hidden visibility does not prevent.
set -eu
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
status=0
for f in "$root"/bindings/cli/*.[ch] "$root"/examples/c/*.c; do
  [ -f "$f" ] || continue
  json='^$'
  case $f in "$root"/bindings/cli/model.c | "$root"/bindings/cli/safetensors.c) json='#[[:space:]]*include[[:space:]]*<jansson\.h>';; esac
  bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$f" |
    grep -vE '#[[:space:]]*include[[:space:]]*"(vxpeak|cli)\.h"' | grep -vE "$json" |
    grep -E '"|<(tree_sitter|jansson)' || true)
  if [ -n "$bad" ]; then
    echo "public-only: ${f#"$root"/} includes a private header:"
    echo "$bad"
    status=1
  fi
done
for f in "$root"/bindings/lsp/*.[ch]; do
  [ -f "$f" ] || continue
  bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$f" |
    grep -vE '#[[:space:]]*include[[:space:]]*("(vxpeak|lsp)\.h"|<jansson\.h>)' |
    grep -E '"|<tree_sitter' || true)
  if [ -n "$bad" ]; then
    echo "public-only: ${f#"$root"/} includes a private header:"
    echo "$bad"
    status=1
  fi
done
if [ $# -gt 0 ]; then
  private=$(nm -u "$@" | awk '$NF ~ /^vxp_/ {print $NF}' | sort -u | comm -23 - "$root/lib/exports.txt")
  if [ -n "$private" ]; then
    echo "public-only: $* call functions that are not exported:"
    echo "$private"
    status=1
  fi
fi
[ $status = 0 ] && echo "public-only: the command, the language server and the examples use only include/vxpeak.h ($# objects)"
exit $status
