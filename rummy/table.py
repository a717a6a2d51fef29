"""Table mechanics shared by every engine: the shoe, the stock, discard piles.

The top of a pile is the end of its list.  All randomness comes from one
``random.Random`` that the game owns, so a seed fixes the whole game.

>>> import random
>>> rng = random.Random(7)
>>> stock = Stock(make_shoe(packs=1, jokers=0, rng=rng))
>>> len(stock), len(deal(stock, players=2, cards=3)[0]), len(stock)
(52, 3, 46)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from rummy.cards import Card, deck

__all__ = ["Stock", "make_shoe", "deal", "reshuffle", "shuffle"]

T = TypeVar("T")


def shuffle(cards: list[T], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same order from the same RNG position,
    with the RNG's draws made here (the standard library's loop calls a
    method per card; every round of every game is shuffled).  An RNG of
    another class shuffles its own way.

    >>> a, b = list(range(10)), list(range(10))
    >>> shuffle(a, random.Random(3)); random.Random(3).shuffle(b); a == b
    True
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    steps = _STEPS.get(len(cards)) or _steps(len(cards))
    for i, n, k in steps:  # j uniform in 0..i, drawn as random.Random._randbelow draws it
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


#: (i, i + 1, its bit length) for i from the last position down to 1, by
#: the number of cards shuffled
_STEPS: dict[int, list[tuple[int, int, int]]] = {}


def _steps(length: int) -> list[tuple[int, int, int]]:
    got = _STEPS[length] = [(i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1)]
    return got


def make_shoe(packs: int, jokers: int, rng: random.Random) -> list[Card]:
    """All cards of ``packs`` packs plus ``jokers`` jokers, shuffled by ``rng``."""
    cards = list(deck(packs, jokers))
    shuffle(cards, rng)
    return cards


class Stock:
    """The face-down stock (or Big Table pool): draw from the top."""

    __slots__ = ("cards",)

    def __init__(self, cards: Sequence[Card] = ()) -> None:
        self.cards: list[Card] = list(cards)

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self) -> Card:
        """Take the top card; raises IndexError when empty."""
        return self.cards.pop()

    def copy(self) -> Stock:
        """An independent copy."""
        return Stock(self.cards)


def deal(stock: Stock, players: int, cards: int) -> list[list[Card]]:
    """Deal ``cards`` cards to each of ``players`` players, one at a time."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(cards):
        for hand in hands:
            hand.append(stock.draw())
    return hands


def reshuffle(stock: Stock, piles: Sequence[list[Card]], rng: random.Random) -> int:
    """Move every pile's cards except its top card into the stock and shuffle
    it (TT-10, BT-8).  Returns how many cards moved."""
    moved: list[Card] = []
    for pile in piles:
        if len(pile) > 1:
            moved.extend(pile[:-1])
            del pile[:-1]
    moved.extend(stock.cards)
    shuffle(moved, rng)
    stock.cards = moved
    return len(moved)
