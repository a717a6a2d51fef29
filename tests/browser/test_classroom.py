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

import re
import time
from pathlib import Path
from typing import Any

import pytest

from rummy import Card
from tests.browser import harness
from tests.browser.classroom import DEAL, KEY, NAMES, Learner, api_get, play_one_move
from tests.browser.pages import EVERYTHING_JS, mentions

pytestmark = pytest.mark.browser

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


def test_a_class_plays_a_big_table_hand_together(browser: Any, tmp_path: Path) -> None:
    port = harness.free_port()
    env = {"RUMMY_DATA": str(tmp_path), "RUMMY_TEACHER_KEY": KEY}
    server = harness.start_voila(port=port, env=env, extra_args=["--show_tracebacks=True"],
                                 apps=["big_table"],
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
                server = harness.start_voila(port=port, env=env, seeds=[DEAL], apps=["big_table"],
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
