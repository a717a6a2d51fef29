"""Kernels end with their page: the page (frontend/, as Voilà's own did) asks the
server to shut its kernel down when it is closed or left (a beacon to
``voila/api/shutdown/<id>``), and the kit's server must not refuse that request.
A page whose kernel died says so."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.browser import harness
from tests.browser.axe import violations

pytestmark = pytest.mark.browser

KERNEL_ID_JS = ("() => JSON.parse(document.getElementById('jupyter-config-data')"
                ".textContent).kernelId")


def _alive(base: str, kernel_id: str) -> bool:
    """Does the server still hold kernel ``kernel_id``?"""
    try:
        with urllib.request.urlopen(f"{base}api/kernels/{kernel_id}", timeout=10) as r:
            return bool(json.loads(r.read()).get("id") == kernel_id)
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return False
        raise


def kill_kernel(voila: harness.Server, kernel_id: str) -> None:
    """Kill the process of the server's kernel ``kernel_id`` (a crash, not a shutdown)."""
    import psutil

    procs = [p for p in psutil.Process(voila.proc.pid).children(recursive=True)
             if any(kernel_id in part for part in p.cmdline())]
    assert len(procs) == 1, f"kernel {kernel_id}'s process: {procs}"
    procs[0].kill()


def test_closing_ten_pages_shuts_their_ten_kernels_down(browser: Any, voila: harness.Server
                                                        ) -> None:
    """Open 10 app pages one after the other (each gets a kernel of its own),
    close each (half by closing the tab, half by leaving for another address),
    then count how many of those 10 kernels the server still holds: none."""
    ids: list[str] = []
    for k in range(10):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = harness.patient(context.new_page())
        try:
            page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, players=2))
            page.wait_for_selector(harness.READY, state="visible", timeout=90_000)
            ids.append(page.evaluate(KERNEL_ID_JS))
            assert _alive(voila.base, ids[-1])
            if k % 2:
                page.goto(voila.base + "voila/tree/notebooks")  # leave the page
            page.close(run_before_unload=True)
        finally:
            context.close()
    assert len(set(ids)) == 10
    deadline = time.monotonic() + 30
    left = ids
    while time.monotonic() < deadline:
        left = [k for k in ids if _alive(voila.base, k)]
        if not left:
            break
        time.sleep(0.5)
    refused = [line for line in voila.log().splitlines()
               if "api/shutdown" in line and " 403 " in line]
    assert not left, (f"{len(left)} of 10 kernels outlived their pages; "
                      f"shutdown refusals: {refused[:3]}")


def test_a_page_being_left_presses_no_widget(browser: Any, voila: harness.Server) -> None:
    """Voilà gives a page's kernel up at ``beforeunload`` (it disposes the
    connection): a widget the kit's script pressed after that raised "Cannot
    send" (once in a sweep of ``make test``: the page script pressed a table's
    hidden ``rummy-page-ready`` button as the page was being left).  Here the
    page is told it is being left, then its table is drawn anew: the script
    presses nothing, and the page shows no error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = harness.patient(context.new_page())
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, players=2))
        page.wait_for_selector(harness.READY, state="visible", timeout=90_000)
        page.wait_for_selector(".rummy-root[data-rummy-shown]", state="attached")
        page.evaluate("""() => {
          window.dispatchEvent(new Event('beforeunload'));  // what leaving the page does
          const table = document.querySelector('.rummy-root');
          delete table.dataset.rummyShown;  // as if the table had just been drawn
          table.classList.add('rummy-drawn-again');  // the script looks again
        }""")
        page.wait_for_timeout(1_000)
        assert errors == [], errors
        assert page.evaluate("() => window.rummyLeaving") is True
    finally:
        context.close()


def test_a_page_whose_kernel_died_says_so(browser: Any, voila: harness.Server) -> None:
    """The kernel behind a page dies while the page is open (its process killed,
    as by the machine running out of memory): the server starts it again empty,
    the table's widgets gone.  The page says so in a sentence a learner can act
    on, announced (role=alert), within seconds."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = harness.patient(context.new_page())
    try:
        page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, players=2))
        page.wait_for_selector(harness.READY, state="visible", timeout=90_000)
        kernel_id = page.evaluate(KERNEL_ID_JS)
        assert page.locator("#rummy-kernel-notice").count() == 0
        kill_kernel(voila, kernel_id)
        notice = page.locator("#rummy-kernel-notice")
        notice.wait_for(state="visible", timeout=30_000)
        assert notice.get_attribute("role") == "alert"
        # the learner has not moved yet: nothing of theirs is kept, and the notice says so
        words = notice.inner_text()
        assert "reload the page to start a new one" in words, words
        assert "Continue this game" not in words, words
        # in view wherever the learner has scrolled, and readable
        page.mouse.wheel(0, 2000)
        box = notice.bounding_box()
        assert box is not None and 0 <= box["y"] < 900, box
        found = violations(page, ["#rummy-kernel-notice"])
        assert not [v for v in found if v["impact"] in ("serious", "critical")], found
    finally:
        context.close()


#: every WebSocket the page opens, kept; while window.rummyBlockSockets is set, a new
#: one fails at once (the server can't be reached)
SOCKETS_JS = """
(() => {
  const Real = window.WebSocket;
  window.rummySockets = [];
  window.WebSocket = function (url, protocols) {
    const ws = new Real(window.rummyBlockSockets ? "ws://127.0.0.1:9/" : url, protocols);
    window.rummySockets.push(ws);
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""


def test_a_dropped_connection_says_reconnecting_and_takes_no_taps(browser: Any,
                                                                   voila: harness.Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(SOCKETS_JS)
    page = harness.patient(context.new_page())
    hand = ".rummy-hand button.rummy-card"
    try:
        page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, players=2, seed=11))
        page.wait_for_selector(".rummy-status.rummy-your-turn", timeout=90_000)
        page.wait_for_timeout(500)
        page.evaluate("() => { window.rummyBlockSockets = true; "
                      "window.rummySockets.forEach(s => s.close()); }")
        notice = page.locator("#rummy-kernel-notice")
        notice.wait_for(state="visible", timeout=30_000)
        assert "Reconnecting" in notice.inner_text()
        assert page.evaluate("() => document.getElementById('rendered_cells').inert")
        page.locator("button.rummy-stock").click(force=True)  # a tap while it is down
        page.wait_for_timeout(1_500)
        page.evaluate("() => { window.rummyBlockSockets = false; }")
        page.wait_for_selector("#rummy-kernel-notice", state="detached", timeout=60_000)
        assert not page.evaluate("() => document.getElementById('rendered_cells').inert")
        page.wait_for_timeout(1_000)
        assert page.locator(hand).count() == 3, "the tap made while offline landed later"
        page.locator("button.rummy-stock").click()
        page.wait_for_function(f"() => document.querySelectorAll('{hand}').length === 4")
    finally:
        context.close()


def test_a_page_whose_kernel_died_offers_to_continue_the_game(browser: Any,
                                                               voila: harness.Server) -> None:
    """The kernel behind a game dies; the page, opened again, gets a new kernel
    and offers "Continue this game", which puts the same hand and the same
    moves back on the table (the game was kept after every move; the page kept
    only a token naming it)."""
    hand = ".rummy-hand button.rummy-card"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = harness.patient(context.new_page())
    try:
        watch = harness.Watch(page)
        url = harness.app_url(voila.base, "three_thirteen", speed=0, players=2)
        page.goto(url)
        page.wait_for_selector(harness.READY, state="visible", timeout=90_000)
        watch.settle()
        watch.click("button.rummy-stock")
        watch.click(f"{hand} >> nth=0")
        watch.click("button.rummy-discard")
        watch.settle()
        page.wait_for_function("() => !!window.localStorage.getItem('rummy-game:three_thirteen')",
                               timeout=30_000)
        before = [b.get_attribute("aria-label") or b.inner_text()
                  for b in page.locator(hand).all()]
        log_before = page.locator(".rummy-log").inner_text()
        assert before and log_before
        kernel_id = page.evaluate(KERNEL_ID_JS)
        kill_kernel(voila, kernel_id)
        notice = page.locator("#rummy-kernel-notice")
        notice.wait_for(state="visible", timeout=30_000)
        # the game is kept: the notice says what a reload offers
        assert "press \u201cContinue this game\u201d" in notice.inner_text(), notice.inner_text()
        page.goto(url)
        page.wait_for_selector(harness.READY, state="visible", timeout=90_000)
        assert page.evaluate(KERNEL_ID_JS) != kernel_id
        go_on = page.get_by_role("button", name="Continue this game")
        go_on.wait_for(state="visible", timeout=30_000)
        found = violations(page)
        assert not [v for v in found if v["impact"] in ("serious", "critical")], found
        go_on.click()
        page.get_by_text("Your game goes on where it was.").wait_for(timeout=30_000)
        after = [b.get_attribute("aria-label") or b.inner_text()
                 for b in page.locator(hand).all()]
        assert after == before
        assert page.locator(".rummy-log").inner_text().endswith(log_before.strip()[-200:])
        assert go_on.is_hidden()
    finally:
        context.close()
