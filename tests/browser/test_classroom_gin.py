"""Gin for three at a shared table: the box, the captain and the advisor are
three learners, each on a page of their own (G-2).  The advisor types advice
for the captain, which shows on the captain's page and never on the box's;
box and captain play by clicking; no page holds a card it may not see (the
advisor sees the captain's hand, nobody but the box sees the box's)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from rummy import Action, Card
from rummy.bots import make_bot
from tableserver.wire import decode_observation
from tests.browser import harness
from tests.browser.classroom import DEAL, KEY, Learner
from tests.browser.pages import EVERYTHING_JS, LOG_CARD, click_action, mentions

pytestmark = pytest.mark.browser

#: The advice box's placeholder (GinTable.advise_input).
EXAMPLE = "your advice, e.g. draw discard or discard 9c"


def test_box_captain_and_advisor_on_three_pages(browser: Any, tmp_path: Path) -> None:
    server = harness.start_voila(env={"RUMMY_DATA": str(tmp_path), "RUMMY_TEACHER_KEY": KEY},
                                 extra_args=["--show_tracebacks=True"], seeds=[DEAL],
                                 apps=["gin_three"])
    learners: list[Learner] = []
    try:
        req = urllib.request.Request(
            server.base + "rummy/api/tables", method="POST", data=json.dumps(
                {"variant": "gin_three", "seats": ["human"] * 3, "speed": 0}).encode(),
            headers={"Content-Type": "application/json", "X-Rummy-Teacher-Key": KEY})
        with urllib.request.urlopen(req, timeout=30) as r:
            code = json.loads(r.read())["code"]
        learners = [Learner(browser, server.base, code, n, app="gin_three")
                    for n in ("Ana", "Ben", "Cleo")]
        for x in learners:
            x.ready()
        roles = learners[0].view()["roles"]
        by_role = {roles[x.view()["player"]]: x for x in learners}
        box, captain, advisor = by_role["box"], by_role["captain"], by_role["advisor"]

        def check_hidden() -> int:
            views = {x.name: x.view() for x in learners}
            box_hand = set(views[box.name]["hand"])
            captain_hand = set(views[captain.name]["hand"])
            checked = 0
            for x, hidden in ((box, captain_hand), (captain, box_hand), (advisor, box_hand)):
                v = views[x.name]
                seen = set(v["hand"]) | set(v.get("partner_hand", [])) | set(
                    v.get("discard_pile", [])) | set(LOG_CARD.findall("\n".join(v["log"])))
                for t in v.get("taken", []):
                    seen |= set(t)
                # the advice box's placeholder names an example card, held by nobody
                shown = str(x.page.evaluate(EVERYTHING_JS)).replace(EXAMPLE, "")
                sent = x.watch.text().replace(EXAMPLE, "")
                for text in hidden - seen:
                    card = Card.parse(text)
                    assert not mentions(shown, card), f"the {roles[v['player']]} sees {card.name}"
                    assert not mentions(sent, card), (
                        f"the {roles[v['player']]}'s kernel sent {card.name}")
                    checked += 1
            return checked

        checked = check_hidden()
        # the advisor sees the captain's hand (G-2), and advises the captain's first decision
        assert sorted(advisor.view()["partner_hand"]) == sorted(captain.view()["hand"])
        advisor.page.locator(".rummy-advise-input input").fill("pass")
        advisor.watch.click("button.rummy-advise")
        deadline = time.monotonic() + 30
        while (captain.view().get("advice") or {}).get("action") != "pass":
            assert time.monotonic() < deadline, "the advice did not reach the captain"
            captain.page.wait_for_timeout(200)
        assert box.view()["advice"] is None
        captain.page.wait_for_function(
            "() => /pass/i.test(document.body.innerText) && /advis/i.test(document.body.innerText)",
            timeout=30_000)
        # box and captain play a few turns by clicking
        moves = 0
        deadline = time.monotonic() + 240
        while moves < 8:
            assert time.monotonic() < deadline, "the hand did not move on"
            for x in (captain, box):
                view = x.view()
                if not view.get("legal_actions"):
                    continue
                x.wait_hand()
                action = make_bot("greedy", seed=2).choose(decode_observation(view))
                if action.verb in ("knock", "gin", "lay off", "lay out"):
                    moves = 99  # a knock ends the part this test is about
                    break
                click_action(x.watch, Action.parse(str(action)))
                moves += 1
                checked += check_hidden()
        assert checked > 0
        for x in learners:
            assert not harness.page_tracebacks(x.page)
            assert not x.errors, x.errors
        assert not server.tracebacks(), server.log()[-4000:]
    finally:
        for x in learners:
            x.context.close()
        server.stop()
