# SPDX-License-Identifier: Apache-2.0
"""test_examples.py - examples/python/peak.py prints exactly what its C twin
examples/c/peak.c prints (tests/examples/expected/peak-*.out), with the same exit status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
PACKAGE_DIR = Path(vxpeak.__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "case, status, args",
    [
        ("peak-loop", 0, ["examples/blog/peak_not_sum.vx"]),
        ("peak-unrolled", 1, ["examples/blog/unrolled.vx"]),
        ("peak-builtin", 0, ["tests/examples/plain.vx", "a100-40"]),
    ],
)
def test_peak_py_prints_what_peak_c_prints(case: str, status: int, args: list) -> None:
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR))
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "python" / "peak.py")] + args,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    expected = (ROOT / "tests" / "examples" / "expected" / (case + ".out")).read_text()
    assert result.stderr == ""
    assert result.stdout == expected
    assert result.returncode == status


def test_peak_py_reports_a_missing_file() -> None:
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR))
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "python" / "peak.py"), "no-such.vx"],
        cwd=ROOT, capture_output=True, text=True, env=env, check=False,
    )
    assert result.returncode == 2
    assert "no-such.vx: cannot open" in result.stderr
