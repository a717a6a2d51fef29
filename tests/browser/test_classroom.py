"""A class at one shared table, in one Chromium: a teacher page and three
learner pages, each in a browser context of its own (its own local storage).

The teacher makes a Big Table for 3 learners and 2 bots on the classroom
page; three learners join with the Big Table app's ``?table=CODE&name=...``
and play a whole hand by clicking, all at once.  Each page's text and the
widget state its kernel sent hold only its own hand.  One page is reloaded
mid-hand and keeps its seat; the server is restarted mid-hand (its kernels
die with it), the pages are reloaded with the address they kept, and the
hand goes on to its end.

What each learner may do is read from the service's API with that page's
own token (kept by the page in its address), so the test never holds more
than a page could.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import harness
import pytest
from harness import Watch
from test_browser_apps import EVERYTHING_JS, HAND, LOG_CARD, click_action, mentions

from rummy import Action, Card
from rummy.bots import make_bot
from tableserver.wire import decode_observation

pytestmark = pytest.mark.browser

NAMES = ("Ana", "Ben", "Cleo")
#: The teacher key the test servers are given (RUMMY_TEACHER_KEY).
KEY = "teacher-key-of-the-browser-tests-0123"
#: The table's seed (harness.start_voila's ``seeds``): every run plays the same
#: deal, so that a failure can be played again (the kit deals from secrets).
DEAL = 1


def api_get(base: str, path: str, token: str) -> dict[str, Any]:
    req = urllib.request.Request(base + "rummy/api" + path, headers={
        "X-Rummy-Token": token, "X-Rummy-Teacher-Key": token})
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def query_of(page: Any) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


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
    def __init__(self, browser: Any, base: str, code: str, name: str,
                 app: str = "big_table") -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = harness.patient(self.context.new_page(), 60_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.name = name
        self.watch = Watch(self.page)
        self.page.goto(harness.app_url(base, app, table=code, name=name))
        self.base = base
        self.code = code
        self.token = ""
        #: every card the service showed this seat at any reading: its hands,
        #: its log and the table (``table_seen``: what every seat sees alike)
        self.seen: set[str] = set()
        self.table_seen: set[str] = set()

    def ready(self) -> None:
        try:
            self.page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
        except Exception as exc:  # say what the page shows instead (a sweep run failed here)
            raise AssertionError(f"{self.name}'s page shows no table after 120 s; it shows "
                                 f"{harness.page_text(self.page)[:2000]!r}") from exc
        self.token = wait_token(self.page, self.code)
        self.watch.settle()

    def view(self) -> dict[str, Any]:
        view = api_get(self.base, path(self.code, "state"), self.token)
        table = table_cards(view)
        self.seen |= set(view.get("hand", [])) | table | set(
            LOG_CARD.findall("\n".join(view.get("log", []))))  # the cards its log names
        self.table_seen |= table
        return view

    def reload(self) -> None:
        self.watch = Watch(self.page)
        self.page.reload()
        self.ready()

    def page_hand(self) -> list[str]:
        classes = self.page.eval_on_selector_all(
            HAND, "els => els.map(e => Array.from(e.classList))")
        return sorted(m[1] for cl in classes for m in map(re.compile(r"^rummy-card-(\w\w)$")
                                                          .match, cl) if m)

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


def path(code: str, what: str) -> str:
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


def assert_own_cards_only(learners: list[Learner], tries: int = 5) -> int:
    """No page shows, and no kernel sent, a card another learner holds that
    this learner has not seen; returns how many cards were checked.

    The pages are read between two readings of the service: when the table
    moved in between (a bot's turn, the hand's end and its review), the
    reading is stale and is taken again.  A learner has seen every card the
    service showed their seat at any reading (:attr:`Learner.seen`): their
    kernel's messages keep those from earlier hands, and a page may lag the
    service by a moment (its long poll), still showing a card the seat held,
    drew and threw between two checks."""
    for _ in range(tries):
        views = {x.name: x.view() for x in learners}
        texts = {x.name: (str(x.page.evaluate(EVERYTHING_JS)), x.watch.text()) for x in learners}
        if all(x.view()["version"] == views[x.name]["version"] for x in learners):
            break
        learners[0].page.wait_for_timeout(300)
    else:
        return 0  # the table never held still (bots at speed): nothing checked this time
    checked = 0
    # what any seat was shown on the table, every seat saw (a pile's top may
    # be taken between two readings of this seat)
    table = set().union(*(x.table_seen for x in learners))
    for x in learners:
        seen = x.seen | table
        hidden = {c for y in learners if y is not x for c in views[y.name]["hand"]} - seen
        shown, sent = texts[x.name]
        for text in hidden:
            card = Card.parse(text)
            assert not mentions(shown, card), (
                f"{x.name}'s page shows {card.name}: {where(shown, card)}; "
                + holders(learners, views, card))
            assert not mentions(sent, card), (
                f"{x.name}'s kernel sent {card.name}: {where(sent, card)}; "
                + holders(learners, views, card))
            checked += 1
    return checked


def where(text: str, card: Card) -> str:
    """Each place ``text`` names ``card``, with the words around it (a leak's
    report says where the page shows the card)."""
    spots = []
    for form in mentions(text, card):
        for m in re.finditer(re.escape(form), text, re.IGNORECASE):
            spots.append(repr(text[max(0, m.start() - 120):m.end() + 60]))
    return " | ".join(spots[:6])


def holders(learners: list[Learner], views: dict[str, dict[str, Any]], card: Card) -> str:
    """Who holds ``card`` now, and every seat's version and log (a leak's report)."""
    held = [x.name for x in learners if str(card) in views[x.name]["hand"]]
    logs = "; ".join(f"{x.name} v{views[x.name]['version']} log {views[x.name]['log'][-12:]}"
                     for x in learners)
    return f"held by {held}; {logs}"


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


def test_a_class_plays_a_big_table_hand_together(browser: Any, tmp_path: Path) -> None:
    port = harness.free_port()
    env = {"RUMMY_DATA": str(tmp_path), "RUMMY_TEACHER_KEY": KEY}
    server = harness.start_voila(port=port, env=env, extra_args=["--show_tracebacks=True"],
                                 seeds=[DEAL])
    learners: list[Learner] = []
    try:
        base = server.base
        # the teacher makes the table: Big Table, 3 learners, 2 bots (the form's defaults)
        teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        teacher = harness.patient(teacher_ctx.new_page(), 60_000)
        teacher.goto(harness.app_url(base, "classroom"))
        harness.wait_rendered(teacher, timeout=120_000)
        teacher.wait_for_selector(".rummy-teacher-key input", timeout=60_000)
        teacher.locator(".rummy-teacher-key input").fill(KEY)
        teacher.locator("button.rummy-sign-in").click()
        teacher.wait_for_selector("button.rummy-create-table", timeout=60_000)
        assert teacher.locator(".rummy-classroom-learners input").input_value() == "3"
        assert teacher.locator(".rummy-classroom-bots input").input_value() == "2"
        teacher.locator("button.rummy-create-table").click()
        teacher.wait_for_selector(".rummy-table-code", timeout=30_000)
        code = teacher.locator(".rummy-table-code").inner_text().strip()
        assert re.fullmatch(r"[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}", code)
        link = teacher.locator("a.rummy-join-link").get_attribute("href") or ""
        assert link == f"big_table.ipynb?table={code}&name="
        # no secret in the teacher's address: the key stays in the tab's session storage
        admin = KEY
        assert KEY not in teacher.url and KEY not in harness.page_text(teacher)
        assert api_get(base, f"/tables/{code}", admin)["status"] == "waiting"

        # three learners join from the link, each on a page of their own
        learners = [Learner(browser, base, code, n) for n in NAMES]
        for x in learners:
            x.ready()
        tokens = {x.token for x in learners}
        assert len(tokens) == 3 and admin not in tokens
        teacher.wait_for_function(
            "() => document.querySelectorAll('.rummy-classroom-seat').length === 5 && "
            "Array.from(document.querySelectorAll('.rummy-classroom-seat')).filter("
            "r => /here/.test(r.innerText)).length === 3", timeout=30_000)
        assert [x.view()["player"] for x in learners] == [0, 1, 2]
        for x in learners:
            x.wait_hand()
        checked = assert_own_cards_only(learners)

        moves = 0
        reloaded = restarted = False
        deadline = time.monotonic() + 600
        while True:
            assert time.monotonic() < deadline, "the hand did not end in 10 minutes"
            status = api_get(base, f"/tables/{code}", admin)["status"]
            if status == "over" or status == "paused" and reloaded and restarted:
                break
            if status == "paused":
                # a hand so short (a match straight after the deal) that the reload and
                # the restart are still to come: the teacher starts the next hand, and
                # each learner reads the review on their page and presses Next hand, as
                # the page asks ("The hand is over: read the review, then press Next
                # hand."); until then the page keeps its controls off
                teacher.locator("button.rummy-next-hand").click()
                deadline_next = time.monotonic() + 30
                while api_get(base, f"/tables/{code}", admin)["status"] == "paused":
                    assert time.monotonic() < deadline_next, "the next hand did not start"
                    teacher.wait_for_timeout(200)
                for x in learners:
                    x.next_hand()
                continue
            if play_one_move(learners):
                moves += 1
            else:
                learners[0].page.wait_for_timeout(300)  # the bots' turn (1 s each)
            if moves == 2 and not reloaded:
                # a learner reloads the page mid-hand: same seat, and the page shows
                # the hand the seat holds: the same hand, unless the table moved on
                # meanwhile (a discard chosen face down is carried out when the
                # bots' choices come in, which may be while the page reloads)
                before = learners[1].view()
                learners[1].reload()
                assert learners[1].view()["player"] == before["player"]
                shown = learners[1].wait_hand()
                if learners[1].view()["version"] == before["version"]:
                    assert shown == sorted(before["hand"])
                reloaded = True
            if moves == 4 and not restarted:
                # the server is restarted mid-hand: its kernels die with it, the
                # pages come back with the address they kept, and play goes on
                views = {x.name: x.view() for x in learners}
                server.stop()
                server = harness.start_voila(port=port, env=env, seeds=[DEAL],
                                             extra_args=["--show_tracebacks=True"])
                for x in learners:
                    x.reload()
                    after, before = x.view(), views[x.name]
                    assert after["player"] == before["player"]
                    # nothing was lost: the table is where it was, or the bots (whose
                    # deadlines survived the restart) have moved on from there
                    assert after["version"] >= before["version"]
                    assert after["log"][:len(before["log"])] == before["log"]
                    if after["version"] == before["version"]:
                        assert after["hand"] == before["hand"]
                    x.wait_hand()
                restarted = True
            if moves % 2 == 0:
                checked += assert_own_cards_only(learners)
        final = api_get(base, f"/tables/{code}", admin)
        assert reloaded and restarted
        assert final["status"] in ("paused", "over") and final["table"]["hand"] >= 2
        assert checked > 0
        teacher.reload()  # the teacher's page finds the table again
        teacher.wait_for_selector(".rummy-table-code", timeout=120_000)
        assert teacher.locator(".rummy-table-code").inner_text().strip() == code
        for x in learners:
            assert not harness.page_tracebacks(x.page)
            assert not x.errors, x.errors
        assert not server.tracebacks(), server.log()[-4000:]
    finally:
        for x in learners:
            x.context.close()
        server.stop()
