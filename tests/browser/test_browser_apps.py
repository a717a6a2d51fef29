"""The apps as a learner uses them: Voilà pages in Chromium, played by clicking.

Each game is replayed in this process with the same table class, seed and bots
(``speed=0``: the bots answer at once, in the click's own callback), so the test
knows every hand the kernel holds.  After every move the page's hand must equal
the replica's, and neither the page (text, SVG titles, tooltips, CSS classes)
nor anything the kernel sent to the browser over the websocket (the widgets'
state) may name a card an opponent holds that the learner has never seen.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import rummy
from rummy import Action, cards, find_variant, why_not
from rummy.bots import make_bot
from tests.browser import harness
from tests.browser.harness import Watch
from tests.browser.pages import (
    EVERYTHING_JS,
    HAND,
    Replica,
    click_action,
    mentions,
    open_app,
    wait_hand,
)
from widgets.view import cards_as_faces, plain

pytestmark = pytest.mark.browser


def assert_no_leak(page: Any, watch: Watch, replica: Replica) -> int:
    """No hidden opponent card on the page or in what the kernel sent; returns
    how many hidden cards were checked."""
    hidden = replica.hidden()
    shown = str(page.evaluate(EVERYTHING_JS))
    sent = watch.text()
    for c in hidden:
        found = mentions(shown, c)
        where = [shown[max(m.start() - 80, 0):m.end() + 40] for f in found[:1]
                 for m in [re.search(re.escape(f), shown, re.IGNORECASE)] if m]
        assert not found, f"the page shows an opponent's {c.name}: {found} in {where}"
        assert not mentions(sent, c), (f"the widget state sent to the browser names an "
                                       f"opponent's {c.name}: {mentions(sent, c)}")
    return len(hidden)


# -- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("app, query", [
    ("three_thirteen", {"players": 2}),
    ("three_thirteen", {"variant": "tre_tretton", "players": 3}),
    ("three_thirteen", {"variant": "three_thirteen_jokers", "jokers": 2}),
    ("big_table", {"players": 6}),
    ("gin_three", {}),
])
def test_each_table_app_loads_and_renders_cards(page, voila, app, query):
    open_app(page, voila, app, seed=3, speed=0, **query)
    titles = page.eval_on_selector_all("svg title", "els => els.map(e => e.textContent)")
    names = {c.name for c in rummy.deck(1, 1)}
    assert any(t.split(" (")[0] in names for t in titles), "no card is drawn on the page"
    if app == "three_thirteen" and query.get("variant") == "three_thirteen_jokers":
        for seat in ("left", "top", "right"):  # TJ-1
            assert page.locator(f".rummy-seat-{seat}").count() == 1
    if app == "three_thirteen":
        assert page.locator(HAND).count() == 3  # round 1: 3 cards (TT-1)


def test_meld_odds_app_loads(page, voila):
    page.goto(harness.app_url(voila.base, "meld_odds"))
    page.wait_for_selector(".rummy-meld-checker", state="visible", timeout=90_000)
    page.wait_for_selector(".rummy-odds-explorer", state="visible", timeout=30_000)


def test_three_thirteen_full_round_by_clicking(page, voila):
    """Seed 11, two players: draw, discard and go out (or see the bot go out)
    by clicking, until round 1 is scored; the coach's hint on the way."""
    from widgets import ThreeThirteenTable

    seed = 11
    watch = open_app(page, voila, "three_thirteen", seed=seed, speed=0, players=2)
    replica = Replica(lambda: ThreeThirteenTable("three_thirteen", players=2, seed=seed,
                                                 speed=0, bots="expert"))
    me = make_bot("greedy", seed=0)
    wait_hand(page, replica)
    checked = assert_no_leak(page, watch, replica)
    hinted = False
    verbs = []
    for _ in range(200):
        s = replica.state
        if s.round_scores:
            break
        if not hinted:
            watch.click("button.rummy-hint")
            page.wait_for_function(
                "() => document.querySelector('.rummy-hint-text').innerText.trim().length > 0")
            hinted = True
        action = me.choose(replica.observation())
        click_action(watch, action)
        replica.act(action)
        verbs.append(action.verb)
        if replica.state.round_scores:
            break
        wait_hand(page, replica)
        checked += assert_no_leak(page, watch, replica)
    assert replica.state.round_scores, "round 1 did not end in 200 moves"
    assert {"draw stock", "draw discard"} & set(verbs) and (
        {"discard", "go out"} & set(verbs)), verbs
    review = page.locator(".rummy-review")
    review.wait_for(state="visible")
    assert "Review of round 1" in review.inner_text()
    mine = replica.state.round_scores[0][replica.learner]
    assert re.search(rf"You \(what you kept\)\s*:\s*\+{mine}: ", review.inner_text())
    assert checked > 0, "the leak check never had a hidden card to look for"
    watch.click("button.rummy-next-round")
    page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 4")


def test_meld_checker_answers_typed_input(page, voila):
    page.goto(harness.app_url(voila.base, "three_thirteen", seed=1, speed=0, players=2))
    page.locator(".rummy-drawer").get_by_text("Is it a meld?").click(timeout=90_000)
    page.locator("button.rummy-open-meld-checker").click(timeout=90_000)
    page.wait_for_selector(".rummy-meld-checker", state="visible")
    box = page.locator(".rummy-meld-input input")
    result = page.locator(".rummy-meld-result")
    rules = find_variant("three_thirteen").meld_rules(1)
    box.fill("7h 8h 9h")
    box.press("Enter")
    page.wait_for_function("() => /Yes/.test(document.querySelector('.rummy-meld-result')"
                           ".innerText)")
    assert "run" in result.inner_text()
    box.fill("7h 8c 9h")
    box.press("Enter")
    reason = why_not(cards("7h 8c 9h"), rules)
    assert reason
    page.wait_for_function("() => /No/.test(document.querySelector('.rummy-meld-result')"
                           ".innerText)")
    assert reason in result.inner_text()
    box.fill("7h 1x")
    box.press("Enter")
    page.wait_for_function("() => Array.from(document.querySelectorAll("
                           "'.rummy-meld-checker .rummy-message')).some(e => /1x/.test(e.innerText))")


def test_big_table_draw_discard_cycle(page, voila):
    from widgets import BigTableTable

    seed = 5
    watch = open_app(page, voila, "big_table", seed=seed, speed=0, players=4)
    replica = Replica(lambda: BigTableTable(players=4, seed=seed, speed=0, bots="expert"))
    wait_hand(page, replica)
    assert page.locator(HAND).count() == 3  # hand 1: 3 cards (BT-2)
    checked = assert_no_leak(page, watch, replica)
    log_before = page.locator(".rummy-log").inner_text()
    draw = Action("draw pool")
    assert draw in replica.observation().legal_actions
    replica.act(draw)
    click_action(watch, draw)
    wait_hand(page, replica)
    assert page.locator(HAND).count() == 4
    checked += assert_no_leak(page, watch, replica)
    discard = make_bot("greedy", seed=0).choose(replica.observation())
    assert discard.verb == "discard", discard
    click_action(watch, discard)
    replica.act(discard)
    wait_hand(page, replica)
    checked += assert_no_leak(page, watch, replica)
    # the caller called "discard": the learner's card is face up on top of their own pile
    assert replica.state.piles[replica.learner][-1] == discard.card
    own = page.locator(".widget-gridbox:has(> button.rummy-own-pile) svg title")
    assert discard.card.name in " ".join(own.evaluate_all("els => els.map(e => e.textContent)"))
    assert page.locator(".rummy-log").inner_text() != log_before
    assert checked > 0


def _gin_knock_seed() -> tuple[int, list[Action]]:
    """A seed where the learner (seat 0) plays and knocks within a few moves,
    playing the expert bot's choices; and those moves."""
    from widgets import GinTable

    for seed in range(1, 60):
        t = GinTable(seed=seed, speed=0, bots="expert")
        if t.state.role_of(0) == "advisor":
            continue
        me = make_bot("expert", seed=seed)
        moves: list[Action] = []
        for _ in range(40):
            obs = t.observation()
            if t.state.is_over or t.state.hand_number != 1 or not obs.legal_actions:
                break
            a = me.choose(obs)
            if a.verb == "knock":
                return seed, moves + [a]
            knocks = [x for x in obs.legal_actions if x.verb == "knock"]
            if knocks:
                return seed, moves + [knocks[0]]
            t.act(a)
            moves.append(a)
    raise AssertionError("no seed in 1..59 lets the learner knock")


def test_gin_three_knock(page, voila):
    from widgets import GinTable

    with ThreadPoolExecutor(max_workers=1) as thread:  # away from Playwright's loop
        seed, moves = thread.submit(_gin_knock_seed).result()
    watch = open_app(page, voila, "gin_three", seed=seed, speed=0)
    replica = Replica(lambda: GinTable(seed=seed, speed=0, bots="expert"))
    wait_hand(page, replica)
    checked = assert_no_leak(page, watch, replica)
    for action in moves:
        click_action(watch, action)
        replica.act(action)
        if action.verb == "knock":
            break
        wait_hand(page, replica)
        checked += assert_no_leak(page, watch, replica)
    page.wait_for_function("() => /knock/i.test(document.querySelector('.rummy-log').innerText)")
    # the page tells the hand's outcome as the engine scored it
    last = [line for line in replica.state.log if "knock" in line.lower()][-1]
    shown = page.locator(".rummy-log").evaluate(
        "el => { const c = el.cloneNode(true); "
        "c.querySelectorAll('.rummy-sr').forEach(x => x.remove()); return c.textContent; }")
    assert cards_as_faces(plain(last)) in shown  # cards and words as the learner reads them
    assert checked > 0


def test_the_leak_check_can_fail(page, voila):
    """A hidden card written into the page, or into what the kernel sent, is caught."""
    from widgets import ThreeThirteenTable

    watch = open_app(page, voila, "three_thirteen", seed=11, speed=0, players=2)
    replica = Replica(lambda: ThreeThirteenTable("three_thirteen", players=2, seed=11,
                                                 speed=0, bots="expert"))
    wait_hand(page, replica)
    assert_no_leak(page, watch, replica)
    card = sorted(replica.hidden())[0]
    watch.frames.append(f'{{"value": "<title>{card.name}</title>"}}')
    with pytest.raises(AssertionError, match="widget state"):
        assert_no_leak(page, watch, replica)
    watch.frames.pop()
    page.evaluate("(t) => { const e = document.createElement('span'); e.title = t; "
                  "document.body.append(e); }", card.name)
    with pytest.raises(AssertionError, match="page shows"):
        assert_no_leak(page, watch, replica)
    page.evaluate("() => document.body.lastElementChild.remove()")
