# SPDX-License-Identifier: Apache-2.0
"""Shared set-up of the language-server tests: where the command is, and the example
programs they open."""
import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
VXPEAK = os.environ.get("VXPEAK", str(ROOT / "build" / "vxpeak"))
LLAMA = ROOT / "examples" / "llama2" / "prefill.vx"
CALL_PATH = ROOT / "tests" / "golden" / "calltree-holds-across-call" / "program.vx"
