"""rummy.probability.going_out_chance: "what is my chance of going out within n draws?"

The exact answer is checked against an independent brute force (tests/brute.py,
which knows nothing of the kit's solver) and against the simulation."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import Card, deck
from rummy.probability import going_out_chance
from tests.brute import brute_min_after_discard


def brute_one_draw(hand: list[Card], wild_rank: int | None) -> Fraction:
    """P(out on the next draw), one pack, nothing seen: the share of the other
    cards with which some discard leaves the rest all melded."""
    unseen = [c for c in deck(packs=1) if c not in hand]
    good = sum(1 for c in unseen if brute_min_after_discard(hand + [c], wild_rank=wild_rank) == 0)
    return Fraction(good, len(unseen))


def test_the_worked_example() -> None:
    # round 1 (threes wild), 7h 8h Kc, one pack, 49 unseen: the 6h, 9h and four threes go out
    assert going_out_chance("7h 8h Kc", round=1, players=2, draws=1).probability == Fraction(6, 49)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(deck(packs=1)), min_size=3, max_size=3, unique=True))
def test_one_draw_matches_brute_force(hand: list[Card]) -> None:
    exact = going_out_chance(hand, round=1, players=2, draws=1)
    assert exact.method == "exact"
    assert exact.probability == brute_one_draw(hand, wild_rank=3)


def test_exact_and_simulated_agree() -> None:
    exact = going_out_chance("7h 8h Kc", round=1, players=2, draws=3, method="exact")
    simulated = going_out_chance("7h 8h Kc", round=1, players=2, draws=3, method="monte carlo",
                                 samples=3000, seed=2)
    assert exact.method == "exact" and simulated.method == "monte carlo"
    assert simulated.contains(exact.probability)
    # more draws never lower the chance
    chances = [going_out_chance("7h 8h Kc", round=1, players=2, draws=d, method="exact").probability
               for d in (1, 2, 3)]
    assert chances == sorted(chances) and chances[0] == Fraction(6, 49)


def test_auto_switches_to_simulation_for_big_enumerations() -> None:
    o = going_out_chance("7h 8h Kc 2d", round=2, players=2, draws=4, samples=500)
    assert o.method == "monte carlo" and o.samples == 500 and 0 <= o.low <= o.high <= 1


def test_a_hand_that_has_drawn_already() -> None:
    # four cards in round 1: the best discard (Kc) leaves 7h 8h 9h melded: out now
    assert going_out_chance("7h 8h 9h Kc", round=1, players=2).probability == 1
    assert going_out_chance("7h 8h Qc Kc", round=1, players=2, draws=1).probability == Fraction(6, 48)


def test_gin_knock_limit() -> None:
    # ten cards, 3 melds and 5h 9s: any draw leaves 5 or less after throwing the 9s: a knock
    hand = "2c 3c 4c 6d 7d 8d Kh Kc Ks 9s"
    assert going_out_chance(hand, "gin_three", draws=1, limit=10).probability == 1
    assert going_out_chance(hand, "gin_three", draws=1).probability < 1


def test_bad_input_says_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="3 cards"):
        going_out_chance("7h 8h", round=1, players=2)
    with pytest.raises(ValueError, match="draws must be"):
        going_out_chance("7h 8h Kc", round=1, players=2, draws=0)
    with pytest.raises(ValueError, match="more often"):
        going_out_chance("7h 7h Kc", round=1, players=2)
