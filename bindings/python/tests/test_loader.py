# SPDX-License-Identifier: Apache-2.0
"""test_loader.py - finding the library: $VXPEAK_LIBRARY (file or directory) wins, and
when nothing loads the error names every place tried and why."""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import vxpeak
from vxpeak import _ffi

PACKAGE_DIR = Path(vxpeak.__file__).resolve().parents[1]


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("VXPEAK_")}
    environ.update(env)
    environ["PYTHONPATH"] = str(PACKAGE_DIR)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, check=False
    )


def test_a_wrong_vxpeak_library_is_an_error_naming_it(tmp_path: Path) -> None:
    wrong = tmp_path / "nowhere" / "libvxpeak.so.0.1"
    result = run_python("import vxpeak; vxpeak.version()", VXPEAK_LIBRARY=str(wrong))
    assert result.returncode != 0
    assert "LibraryNotFound" in result.stderr
    assert "$VXPEAK_LIBRARY: %s (no such file)" % wrong in result.stderr
    # Nothing else was tried: the variable is the user's explicit choice.
    assert "build tree" not in result.stderr


def test_vxpeak_library_may_name_the_directory() -> None:
    directory = Path(_ffi.library_path()).resolve().parent
    result = run_python(
        "import vxpeak; print(vxpeak.library_path())", VXPEAK_LIBRARY=str(directory)
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(directory / "libvxpeak.so.0.1")


def test_every_place_tried_is_listed_with_its_reason(tmp_path: Path) -> None:
    libm = ctypes.util.find_library("m")
    places = [
        ("build tree", str(tmp_path / "build" / "libvxpeak.so.0.1"), ""),
        ("pkg-config", None, "no vxpeak.pc on PKG_CONFIG_PATH"),
        ("not libvxpeak", libm, ""),
    ]
    with pytest.raises(vxpeak.LibraryNotFound) as err:
        _ffi.load(places)
    message = str(err.value)
    assert "build tree: %s (no such file)" % (tmp_path / "build" / "libvxpeak.so.0.1") in message
    assert "pkg-config: - (no vxpeak.pc on PKG_CONFIG_PATH)" in message
    assert "not libvxpeak: %s (not libvxpeak (no vxp_version))" % libm in message
    assert len(err.value.tried) == 3
    assert isinstance(err.value, ImportError)


def test_default_search_order_without_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VXPEAK_LIBRARY", raising=False)
    monkeypatch.setenv("VXPEAK_BUILD_DIR", "/somewhere/build")
    places = [where for where, _, _ in _ffi.candidates()]
    # An installed wheel's own library comes first; a checkout has none.
    if (_ffi.bundled_dir() / _ffi.LIBRARY_NAME).exists():
        assert places.pop(0) == "bundled with the package"
    assert places[0] == "build tree"
    assert places[1] == "pkg-config"
    assert places[2] == "installed prefix %s" % sys.prefix
    assert places[-1] == "dynamic linker search"
