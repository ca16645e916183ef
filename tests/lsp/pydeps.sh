#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# pydeps.sh - print a Python that has pytest-lsp (the end-to-end client of tests/lsp/):
# $PYTHON or python3 when it has it, otherwise the one of a virtual environment
# (${VXPEAK_LSP_VENV:-$HOME/.cache/vxpeak/lsp-venv}), made and filled with pip once.
# Used by `make deps` and tests/lsp/run.sh. Exit status 1 when it cannot be installed.
set -eu
python=${PYTHON:-python3}
if "$python" -c 'import pytest_lsp' 2>/dev/null; then
  echo "$python"
  exit 0
fi
venv=${VXPEAK_LSP_VENV:-$HOME/.cache/vxpeak/lsp-venv}
if ! "$venv/bin/python" -c 'import pytest_lsp' 2>/dev/null; then
  echo "lsp: installing pytest-lsp with pip into $venv" >&2
  "$python" -m venv "$venv" >&2 &&
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pytest-lsp >&2 ||
    { echo "lsp: pytest-lsp could not be installed into $venv" >&2; exit 1; }
fi
echo "$venv/bin/python"
