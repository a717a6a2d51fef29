"""Outs, the hypergeometric draw chance, its sympy formula, and the race
against opponents for a shared stock; each checked by enumeration."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import deck
from rummy.probability import (
    OddsError,
    chance_opponent_first,
    draw_formula,
    outs,
    p_at_least_one,
)
from rummy.probability.dealt import shoe_for
from tests.brute import brute_complete


def test_outs_of_a_round_two_hand_worked_by_hand():
    # Round 2, one pack (2 players), fours wild.  7h 8h Kc 2d = 27 points.
    # 6h or 9h makes a run; any of the four 4s is a wild for 7h 8h _.
    # Nothing completes: Kc and 2d would still be left over.  An ace would
    # lower the penalty (throw Kc, keep Ac) but feeds no meld: not an out.
    o = outs("7h 8h Kc 2d", "three_thirteen", round=2, players=2)
    assert (o.penalty, o.unseen, o.count, o.completing) == (27, 52 - 4, 6, 0)
    assert sorted(o.table["card"]) == ["4c", "4d", "4h", "4s", "6h", "9h"]
    groups = o.by_meld
    assert groups.loc["6h 7h 8h", "cards"] == "6h"
    assert groups.loc["7h 8h 9h", "cards"] == "9h"
    assert groups.loc["7h 8h + wild", "copies"] == 4
    assert o.table.set_index("card").loc["4c", "wild"]
    # p_within is the hypergeometric chance with these numbers
    assert o.p_within(3) == 1 - Fraction(math.comb(42, 3), math.comb(48, 3))


def test_outs_count_copies_across_packs_and_subtract_seen_cards():
    two = outs("7h 8h Kc 2d", round=2, players=4)  # 2 packs (TT-11)
    assert (two.count, two.unseen) == (12, 104 - 4)
    seen = outs("7h 8h Kc 2d", round=2, players=4, seen="9h 9h 4c")
    assert (seen.count, seen.unseen) == (12 - 3, 104 - 4 - 3)
    assert "9h" not in set(seen.table["card"])


def test_TJ_3_jokers_are_outs_in_every_round():
    o = outs("7h 8h Kc Qd", "three_thirteen_jokers", round=2, jokers=2)
    jk = o.table.set_index("card").loc["Jk"]
    assert jk["copies"] == 2 and jk["wild"]


def test_TT_6_completing_cards_let_the_hand_go_out():
    # Round 1, threes wild: 7h 8h Kc completes with 6h, 9h or any 3
    # (discarding Kc): 6 cards of 49 unseen.
    o = outs("7h 8h Kc", round=1, players=2)
    assert o.completing == 6 and o.count == 6
    assert set(o.table.loc[o.table["completes"], "discard"]) == {"Kc"}
    assert o.p_within(1, completing=True) == Fraction(6, 49)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(deck(1)), min_size=3, max_size=4, unique=True),
       st.sampled_from(["three_thirteen", "tre_tretton"]))
def test_completing_outs_agree_with_brute_force(hand, variant):
    rnd = len(hand) - 2
    o = outs(hand, variant, round=rnd, players=2)
    rules = shoe_for(variant, rnd, players=2).rules
    listed = set(o.table.loc[o.table["completes"], "card"]) if o.count else set()
    brute = set()
    for c in deck(1):
        if c in hand:
            continue
        new = hand + [c]
        if any(brute_complete(new[:i] + new[i + 1:], rules) for i in range(len(new))):
            brute.add(str(c))
    if not brute_complete(hand, rules):  # a complete hand has nothing to improve
        assert listed == brute


def test_outs_reject_impossible_hands_and_options():
    with pytest.raises(OddsError, match="7h is given 2 times"):
        outs("7h 7h 8h Kc", round=2, players=2)
    with pytest.raises(OddsError, match="options are"):
        outs("7h 8h Kc 2d", round=2, colour="red")
    with pytest.raises(OddsError, match="no jokers"):
        outs("7h 8h Kc 2d Jk", "big_table")
    with pytest.raises(OddsError, match="empty"):
        outs("", round=2)
    with pytest.raises(ValueError, match="'1x' is not a card"):
        outs("1x 8h Kc 2d", round=2)


# ---------------------------------------------------------------------------
# The hypergeometric chance and its formula


@pytest.mark.parametrize("unseen, o", [(7, 2), (8, 0), (6, 6), (9, 3)])
def test_p_at_least_one_by_enumerating_every_draw(unseen, o):
    for k in range(0, unseen + 1):
        draws = list(itertools.combinations(range(unseen), k))
        hit = sum(1 for d in draws if any(i < o for i in d))
        assert p_at_least_one(o, unseen, k) == Fraction(hit, len(draws))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40).flatmap(
    lambda u: st.tuples(st.just(u), st.integers(0, u), st.integers(0, u))))
def test_draw_formula_is_the_same_function(args):
    unseen, o, k = args
    f = draw_formula()
    symbols = {s.name: s for s in f.free_symbols}
    value = f.subs({symbols["U"]: unseen, symbols["o"]: o, symbols["k"]: k})
    assert Fraction(str(value)) == p_at_least_one(o, unseen, k)


def test_p_at_least_one_rejects_impossible_numbers():
    with pytest.raises(OddsError, match="cannot exceed"):
        p_at_least_one(3, 10, 11)
    with pytest.raises(OddsError, match="whole number"):
        p_at_least_one(-1, 10, 1)


def race_by_enumeration(o, unseen, draws, opponents, you_first):
    """Every placement of the outs in the stock is equally likely: find the
    first out and whose draw it is, within your ``draws`` draws."""
    cycle = opponents + 1
    mine = 0 if you_first else opponents
    last = mine + (draws - 1) * cycle
    lost = 0
    places = list(itertools.combinations(range(unseen), o))
    for pos in places:
        first = min(pos)
        if first < last and first % cycle != mine:
            lost += 1
    return Fraction(lost, len(places))


@pytest.mark.parametrize("o, unseen, draws, opponents, you_first", [
    (1, 6, 2, 1, True), (2, 7, 3, 1, False), (2, 9, 2, 2, True), (3, 8, 2, 3, False),
    (1, 5, 1, 1, False),
])
def test_chance_opponent_first_by_enumeration(o, unseen, draws, opponents, you_first):
    got = chance_opponent_first(o, unseen, draws, opponents=opponents, you_first=you_first)
    assert got == race_by_enumeration(o, unseen, draws, opponents, you_first)
    # you and the opponents share the chance that someone finds an out
    assert got <= p_at_least_one(o, unseen, min(unseen, draws * (opponents + 1)))
