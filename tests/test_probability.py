"""Dealt-hand odds: exact counts checked by brute force and by a second
counting method; every Monte Carlo estimate checked against an exact value.

The exact figures here are never copied from the code under test: they are
enumerated (labelled hands, with a brute-force completeness test written
here, which shares nothing with the solver or rummy.probability) or worked
by hand in the comments.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import JOKER, SUITS, Card, deck
from rummy.melds import MeldRules
from rummy.probability import (
    Odds,
    OddsError,
    dealt_complete,
    dealt_gin,
    dealt_table,
    plot_dealt_table,
    wilson,
)
from rummy.probability import complete_hands as C
from rummy.probability.dealt import exact_complete, shoe_for, simulate_complete
from rummy.search import best_arrangement, covers_counts, min_wilds_counts
from tests.brute import brute_complete, gin_hands_by_meld_combinations


def labelled_count(shoe: C.Shoe) -> Fraction:
    """The chance over every labelled hand of the shoe (each physical card
    distinct), deciding each distinct multiset once by brute force."""
    cards = deck(shoe.packs, shoe.jokers)
    verdict: dict[tuple, bool] = {}
    good = 0
    total = 0
    for combo in itertools.combinations(range(len(cards)), shoe.cards):
        hand = tuple(sorted((cards[i] for i in combo), key=Card.sort_key))
        ok = verdict.get(hand)
        if ok is None:
            ok = verdict[hand] = brute_complete(hand, shoe.rules)
        good += ok
        total += 1
    assert total == math.comb(shoe.size, shoe.cards)
    return Fraction(good, total)


# ---------------------------------------------------------------------------
# Brute force over every hand


def test_three_cards_one_pack_no_wilds_brute_force():
    # By hand: sets 13 * C(4,3) = 52, runs 4 suits * 11 starts (A..J) = 44,
    # so 96 / C(52,3) = 96 / 22100 = 24/5525.  The test enumerates it.
    shoe = C.Shoe(MeldRules(), cards=3, packs=1, jokers=0)
    enumerated = labelled_count(shoe)
    assert enumerated == Fraction(96, 22100) == Fraction(24, 5525)
    odds = exact_complete(shoe)
    assert odds.probability == enumerated
    assert odds.formula.doit() == enumerated.numerator / __import__("sympy").Integer(
        enumerated.denominator)


def test_TT_2_round_one_threes_wild_one_pack():
    # By hand, 3 cards from one pack with the four 3s wild:
    #  3 wilds: C(4,3) = 4 (a meld of wilds, M-4)
    #  2 wilds: C(4,2) * 48 naturals = 288
    #  1 wild : 4 * (12 ranks * C(4,2) pairs + 4 suits * 19 near pairs) = 4 * 148 = 592
    #           (near pairs: ranks 1 or 2 apart, no 3 among them: 10 + 9 per suit)
    #  0 wilds: 12 * 4 sets + 4 suits * 8 runs without a 3 = 80
    # total 964 / 22100 = 241/5525
    shoe = shoe_for("three_thirteen", 1, players=2)
    assert (shoe.packs, shoe.cards, shoe.rules.wild_rank) == (1, 3, 3)
    assert labelled_count(shoe) == Fraction(964, 22100)
    assert dealt_complete("three_thirteen", 1, players=2).probability == Fraction(241, 5525)


def test_M_4_TR_2_a_meld_of_wilds_only_is_not_complete_in_tre_tretton():
    # the same 3-card deal less the C(4,3) = 4 hands of three wild 3s
    shoe = shoe_for("tre_tretton", 1, players=2)
    assert labelled_count(shoe) == Fraction(960, 22100)
    assert dealt_complete("tre_tretton", 1, players=2).probability == Fraction(960, 22100)


@pytest.mark.parametrize("variant, kw", [
    ("three_thirteen", {"players": 4}),                          # 2 packs (TT-11)
    ("three_thirteen", {"players": 2, "aces": "low_or_high"}),   # TS-1: Q-K-A too
    ("three_thirteen_jokers", {"jokers": 2, "aces": "high"}),    # TJ-3, TJ-4
])
def test_labelled_hands_agree_with_the_multiset_count(variant, kw):
    shoe = shoe_for(variant, 1, **kw)
    assert dealt_complete(variant, 1, **kw).probability == labelled_count(shoe)


def test_TS_1_aces_low_or_high_adds_queen_king_ace():
    # extra complete hands with Q-K-A allowed: 4 natural Q-K-A runs, and
    # K+A or Q+A of a suit with one wild 3: 4 suits * 2 pairs * 4 wilds = 32
    low = dealt_complete("three_thirteen", 1, players=2).probability
    both = dealt_complete("three_thirteen", 1, players=2, aces="low_or_high").probability
    assert both - low == Fraction(4 + 32, 22100)


# ---------------------------------------------------------------------------
# A second counting method for bigger shoes


def solver_check(shoe: C.Shoe):
    def check(naturals, w):
        return best_arrangement(naturals + C.wild_cards(shoe, w), shoe.rules).is_complete
    return check


def test_BT_1_big_table_four_packs_generation_matches_solver_enumeration():
    # round 2 of big_table: 4 cards from 4 packs (208 cards), fours wild (TT-2)
    shoe = shoe_for("big_table", 2)
    assert (shoe.packs, shoe.size, shoe.cards, shoe.rules.wild_rank) == (4, 208, 4, 4)
    assert C.count_by_generation(shoe) == C.count_by_enumeration(shoe, solver_check(shoe))


def test_BT_1_round_one_solver_enumeration():
    shoe = shoe_for("big_table", 1)
    counts = C.count_by_enumeration(shoe, solver_check(shoe))
    total = sum(math.comb(shoe.wild_pool, w) * a for w, a in counts.items())
    assert dealt_complete("big_table", 1).probability == Fraction(total, math.comb(208, 3))


@pytest.mark.parametrize("variant, rnd, kw", [
    ("three_thirteen_jokers", 2, {"jokers": 4, "aces": "high"}),
    ("tre_tretton", 3, {"players": 2}),
])
def test_generation_matches_orbit_enumeration(variant, rnd, kw):
    shoe = shoe_for(variant, rnd, **kw)
    counts = C.count_by_enumeration(shoe)
    assert C.count_by_generation(shoe, symmetric=True) == counts
    assert C.count_by_generation(shoe, symmetric=False) == counts


@pytest.mark.parametrize("variant, rnd, kw", [
    ("three_thirteen", 4, {"players": 4, "aces": "low_or_high"}),
    ("big_table", 4, {}),
    ("gin_three", 1, {}),
])
def test_suit_symmetry_gives_the_same_counts(variant, rnd, kw):
    shoe = shoe_for(variant, rnd, **kw)
    assert C.count_by_generation(shoe, symmetric=True) == C.count_by_generation(
        shoe, symmetric=False)


def test_suit_orbits_cover_every_multiset_once():
    # 2 naturals from 2 packs over 12 ranks: C(48 + 1, 2) multisets of card types
    ranks = tuple(r for r in range(1, 14) if r != 4)
    n = sum(orbit for _, orbit in C.canonical_multisets(ranks, 2, 2))
    assert n == math.comb(48 + 1, 2)
    one_pack = sum(orbit for _, orbit in C.canonical_multisets(ranks, 3, 1))
    assert one_pack == math.comb(48, 3)


def test_G_1_G_7_dealt_gin_matches_an_independent_meld_count():
    gin = gin_hands_by_meld_combinations()
    odds = dealt_gin()
    assert odds.method == "exact"
    assert odds.probability == Fraction(gin, math.comb(52, 10))
    assert odds.formula.doit() == odds.probability.numerator / __import__("sympy").Integer(
        odds.probability.denominator)


def test_gin_generation_handles_four_card_sets_and_one_pack():
    # 7 cards from ranks 1..7 only is too small a shoe for the API; instead
    # the 4-card-set cap: a 5-card set is never gin
    shoe = shoe_for("gin_three")
    assert shoe.rules.max_set_size == 4 and shoe.rules.wild_rank is None
    x, w = C.encode([Card(7, s) for s in SUITS] + [Card(8, "h")], shoe.rules)
    assert C.is_complete(x, w, shoe.rules) is False


# ---------------------------------------------------------------------------
# Completeness check against the solver and the brute force


@st.composite
def hands(draw):
    variant, rnd, kw = draw(st.sampled_from([
        ("three_thirteen", draw(st.integers(1, 11)), {"players": draw(st.integers(2, 6))}),
        ("three_thirteen", draw(st.integers(1, 11)), {"aces": "low_or_high"}),
        ("tre_tretton", draw(st.integers(1, 11)), {}),
        ("three_thirteen_jokers", draw(st.integers(1, 11)),
         {"jokers": 4, "aces": draw(st.sampled_from(["low", "high"]))}),
        ("big_table", draw(st.integers(1, 11)), {}),
        ("gin_three", 1, {}),
    ]))
    shoe = shoe_for(variant, rnd, **kw)
    cards = list(deck(shoe.packs, shoe.jokers))
    # build near-complete hands: a few real melds, then some random cards
    hand: list[Card] = []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            r = draw(st.integers(1, 13))
            hand += [Card(r, draw(st.sampled_from(SUITS))) for _ in range(draw(st.integers(3, 4)))]
        else:
            s = draw(st.sampled_from(SUITS))
            length = draw(st.integers(3, 6))
            start = draw(st.integers(1, 14 - length))
            hand += [Card(r, s) for r in range(start, start + length)]
    hand += draw(st.lists(st.sampled_from(cards), max_size=4))
    if draw(st.booleans()):
        hand += [JOKER] * draw(st.integers(0, 2)) if shoe.jokers else []
    hand = hand[: shoe.cards + 1]
    counts = {c: hand.count(c) for c in hand}
    if any(n > (shoe.jokers if c.is_joker else shoe.packs) for c, n in counts.items()):
        hand = list(dict.fromkeys(hand))
    return shoe, hand


@settings(max_examples=400, deadline=None)
@given(hands())
def test_is_complete_agrees_with_the_solver(case):
    shoe, hand = case
    x, w = C.encode(hand, shoe.rules)
    got = C.is_complete(x, w, shoe.rules, len(hand))
    if got is not None:
        assert got == best_arrangement(hand, shoe.rules).is_complete, hand


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(deck(2)), min_size=1, max_size=6),
       st.sampled_from(["low", "high", "low_or_high"]))
def test_min_wilds_is_the_fewest_jokers_that_complete(naturals, aces):
    x, _ = C.encode(naturals, MeldRules(aces=aces))
    need = min_wilds_counts(x, MeldRules(aces=aces))
    # brute force: the fewest jokers with which every card is melded
    rules = MeldRules(aces=aces)
    fewest = next(j for j in range(0, 2 * len(naturals) + 1)
                  if brute_complete(tuple(naturals) + (JOKER,) * j, rules))
    assert need == fewest
    for b in range(0, need + 2):
        assert covers_counts(x, b, MeldRules(aces=aces)) == (b >= need)


# ---------------------------------------------------------------------------
# Monte Carlo against exact values


@pytest.mark.parametrize("variant, rnd, kw, seed", [
    ("three_thirteen", 1, {"players": 2}, 1),
    ("tre_tretton", 2, {}, 2),
    ("three_thirteen_jokers", 2, {"jokers": 4}, 3),
    ("big_table", 3, {}, 4),
    ("three_thirteen", 4, {"players": 3}, 5),
])
def test_monte_carlo_interval_holds_the_exact_value(variant, rnd, kw, seed):
    exact = dealt_complete(variant, rnd, method="exact", **kw)
    mc = dealt_complete(variant, rnd, method="monte carlo", samples=20000, seed=seed, **kw)
    assert mc.method == "monte carlo" and mc.samples == 20000 and mc.probability is None
    assert mc.low <= float(exact.probability) <= mc.high
    assert mc.contains(exact.probability)


def test_monte_carlo_gin():
    exact = dealt_gin()
    mc = simulate_complete(shoe_for("gin_three"), 20000, seed=6)
    assert mc.low <= float(exact.probability) <= mc.high


def test_monte_carlo_is_reproducible_and_shows_progress(capsys):
    a = dealt_complete("three_thirteen", 2, method="monte carlo", samples=3000, seed=9,
                       progress=True)
    b = dealt_complete("three_thirteen", 2, method="monte carlo", samples=3000, seed=9)
    assert a == b
    assert "3000" in capsys.readouterr().err  # the tqdm bar, on stderr


def test_wilson_interval_matches_the_textbook_formula():
    z = 1.959963984540054
    n, k = 1000, 30
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(centre - half) and hi == pytest.approx(centre + half)
    assert wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0


# ---------------------------------------------------------------------------
# Tables, JSON, options and errors


def test_TT_1_TT_2_dealt_table_has_every_round_and_its_method():
    table = dealt_table("tre_tretton", players=2, samples=400, progress=False)
    assert list(table.index) == list(range(1, 12))
    assert list(table["cards"]) == [r + 2 for r in range(1, 12)]  # TT-1
    assert list(table["wild"]) == list("3456789TJQK")  # TT-2
    assert set(table["method"]) == {"exact", "monte carlo"}
    assert table.loc[1, "method"] == "exact"
    assert table.loc[11, "method"] == "monte carlo"
    first = table.loc[1]
    assert Fraction(first["probability"]) == Fraction(960, 22100)
    mc = table[table["method"] == "monte carlo"]
    assert (mc["low"] <= mc["value"]).all() and (mc["value"] <= mc["high"]).all()
    assert (mc["samples"] == 400).all()
    # plotted: exact rounds as dots, Monte Carlo rounds with error bars
    import matplotlib

    matplotlib.use("Agg")
    ax = plot_dealt_table(table, title="tre_tretton, 2 players")
    dots = ax.lines[0].get_xdata()
    assert list(dots) == list(table.index[table["method"] == "exact"])
    assert len(ax.containers) == 1 and ax.get_yscale() == "log"


def test_gin_table_is_one_row():
    table = dealt_table("gin_three", progress=False)
    assert len(table) == 1 and table.iloc[0]["method"] == "exact"
    assert table.iloc[0]["cards"] == 10


def test_odds_json_shapes():
    exact = dealt_complete("three_thirteen", 1, players=2)
    assert exact.to_json() == {"probability": "241/5525", "decimal": 241 / 5525,
                               "method": "exact"}
    mc = Odds.estimate(5, 100)
    out = json.loads(json.dumps(mc.to_json()))
    assert out["probability"] is None and out["samples"] == 100
    assert out["interval"] == [mc.low, mc.high] and out["method"] == "monte carlo"


def test_TT_11_players_decide_the_packs():
    assert shoe_for("three_thirteen", 1, players=2).packs == 1
    assert shoe_for("three_thirteen", 1, players=4).packs == 2
    assert shoe_for("three_thirteen", 1, players=4, packs=3).packs == 3


def test_TJ_3_more_jokers_more_complete_hands():
    p = [dealt_complete("three_thirteen_jokers", 1, jokers=j).probability for j in (0, 2, 4)]
    assert p[0] < p[1] < p[2]


@pytest.mark.parametrize("call, words", [
    (lambda: dealt_complete("canasta"), "the variants are"),
    (lambda: dealt_complete("three_thirteen", 12), "rounds 1 to 11"),
    (lambda: dealt_complete("tre_tretton", jokers=2), "options are"),
    (lambda: dealt_complete("three_thirteen", players=1), "2 to 12 players"),
    (lambda: dealt_complete("three_thirteen", method="guess"), "'monte carlo'"),
    (lambda: dealt_complete("three_thirteen", 1, method="monte carlo", samples=0), "at least 1"),
    (lambda: dealt_complete("gin_three", 3), "no rounds"),
])
def test_bad_requests_say_what_is_allowed(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_exact_too_big_says_to_use_monte_carlo(monkeypatch):
    from rummy.probability import dealt

    monkeypatch.setattr(dealt, "EXACT_LIMIT", 1000)
    with pytest.raises(OddsError, match="monte carlo"):
        dealt_complete("big_table", 6, method="exact")
    monkeypatch.setattr(dealt, "AUTO_LIMIT", 1000)
    assert dealt_complete("big_table", 6, samples=500).method == "monte carlo"
