"""What every test shares: the session's setup and the fixtures.

Set up here, for the whole session: a data folder of the session's own
(``$RUMMY_DATA``, which the servers the tests start inherit unless given
theirs), so that no test reads or writes the user's; the Hypothesis
profiles (``HYPOTHESIS_PROFILE``: "ci" or "explore").

Fixtures here (the browser tests add theirs in ``tests/browser/conftest.py``):

- :func:`browser`: one Chromium per session for every test that drives a
  browser (Playwright's sync API allows only one instance per thread, so the
  browser tests and the Binder test share it);
- :func:`own_data`: a test's own data folder and a fresh record of learning;
- :func:`server` (the table API alone) and :func:`api` (its address);
- :func:`run_async`: a coroutine run in an event loop and thread of its own.

Code the tests share that is not a fixture lives in helper modules, never in
a test module (``tests/test_suite_shape.py`` checks it), each imported
through the ``tests`` package (``from tests.browser import harness``):

- ``tests/servers.py``: every test server (table API, hub service, demo hub);
- ``tests/brute.py``: brute-force answers to meld questions;
- ``tests/positions.py``: game positions set up by hand;
- ``tests/table_play.py``: the game tables driven by their own buttons, the
  state a view sends to the page, and the check that no hidden card reaches it;
- ``tests/nbval_kernels.py``: the plugin of the notebook run;
- ``tests/browser/harness.py``: Voilà, JupyterLab and Chromium for the
  browser tests (also used by ``benchmarks/ui.py`` and ``scripts/screenshots.py``);
- ``tests/browser/pages.py``: the apps' pages, a replica of their tables, clicks;
- ``tests/browser/axe.py``: the accessibility check (axe-core);
- ``tests/browser/classroom.py``: learners' pages at a shared table;
- ``tests/browser/seeded_voila.py``: the kit's Voilà server dealing the tests'
  seeds (a script ``harness.start_voila`` runs).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from rummy import progress
from tests.servers import TableServer

os.environ["RUMMY_DATA"] = tempfile.mkdtemp(prefix="rummy-tests-")

# Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (default "ci").
#
# - "ci" (``make test``, ``.ci/run``): derandomized, so a commit gives the same
#   examples, and so the same result, on every machine and every run; no example
#   database is written into the clone.
# - "explore" (``make test-explore``): random seeds and RUMMY_EXPLORE_FACTOR (20)
#   times each test's usual number of examples; a failure prints the
#   ``@reproduce_failure`` blob, and the make target prints the seed it ran with.
#   Each real failure it finds becomes an ``@example`` in its test.
_QUIET = [HealthCheck.too_slow]  # a clock's verdict, not the test's (see below)
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, deadline=None,
                          suppress_health_check=_QUIET)
settings.register_profile("explore", derandomize=False, database=None, print_blob=True,
                          deadline=None, suppress_health_check=_QUIET)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "explore"):
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE={PROFILE!r}: use 'ci' (the default) or 'explore'")
settings.load_profile(PROFILE)


#: How long a browser test may take.  It waits for servers, kernels and pages,
#: on a machine that runs the browser tests two at a time (``make browser``):
#: the slowest take 20 to 60 s there, and their own waits (for a page, a kernel,
#: a server) are bounded and say what they waited for.
BROWSER_TIMEOUT = 240


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every browser test may take :data:`BROWSER_TIMEOUT` seconds (the default
    of 60 is for the rest).  Every property test: the health check that times example generation
    (``too_slow``) is off, since on a loaded machine it fails by the clock, not by
    the test (the checks of what is drawn stay on).  Under the "explore" profile
    each also runs RUMMY_EXPLORE_FACTOR times its own ``max_examples`` (a test's
    ``@settings`` would otherwise keep its usual count: explicit settings win
    over a profile's)."""
    factor = int(os.environ.get("RUMMY_EXPLORE_FACTOR", "20")) if PROFILE == "explore" else 1
    done: set[int] = set()  # a parametrized test's items share one function
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(BROWSER_TIMEOUT))
        test = getattr(item, "obj", None)
        if not getattr(test, "is_hypothesis_test", False) or id(test) in done:
            continue
        done.add(id(test))
        own = test._hypothesis_internal_use_settings
        test._hypothesis_internal_use_settings = settings(
            own, max_examples=own.max_examples * factor,
            suppress_health_check=[*own.suppress_health_check, HealthCheck.too_slow])


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, started once per session."""
    from tests.browser import harness

    with harness.chromium() as b:
        yield b


@pytest.fixture
def run_async() -> Any:
    """Run a coroutine to the end in an event loop of its own, in a thread of its own.

    A live kernel runs an event loop; tests of the widgets' timed play need one too.
    ``asyncio.run`` in the test's own thread fails once a Playwright browser test ran
    in this process (its sync API leaves a running loop in the main thread), so the
    loop gets a fresh thread, so that the result does not depend on which tests ran before.
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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TableServer]:
    """The table API alone (``python -m tableserver``), its tables in this
    test's folder (``tests/servers.py``)."""
    s = TableServer(tmp_path)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def api(server: TableServer) -> str:
    """The address of :func:`server`'s API, as a kernel is told it (``RUMMY_API``)."""
    return server.api


@pytest.fixture
def own_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """This test's own data folder (``$RUMMY_DATA``, yielded) with nobody named
    as the learner, and the record of learning's state in this process fresh:
    no learner, no event waiting for a name, no record open, no listener, the
    wall clock (and the widgets' "who is learning" box, if they are loaded)."""
    data = tmp_path / "data"
    monkeypatch.setenv("RUMMY_DATA", str(data))
    for name in ("RUMMY_LEARNER", "JUPYTERHUB_USER", "QUERY_STRING"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(progress, "_learner", None)
    monkeypatch.setattr(progress, "_pending", [])
    monkeypatch.setattr(progress, "_records", {})
    monkeypatch.setattr(progress, "_listeners", [])
    monkeypatch.setattr(progress, "_event_listeners", [])
    shown = sys.modules.get("widgets.progress")
    if shown is not None:
        monkeypatch.setattr(shown, "_who", None)
    try:
        yield data
    finally:
        progress.set_clock(None)
