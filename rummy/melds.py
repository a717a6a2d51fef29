"""Melds and the rules that decide them: the values the meld search works with.

A *meld* is a set (3+ cards of one rank) or a run (3+ cards of one suit in
consecutive ranks), RULES.md M-1..M-5.  Wild cards (the round's wild rank,
and jokers) stand for any card.  :class:`MeldRules` says what melds and
what an unmelded card costs; :func:`is_meld` and :func:`why_not` judge a
group of cards; :class:`Meld`, :class:`Arrangement` (a hand split into
melds and deadwood) and :class:`Discard` are the values.

>>> from rummy.cards import cards
>>> rules = MeldRules()
>>> is_meld(cards("7h 7h 7s"), rules)
True
>>> why_not(cards("8h Th Jh"), rules)
'not a run: 9h is missing; a wild or 9h would complete it'
>>> str(Meld.of(cards("7h 9h Jk"), rules))
'7h Jk=8h 9h'

Scoring a hand means arranging it into melds to the **lowest** penalty
(M-7): the meld search, :mod:`rummy.search` (``best_arrangement``,
``penalty``, ``best_discard``, ...), does that exactly, for any hand size
and any mix of packs, wilds and jokers.  It builds its values with the
unchecked constructors here (:func:`make_meld`, :func:`make_set`,
:func:`make_run`, :func:`make_arrangement`, :func:`make_discard`).  This
module imports only :mod:`rummy.cards` (and :mod:`rummy.render` to draw a
value); the search imports it, never the other way round.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from rummy.cards import SUITS, Card, as_cards, format_cards, rank_name

__all__ = [
    "MeldRules",
    "MeldError",
    "Meld",
    "Arrangement",
    "Discard",
    "is_meld",
    "why_not",
    "run_fit",
    "make_set",
    "make_run",
    "make_meld",
    "make_arrangement",
    "make_discard",
]

Aces = Literal["low", "high", "low_or_high"]
_ACES = ("low", "high", "low_or_high")
MIN_MELD = 3  # a meld has at least 3 cards (M-1, M-2)
MAX_RUN = 13  # a run is at most A..K (M-5)
_DEAD = 64  # cost encoding: penalty * _DEAD + number of deadwood cards


class MeldError(ValueError):
    """Raised for a group of cards that is not a meld, or bad meld rules."""


@dataclass(frozen=True, slots=True)
class MeldRules:
    """Everything that decides what melds and what unmelded cards cost.

    ``wild_rank``: the rank (1..13) whose cards are wild, or None.
    ``jokers_wild``: jokers are wild (C-4).  ``aces``: ``"low"`` (A-2-3 only),
    ``"high"`` (Q-K-A only) or ``"low_or_high"`` (both; never K-A-2).
    ``min_naturals``: how many non-wild cards a meld needs (0 or 1, M-4).
    ``wild_penalty``: what an unmelded wild-rank card costs (None: face value).
    ``joker_penalty``: what an unmelded joker costs.  ``ace_penalty``: what an
    unmelded ace costs (None: 1 with aces low, else 15).  ``max_set_size``:
    largest set allowed (None: no limit; gin uses 4).  A run is at most 13
    cards long whatever the options (M-5).

    >>> MeldRules(wild_rank=3, aces="high").penalty_of(Card.parse("As"))
    15
    >>> MeldRules(aces="sideways")
    Traceback (most recent call last):
    ...
    rummy.melds.MeldError: aces must be one of 'low', 'high', 'low_or_high', not 'sideways'
    """

    wild_rank: int | None = None
    jokers_wild: bool = True
    aces: Aces = "low"
    min_naturals: int = 0
    wild_penalty: int | None = None
    joker_penalty: int = 20
    ace_penalty: int | None = None
    max_set_size: int | None = None
    # the hash, computed once: rules are dictionary keys in every solver cache
    _hash: int = field(init=False, repr=False, compare=False, hash=False, default=0)

    def __post_init__(self) -> None:
        if self.wild_rank is not None and (
            not isinstance(self.wild_rank, int) or not 1 <= self.wild_rank <= 13
        ):
            raise MeldError(f"wild_rank must be None or a rank 1..13, not {self.wild_rank!r}")
        if self.aces not in _ACES:
            raise MeldError(
                f"aces must be one of 'low', 'high', 'low_or_high', not {self.aces!r}"
            )
        if self.min_naturals not in (0, 1):
            raise MeldError(f"min_naturals must be 0 or 1, not {self.min_naturals!r}")
        for name in ("wild_penalty", "ace_penalty"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 0):
                raise MeldError(f"{name} must be None or a whole number >= 0, not {v!r}")
        if not isinstance(self.joker_penalty, int) or self.joker_penalty < 0:
            raise MeldError(f"joker_penalty must be a whole number >= 0, not {self.joker_penalty!r}")
        if self.max_set_size is not None and (
            not isinstance(self.max_set_size, int) or self.max_set_size < 3
        ):
            raise MeldError(f"max_set_size must be None or at least 3, not {self.max_set_size!r}")
        object.__setattr__(self, "_hash", hash((
            self.wild_rank, self.jokers_wild, self.aces, self.min_naturals, self.wild_penalty,
            self.joker_penalty, self.ace_penalty, self.max_set_size)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt through the constructor, so a copy in another process hashes
        # as that process hashes (string hashes differ between processes)
        return (MeldRules, (self.wild_rank, self.jokers_wild, self.aces, self.min_naturals,
                            self.wild_penalty, self.joker_penalty, self.ace_penalty,
                            self.max_set_size))

    def is_wild(self, card: Card) -> bool:
        """True if ``card`` is wild under these rules (M-4, M-4a, C-4)."""
        if card.rank == 0:
            return self.jokers_wild
        return card.rank == self.wild_rank

    def penalty_of(self, card: Card) -> int:
        """Penalty points of ``card`` left unmelded (C-2, TS-1, TJ-4, TJ-5)."""
        if card.rank == 0:
            return self.joker_penalty
        if card.rank == self.wild_rank and self.wild_penalty is not None:
            return self.wild_penalty
        if card.rank == 1:
            if self.ace_penalty is not None:
                return self.ace_penalty
            return 1 if self.aces == "low" else 15
        return card.face_value

    def wild_words(self, jokers: bool = False) -> str:
        """What is wild, in words, for a game with jokers in it or not.

        >>> MeldRules(wild_rank=5).wild_words(jokers=True)
        'fives are wild, and so are jokers'
        >>> MeldRules(jokers_wild=False).wild_words(jokers=True)
        'nothing is wild'
        """
        jokers = jokers and self.jokers_wild
        if not self.wild_rank:
            return "jokers are wild" if jokers else "nothing is wild"
        text = f"{rank_name(self.wild_rank, plural=True)} are wild"
        return text + ", and so are jokers" if jokers else text

    def describe(self) -> str:
        """One line saying what is wild and how aces play."""
        parts = []
        if self.wild_rank:
            parts.append(f"{rank_name(self.wild_rank, plural=True)} are wild")
        if self.jokers_wild:
            parts.append("jokers are wild")
        parts.append({"low": "aces low", "high": "aces high",
                      "low_or_high": "aces low or high"}[self.aces])
        if self.min_naturals:
            parts.append("a meld needs a natural card")
        return ", ".join(parts)


# ---------------------------------------------------------------------------
# Meld validity (independent of the solver)


def _split(group: tuple[Card, ...], rules: MeldRules) -> tuple[list[Card], list[Card]]:
    naturals = [c for c in group if not rules.is_wild(c)]
    wilds = [c for c in group if rules.is_wild(c)]
    return naturals, wilds


_LOW = {r: r for r in range(1, 14)}
_HIGH = {r: r for r in range(2, 14)} | {1: 14}
#: ace reading -> (rank -> position, lowest position, highest, position -> rank)
_LINES = {
    "low": [(_LOW, 1, 13, {p: r for r, p in _LOW.items()})],
    "high": [(_HIGH, 2, 14, {p: r for r, p in _HIGH.items()})],
    "low_or_high": [(_LOW, 1, 13, {p: r for r, p in _LOW.items()}),
                    (_HIGH, 2, 14, {p: r for r, p in _HIGH.items()})],
}
#: every card by (rank, suit), built once (meld building makes many)
_CARD = {(r, s): Card(r, s) for s in SUITS for r in range(1, 14)}


def _run_positions(rules: MeldRules) -> list[dict[int, int]]:
    """Ways to place ranks on a line: rank -> position (one dict per ace reading)."""
    return [line[0] for line in _LINES[rules.aces]]


def run_fit(naturals: list[Card], n_wilds: int, rules: MeldRules) -> tuple[list[int], str] | None:
    """Try to read ``naturals`` (one suit, distinct ranks) as a run.

    Returns (ranks of the whole run, '') when it fits, None when no ace
    reading gives a run with the wilds available.  Wilds beyond the gaps
    go above the top card, then below the bottom one.

    >>> from rummy.cards import cards
    >>> run_fit(list(cards("8h Th")), 2, MeldRules())
    ([8, 9, 10, 11], '')
    >>> run_fit(list(cards("Qh Ah")), 1, MeldRules(aces="high")), run_fit(list(cards("Qh Ah")), 1, MeldRules())
    (([12, 13, 1], ''), None)
    """
    size = len(naturals) + n_wilds
    if size > MAX_RUN:
        return None
    for pos, lo_bound, hi_bound, inverse in _LINES[rules.aces]:
        ps = sorted([pos[c.rank] for c in naturals])
        span = ps[-1] - ps[0] + 1
        gaps = span - len(ps)
        if gaps > n_wilds:
            continue
        extra = n_wilds - gaps
        top = min(hi_bound, ps[-1] + extra)
        bottom = top - size + 1
        if bottom < lo_bound:
            continue
        return [inverse[p] for p in range(bottom, top + 1)], ""
    return None


def why_not(cards_: Iterable[Card | str] | str, rules: MeldRules | None = None) -> str | None:
    """Say in a sentence why ``cards_`` is not a meld, or None if it is one.

    >>> from rummy.cards import cards
    >>> why_not(cards("7h 7h 7s"))
    >>> why_not(cards("Qh Kh Ah"))
    'not a run: aces are low here, so an ace only goes below a 2 (A-2-3), never above a king'
    >>> why_not(cards("3c 3d 3s"), MeldRules(wild_rank=3, min_naturals=1))
    'every card here is wild (threes are wild), and a meld needs at least one natural card'
    """
    rules = rules or MeldRules()
    group = as_cards(cards_)
    if len(group) < MIN_MELD:
        n = len(group)
        return f"a meld needs at least {MIN_MELD} cards; this is {n} card{'s' * (n != 1)}"
    naturals, wilds = _split(group, rules)
    if len(naturals) < rules.min_naturals:
        wild_kinds = []
        if rules.wild_rank:
            wild_kinds.append(f"{rank_name(rules.wild_rank, plural=True)} are wild")
        if any(c.is_joker for c in wilds):
            wild_kinds.append("jokers are wild")
        return (f"every card here is wild ({', '.join(wild_kinds)}), and a meld needs "
                "at least one natural card")
    if not naturals:
        return None
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    # A set?
    if len(ranks) == 1:
        if rules.max_set_size is not None and len(group) > rules.max_set_size:
            return f"not a set: a set has at most {rules.max_set_size} cards here"
        return None
    # A run?
    set_reason = "not a set: the ranks differ (" + format_cards(sorted(naturals)) + ")"
    if len(suits) > 1:
        return set_reason + "; not a run: the suits differ"
    if len(ranks) < len(naturals):
        dup = sorted(c for c in naturals if sum(d == c for d in naturals) > 1)[0]
        return f"{set_reason}; not a run: a run holds each rank once, and {dup} is here twice"
    if len(group) > MAX_RUN:
        return f"{set_reason}; not a run: a run has at most {MAX_RUN} cards"
    if run_fit(naturals, len(wilds), rules) is not None:
        return None
    # Explain the failure: missing cards for the best ace reading.
    suit = naturals[0].suit
    best: tuple[int, list[int]] | None = None
    for pos in _run_positions(rules):
        inverse = {p: r for r, p in pos.items()}
        ps = sorted(pos[c.rank] for c in naturals)
        missing = [inverse[p] for p in range(ps[0], ps[-1] + 1) if p not in ps]
        if best is None or len(missing) < best[0]:
            best = (len(missing), missing)
    assert best is not None
    missing_cards = [Card(r, suit) for r in best[1]]
    has_ace = any(c.rank == 1 for c in naturals)
    if has_ace and rules.aces == "low" and any(c.rank >= 12 for c in naturals):
        return ("not a run: aces are low here, so an ace only goes below a 2 (A-2-3), "
                "never above a king")
    if has_ace and rules.aces == "high" and any(c.rank <= 3 for c in naturals):
        return ("not a run: aces are high here, so an ace only goes above a king (Q-K-A), "
                "never below a 2")
    if has_ace and any(c.rank <= 2 for c in naturals) and any(c.rank >= 12 for c in naturals):
        return "not a run: runs never wrap around the ace (K-A-2 is never a run)"
    n_missing = len(missing_cards)
    shown = format_cards(missing_cards)
    verb = "is" if n_missing == 1 else "are"
    if n_missing == 1:
        fix = f"a wild or {shown} would complete it"
    else:
        fix = f"{n_missing} more wilds or those cards would complete it"
    if wilds:
        fix = f"{len(wilds)} wild{'s' * (len(wilds) > 1)} cannot fill {n_missing} gaps; " + fix
    return f"not a run: {shown} {verb} missing; {fix}"


def is_meld(cards_: Iterable[Card | str] | str, rules: MeldRules | None = None) -> bool:
    """True if the cards form one valid meld under ``rules`` (M-1..M-5).

    >>> from rummy.cards import cards
    >>> is_meld(cards("Qh Kh Ah"), MeldRules(aces="high"))
    True
    >>> is_meld(cards("Kh Ah 2h"), MeldRules(aces="low_or_high"))
    False
    """
    return why_not(cards_, rules) is None


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld: its cards, whether it is a set or a run, and what each
    wild stands for (``represents[i]`` is the card that ``cards[i]`` plays as).

    >>> from rummy.cards import cards
    >>> m = Meld.of(cards("Qh Kh Jk"))
    >>> str(m), m.kind
    ('Jk=Jh Qh Kh', 'run')
    """

    cards: tuple[Card, ...]
    kind: Literal["set", "run"]
    represents: tuple[Card, ...]
    #: which cards are wild (empty: none is)
    wild: tuple[bool, ...] = ()

    @classmethod
    def of(cls, cards_: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Meld:
        """Build a meld from cards, or raise :class:`MeldError` saying why not."""
        rules = rules or MeldRules()
        group = as_cards(cards_)
        reason = why_not(group, rules)
        if reason is not None:
            raise MeldError(f"{format_cards(group)} is not a meld: {reason}")
        naturals, wilds = _split(group, rules)
        naturals.sort()
        wilds.sort(key=lambda c: (-rules.penalty_of(c), c.sort_key()))
        if naturals and len({c.rank for c in naturals}) == 1:
            return make_set(naturals, wilds, naturals[0].rank)
        if not naturals:
            rank = rules.wild_rank or 13
            return make_set([], wilds, rank)
        fit = run_fit(naturals, len(wilds), rules)
        if fit is None and len(naturals) == 1:
            return make_set(naturals, wilds, naturals[0].rank)
        assert fit is not None
        return make_run(naturals, wilds, fit[0])

    @property
    def wild_roles(self) -> tuple[tuple[Card, Card], ...]:
        """(wild, card it stands for) for every wild in the meld."""
        if not self.wild:
            return ()
        return tuple((c, r) for c, r, w in zip(self.cards, self.represents, self.wild) if w)

    def __str__(self) -> str:
        flags = self.wild or (False,) * len(self.cards)
        return " ".join(f"{c}={r}" if w else str(c)
                        for c, r, w in zip(self.cards, self.represents, flags))

    def __len__(self) -> int:
        return len(self.cards)

    def _repr_svg_(self) -> str:
        from rummy import render

        return render.meld_svg(self)


def make_set(naturals: list[Card], wilds: list[Card], rank: int) -> Meld:
    """The set of ``naturals`` (cards of ``rank``, sorted) and ``wilds``,
    unchecked: each wild stands for a card of ``rank`` in a suit the
    naturals leave free (in suit order, round again when all are taken).

    >>> from rummy.cards import cards
    >>> str(make_set(list(cards("7h 7s")), list(cards("Jk")), 7))
    '7h 7s Jk=7c'
    """
    if not wilds:
        cards_ = tuple(naturals)
        return make_meld(cards_, "set", cards_)
    free = SUITS  # (loops, not comprehensions: a set has few cards, and a comprehension is a call)
    for c in naturals:
        free = free.replace(c.suit, "")
    free = free or SUITS
    reps = list(naturals)
    n = len(free)
    for i in range(len(wilds)):
        reps.append(_CARD[rank, free[i % n]])
    return make_meld(tuple(naturals + wilds), "set", tuple(reps),
                     (False,) * len(naturals) + (True,) * len(wilds))


def make_run(naturals: list[Card], wilds: list[Card], ranks: list[int]) -> Meld:
    """The run of ``naturals`` (one suit) over ``ranks`` (every rank of the
    run in order, as :func:`run_fit` gives them), unchecked: the wilds, in
    the order given, fill the ranks no natural holds.

    >>> from rummy.cards import cards
    >>> str(make_run(list(cards("7h 9h")), list(cards("Jk")), [7, 8, 9]))
    '7h Jk=8h 9h'
    """
    suit = naturals[0].suit
    by_rank = {c.rank: c for c in naturals}
    cards_out: list[Card] = []
    reps: list[Card] = []
    flags: list[bool] = []
    w = iter(wilds)
    for r in ranks:
        if r in by_rank:
            cards_out.append(by_rank.pop(r))
            flags.append(False)
        else:
            cards_out.append(next(w))
            flags.append(True)
        reps.append(_CARD[r, suit])
    return make_meld(tuple(cards_out), "run", tuple(reps), tuple(flags) if wilds else ())


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into melds and deadwood, with the deadwood's penalty."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    penalty: int

    @property
    def is_complete(self) -> bool:
        """True when every card is in a meld."""
        return not self.deadwood

    @property
    def cards(self) -> tuple[Card, ...]:
        """All cards of the arrangement, melds first."""
        return tuple(c for m in self.melds for c in m.cards) + self.deadwood

    def to_json(self) -> dict[str, Any]:
        """``{"melds": [[...], ...], "deadwood": [...], "penalty": n}``."""
        return {
            "melds": [[str(c) for c in m.cards] for m in self.melds],
            "deadwood": [str(c) for c in self.deadwood],
            "penalty": self.penalty,
        }

    def __str__(self) -> str:
        melds = " | ".join(f"[{m}]" for m in self.melds) or "no melds"
        dead = format_cards(self.deadwood) or "none"
        return f"{melds}; deadwood: {dead}; penalty {self.penalty}"

    def _repr_svg_(self) -> str:
        from rummy import render

        return render.arrangement_svg(self)

    def _repr_html_(self) -> str:
        return f"<div title='{html.escape(str(self))}'>{self._repr_svg_()}</div>"


@dataclass(frozen=True, slots=True)
class Discard:
    """The result of :func:`rummy.search.best_discard`: the card to throw and what remains."""

    card: Card
    arrangement: Arrangement

    @property
    def penalty(self) -> int:
        """Penalty of the hand left after the discard."""
        return self.arrangement.penalty


# Values the search builds by the thousand, made without the frozen
# dataclasses' __init__ (which sets each field through object.__setattr__):
# the same objects, equal and hashed alike, for about half the time.
_NEW = object.__new__
_M_CARDS, _M_KIND, _M_REPS, _M_WILD = (vars(Meld)[f].__set__ for f in ("cards", "kind", "represents", "wild"))
_A_MELDS, _A_DEAD, _A_PEN = (vars(Arrangement)[f].__set__ for f in ("melds", "deadwood", "penalty"))
_D_CARD, _D_ARR = (vars(Discard)[f].__set__ for f in ("card", "arrangement"))


def make_meld(cards_: tuple[Card, ...], kind: Literal["set", "run"], represents: tuple[Card, ...],
              wild: tuple[bool, ...] = ()) -> Meld:
    """``Meld(cards_, kind, represents, wild)``, made faster (the caller
    knows it is a valid meld).

    >>> from rummy.cards import cards
    >>> c = cards("7h 8h 9h")
    >>> make_meld(c, "run", c) == Meld(c, "run", c)
    True
    """
    m = _NEW(Meld)
    _M_CARDS(m, cards_)
    _M_KIND(m, kind)
    _M_REPS(m, represents)
    _M_WILD(m, wild)
    return m  # type: ignore[no-any-return]


def make_arrangement(melds: tuple[Meld, ...], deadwood: tuple[Card, ...], penalty: int) -> Arrangement:
    """``Arrangement(melds, deadwood, penalty)``, made faster (the caller
    knows the penalty is the deadwood's).

    >>> make_arrangement((), (), 0) == Arrangement((), (), 0)
    True
    """
    a = _NEW(Arrangement)
    _A_MELDS(a, melds)
    _A_DEAD(a, deadwood)
    _A_PEN(a, penalty)
    return a  # type: ignore[no-any-return]


def make_discard(card: Card, arrangement: Arrangement) -> Discard:
    """``Discard(card, arrangement)``, made faster.

    >>> from rummy.cards import Card
    >>> a = Arrangement((), (), 0)
    >>> make_discard(Card(1, "s"), a) == Discard(Card(1, "s"), a)
    True
    """
    d = _NEW(Discard)
    _D_CARD(d, card)
    _D_ARR(d, arrangement)
    return d  # type: ignore[no-any-return]
