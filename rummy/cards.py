"""Cards, decks and their one text notation.

A card is written as two characters, rank then suit: ``"Th"`` is the ten of
hearts, ``"As"`` the ace of spades and ``"Jk"`` a joker.  Ranks are
``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is accepted on input and printed as
``T``); suits are ``c d h s`` (``♣ ♦ ♥ ♠`` are accepted on input).

>>> Card.parse("10♥")
Card.parse('Th')
>>> str(Card.parse("qs"))
'Qs'
>>> cards("7h 8h 9h")
(Card.parse('7h'), Card.parse('8h'), Card.parse('9h'))
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rummy.errors import GameError

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "JOKER",
    "cards",
    "deck",
    "shuffled",
    "rank_name",
    "parse_rank",
    "format_cards",
]

#: Rank characters by rank number (index 1..13); index 0 is the joker.
RANKS = "?A23456789TJQK"
#: Suit characters in their canonical order: clubs, diamonds, hearts, spades.
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
_RANK_WORDS = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king",
}
_VALID_FORMS = (
    "a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (c d h s or "
    "♣ ♦ ♥ ♠), e.g. 'Th' or '7♠'; a joker is 'Jk'"
)


class CardError(GameError):
    """Raised for text that is not a card; the message quotes the bad token."""


def parse_rank(text: str) -> int:
    """Return the rank number (1..13) written as ``text``.

    >>> parse_rank("Q"), parse_rank("10"), parse_rank("a")
    (12, 10, 1)
    """
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANKS[1:]:
        return RANKS.index(t)
    if t.isdigit() and 1 <= int(t) <= 13:
        return int(t)
    words = {w: r for r, w in _RANK_WORDS.items()}
    singular = t.lower().rstrip("s") if t.lower() != "sixes" else "six"
    if t.lower() in words:
        return words[t.lower()]
    if singular in words:
        return words[singular]
    raise CardError(
        f"{text!r} is not a rank; ranks are A 2 3 4 5 6 7 8 9 T J Q K "
        "(or 10, or the numbers 1-13)"
    )


def rank_name(rank: int, plural: bool = False) -> str:
    """The English word for a rank number.

    >>> rank_name(11), rank_name(6, plural=True)
    ('jack', 'sixes')
    """
    word = _RANK_WORDS[rank]
    if plural:
        return "sixes" if word == "six" else word + "s"
    return word


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card (a value: two equal cards from two packs are equal).

    ``rank`` is 1 (ace) .. 13 (king), or 0 for a joker; ``suit`` is one of
    ``"cdhs"``, or ``""`` for a joker.
    """

    rank: int
    suit: str
    #: 0..51 (suit-major, aces low) or 52 for a joker; used by fast code paths
    index: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.rank == 0:
            if self.suit != "":
                raise CardError("a joker has no suit: write it 'Jk'")
            object.__setattr__(self, "index", 52)
            return
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise CardError(f"rank {self.rank!r} is not 1..13 (or 0 for a joker)")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(f"suit {self.suit!r} is not one of c, d, h, s")
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + self.rank - 1)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card from its text form.

        >>> Card.parse("Jk").is_joker
        True
        >>> Card.parse("1x")
        Traceback (most recent call last):
        ...
        rummy.cards.CardError: '1x' is not a card: a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (c d h s or ♣ ♦ ♥ ♠), e.g. 'Th' or '7♠'; a joker is 'Jk'
        """
        if not isinstance(text, str):
            raise CardError(f"{text!r} is not a card: {_VALID_FORMS}")
        t = text.strip()
        if t in ("Jk", "JK", "jk", "jK", "🃏", "Joker", "joker", "JOKER"):
            return JOKER
        if len(t) < 2:
            raise CardError(f"{text!r} is not a card: {_VALID_FORMS}")
        rank_text, suit_text = t[:-1], t[-1]
        suit = _SYMBOL_TO_SUIT.get(suit_text, suit_text.lower())
        if suit not in SUITS:
            raise CardError(f"{text!r} is not a card: {_VALID_FORMS}")
        r = rank_text.upper()
        if r == "10":
            rank = 10
        elif len(r) == 1 and r in RANKS[1:]:
            rank = RANKS.index(r)
        else:
            raise CardError(f"{text!r} is not a card: {_VALID_FORMS}")
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank == 0

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``'T♥'`` (``'🃏'`` for a joker)."""
        return "🃏" if self.rank == 0 else RANKS[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """The card in words, for screen readers: ``'ten of hearts'``."""
        if self.rank == 0:
            return "joker"
        return f"{_RANK_WORDS[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def face_value(self) -> int:
        """Penalty at face value (C-2): ace 1, 2-10 as marked, J/Q/K 10."""
        return min(self.rank, 10)

    def sort_key(self) -> tuple[int, int]:
        """Order by suit (c, d, h, s) then rank, jokers last."""
        if self.rank == 0:
            return (4, 0)
        return (self.index // 13, self.rank)

    # Equality and hashing through ``index`` (one int per card), which the
    # solvers and bots do millions of times; equal to comparing (rank, suit).
    def __eq__(self, other: object) -> bool:
        if other.__class__ is Card:
            return self.index == other.index  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return "Jk" if self.rank == 0 else RANKS[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index  # the same order as sort_key

    def _repr_svg_(self) -> str:
        from rummy import render

        return render.card_svg(self)


JOKER = Card(0, "")


def cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read a hand: cards separated by spaces or commas.

    >>> cards("Qh, Kh  10s")
    (Card.parse('Qh'), Card.parse('Kh'), Card.parse('Ts'))
    >>> cards("")
    ()
    >>> cards(7)
    Traceback (most recent call last):
    ...
    rummy.cards.CardError: 7 is not a hand: give cards as text such as '7h 8h 9h', or as a list of cards
    """
    tokens: list[str | Card]
    if isinstance(text, str):
        tokens = list(text.replace(",", " ").split())
    else:
        try:
            tokens = list(text)
        except TypeError:
            raise CardError(f"{text!r} is not a hand: give cards as text such as '7h 8h 9h', "
                            "or as a list of cards") from None
    out = []
    for tok in tokens:
        out.append(tok if isinstance(tok, Card) else Card.parse(tok))
    return tuple(out)


def format_cards(hand: Iterable[Card]) -> str:
    """The text form of several cards, separated by spaces.

    >>> format_cards(cards("7h 8h"))
    '7h 8h'
    """
    return " ".join(str(c) for c in hand)


def deck(packs: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """All cards of ``packs`` 52-card packs plus ``jokers`` jokers, in order.

    >>> len(deck()), len(deck(2, jokers=4))
    (52, 108)
    """
    if not isinstance(packs, int) or not 1 <= packs <= 8:
        raise ValueError(f"packs must be a whole number from 1 to 8, not {packs!r}")
    if not isinstance(jokers, int) or not 0 <= jokers <= 8:
        raise ValueError(f"jokers must be a whole number from 0 to 8, not {jokers!r}")
    return _PACK * packs + (JOKER,) * jokers


#: the 52 cards of one pack, in :func:`deck` order, made once: every deck
#: shares them (cards are values), so equal cards are mostly the same object
#: and compare by identity
_PACK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))


def shuffled(cards_: Iterable[Card], seed: int | random.Random | None = None) -> list[Card]:
    """A shuffled copy; the same seed gives the same order on every run.

    >>> shuffled(deck(), seed=1)[:3] == shuffled(deck(), seed=1)[:3]
    True
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    out = list(cards_)
    rng.shuffle(out)
    return out


def as_cards(hand: Any) -> tuple[Card, ...]:
    """Accept a string, or an iterable of cards or card strings."""
    if isinstance(hand, Card):
        return (hand,)
    return cards(hand)
