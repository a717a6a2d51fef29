"""A class at a shared table in the browser tests: learners' pages and the
table API as each page may read it.

A helper module of the browser tests (not a test module):

- :class:`Learner`: a learner's page, joined to a table by its address, and
  the seat's view read from the API with the page's own token
  (:func:`wait_token`, :func:`api_get`);
- :func:`play_one_move`: every learner with something to do does it by
  clicking;
- :func:`table_cards`: the cards of a view that every seat sees alike;
- :data:`KEY`, :data:`NAMES`, :data:`DEAL`: the teacher key, the learners'
  names and the seeded deal of the classroom tests' servers.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import pytest

from rummy import Action
from rummy.bots import make_bot
from tableserver.wire import decode_observation
from tests.browser import harness
from tests.browser.harness import Watch
from tests.browser.pages import HAND, LOG_CARD, click_action, page_hand

#: The learners' names.
NAMES = ("Ana", "Ben", "Cleo")
#: The teacher key the test servers are given (RUMMY_TEACHER_KEY).
KEY = "teacher-key-of-the-browser-tests-0123"
#: The table's seed (harness.start_voila's ``seeds``): every run plays the same
#: deal, so that a failure can be played again (the kit deals from secrets).
DEAL = 1


def api_get(base: str, path: str, token: str) -> dict[str, Any]:
    """GET the table API's ``path`` on the server at ``base`` with ``token`` (a seat's
    token or the teacher key)."""
    req = urllib.request.Request(base + "rummy/api" + path, headers={
        "X-Rummy-Token": token, "X-Rummy-Teacher-Key": token})
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def wait_token(page: Any, code: str, timeout: float = 60.0) -> str:
    """The seat token the page keeps in its local storage (never in its address)."""
    key = "rummy-seat-" + re.sub(r"[^0-9A-Z]", "", code.upper())
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        token = str(page.evaluate(
            "k => (JSON.parse(window.localStorage.getItem(k) || '{}') || {}).token || ''", key))
        if token:
            assert token not in page.url, "the seat's token is in the page's address"
            return token
        page.wait_for_timeout(200)
    raise AssertionError(f"the page did not keep its seat's token: {page.url}")


class Learner:
    """A learner's page in a browser context of its own (its own local storage),
    joined to the table ``code`` with the app's ``?table=CODE&name=...``; what
    the seat may see is read from the API with the page's own token."""

    def __init__(self, browser: Any, base: str, code: str, name: str,
                 app: str = "big_table", wait_until: str = "load") -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = harness.patient(self.context.new_page(), 60_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.name = name
        self.watch = Watch(self.page)
        self.base = base
        self.code = code
        self.token = ""
        self.opened = time.monotonic()
        self.page.goto(harness.app_url(base, app, table=code, name=name), wait_until=wait_until)
        #: every card the service showed this seat at any reading: its hands,
        #: its log and the table (``table_seen``: what every seat sees alike)
        self.seen: set[str] = set()
        self.table_seen: set[str] = set()

    def ready(self) -> None:
        """Until the page shows its table and keeps its seat's token."""
        try:
            self.page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
        except Exception as exc:  # say what the page shows instead (a sweep run failed here)
            raise AssertionError(f"{self.name}'s page shows no table after 120 s; it shows "
                                 f"{harness.page_text(self.page)[:2000]!r}") from exc
        self.token = wait_token(self.page, self.code)
        self.watch.settle()

    def view(self) -> dict[str, Any]:
        """The seat's view from the API; remembers every card it shows."""
        view = api_get(self.base, table_path(self.code, "state"), self.token)
        table = table_cards(view)
        self.seen |= set(view.get("hand", [])) | table | set(
            LOG_CARD.findall("\n".join(view.get("log", []))))  # the cards its log names
        self.table_seen |= table
        return view

    def reload(self) -> None:
        """Reload the page and wait until it is ready again."""
        self.watch = Watch(self.page)
        self.page.reload()
        self.ready()

    def page_hand(self) -> list[str]:
        """The hand the page shows, in the engine's notation, sorted."""
        return page_hand(self.page)

    def wait_hand(self, timeout: float = 30.0) -> list[str]:
        """Until the page shows the hand the service says this seat holds."""
        deadline = time.monotonic() + timeout
        want: list[str] = []
        while time.monotonic() < deadline:
            want = sorted(self.view()["hand"])
            if self.page_hand() == want:
                return want
            self.page.wait_for_timeout(200)
        raise AssertionError(f"{self.name}'s page shows {self.page_hand()}, "
                             f"the seat holds {want}")

    def next_hand(self, timeout: float = 30.0) -> None:
        """After the teacher started the next hand: when the page shows the
        last hand's review, press Next hand under it (the page keeps its
        controls off until then); a page that met the new hand at once
        shows it.  Until the page shows the hand the service deals."""
        button = self.page.locator("button.rummy-next-round").first
        status = self.page.locator(".rummy-status").first
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if button.is_visible():
                self.watch.click("button.rummy-next-round")
                self.wait_hand()
                return
            if ("review" not in status.inner_text()
                    and self.page_hand() == sorted(self.view()["hand"])):
                return
            self.page.wait_for_timeout(200)
        raise AssertionError(f"{self.name}'s page neither shows the review nor the new hand; "
                             f"it says {status.inner_text()!r}")


def table_path(code: str, what: str) -> str:
    """The API's path of the table ``code``'s ``what`` (``state``, ``moves`` ...)."""
    return f"/tables/{code}/{what}"


def table_cards(view: dict[str, Any]) -> set[str]:
    """The cards of a view that every seat sees alike: the piles, what was
    taken and discarded in the open, melds laid down and the last hand's
    review, with the card each wild in them stands for (a page tags a wild
    3♦ standing for the two of clubs "=2♣": the tag names no card anybody
    holds, but a learner may hold a real 2♣ of one of the other three packs).

    >>> review = {"melds": [{"cards": ["2d", "2h", "3d"], "represents": ["2d", "2h", "2c"]}],
    ...           "deadwood": ["Kc"]}
    >>> sorted(table_cards({"last_hand": [[0, review, 10]]}))
    ['2c', '2d', '2h', '3d', 'Kc']
    """
    seen: set[str] = set()
    for group in ("piles", "taken", "discarded"):
        for pile in view.get(group, []):
            seen |= set(pile)
    arrangements = [arr for _seat, arr in view.get("open_melds", [])]
    arrangements += [arr for _seat, arr, _pts in view.get("last_hand", [])]
    for arr in arrangements:
        for m in arr["melds"]:
            seen |= set(m["cards"]) | set(m.get("represents", []))
        seen |= set(arr["deadwood"])
    return seen


def play_one_move(learners: list[Learner]) -> bool:
    """Each learner with something to do does it by clicking; answers whether
    anybody moved."""
    moved = False
    for x in learners:
        view = x.view()
        if view["status"] != "playing" or not view.get("legal_actions"):
            continue
        x.wait_hand()  # the page shows what the service says before the learner clicks
        legal = [Action.parse(a) for a in view["legal_actions"]]
        action = make_bot("greedy", seed=1).choose(decode_observation(view))
        control = {"call match": "button.rummy-match", "play on": "button.rummy-play-on",
                   "draw pile": "button.rummy-neighbour-pile", "draw pool": "button.rummy-pool",
                   "discard": f"{HAND}.rummy-card-{action.card}"}[action.verb]
        if Action.parse("call match") in legal:
            action, control = Action.parse("call match"), "button.rummy-match"
        try:
            x.page.wait_for_selector(f"{control}:not([disabled])", timeout=30_000)
        except Exception:  # noqa: BLE001 - say what the page shows instead
            if action.verb == "call match" and "call match" not in x.view().get("legal_actions", []):
                # the page's Match! window (a few seconds of the kernel's own clock)
                # closed before a loaded machine drew the button: play went on
                continue
            if str(action) not in x.view().get("legal_actions", []):
                # the call's pace ran out on a loaded machine: the table's helper
                # played it for this learner, and the page shows the next call
                continue
            said = x.page.locator(".rummy-caller, .rummy-status, .rummy-message, "
                                  ".rummy-shared-note").all_inner_texts()
            pytest.fail(f"{x.name} may {action} (version {view['version']}, phase "
                        f"{view['phase']}) but the page's {control} stays disabled; the page "
                        f"says {said}; {x.page.url}")
        try:
            if action.verb in ("call match", "draw pile"):
                x.watch.click(control)
            else:
                click_action(x.watch, action)
        except TimeoutError:  # say what the page and the seat show (a sweep run failed here)
            view = x.view()
            pytest.fail(f"{x.name}'s kernel did not answer the click on {control} ({action}) in "
                        f"30 s; the page shows {harness.page_text(x.page)[:2000]!r}; the seat: "
                        f"version {view['version']}, phase {view['phase']}, legal "
                        f"{view.get('legal_actions')}")
        moved = True
    return moved


class Arriving(Learner):
    """A learner whose page is opened without waiting for it to load (the
    whole class opens the link at once); :meth:`ready` waits."""

    def __init__(self, browser: Any, base: str, code: str, name: str) -> None:
        super().__init__(browser, base, code, name, wait_until="commit")
