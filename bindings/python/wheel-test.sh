#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# wheel-test.sh BUILD_DIR - the package as a user gets it: `python -m build` makes the sdist
# and, from the sdist alone, the wheel (libvxpeak and the command compiled from the sources
# the sdist carries); `auditwheel show` says what the wheel's native code needs from the
# system; the wheel is installed into a new, empty virtual environment, and the pytest
# suite runs against that installed package (from a directory outside the checkout, with no
# VXPEAK_* variable, so nothing of the checkout can be imported or loaded).
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
venv=$(sh "$here/dev-venv.sh")
dist=$build/python-dist
rm -rf "$dist" "$build/wheel-venv"
echo "python: python -m build (sdist, then the wheel from the sdist) into $dist"
"$venv/bin/python" -m build --outdir "$dist" "$here" >"$build/python-build.log" 2>&1 || {
  tail -40 "$build/python-build.log"; exit 1; }
# The in-tree build leaves setuptools' folders beside setup.py; they are not ours to keep.
rm -rf "$here/build" "$here/vxpeak.egg-info"
wheel=$(ls "$dist"/vxpeak-*.whl)
echo "python: auditwheel show $(basename "$wheel")"
"$venv/bin/auditwheel" show "$wheel" || true
"${PYTHON:-python3}" -m venv "$build/wheel-venv"
"$build/wheel-venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "$wheel[test]"
unset VXPEAK_LIBRARY VXPEAK_BUILD_DIR VXPEAK_FLEET || true
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
VXPEAK_EXPECT_BUNDLED=1 PYTHONDONTWRITEBYTECODE=1 "$build/wheel-venv/bin/python" -m pytest \
  -q -p no:cacheprovider --rootdir "$here" "$here/tests"
