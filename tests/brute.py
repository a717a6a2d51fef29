"""An independent, obviously-right brute force for meld questions.

A helper module of the tests (not a test module).  Nothing here imports the
solver: a group is tested for being a set or a run by trying every reading,
and a hand is arranged by trying every way to cut it into groups.  Slow, and
simple enough to check by eye.

- :func:`group_is_meld`, :func:`brute_min_penalty`,
  :func:`brute_min_after_discard`, :func:`brute_best_layoffs`: the rules
  given as keywords (wild rank, aces, ...);
- :func:`brute_complete`: can a whole hand be melded, under a variant's
  :class:`rummy.melds.MeldRules` (only its rule values are read);
- :func:`brute_rules`: those keywords for a variant's round, read from the
  kit's variant table (data, not the solver);
- :func:`gin_hands_by_meld_combinations`: the gin hands of one pack, counted
  from the melds up rather than from the hands.

>>> from rummy import cards
>>> brute_min_penalty(cards("7h 8h 9h Kc"), aces="low")
10
>>> gin_hands_by_meld_combinations()
136694
"""

from __future__ import annotations

import itertools
from functools import cache

from rummy.cards import JOKER, SUITS, Card
from rummy.melds import MeldRules


def card_points(card: Card, wild_rank, aces, wild_penalty, joker_penalty, ace_penalty) -> int:
    if card.is_joker:
        return joker_penalty
    if card.rank == wild_rank and wild_penalty is not None:
        return wild_penalty
    if card.rank == 1:
        if ace_penalty is not None:
            return ace_penalty
        return 1 if aces == "low" else 15
    return min(card.rank, 10)


def is_wild(card: Card, wild_rank, jokers_wild=True) -> bool:
    return (card.is_joker and jokers_wild) or (not card.is_joker and card.rank == wild_rank)


def group_is_meld(group, wild_rank, aces, min_naturals, max_set=None, jokers_wild=True) -> bool:
    """Try every set rank and every run placement; wilds fill anything."""
    if len(group) < 3:
        return False
    naturals = [c for c in group if not is_wild(c, wild_rank, jokers_wild)]
    len(group) - len(naturals)
    if len(naturals) < min_naturals:
        return False
    # set: one rank for all naturals
    if len({c.rank for c in naturals}) <= 1 and (max_set is None or len(group) <= max_set):
        return True
    # run: some suit, some start, each natural on its own slot
    ace_values = {"low": [1], "high": [14], "low_or_high": [1, 14]}[aces]
    if len(group) > 13:
        return False
    for suit in "cdhs":
        if any(c.suit != suit for c in naturals):
            continue
        for ace in ace_values:
            values = sorted(ace if c.rank == 1 else c.rank for c in naturals)
            lowest_allowed = 2 if ace == 14 else 1
            highest_allowed = 14 if ace == 14 else 13
            for start in range(lowest_allowed, highest_allowed - len(group) + 2):
                slots = set(range(start, start + len(group)))
                if len(set(values)) == len(values) and set(values) <= slots:
                    return True
    return False


def brute_min_penalty(hand, **rules) -> int:
    """Lowest penalty over every way to split the hand into melds and deadwood."""
    best, n = _searcher(hand, **rules)
    return best((1 << n) - 1)


def brute_min_after_discard(hand, **rules) -> int:
    """Lowest penalty left after throwing away one card, trying every card."""
    best, n = _searcher(hand, **rules)
    full = (1 << n) - 1
    return min(best(full & ~(1 << i)) for i in range(n))


def _searcher(hand, wild_rank=None, aces="low", min_naturals=0, wild_penalty=None,
                      joker_penalty=20, ace_penalty=None, max_set=None, jokers_wild=True) -> int:
    hand = tuple(hand)
    n = len(hand)
    points = [card_points(c, wild_rank, aces, wild_penalty, joker_penalty, ace_penalty)
              if not (jokers_wild is False and c.is_joker) else joker_penalty for c in hand]
    meld_masks: dict[int, list[int]] = {i: [] for i in range(n)}
    wild = [is_wild(c, wild_rank, jokers_wild) for c in hand]

    def could_grow(naturals: list[Card]) -> bool:
        # a group can only become a meld if its naturals share a rank, or
        # share a suit with no rank twice (pruning only; every candidate is
        # still checked by group_is_meld)
        if len({c.rank for c in naturals}) <= 1:
            return True
        return len({c.suit for c in naturals}) == 1 and len({c.rank for c in naturals}) == len(naturals)

    def grow(start: int, mask: int, naturals: list[Card]) -> None:
        if bin(mask).count("1") >= 3:
            group = [hand[i] for i in range(n) if mask >> i & 1]
            if group_is_meld(group, wild_rank, aces, min_naturals, max_set, jokers_wild):
                low = (mask & -mask).bit_length() - 1
                meld_masks[low].append(mask)
        for j in range(start, n):
            more = naturals if wild[j] else naturals + [hand[j]]
            if could_grow(more):
                grow(j + 1, mask | 1 << j, more)

    grow(0, 0, [])

    @cache
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        low = (mask & -mask).bit_length() - 1
        result = points[low] + best(mask & ~(1 << low))
        for m in meld_masks[low]:
            if m & mask == m:
                result = min(result, best(mask & ~m))
        return result

    return best, n


def brute_best_layoffs(hand, melds) -> tuple[int, int]:
    """The defender's best lay-offs (G-8), by trying every card onto every
    meld in every order (gin rules: one pack, no wilds, aces low, sets of 3
    or 4): (lowest deadwood left, fewest lay-offs for it)."""
    gin = dict(max_set=4, jokers_wild=False)

    @cache
    def go(rest: frozenset, groups: tuple) -> tuple[int, int]:
        best = (brute_min_penalty(sorted(rest), **gin), 0)
        for c in rest:
            for i, g in enumerate(groups):
                grown = g | {c}
                if group_is_meld(sorted(grown), None, "low", 0, 4, False):
                    dw, n = go(rest - {c}, groups[:i] + (frozenset(grown),) + groups[i + 1:])
                    best = min(best, (dw, n + 1))
        return best

    return go(frozenset(hand), tuple(frozenset(m) for m in melds))


# -- a whole hand in melds, by the rules of a variant (rummy.melds.MeldRules) -------


def _meld_brute(group, rules: MeldRules) -> bool:
    """Try every reading: one rank for a set, or every placement of a run."""
    if len(group) < 3:
        return False
    naturals = [c for c in group if not rules.is_wild(c)]
    if len(naturals) < rules.min_naturals:
        return False
    if len({c.rank for c in naturals}) <= 1:
        return rules.max_set_size is None or len(group) <= rules.max_set_size
    if len({c.suit for c in naturals}) != 1 or len(group) > 13:
        return False
    for ace in {"low": (1,), "high": (14,), "low_or_high": (1, 14)}[rules.aces]:
        values = sorted(ace if c.rank == 1 else c.rank for c in naturals)
        if len(set(values)) < len(values):
            continue
        lowest, highest = (2, 14) if ace == 14 else (1, 13)
        for start in range(lowest, highest - len(group) + 2):
            if all(start <= v < start + len(group) for v in values):
                return True
    return False


def brute_complete(hand, rules: MeldRules) -> bool:
    """Can every card be put in a meld?  The first natural card's meld is
    every subset of the other naturals with it, plus any number of the
    wilds (which are interchangeable); recurse on what is left.  Wilds left
    at the end need a meld of their own (3 or more, where allowed)."""
    naturals = tuple(c for c in hand if not rules.is_wild(c))
    wilds = len(hand) - len(naturals)
    return _brute(naturals, wilds, rules)


def _brute(naturals, wilds, rules: MeldRules) -> bool:
    if not naturals:
        return wilds == 0 or (wilds >= 3 and rules.min_naturals == 0)
    first, rest = naturals[0], naturals[1:]
    for size in range(0, len(rest) + 1):
        for idx in itertools.combinations(range(len(rest)), size):
            group = (first,) + tuple(rest[i] for i in idx)
            left = tuple(c for i, c in enumerate(rest) if i not in idx)
            for t in range(0, wilds + 1):
                if _meld_brute(group + (JOKER,) * t, rules) and _brute(left, wilds - t, rules):
                    return True
    return False


# -- gin hands, counted from the melds up ---------------------------------------------


def gin_hands_by_meld_combinations() -> int:
    """10-card gin hands of one pack: unions of disjoint melds (sets of 3-4,
    runs of 3+, aces low) whose sizes add up to 10, collected as card sets."""
    melds: list[frozenset] = []
    for r in range(1, 14):
        for k in (3, 4):
            for suits in itertools.combinations(SUITS, k):
                melds.append(frozenset((r, s) for s in suits))
    for s in SUITS:
        for length in range(3, 11):
            for start in range(1, 15 - length):
                melds.append(frozenset((r, s) for r in range(start, start + length)))
    by_size: dict[int, list[frozenset]] = {}
    for m in melds:
        by_size.setdefault(len(m), []).append(m)
    hands: set[frozenset] = set(by_size[10])
    for a in range(3, 8):
        b = 10 - a
        if a > b:
            continue
        for x in by_size[a]:
            for y in by_size[b]:
                if not x & y:
                    hands.add(x | y)
    for x, y in itertools.combinations(by_size[3], 2):
        if x & y:
            continue
        xy = x | y
        for z in by_size[4]:
            if not xy & z:
                hands.add(xy | z)
    return len(hands)


def brute_rules(variant: str, r: int, **options) -> dict:
    """The keyword arguments of this module's functions for a variant's round
    (read from the kit's variant table: the rules are data, the counting is ours)."""
    import rummy

    rules = rummy.find_variant(variant).meld_rules(r, **options) if variant != "gin_three" else \
        rummy.find_variant(variant).meld_rules()
    return dict(wild_rank=rules.wild_rank, aces=rules.aces, min_naturals=rules.min_naturals,
                wild_penalty=rules.wild_penalty, joker_penalty=rules.joker_penalty,
                ace_penalty=rules.ace_penalty, max_set=rules.max_set_size,
                jokers_wild=rules.jokers_wild)
