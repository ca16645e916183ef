#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run-tests.sh BUILD_DIR - `make python-test`: the pytest suite of the vxpeak package
# against the shared library in BUILD_DIR. Uses $PYTHON (default python3) when it has
# pytest; otherwise installs pytest with pip into a virtual environment under BUILD_DIR
# (once). Writes nothing into the source tree (no bytecode, no pytest cache).
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "python-test: no $python; run make deps (or set PYTHON)" >&2
  exit 1
fi
if ! "$python" -c 'import pytest' 2>/dev/null; then
  venv=$build/pytest-venv
  if ! "$venv/bin/python" -c 'import pytest' 2>/dev/null; then
    echo "python-test: pytest is missing; installing it with pip into $venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet pytest
  fi
  python=$venv/bin/python
fi
soversion=$(sed -n 's/^#define VXP_SOVERSION "\(.*\)"/\1/p' "$here/../../include/vxpeak.h")
VXPEAK_LIBRARY=$build/libvxpeak.so.$soversion PYTHONPATH=$here PYTHONDONTWRITEBYTECODE=1 \
  "$python" -m pytest -q -p no:cacheprovider "$here/tests"
