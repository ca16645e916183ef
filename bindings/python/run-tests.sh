#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run-tests.sh BUILD_DIR - `make python-test`: the package type-checked with mypy --strict,
# then its pytest suite from this checkout against the shared library in BUILD_DIR. The
# tools come from the virtual environment of dev-venv.sh. Writes nothing into the source
# tree (no bytecode, no pytest or mypy cache).
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
venv=$(sh "$here/dev-venv.sh")
echo "python: mypy --strict bindings/python/vxpeak"
(cd "$here" && MYPY_CACHE_DIR="$build/mypy-cache" "$venv/bin/python" -m mypy --strict \
  --config-file "$here/pyproject.toml" vxpeak)
soversion=$(sed -n 's/^#define VXP_SOVERSION "\(.*\)"/\1/p' "$here/../../include/vxpeak.h")
VXPEAK_LIBRARY=$build/libvxpeak.so.$soversion VXPEAK_BUILD_DIR=$build PYTHONPATH=$here \
  PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider "$here/tests"
