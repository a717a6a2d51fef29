"""Going out and expected penalty, simulated against the bots, checked
against values worked by hand; positions never leak or change the game."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from rummy import new_game
from rummy.cards import cards, deck
from rummy.probability import OddsError, expected_penalty, going_out
from rummy.probability.play import _redeal_hidden, position_from_hand

# Round 1 (threes wild), one pack, 2 players; you hold Ac Ad 2h (4 points)
# and play first.  Ah, As and the four 3s complete the hand: 6 of the 49
# cards you can't see.  No other card lowers 4 points (three unmelded
# cards can't cost less than A + A + 2), so the greedy bot takes the first
# discard only when it goes out with it, and otherwise draws the stock:
#   P(out on your first turn) = 1 - (43/49)(42/48) = 13/56,
#   expected points after that turn = 4 * (1 - 13/56) = 43/14.
HAND = "Ac Ad 2h"
P_OUT = 1 - Fraction(43, 49) * Fraction(42, 48)


def test_worked_value():
    assert Fraction(13, 56) == P_OUT


def test_TT_6_going_out_in_one_turn_matches_the_exact_chance():
    o = going_out(HAND, 1, "three_thirteen", 1, players=2, learner="greedy",
                  samples=1000, seed=3, progress=False)
    assert o.method == "monte carlo" and o.samples == 1000
    assert o.low <= float(P_OUT) <= o.high


def test_TT_8_expected_penalty_after_one_turn_matches_the_exact_mean():
    e = expected_penalty(HAND, "three_thirteen", 1, turns=1, players=2, learner="greedy",
                         samples=1000, seed=4, progress=False)
    assert e.low <= float(4 * (1 - P_OUT)) <= e.high
    assert e.to_json()["samples"] == 1000


def test_going_out_grows_with_more_turns_and_is_reproducible():
    a = going_out("7h 8h Kc 2d", 1, round=2, players=3, samples=80, seed=1, progress=False)
    b = going_out("7h 8h Kc 2d", 1, round=2, players=3, samples=80, seed=1, progress=False)
    c = going_out("7h 8h Kc 2d", 6, round=2, players=3, samples=80, seed=1, progress=False)
    assert a == b
    assert c.value >= a.value


def test_expected_penalty_of_a_complete_hand_is_zero():
    # 7h 8h 9h is complete: you draw and go out at once (TT-6)
    e = expected_penalty("7h 8h 9h", round=1, players=2, samples=40, progress=False)
    assert (e.value, e.low, e.high) == (0, 0, 0)


def test_position_from_hand_deals_everything_else_at_random():
    g, seat = position_from_hand("7h 8h 9h Kc", round=2, players=3, seen="2c 2d", seed=5)
    g.check_invariants()
    assert Counter(g.hands[seat]) == Counter(cards("7h 8h 9h Kc"))
    assert g.current == seat and g.round == 2
    assert g.pile[:2] == list(cards("2c 2d"))
    g2, seat2 = position_from_hand("7h 8h 9h Kc", round=2, players=3, seed=6)
    assert Counter(g2.hands[seat2]) == Counter(cards("7h 8h 9h Kc"))
    others = [c for s in range(3) if s != seat for c in g.hands[s]]
    others2 = [c for s in range(3) if s != seat2 for c in g2.hands[s]]
    assert others != others2
    _, last = position_from_hand("7h 8h 9h Kc", round=2, players=3, turn_order=2, seed=5)
    assert last != seat


def test_a_position_is_played_from_without_changing_the_game():
    g = new_game("three_thirteen", players=3, seed=4)
    g.apply("draw stock")
    before = (g.to_json(), [list(h) for h in g.hands], list(g.stock.cards))
    o = going_out(g, 2, samples=30, seed=2, progress=False)
    e = expected_penalty(g, samples=10, seed=2, progress=False)
    assert o.samples == 30 and e.samples == 10
    assert (g.to_json(), [list(h) for h in g.hands], list(g.stock.cards)) == before


def test_redealing_keeps_what_the_player_knows():
    g = new_game("three_thirteen", players=3, seed=8)
    seat = g.current
    import random

    copies = [_redeal_hidden(g, seat, random.Random(i)) for i in range(4)]
    for c in copies:
        c.check_invariants()
        assert c.hands[seat] == g.hands[seat] and c.pile == g.pile
        assert Counter(c.stock.cards + [x for s in range(3) if s != seat for x in c.hands[s]]) \
            == Counter(g.stock.cards + [x for s in range(3) if s != seat for x in g.hands[s]])
    assert len({tuple(c.stock.cards) for c in copies}) > 1


@pytest.mark.parametrize("call, words", [
    (lambda: going_out("7h 8h Kc", 0, round=1), "at least 1"),
    (lambda: going_out("7h 8h Kc 2d", 1, round=1), "deals 3 cards"),
    (lambda: going_out("7h 8h Kc", 1, "gin_three"), "Three-Thirteen family"),
    (lambda: going_out("7h 7h 7h Kc", 1, round=2, players=2), "7h is given 3 times"),
    (lambda: going_out(new_game("gin_three", seed=1), 1), "Three-Thirteen family"),
    (lambda: expected_penalty("7h 8h Kc", round=1, samples=0), "at least 1"),
    (lambda: going_out("7h 8h Kc", 1, round=1, players=2, turn_order=2), "turn_order"),
])
def test_bad_requests_say_what_is_wrong(call, words):
    with pytest.raises(OddsError, match=words):
        call()


def test_the_shoe_is_whole_in_every_simulated_position():
    g, _ = position_from_hand("Ac Ad 2h", round=1, players=2, seed=11)
    everything = Counter(g.stock.cards) + Counter(g.pile)
    for h in g.hands:
        everything += Counter(h)
    assert everything == Counter(deck(1))
