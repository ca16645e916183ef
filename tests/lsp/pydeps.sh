#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# pydeps.sh - print a Python that has pytest-lsp (the end-to-end client of tests/lsp/):
# $PYTHON or python3 when it has it, otherwise the project's one tool environment,
# bindings/python/dev-venv.sh (whose requirements-dev.txt lists pytest-lsp), made once.
# Used by `make deps` and tests/lsp/run.sh. Exit status 1 when it cannot be installed.
set -eu
python=${PYTHON:-python3}
if "$python" -c 'import pytest_lsp' 2>/dev/null; then
  echo "$python"
  exit 0
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=$(sh "$root/bindings/python/dev-venv.sh") ||
  { echo "lsp: the tool environment (bindings/python/dev-venv.sh) could not be made" >&2; exit 1; }
"$venv/bin/python" -c 'import pytest_lsp' 2>/dev/null ||
  { echo "lsp: pytest-lsp is missing from $venv" >&2; exit 1; }
echo "$venv/bin/python"
