# SPDX-License-Identifier: Apache-2.0
"""python -m vxpeak: the vxpeak command, exactly.

The wheel carries the command built from the same sources as the library
(``vxpeak/_native/vxpeak``); this module runs it with the arguments given, so every
subcommand, option, output and exit status is the command's own: there is no second
implementation to drift. The machine models shipped in the package (``vxpeak/fleet``) are
named to it through ``$VXPEAK_FLEET`` unless the caller set that variable.

Imported from a checkout (no bundled command), it runs the checkout's ``build/vxpeak``
(``$VXPEAK_BUILD_DIR`` names another build directory).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from . import _ffi


class CommandNotFound(RuntimeError):
    """Neither a bundled command nor a build tree's command exists."""


def command_path() -> Path:
    """The vxpeak command this package runs (bundled first, then the build tree)."""
    tried: List[str] = []
    bundled = _ffi.bundled_dir() / "vxpeak"
    build = _ffi.package_build_dir()
    for path in [bundled] + ([build / "vxpeak"] if build is not None else []):
        if os.access(path, os.X_OK):
            return path
        tried.append(str(path))
    raise CommandNotFound(
        "no vxpeak command; tried: %s (install the package with pip, or run make in the "
        "checkout)" % ", ".join(tried)
    )


def fleet_dir() -> Optional[Path]:
    """The machine models shipped with the package, when it was installed from a wheel."""
    fleet = Path(__file__).resolve().parent / "fleet"
    return fleet if fleet.is_dir() else None


def command_environment() -> Dict[str, str]:
    env = dict(os.environ)
    fleet = fleet_dir()
    if fleet is not None and "VXPEAK_FLEET" not in env:
        env["VXPEAK_FLEET"] = str(fleet)
    return env


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Replace this process with the command (its exit status is the command's)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        path = command_path()
    except CommandNotFound as err:
        print("vxpeak: %s" % err, file=sys.stderr)
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(str(path), ["vxpeak"] + args, command_environment())
    return 2  # not reached: execve returns only by raising


if __name__ == "__main__":
    sys.exit(main())
