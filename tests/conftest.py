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


@pytest.fixture
def run_async() -> Any:
    """Run a coroutine to the end in an event loop of its own, in a thread of its own.

    A live kernel runs an event loop; tests of the widgets' timed play need one too.
    ``asyncio.run`` in the test's own thread fails once a Playwright browser test ran
    in this process (its sync API leaves a running loop in the main thread), so the
    loop gets a fresh thread: the result no longer depends on which tests ran before.
    """
    import asyncio
    import threading

    def run(coro: Any) -> Any:
        out: dict[str, Any] = {}

        def target() -> None:
            try:
                out["value"] = asyncio.run(coro)
            except BaseException as exc:  # re-raised in the test's thread
                out["error"] = exc

        thread = threading.Thread(target=target, name="test-event-loop")
        thread.start()
        thread.join(timeout=120)
        assert not thread.is_alive(), "the coroutine did not finish within 120 s"
        if "error" in out:
            raise out["error"]
        return out.get("value")

    return run
