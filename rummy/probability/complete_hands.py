"""Completeness of a hand and exact counts of complete hands.

A hand is *complete* when every card is in a meld (its best arrangement has
no deadwood).  What matters for that is only the multiset of natural cards
and the number of wilds, so a hand is a pair ``(x, w)``: ``x`` packs the
natural cards as counts, one 4-bit field per card type (position
``suit * 13 + rank - 1``), and ``w`` counts the wilds (jokers and cards of
the round's wild rank, M-4a).

:func:`rummy.search.min_wilds_counts` is the fewest wilds that cover every
natural card with melds (each natural in a set part or a run part, gaps and
short melds filled by wilds).  A hand is complete when that is at most ``w``
and the extra wilds fit somewhere (in a set, a run shorter than 13, or a meld of wilds
only where the rules allow one).  The test-suite checks :func:`is_complete`
against ``rummy.search.penalty(hand) == 0`` on thousands of random hands.

Two exact counting methods share nothing but the card encoding:

* :func:`count_by_generation` builds every complete multiset of naturals
  from meld parts (:func:`rummy.search.wilds.meld_parts`; fast: complete
  hands are rare when wilds are few), and
* :func:`count_by_enumeration` walks every multiset of naturals up to suit
  permutation (one representative per orbit, weighted by the orbit size)
  and asks a completeness check about each.

Both weight a multiset of card types by the number of labelled hands it
stands for: ``C(P, k)`` ways to take ``k`` copies of a card from ``P``
packs, and ``C(4P + J, w)`` ways to take ``w`` wilds.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rummy.cards import JOKER, SUITS, Card
from rummy.melds import MeldRules
from rummy.search import covers_counts, min_wilds_counts
from rummy.search.wilds import meld_parts

__all__ = [
    "Shoe",
    "TooBig",
    "is_complete",
    "encode",
    "count_by_generation",
    "count_by_enumeration",
]

MAX_RUN = 13
_RANKS = range(1, 14)


class TooBig(Exception):
    """An exact count would take too long; callers fall back to Monte Carlo."""


@dataclass(frozen=True, slots=True)
class Shoe:
    """What a dealt hand is drawn from, and what completes it.

    ``packs`` 52-card packs plus ``jokers`` jokers; hands of ``cards`` cards;
    ``rules`` say which rank is wild and how aces and sets play.
    """

    rules: MeldRules
    cards: int
    packs: int
    jokers: int

    @property
    def size(self) -> int:
        """Cards in the shoe."""
        return 52 * self.packs + self.jokers

    @property
    def wild_pool(self) -> int:
        """How many cards of the shoe are wild."""
        wild = 4 * self.packs if self.rules.wild_rank is not None else 0
        return wild + (self.jokers if self.rules.jokers_wild else 0)

    @property
    def natural_ranks(self) -> tuple[int, ...]:
        """Ranks whose cards are natural (not wild)."""
        return tuple(r for r in _RANKS if r != self.rules.wild_rank)

    def exact_ok(self) -> bool:
        """True when the fewest wilds that meld every natural card
        (:func:`rummy.search.min_wilds_counts`) decide completeness (see
        :func:`is_complete`); otherwise only the solver or sampling can."""
        return self.wild_pool == 0 or (self.rules.max_set_size is None and self.cards <= MAX_RUN)


def position(card: Card) -> int:
    """The card's field index in an encoded hand."""
    return SUITS.index(card.suit) * 13 + card.rank - 1


def encode(hand: tuple[Card, ...] | list[Card], rules: MeldRules) -> tuple[int, int]:
    """``(x, w)`` for a hand: packed natural counts and the number of wilds."""
    x = 0
    w = 0
    for c in hand:
        if rules.is_wild(c):
            w += 1
        elif c.is_joker:
            raise ValueError("a joker that is not wild cannot be counted here")
        else:
            x += 1 << (4 * position(c))
    return x, w


@functools.lru_cache(maxsize=32)
def _cover_rules(aces: str, max_set: int | None) -> MeldRules:
    """The rules the search's wild counting is asked under: only how aces
    play and the set cap matter to it, so every wild rank shares one."""
    return MeldRules(aces=aces, max_set_size=max_set)  # type: ignore[arg-type]


def is_complete(x: int, w: int, shoe_or_rules: Shoe | MeldRules, cards: int | None = None
                ) -> bool | None:
    """True if the hand ``(x, w)`` can be fully melded, False if not, None
    when this check can't tell (a set-size cap with wilds, or more than 13
    cards with spare wilds: ask the solver).

    >>> from rummy.cards import cards
    >>> rules = MeldRules(wild_rank=5)
    >>> x, w = encode(cards("7h 9h 5c 4c 4d Jk"), rules)
    >>> is_complete(x, w, rules)      # 7h 5c=8h 9h | 4c 4d Jk
    True
    """
    rules = shoe_or_rules.rules if isinstance(shoe_or_rules, Shoe) else shoe_or_rules
    if x == 0:
        return w == 0 or (w >= 3 and rules.min_naturals == 0)
    n = cards if cards is not None else _size(x) + w
    counted = _cover_rules(rules.aces, rules.max_set_size)
    if w == 0 or (rules.max_set_size is None and n <= MAX_RUN):
        # with no cap on sets and at most 13 cards, spare wilds always fit:
        # at least one meld holds natural cards, a set takes any number of
        # wilds and no run is full (M-5); the budget bounds the search
        return covers_counts(x, w, counted)
    need = min_wilds_counts(x, counted)
    if need > w:
        return False
    if need == w:
        return True
    return None


def _size(x: int) -> int:
    n = 0
    while x:
        n += x & 15
        x >>= 4
    return n


# ---------------------------------------------------------------------------
# Method 1: generate complete natural multisets from meld parts (the meld
# search's list of them, rummy.search.wilds.meld_parts)


def count_by_generation(shoe: Shoe, limit: int = 20_000_000,
                        tick: Callable[[int], None] | None = None,
                        symmetric: bool | None = None) -> dict[int, int]:
    """For each wild count ``w``, the weighted number of natural multisets
    ``N`` of ``cards - w`` cards such that ``N`` plus ``w`` wilds is complete.

    Meld parts are added in order of their lowest card, each multiset once
    per way of splitting it (duplicates are merged).  With ``symmetric``
    only multisets whose suits are the first ``j`` suits (clubs; clubs and
    diamonds; ...) are built, and each stands for the ``C(4, j)`` suit sets
    of its size: permuting suits keeps a hand complete and its weight.  As
    parts come in suit-major order, a part whose lowest card is a heart can
    only be added when clubs and diamonds are already there.  By default
    (None) the symmetry is used where it measured faster: with wilds in
    the shoe (about a third less time for 6-7 cards); without wilds (gin)
    the extra tests cost more than the pruning saves.

    Raises :class:`TooBig` after about ``limit`` search steps.
    """
    if not shoe.exact_ok():
        raise TooBig("extra wilds may not fit: the solver must decide")
    P = shoe.packs
    binom = [math.comb(P, k) for k in range(16)]
    n = shoe.cards
    out: dict[int, int] = {}
    steps = 0
    # 8-bit fields here, so that adding two fields never carries and one
    # mask test tells whether any card is taken more than P times
    over = sum(1 << (8 * pp + 7) for pp in range(52))
    bias = sum((127 - P) << (8 * pp) for pp in range(52))
    if symmetric is None:
        symmetric = shoe.wild_pool > 0
    all_suits = 0 if symmetric else 15  # suits taken as present from the start
    for w in range(min(n, shoe.wild_pool) + 1):
        m = n - w
        if m == 0:
            out[w] = 1 if (w == 0 or (w >= 3 and shoe.rules.min_naturals == 0)) else 0
            if tick:
                tick(1)
            continue
        parts = []
        for _, k, cost, posns in _parts8(shoe, m, w):
            suits = 0
            for pp in posns:
                suits |= 1 << (pp // 13)
            below = (1 << (posns[0] // 13)) - 1  # suits that must already be there
            parts.append((sum(1 << (8 * pp) for pp in posns), k, cost, suits, below))
        smallest = [min((k for _, k, c, _, _ in parts if c <= b), default=m + 1)
                    for b in range(w + 1)]
        count = len(parts)
        # end[have]: parts from here on start in a suit above the lowest
        # missing one, so they can never be added
        end = []
        for have in range(16):
            missing = next((si for si in range(4) if not have >> si & 1), 4)
            end.append(next((i for i, part in enumerate(parts)
                             if part[4] >> missing & 1), count))
        found: set[int] = set()
        stack: list[tuple[int, int, int, int, int]] = [(0, 0, 0, 0, all_suits)]
        while stack:
            start, x, size, cost, have = stack.pop()
            stop = end[have]
            steps += stop - start
            if steps > limit:
                raise TooBig(f"more than {limit} steps")
            rem = m - size
            left = w - cost
            for gi in range(start, stop):
                gx, gs, gc, gsuits, below = parts[gi]
                if gs > rem or gc > left or (have & below) != below:
                    continue
                nx = x + gx
                if (nx + bias) & over:
                    continue
                h2 = have | gsuits
                if gs == rem:
                    if h2 & (h2 + 1) == 0:  # the suits used are the first j
                        found.add(nx)
                elif rem - gs >= smallest[left - gc]:
                    stack.append((gi, nx, size + gs, cost + gc, h2))
        total = 0
        for x in found:
            raw = x.to_bytes(52, "little")
            weight = 1
            if P > 1:
                for k in raw:
                    if k:
                        weight *= binom[k]
            if symmetric:
                j = sum(1 for si in range(4) if any(raw[si * 13:si * 13 + 13]))
                weight *= math.comb(4, j)
            total += weight
        out[w] = total
        if tick:
            tick(1)
    return out


def _parts8(shoe: Shoe, m: int, budget: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Meld parts with their positions listed with repetition."""
    return [(packed, k, cost, _expand(packed)) for packed, k, cost, _ in meld_parts(shoe.rules, shoe.packs, m, budget)]


def _expand(packed: int) -> tuple[int, ...]:
    out = []
    pp = 0
    while packed:
        out += [pp] * (packed & 15)
        packed >>= 4
        pp += 1
    return tuple(out)


# ---------------------------------------------------------------------------
# Method 2: enumerate natural multisets up to suit permutation


def _rows(ranks: tuple[int, ...], size: int, P: int) -> Iterator[tuple[int, ...]]:
    """Multisets of ``size`` ranks (each at most ``P`` times), as sorted tuples."""
    for combo in itertools.combinations_with_replacement(ranks, size):
        if size <= P or max(combo.count(r) for r in set(combo)) <= P:
            yield combo


def _partitions(m: int, parts: int = 4, most: int | None = None) -> Iterator[tuple[int, ...]]:
    """Partitions of ``m`` into exactly ``parts`` non-increasing parts >= 0."""
    most = m if most is None else most
    if parts == 1:
        if m <= most:
            yield (m,)
        return
    for first in range(min(m, most), -1, -1):
        for rest in _partitions(m - first, parts - 1, first):
            yield (first,) + rest


def canonical_multisets(ranks: tuple[int, ...], m: int, P: int
                        ) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
    """One multiset of ``m`` natural cards per suit-permutation orbit, as four
    suit rows (rank tuples), with the orbit's size.

    Rows are in non-increasing (size, ranks) order, so every orbit is met
    exactly once; its size is 4! over the product of factorials of the
    multiplicities of equal rows.
    """
    for sizes in _partitions(m):
        options = [list(_rows(ranks, s, P)) for s in sizes]
        yield from _fill(options, sizes, 0, ())


def _fill(options, sizes, i, chosen):  # type: ignore[no-untyped-def]
    if i == 4:
        mult = 1
        for _, group in itertools.groupby(chosen):
            mult *= math.factorial(len(list(group)))
        yield chosen, 24 // mult
        return
    for row in options[i]:
        if i and sizes[i] == sizes[i - 1] and row > chosen[-1]:
            continue
        yield from _fill(options, sizes, i + 1, chosen + (row,))


def rows_to_cards(rows: tuple[tuple[int, ...], ...]) -> list[Card]:
    """The natural cards of a canonical multiset (rows are suits c, d, h, s)."""
    return [Card(r, SUITS[si]) for si, row in enumerate(rows) for r in row]


def wild_cards(shoe: Shoe, w: int) -> list[Card]:
    """``w`` wild cards of the shoe (wild-rank cards first, then jokers)."""
    pool: list[Card] = []
    if shoe.rules.wild_rank is not None:
        pool += [Card(shoe.rules.wild_rank, s) for s in SUITS] * shoe.packs
    if shoe.rules.jokers_wild:
        pool += [JOKER] * shoe.jokers
    return pool[:w]


def count_by_enumeration(shoe: Shoe, check: Callable[[list[Card], int], bool] | None = None,
                         limit: int = 5_000_000) -> dict[int, int]:
    """Like :func:`count_by_generation`, by walking every natural multiset
    (one per suit-permutation orbit) and asking ``check(naturals, w)``.

    The default check is :func:`is_complete`; pass one built on
    ``rummy.search.penalty`` for an independent count.
    """
    P = shoe.packs
    binom = [math.comb(P, k) for k in range(16)]
    n = shoe.cards
    out: dict[int, int] = {}
    seen = 0
    rules = shoe.rules
    for w in range(min(n, shoe.wild_pool) + 1):
        m = n - w
        total = 0
        for rows, orbit in canonical_multisets(shoe.natural_ranks, m, P):
            seen += 1
            if seen > limit:
                raise TooBig(f"more than {limit} multisets")
            if check is None:
                x = 0
                for si, row in enumerate(rows):
                    for r in row:
                        x += 1 << (4 * (si * 13 + r - 1))
                ok = is_complete(x, w, rules, n)
                if ok is None:
                    raise TooBig("the solver must decide")
            else:
                ok = check(rows_to_cards(rows), w)
            if ok:
                weight = 1
                for row in rows:
                    for _, grp in itertools.groupby(row):
                        weight *= binom[len(list(grp))]
                total += orbit * weight
        out[w] = total
    return out
