"""Every table played from the keyboard alone: Tab to a control, Enter to use it.

No mouse and no ``focus()`` from the test: the learner's Tab key is the only
way to a control, as it is for someone who cannot use a mouse.  Each game is
replayed beside the page (``Replica``, the same table, seed and bots), a
greedy bot picks the learner's moves from the replica's observation, and
after every move the page must show the hand the replica holds.  A discard
is made the way the table offers it: Enter on a card chooses it, then Shift+Tab
back to the discard pile (your own pile at the Big Table) and Enter throws it
there (Enter on the chosen card again would only let it go).
"""

from __future__ import annotations

from typing import Any

import pytest

from rummy import Action, Card
from rummy.bots import make_bot
from tests.browser import harness
from tests.browser.harness import Watch
from tests.browser.pages import HAND, Replica, open_app, wait_hand

pytestmark = pytest.mark.browser

#: the control that makes each verb that is one button
BUTTONS = {"draw stock": "button.rummy-stock", "draw discard": "button.rummy-discard-pile",
           "take upcard": "button.rummy-take-upcard", "pass": "button.rummy-decline-upcard",
           "draw pool": "button.rummy-pool"}

#: where a discard is thrown
PILE = "button.rummy-discard-pile, button.rummy-own-pile"


def focused_matches(page: Any, selector: str) -> bool:
    return bool(page.evaluate(
        "(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector))


def tab_to(page: Any, selector: str, limit: int = 120, key: str = "Tab") -> None:
    """Press Tab (or ``key``: Shift+Tab) until the focused control matches ``selector``."""
    seen: list[str] = []
    for _ in range(limit):
        if focused_matches(page, selector):
            return
        page.keyboard.press(key)
        seen.append(str(page.evaluate(
            "() => { const e = document.activeElement; return e ? e.tagName + ' '"
            " + (e.getAttribute('aria-label') || e.getAttribute('title') || '') : ''; }")))
    raise AssertionError(f"Tab never reached {selector} in {limit} presses; it went to "
                         + " | ".join(dict.fromkeys(seen)))


def card_selector(card: Card) -> str:
    return f"{HAND}.rummy-card-{card}"


def key_action(watch: Watch, action: Action) -> None:
    """Make ``action`` with Tab and Enter only."""
    page = watch.page
    if action.verb in BUTTONS:
        tab_to(page, BUTTONS[action.verb])
        watch.press("Enter")
    elif action.verb == "discard":
        assert action.card is not None
        tab_to(page, card_selector(action.card))
        watch.press("Enter")  # select
        page.wait_for_selector(f"{card_selector(action.card)}[aria-pressed='true']")
        assert focused_matches(page, card_selector(action.card)), "focus left the card"
        tab_to(page, PILE, key="Shift+Tab")
        watch.press("Enter")  # throw it on the pile
    else:
        raise AssertionError(f"the test has no keys for {action}")


TABLES = [
    ("three_thirteen", {"players": 2}, "ThreeThirteenTable", {"players": 2}),
    ("big_table", {"players": 4}, "BigTableTable", {"players": 4}),
    ("gin_three", {}, "GinTable", {}),
]


@pytest.mark.parametrize("app, query, cls, kwargs", TABLES,
                         ids=["three_thirteen", "big_table", "gin_three"])
def test_a_learner_plays_from_the_keyboard_alone(page, voila, app, query, cls, kwargs) -> None:
    import widgets

    seed = 4
    watch = open_app(page, voila, app, seed=seed, speed=0, **query)
    replica = Replica(lambda: getattr(widgets, cls)(seed=seed, speed=0, bots="expert",
                                                    **kwargs))
    wait_hand(page, replica)
    me = make_bot("greedy", seed=1)
    moves = 0
    first = replica.observation().number
    for _ in range(40):
        obs = replica.observation()
        if moves >= 6 or obs.is_over or obs.number != first:
            break  # enough, or the hand is over (its review waits for "Next round")
        choices = [a for a in obs.legal_actions if a.verb in BUTTONS or a.verb == "discard"]
        if not choices:
            break  # the learner has nothing to do now (Gin's advisor), or must go out
        action = me.choose(obs)
        if action not in choices:
            action = choices[0]
        key_action(watch, action)
        replica.act(action)
        wait_hand(page, replica)
        moves += 1
        assert not harness.page_tracebacks(page)
    assert moves >= 2, f"the learner made only {moves} moves"
    where = str(page.evaluate("() => document.activeElement && document.activeElement.tagName"))
    assert where != "BODY", "focus fell back to the page body"
