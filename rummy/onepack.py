"""The one-pack gin search, shared by the engine (:mod:`rummy.gin`) and its
bots (:mod:`rummy.bots.gin`): cards as bits, exact lowest deadwood, the
defender's best lay-offs and every arrangement within a knock limit.

One 52-card pack, no wilds, aces low (G-1).  A card is a bit
(``suit * 13 + rank - 1``, suits in c d h s order, the order cards sort in);
a hand is an ``int`` mask.  The lowest deadwood and the best lay-offs are
the one meld search's (:func:`rummy.search.mask_penalty`,
:func:`rummy.search.best_layoffs_masks`), under the names gin's code knew
them by; tests/test_gin_solver.py checks them against a brute force.

>>> from rummy.cards import cards
>>> deadwood_of(mask_of(cards("7h 8h 9h 9c 9d Kc 2s")))   # set 9c-9d-9h: 7+8+10+2 left
27
>>> best_layoffs_of(mask_of(cards("5h Kc")), (mask_of(cards("6h 7h 8h")),), {})
(10, ((30, 0),))
>>> cards_of(1 << 30), bit(cards("5h")[0])       # 5h lays off onto meld 0; Kc is left
([Card.parse('5h')], 30)
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from rummy.cards import SUITS, Card, deck
from rummy.errors import GameError
from rummy.search import best_layoffs_masks, bits_of, extension_bits, mask_penalty

__all__ = [
    "CARDS", "VALUES", "RUNS_BY_LOW", "SETS_BY_LOW", "MELD_MASKS",
    "bit", "mask_of", "cards_of", "bits_of", "deadwood_of", "meldable", "deadwood_floor",
    "extension_bits", "best_layoffs_of", "arrangements_of",
]

#: The 52 cards in bit order (the same order as ``deck(1, 0)``).
CARDS: list[Card] = [Card(_r, _s) for _s in SUITS for _r in range(1, 14)]
assert tuple(CARDS) == deck(1, 0)  # the same order as the shared deck
VALUES = [min(c.rank, 10) for c in CARDS]
RUNS_BY_LOW: list[list[int]] = [[] for _ in range(52)]
SETS_BY_LOW: list[list[int]] = [[] for _ in range(52)]
for _si in range(4):
    for _lo in range(13):
        for _hi in range(_lo + 2, 13):
            RUNS_BY_LOW[_si * 13 + _lo].append(
                sum(1 << (_si * 13 + r) for r in range(_lo, _hi + 1)))
for _r in range(13):
    _bits = [_si * 13 + _r for _si in range(4)]
    for _k in (3, 4):
        for _combo in combinations(_bits, _k):
            SETS_BY_LOW[min(_combo)].append(sum(1 << b for b in _combo))


_SUIT_IX = {s: i for i, s in enumerate(SUITS)}


def bit(c: Card) -> int:
    """The bit of a card (suit-then-rank order, the order cards sort in)."""
    return _SUIT_IX[c.suit] * 13 + c.rank - 1


def mask_of(cards_: Iterable[Card]) -> int:
    """The mask of a gin hand; a joker or a card twice raises :class:`GameError`."""
    m = 0
    for c in cards_:
        if c.rank == 0:
            raise GameError(f"{c} is not a card of gin's one 52-card pack (no jokers, G-1)")
        b = 1 << (_SUIT_IX[c.suit] * 13 + c.rank - 1)
        if m & b:
            raise GameError(f"{c} is twice in the hand; gin uses one pack (G-1)")
        m |= b
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in bit (card) order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


#: Lowest deadwood of the cards in a mask (exact): the one search's
#: :func:`rummy.search.mask_penalty` under gin's rules (G-1).
deadwood_of = mask_penalty


_R13 = (1 << 13) - 1
_SUIT_BLOCKS = sum(_R13 << (13 * i) for i in range(4))
# bits whose rank is not a king / not an ace, per suit (shifts stay in the suit)
_NOT_KING = sum(((1 << 12) - 1) << (13 * i) for i in range(4))
_NOT_ACE = sum((_R13 - 1) << (13 * i) for i in range(4))


def meldable(m: int) -> int:
    """Cards of ``m`` that could be in some meld of ``m`` (a cheap test)."""
    up1 = (m & _NOT_KING) << 1          # card one rank above a held card
    dn1 = (m & _NOT_ACE) >> 1           # card one rank below a held card
    up2 = (up1 & _NOT_KING) << 1 & (m & _NOT_KING) << 1  # two held below, consecutive
    dn2 = (dn1 & _NOT_ACE) >> 1 & (m & _NOT_ACE) >> 1
    run = m & ((up1 & dn1) | up2 | dn2)
    a, b, c, d = m & _R13, m >> 13 & _R13, m >> 26 & _R13, m >> 39 & _R13
    three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    sets = m & (three | three << 13 | three << 26 | three << 39)
    return run | sets


def deadwood_floor(m: int) -> int:
    """A lower bound of the deadwood of ``m``: cards that fit no meld."""
    rest = m & ~meldable(m)
    total = 0
    while rest:
        low = rest & -rest
        total += VALUES[low.bit_length() - 1]
        rest ^= low
    return total


#: The defender's best lay-offs of a hand onto the knocker's melds (chains
#: included): ``best_layoffs_of(hand, melds, memo)`` is
#: :func:`rummy.search.best_layoffs_masks`: (lowest deadwood left, ((card
#: bit, meld index), ...)), fewest lay-offs on a tie; ``memo`` is shared
#: between calls on one knock.
best_layoffs_of = best_layoffs_masks


MELD_MASKS = frozenset(m for group in (RUNS_BY_LOW, SETS_BY_LOW) for ms in group for m in ms)


def arrangements_of(mask: int, limit: int) -> list[tuple[tuple[int, ...], int]]:
    """Every way to split ``mask`` into melds and deadwood worth at most
    ``limit`` points: (meld masks, deadwood mask), each split once."""
    out: list[tuple[tuple[int, ...], int]] = []

    def split(rest: int, melds: tuple[int, ...], dead: int, points: int) -> None:
        if not rest:
            out.append((melds, dead))
            return
        low = rest & -rest
        b = low.bit_length() - 1
        if points + VALUES[b] <= limit:  # the lowest card as deadwood
            split(rest ^ low, melds, dead | low, points + VALUES[b])
        for m in RUNS_BY_LOW[b]:      # or in a meld whose lowest card it is
            if m & rest != m:
                break
            split(rest ^ m, melds + (m,), dead, points)
        for m in SETS_BY_LOW[b]:
            if m & rest == m:
                split(rest ^ m, melds + (m,), dead, points)

    split(mask, (), 0, 0)
    return out

