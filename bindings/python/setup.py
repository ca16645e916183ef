# SPDX-License-Identifier: Apache-2.0
"""setup.py - builds libvxpeak from this repository's C sources and ships it in the wheel.

`pip install ./bindings/python` (or `python -m build`) runs the repository's own Makefile,
the one build definition of the library, into a private build directory, and copies into
the package:

- ``vxpeak/_native/libvxpeak.so.<SOVERSION>``: the shared library the ctypes layer loads
  first (``_ffi.candidates``);
- ``vxpeak/_native/vxpeak``: the command, which ``python -m vxpeak`` runs;
- ``vxpeak/fleet/*.vx``: the machine models, found by the command through ``$VXPEAK_FLEET``.

Where the C sources come from: a checkout (this file's ``../..``), or, inside an sdist made
by ``python -m build``, the copy the sdist command below lays under ``native-src/``. The
build needs what the repository's ``make deps`` installs (a C compiler, make, pkg-config,
the tree-sitter and jansson development packages); a missing one fails the build with
make's own message.

``VXPEAK_SYSTEM_LIBRARY=1`` builds the pure-Python package instead, with no library inside:
it then loads the libvxpeak installed on the system (``make install``; found through
pkg-config), as ``make install-test`` checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import List

from setuptools import Command, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
#: What of the repository the native build reads (the Makefile's inputs).
#: Set to 1: package the Python code only and use the system's libvxpeak.
SYSTEM_LIBRARY = os.environ.get("VXPEAK_SYSTEM_LIBRARY") == "1"
#: Every front end under bindings/ is taken (the command links them), but this package.
NATIVE_PATHS = ["Makefile", "LICENSE", "include", "lib", "grammar/src", "fleet", "bindings"]


def native_root() -> Path:
    """The directory holding the repository's Makefile and C sources."""
    for candidate in (HERE / "native-src", HERE.parent.parent):
        if (candidate / "Makefile").is_file() and (candidate / "lib").is_dir():
            return candidate
    raise SystemExit(
        "vxpeak: cannot find libvxpeak's C sources: build from a libvxpeak checkout "
        "(pip install ./bindings/python) or from the sdist that `python -m build` makes"
    )


def soversion(root: Path) -> str:
    for line in (root / "include" / "vxpeak.h").read_text().splitlines():
        if line.startswith("#define VXP_SOVERSION "):
            return line.split('"')[1]
    raise SystemExit("vxpeak: include/vxpeak.h has no VXP_SOVERSION")


class BuildNative(Command):
    """Run the repository's Makefile (library and command) into build_temp."""

    description = "build libvxpeak and the vxpeak command with the repository's Makefile"
    user_options: List[tuple] = []

    def initialize_options(self) -> None:
        self.build_temp = None

    def finalize_options(self) -> None:
        self.set_undefined_options("build", ("build_temp", "build_temp"))

    def run(self) -> None:
        root = native_root()
        out = Path(self.build_temp).resolve() / "libvxpeak"
        jobs = str(max(1, min(os.cpu_count() or 1, 8)))
        # FLEETDIR: the command's installed-fleet directory is the package's own fleet/,
        # which python -m vxpeak also names through $VXPEAK_FLEET.
        self.spawn(["make", "-C", str(root), "-j" + jobs, "BUILD=" + str(out),
                    "FLEETDIR=/nonexistent-vxpeak-fleet", "shared",
                    str(out / "install" / "vxpeak")])
        self.native_out = out


class BuildPy(build_py):
    """build_py, plus the native library, the command and the fleet inside the package."""

    def run(self) -> None:
        super().run()
        if SYSTEM_LIBRARY:
            return
        self.run_command("build_native")
        native = self.get_finalized_command("build_native")
        root = native_root()
        so = "libvxpeak.so." + soversion(root)
        package = Path(self.build_lib) / "vxpeak"
        dest = package / "_native"
        dest.mkdir(parents=True, exist_ok=True)
        # The real file behind build/libvxpeak.so.<SOVERSION> (a symbolic link).
        shutil.copyfile(os.path.realpath(native.native_out / so), dest / so)
        shutil.copyfile(native.native_out / "install" / "vxpeak", dest / "vxpeak")
        os.chmod(dest / "vxpeak", 0o755)
        fleet = package / "fleet"
        fleet.mkdir(exist_ok=True)
        for model in sorted((root / "fleet").glob("*.vx")) + [root / "fleet" / "README.md"]:
            shutil.copyfile(model, fleet / model.name)


class Sdist(sdist):
    """An sdist that carries the C sources, so that it builds away from the checkout."""

    def make_release_tree(self, base_dir: str, files: List[str]) -> None:
        super().make_release_tree(base_dir, files)
        root = native_root()
        target = Path(base_dir) / "native-src"
        for rel in NATIVE_PATHS:
            src = root / rel
            if src.is_dir():
                skip = shutil.ignore_patterns("__pycache__", "python")
                shutil.copytree(src, target / rel, ignore=skip)
            else:
                (target / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, target / rel)


class BinaryDistribution(Distribution):
    """The wheel holds a native library: tag it for this platform, not py3-none-any."""

    def has_ext_modules(self) -> bool:
        return not SYSTEM_LIBRARY


setup(
    distclass=BinaryDistribution,
    cmdclass={"build_native": BuildNative, "build_py": BuildPy, "sdist": Sdist},
)
