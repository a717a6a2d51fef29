"""The gin engine's fast deadwood solver and the defender's lay-off search,
checked against independent brute forces (tests/brute.py knows nothing of
either) and against the shared exact solver."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy import cards, penalty
from rummy.cards import deck
from rummy.gin import best_layoffs, deadwood, deadwood_after_discard, layoff_targets
from rummy.variants import find_variant
from tests.brute import brute_min_penalty, group_is_meld

PACK = list(deck())
RULES = find_variant("gin_three").meld_rules()


def brute_gin(hand) -> int:
    return brute_min_penalty(hand, wild_rank=None, aces="low", max_set=4, jokers_wild=False)


@settings(max_examples=120, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 11))
def test_G_1_deadwood_agrees_with_a_brute_force(rng, n):
    hand = rng.sample(PACK, n)
    assert deadwood(hand) == brute_gin(hand)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_G_1_deadwood_of_crowded_hands_agrees_with_a_brute_force(rng):
    # hands from a few ranks of two suits: many overlapping melds
    pool = [c for c in PACK if c.suit in "hs" and c.rank <= 6] + list(cards("3c 4c 5d 3d"))
    hand = rng.sample(pool, 11)
    assert deadwood(hand) == brute_gin(hand)


def test_G_1_deadwood_agrees_with_the_shared_solver_on_2000_hands():
    rng = random.Random(7)
    for _ in range(2000):
        hand = rng.sample(PACK, rng.choice((10, 11)))
        assert deadwood(hand) == penalty(hand, RULES)


def test_deadwood_does_not_depend_on_card_order():
    rng = random.Random(3)
    for _ in range(200):
        hand = rng.sample(PACK, 10)
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert deadwood(hand) == deadwood(shuffled)


def test_G_6_deadwood_after_each_discard():
    hand = cards("2c 3c 4c 7h 7d 7s Ad 2d 3h 4s Kh")
    after = deadwood_after_discard(hand)
    assert after[cards("Kh")[0]] == 1 + 2 + 3 + 4
    assert after[cards("2c")[0]] == 3 + 4 + 1 + 2 + 3 + 4 + 10  # breaks 2c-3c-4c


# -- lay-offs (G-8) ---------------------------------------------------------------

def brute_layoffs(hand, melds) -> int:
    """Lowest deadwood over every assignment of the defender's cards to
    "keep" or to a knocker meld such that each meld plus its cards is still a
    meld (that is exactly what a sequence of one-card lay-offs can build)."""
    candidates = [c for c in hand if any(
        (len({m.rank for m in meld}) == 1 and c.rank == meld[0].rank)
        or (len({m.rank for m in meld}) > 1 and c.suit == meld[0].suit)
        for meld in melds)]
    others = [c for c in hand if c not in candidates]
    best = None
    for choice in itertools.product(range(len(melds) + 1), repeat=len(candidates)):
        groups = [list(m) for m in melds]
        kept = list(others)
        for c, k in zip(candidates, choice):
            if k == len(melds):
                kept.append(c)
            else:
                groups[k].append(c)
        if all(len(g) == len(m) or group_is_meld(g, None, "low", 0, 4, False)
               for g, m in zip(groups, melds)):
            v = brute_gin(kept)
            best = v if best is None else min(best, v)
    assert best is not None
    return best


def _random_knock(rng: random.Random):
    """Knocker melds (a run and a set, sometimes two runs of one suit) and a
    defender hand drawn mostly from cards near them."""
    suit = rng.choice("cdhs")
    lo = rng.randint(1, 9)
    run = [c for c in PACK if c.suit == suit and lo <= c.rank < lo + rng.randint(3, 4)]
    rank = rng.choice([r for r in range(1, 14) if not lo <= r < lo + 4])
    sset = rng.sample([c for c in PACK if c.rank == rank], 3)
    melds = [run, sset]
    third = [c for c in PACK if c.suit == suit and lo + 6 <= c.rank <= lo + 8]
    if rng.random() < 0.4 and lo + 8 <= 13 and not set(third) & set(sset):
        melds.append(third)
    used = {c for m in melds for c in m}
    near = [c for c in PACK if c not in used and (c.suit == suit or c.rank == rank
                                                   or abs(c.rank - rank) <= 1)]
    far = [c for c in PACK if c not in used and c not in near]
    k = min(len(near), rng.randint(4, 8))
    hand = rng.sample(near, k) + rng.sample(far, 10 - k)
    return hand, melds


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False))
def test_G_8_best_layoffs_agree_with_a_brute_force(rng):
    hand, melds = _random_knock(rng)
    plan = best_layoffs(hand, melds)
    assert plan.deadwood == brute_layoffs(hand, melds)
    # the plan replays one card at a time, each extending its meld as it stands
    groups = [list(m) for m in melds]
    for c, i in plan.layoffs:
        assert i in layoff_targets(c, groups)
        groups[i].append(c)
    assert deadwood(plan.kept) == plan.deadwood


def test_G_8_chains_in_both_directions_and_a_fourth_card():
    melds = [cards("6h 7h 8h"), cards("Qc Qd Qs")]
    plan = best_layoffs(cards("5h 4h 9h Th Qh Kd"), melds)
    # 5h then 4h down, 9h then Th up, Qh onto the set: only Kd stays
    assert plan.deadwood == 10 and len(plan.layoffs) == 5
