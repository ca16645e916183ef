# SPDX-License-Identifier: Apache-2.0
"""conftest.py - shared fixtures: the checkout's root and a fresh context per test."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

import vxpeak

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def ctx() -> Iterator[vxpeak.Context]:
    with vxpeak.Context() as context:
        yield context
