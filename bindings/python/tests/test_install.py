# SPDX-License-Identifier: Apache-2.0
"""test_install.py - the package as installed: the library it loads, and `python -m vxpeak`
being the command itself (same output, same exit status).

`make python-test` runs this suite from the checkout against build/; `make python-wheel-test`
(wheel-test.sh, a step of .ci/run) against the wheel installed into a new virtual
environment, with VXPEAK_EXPECT_BUNDLED=1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

import vxpeak
from vxpeak import _ffi
from vxpeak.__main__ import command_path

INSTALLED = os.environ.get("VXPEAK_EXPECT_BUNDLED") == "1"


def run_module(args: List[str], cwd: Path) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run(
        [sys.executable, "-m", "vxpeak"] + args,
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


@pytest.mark.skipif(not INSTALLED, reason="only for the wheel installed by wheel-test.sh")
def test_the_installed_package_loads_its_own_library(root: Path) -> None:
    package = Path(vxpeak.__file__).resolve().parent
    assert root / "bindings" not in package.parents, "imported the checkout, not the wheel"
    assert Path(vxpeak.library_path()) == package / "_native" / _ffi.LIBRARY_NAME
    assert command_path() == package / "_native" / "vxpeak"
    assert sorted(p.name for p in (package / "fleet").glob("*.vx")) == sorted(
        p.name for p in (root / "fleet").glob("*.vx")
    )


def test_python_m_vxpeak_prints_the_report_the_library_gives(root: Path) -> None:
    program = root / "examples" / "llama2" / "prefill.vx"
    result = run_module(["check", str(program), "--format", "json"], root)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == vxpeak.check(program)


def test_python_m_vxpeak_keeps_the_commands_exit_status(root: Path, tmp_path: Path) -> None:
    rejected = run_module(["check", str(root / "examples" / "blog" / "unrolled.vx")], root)
    assert rejected.returncode == 1
    assert "error[E6010]" in rejected.stderr
    usage = run_module(["check", "--no-such-option"], tmp_path)
    assert usage.returncode == 2
    assert usage.stderr.strip()


def test_python_m_vxpeak_finds_fleet_machines_by_name(root: Path, tmp_path: Path) -> None:
    program = tmp_path / "tiny.vx"
    program.write_text(
        "fn main() -> i32 {\n"
        "  let t = transfer(Tensor<f32, [1024]>::uninit(), Memory::HBM);\n"
        # The host reads HBM only once it is back in host memory (E6003 otherwise).
        "  let h = transfer(t, Memory::CPU_DRAM);\n"
        "  print(h[0]);\n"
        "  return 0;\n"
        "}\n"
    )
    result = run_module(
        ["check", str(program), "--machine", "h100-sxm", "--host", "default"], tmp_path
    )
    assert result.returncode == 0, result.stderr
    # 4,096 bytes of H100 HBM3: the capacity is the fleet model's 80 GB.
    assert "4,096 bytes" in result.stdout
    assert "80,000,000,000" in result.stdout
