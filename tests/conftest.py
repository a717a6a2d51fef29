"""Shared test setup: make tests/brute.py importable as ``brute``, and one
Chromium per session for every test that drives a browser (Playwright's sync
API allows only one instance per thread, so the browser tests and the Binder
test share it)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, started once per session."""
    sys.path.insert(0, str(Path(__file__).parent / "browser"))
    import harness

    with harness.chromium() as b:
        yield b
