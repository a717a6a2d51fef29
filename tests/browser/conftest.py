"""Fixtures of the browser tests: one Voilà server per session (the session's
Chromium, ``browser``, comes from tests/conftest.py), a fresh page per test
that fails the test if Python shows a traceback, and a failed test's report
with what the servers printed.  The code the browser tests share is in the
helper modules beside this file (``harness``, ``pages``, ``axe``,
``classroom``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import harness


@pytest.fixture(scope="session")
def voila() -> Iterator[harness.Server]:
    """Voilà serving the repository as `make app` does, with tracebacks shown
    (so that a failure can't hide behind Voilà's generic message)."""
    with harness.start_voila(extra_args=["--show_tracebacks=True"]) as server:
        yield server


@pytest.fixture()
def page(browser: Any, voila: harness.Server) -> Iterator[Any]:
    """A page in a fresh browser context; after the test, neither the page nor
    the server log may show a Python traceback."""
    before = len(voila.tracebacks())
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = harness.patient(context.new_page())
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
        shown = harness.page_tracebacks(page)
        assert not shown, f"the page shows a Python traceback: {shown}"
        logged = voila.tracebacks()[before:]
        assert not logged, "a kernel printed a traceback:\n" + voila.log()[-4000:]
        assert not errors, f"JavaScript errors on the page: {errors}"
    finally:
        context.close()


_SERVERS_BEFORE = pytest.StashKey[int]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    """A failed browser test's report ends with the last lines of what each server
    it could have used printed (the servers still running, and those started
    during the test): a page that never loaded or a kernel that failed says why."""
    if call.when == "setup":
        item.stash[_SERVERS_BEFORE] = len(harness.STARTED)
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        before = item.stash.get(_SERVERS_BEFORE, 0)
        for i, server in enumerate(harness.STARTED):
            if i >= before or server.proc.poll() is None:
                with contextlib.suppress(OSError, ValueError):
                    tail = server.log()[-6000:]
                    report.sections.append((f"server log: {server.base}", tail))
