"""Playing by taps as a child would: a tap chooses a card, a second tap lets it
go (it never throws it away), the chosen card is lifted, a tap on the discard
pile throws the chosen card, and a discard that ended a round against the bots
can be taken back."""

from __future__ import annotations

from typing import Any

from rummy.cards import Card, cards
from tests.table_play import choose, click_big_table, click_gin, click_three_thirteen, play_out
from widgets import BigTableTable, GinTable, ThreeThirteenTable
from widgets.cards import HandView


def _view(h: HandView, card: str) -> Any:
    return next(v for v in h.views if getattr(v, "position", None) is not None
                and str(h.cards[v.position]) == card)


def test_a_second_tap_lets_the_chosen_card_go() -> None:
    acted: list[Card] = []
    chosen: list[Card | None] = []
    h = HandView(cards("9h 7h 8h"), on_act=acted.append, on_select=chosen.append)
    v = _view(h, "7h")
    v.button.click()
    assert h.selected == Card.parse("7h")
    assert "rummy-card-selected" in v.button._dom_classes
    assert "rummy-lifted" in v.widget._dom_classes  # the chosen card is lifted
    v.button.click()  # a second tap: let go, never act
    assert h.selected is None and acted == []
    assert "rummy-card-selected" not in v.button._dom_classes
    assert "rummy-lifted" not in v.widget._dom_classes
    assert chosen == [Card.parse("7h"), None]
    v.button.click()
    v.button.click()
    v.button.click()  # a triple tap leaves it chosen, still nothing thrown
    assert h.selected == Card.parse("7h") and acted == []


def _to_discard(t: ThreeThirteenTable) -> None:
    """Play until the learner has drawn and must discard."""
    play_out(t, click_three_thirteen,
             lambda t: not t.paused and t.observation().phase == "discard"
             and bool(t.observation().legal_actions))


def test_three_thirteen_a_double_tap_throws_nothing_and_the_pile_throws() -> None:
    t = ThreeThirteenTable(players=2, seed=5, speed=0)
    _to_discard(t)
    obs = t.observation()
    card = choose(t, "discard")[0].card
    assert card is not None
    held = len(t.state.history)
    v = _view(t.hand, str(card))
    v.button.click()
    v.button.click()
    assert len(t.state.history) == held, "a second tap threw the card away"
    assert t.hand.selected is None
    # the discard pile is where a card is thrown: with nothing chosen it says so
    assert not t.pile.button.disabled
    t.pile.button.click()
    assert len(t.state.history) == held
    assert "rummy-error" in t.message.value and "tap the discard pile" in t.message.value
    v.button.click()
    t.pile.button.click()
    assert t.state.history[held] == (t.learner, next(
        a for a in obs.legal_actions if a.verb == "discard" and a.card == card))


def test_gin_the_discard_pile_throws_the_chosen_card() -> None:
    t = GinTable(seed=6, speed=0)
    for _ in range(200):
        obs = t.observation()
        verbs = {a.verb for a in obs.legal_actions}
        if "discard" in verbs and not t.paused and obs.role != "advisor":
            break
        click_gin(t)
    else:
        raise AssertionError("the learner never had to discard")
    a = choose(t, "discard")[0]
    held = len(t.state.history)
    t.hand.select(a.card)
    assert not t.pile.button.disabled
    t.pile.button.click()
    assert t.state.history[held] == (t.learner, a)


def test_big_table_your_pile_takes_the_chosen_discard() -> None:
    t = BigTableTable(players=3, seed=4, speed=0)
    play_out(t, click_big_table,
             lambda t: not t.paused and "discard" in {a.verb for a in
                                                       t.observation().legal_actions})
    a = choose(t, "discard")[0]
    t.hand.select(a.card)
    t.own_pile.button.click()
    assert "rummy-error" not in t.message.value, t.message.value
    assert t.observation().choice is not None or "discard" not in {
        x.verb for x in t.observation().legal_actions}


def test_undo_takes_back_the_discard_that_ended_the_round() -> None:
    t = ThreeThirteenTable(players=2, seed=5, speed=0)
    play_out(t, click_three_thirteen, lambda t: t.paused)
    assert t.observation().round == 2
    assert not t.coach.undo_button.disabled, "Undo is off on the review"
    t.coach.undo_button.click()
    assert not t.paused
    assert t.observation().round == 1
    assert "Move taken back" in t.message.value
