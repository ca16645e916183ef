#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# dev-venv.sh - print the path of a virtual environment holding requirements-dev.txt,
# making or updating it first when the requirements changed (a stamp holds their hash).
# Where: $VXPEAK_PY_VENV, default $HOME/.cache/vxpeak/py-dev-venv (kept between builds
# and checkouts: installing from the package registry takes about a minute).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
venv=${VXPEAK_PY_VENV:-$HOME/.cache/vxpeak/py-dev-venv}
want=$(cat "$here/requirements-dev.txt" | cksum | cut -d' ' -f1)
if [ "$(cat "$venv/.vxpeak-requirements" 2>/dev/null || true)" != "$want" ] ||
  ! "$venv/bin/python" -c 'import pytest' 2>/dev/null; then
  echo "python: installing requirements-dev.txt into $venv" >&2
  "$python" -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$here/requirements-dev.txt" >&2
  echo "$want" >"$venv/.vxpeak-requirements"
fi
echo "$venv"
