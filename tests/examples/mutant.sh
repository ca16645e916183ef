#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mutant.sh CLI - the example expectations can fail: a copy of examples/llama2/decode.vx whose
# figure 42,096,994,048 (its peak at BATCH = 13 on the a100-40) is altered in its CHECK lines
# must fail tests/examples/filecheck.py, and the copy unaltered must pass.
set -u
cli=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
tmp=$(mktemp -d "$root/examples/.mutant.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cp examples/llama2/decode.vx "$tmp/decode.vx"
sed 's/42,096,994,048/42,096,994,049/g' examples/llama2/decode.vx >"$tmp/altered.vx"
if cmp -s "$tmp/decode.vx" "$tmp/altered.vx"; then
  echo "FAIL examples/mutant: decode.vx no longer states 42,096,994,048"; exit 1
fi
rel=${tmp#"$root"/}
if ! python3 tests/examples/filecheck.py "$cli" "$rel/decode.vx" >"$tmp/out" 2>&1; then
  echo "FAIL examples/mutant: the unaltered copy of decode.vx fails:"; cat "$tmp/out"; exit 1
fi
if python3 tests/examples/filecheck.py "$cli" "$rel/altered.vx" >"$tmp/out" 2>&1; then
  echo "FAIL examples/mutant: decode.vx with 42,096,994,049 for 42,096,994,048 passes its checks"; exit 1
fi
echo "examples/mutant: an altered figure fails the example's checks"
