"""Melds, the rules that decide them, and an exact best-arrangement solver.

A *meld* is a set (3+ cards of one rank) or a run (3+ cards of one suit in
consecutive ranks), RULES.md M-1..M-5.  Wild cards (the round's wild rank,
and jokers) stand for any card.  Scoring a hand means arranging it into
melds to the **lowest** penalty (M-7); :func:`best_arrangement` computes that
exactly, for any hand size and any mix of packs, wilds and jokers.

>>> from rummy.cards import cards
>>> rules = MeldRules()
>>> is_meld(cards("7h 7h 7s"), rules)
True
>>> best_arrangement(cards("Qh Kh 3s 5c 5d 5s"), rules).penalty
23
>>> why_not(cards("8h Th Jh"), rules)
'not a run: 9h is missing; a wild or 9h would complete it'

How the solver works: the natural (non-wild) cards are a vector of counts
(one 4-bit field per card, so identical cards from several packs are one
count), the wilds are a count.  The search takes the lowest remaining card
and tries every way to use it: as deadwood, in a set with other cards of
its rank, or as the lowest natural card of a run in its suit (wilds filling
gaps).  Results are memoised on (counts, wilds left, spare room in the melds
already made for extra wilds), so each sub-hand is solved once.  Wilds are
interchangeable inside melds, so the expensive ones are melded first and the
cheapest are left over.

Ties.  Among arrangements with the lowest penalty, the solver returns the
one with the fewest deadwood cards; among those, the first in a fixed search
order over the *sorted* hand (runs before sets before deadwood, lower cards
first), so the answer never depends on the order the cards were given in.
:func:`best_discard` returns, among the discards leaving the lowest penalty,
a natural card before a wild, then the card worth the most points, then the
first in suit-then-rank order.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rummy.cards import JOKER, RANKS, SUITS, Card, as_cards, format_cards, rank_name

__all__ = [
    "MeldRules",
    "MeldError",
    "Meld",
    "Arrangement",
    "Discard",
    "is_meld",
    "why_not",
    "best_arrangement",
    "best_discard",
    "penalty",
    "all_melded",
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


def _run_positions(rules: MeldRules) -> list[dict[int, int]]:
    """Ways to place ranks on a line: rank -> position (one dict per ace reading)."""
    low = {r: r for r in range(1, 14)}
    high = {r: r for r in range(2, 14)} | {1: 14}
    return {"low": [low], "high": [high], "low_or_high": [low, high]}[rules.aces]


def _run_fit(naturals: list[Card], n_wilds: int, rules: MeldRules) -> tuple[list[int], str] | None:
    """Try to read ``naturals`` (one suit, distinct ranks) as a run.

    Returns (ranks of the whole run, '') when it fits, None when no ace
    reading gives a run with the wilds available.
    """
    size = len(naturals) + n_wilds
    if size > MAX_RUN:
        return None
    for pos in _run_positions(rules):
        ps = sorted(pos[c.rank] for c in naturals)
        lo_bound, hi_bound = min(pos.values()), max(pos.values())
        span = ps[-1] - ps[0] + 1
        gaps = span - len(ps)
        if gaps > n_wilds:
            continue
        extra = n_wilds - gaps
        top = min(hi_bound, ps[-1] + extra)
        bottom = top - size + 1
        if bottom < lo_bound:
            continue
        inverse = {p: r for r, p in pos.items()}
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
    if _run_fit(naturals, len(wilds), rules) is not None:
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
            return _make_set(naturals, wilds, naturals[0].rank)
        if not naturals:
            rank = rules.wild_rank or 13
            return _make_set([], wilds, rank)
        fit = _run_fit(naturals, len(wilds), rules)
        if fit is None and len(naturals) == 1:
            return _make_set(naturals, wilds, naturals[0].rank)
        assert fit is not None
        return _make_run(naturals, wilds, fit[0])

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


def _make_set(naturals: list[Card], wilds: list[Card], rank: int) -> Meld:
    present = [c.suit for c in naturals]
    free = [s for s in SUITS if s not in present] or list(SUITS)
    reps = [Card(rank, free[i % len(free)]) for i in range(len(wilds))]
    flags = (False,) * len(naturals) + (True,) * len(wilds) if wilds else ()
    return Meld(tuple(naturals + wilds), "set", tuple(naturals + reps), flags)


def _make_run(naturals: list[Card], wilds: list[Card], ranks: list[int]) -> Meld:
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
        reps.append(Card(r, suit))
    return Meld(tuple(cards_out), "run", tuple(reps), tuple(flags) if wilds else ())


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
    """The result of :func:`best_discard`: the card to throw and what remains."""

    card: Card
    arrangement: Arrangement

    @property
    def penalty(self) -> int:
        """Penalty of the hand left after the discard."""
        return self.arrangement.penalty


# ---------------------------------------------------------------------------
# The solver


_W = 1 << 13  # cost encoding: penalty * _W + deadwood cards * _N + discard preference
_N = 1 << 7
_INF = 1 << 62
_WILD_DISCARD = 100  # discard preference of a wild (naturals rank 0..51, lower preferred)


@functools.lru_cache(maxsize=512)
def _tables(rules: MeldRules) -> tuple[Any, ...]:
    """Per-position tables for one rule set.

    A natural card's position is suit * 13 + p, where p orders ranks for runs
    (aces last when aces are high).  Returns the position of each card, the
    card at each position, the encoded deadwood cost, the discard preference
    (0 = the card best thrown on a tie: most points first), the positions
    above in the same suit, the positions below from an ace played high, and
    the same-rank positions in this and higher suits.
    """
    high = rules.aces == "high"
    pos_of: dict[Card, int] = {}
    card_at: list[Card] = []
    pen: list[int] = []
    for s in SUITS:
        ranks = list(range(2, 14)) + [1] if high else list(range(1, 14))
        for r in ranks:
            c = Card(r, s)
            pos_of[c] = len(card_at)
            card_at.append(c)
            pen.append(rules.penalty_of(c) * _W + _N)
    order = sorted(range(52), key=lambda i: (-rules.penalty_of(card_at[i]), card_at[i].sort_key()))
    drank = [0] * 52
    for i, pos in enumerate(order):
        drank[pos] = i
    up = [tuple(range(p + 1, p - p % 13 + 13)) for p in range(52)]
    down: list[tuple[int, ...]] = [()] * 52
    if rules.aces == "low_or_high":
        for si in range(4):
            a = si * 13
            down[a] = tuple(range(a + 12, a, -1))  # K, Q, ... 2 below an ace played as 14
    same = [tuple(range(p + 13, 52, 13)) for p in range(52)]
    index_pos = [pos_of[c] for c in (Card(r, s) for s in SUITS for r in range(1, 14))]
    return pos_of, card_at, pen, drank, up, down, same, index_pos


_last_tables: list[Any] = [None, None]


def _rule_tables(rules: MeldRules) -> tuple[Any, ...]:
    """``_tables(rules)``, with the last rule set kept at hand (most calls
    in a row share one)."""
    if _last_tables[0] is not rules:
        _last_tables[0], _last_tables[1] = rules, _tables(rules)
    return _last_tables[1]  # type: ignore[no-any-return]


def _wild_costs(rules: MeldRules, wilds: Iterable[Card]) -> tuple[int, ...]:
    """The wilds' points, most expensive first: the cheapest are the ones
    left over (and a discarded wild is the most expensive one, which leaves
    the cheapest-u sums unchanged for every u < number of wilds)."""
    return tuple(sorted((rules.penalty_of(c) for c in wilds), reverse=True))


def _encode(rules: MeldRules, big: int, naturals: Sequence[Card]) -> tuple[int, list[int]]:
    """The count vector of the naturals less the isolated ones, and the
    isolated positions, best discard first.  A natural is isolated when no
    other natural could share a meld with it, given ``big`` wilds."""
    _pos_of, _card_at, _pen, drank, _up, _down, _same, index_pos = _rule_tables(rules)
    counts = [0] * 52
    for c in naturals:
        counts[index_pos[c.index]] += 1
    reach = big + 1  # a run partner can be this far away
    both = rules.aces == "low_or_high"
    x = 0
    iso: list[int] = []
    for p in sorted({index_pos[c.index] for c in naturals}):  # positions held
        n = counts[p]
        if n > 8:
            raise MeldError("no card can appear more than 8 times (at most 8 packs)")
        x += n << (p << 2)
        if n > 1:
            continue
        q = p % 13
        if counts[q] + counts[q + 13] + counts[q + 26] + counts[q + 39] > 1:
            continue
        base = p - q
        row = counts[base:base + 13]
        lo = q - reach if q > reach else 0
        if any(row[lo:q]) or any(row[q + 1:q + reach + 1]):
            continue
        if both and (any(row[13 - reach + q:]) or any(row[: q + reach - 12])):
            continue  # an ace also sits next to the king
        iso.append(p)
        x -= 1 << (p << 2)
    iso.sort(key=drank.__getitem__)
    return x, iso


class _Solver:
    """Exact minimum-cost search for one rule set and one multiset of wilds.

    State: x (natural counts, 4 bits per position), w (wilds not yet used),
    cap (room for extra wilds in the melds made so far, at most w), d (1
    while a discard is still to be made).

    Isolated cards (no other natural could ever share a meld with them, given
    the wilds in hand) are kept out of the search: such a card is either
    deadwood, the discard, or rescued by two wilds, and which of them are
    rescued is settled in closed form once the rest is decided.
    """

    __slots__ = ("rules", "pos_of", "card_at", "pen", "drank", "up", "down", "same", "memo",
                 "wild_cost", "big", "max_set", "wild_only", "iso", "iso_tail", "end_memo",
                 "set_room", "index_pos", "choice", "ready_memo")

    def __init__(self, rules: MeldRules, wilds: list[Card]):
        self.rules = rules
        (self.pos_of, self.card_at, self.pen, self.drank, self.up, self.down,
         self.same, self.index_pos) = _rule_tables(rules)
        self.max_set = rules.max_set_size
        self.wild_only = rules.min_naturals == 0
        costs = _wild_costs(rules, wilds)
        self.wild_cost = [0] * (len(costs) + 1)
        for left in range(1, len(costs) + 1):
            self.wild_cost[left] = sum(costs[len(costs) - left:]) * _W + left * _N
        self.big = len(costs)
        self.set_room = self.big if self.max_set is None else self.max_set - 3
        self.memo: dict[int, int] = {}
        self.ready_memo: dict[int, bool] = {}
        self.choice: dict[int, Any] = {}
        self.end_memo: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self.iso: list[int] = []
        self.iso_tail: list[int] = [0]

    def encode(self, naturals: Sequence[Card]) -> int:
        """The count vector of the naturals, less the isolated ones (kept in
        ``self.iso``, best discard first)."""
        x, iso = _encode(self.rules, self.big, naturals)
        self.use_isolated(iso)
        return x

    def use_isolated(self, iso: list[int]) -> None:
        """Settle these isolated positions (best discard first) in :meth:`end`."""
        tail = [0] * (len(iso) + 1)
        for i in range(len(iso) - 1, -1, -1):
            tail[i] = tail[i + 1] + self.pen[iso[i]]
        self.iso = iso
        self.iso_tail = tail

    def moves(self, x: int, w: int, d: int) -> Iterator[tuple[int, int, int, int, int]]:
        """Every way to use the lowest card of x: (cards removed, wilds used,
        room added, discard flag after, cost added)."""
        p = ((x & -x).bit_length() - 1) >> 2
        bit = 1 << (p << 2)
        yield bit, 0, 0, d, self.pen[p]  # deadwood
        if d:
            yield bit, 0, 0, 0, self.drank[p]  # the discard
        max_set = self.max_set
        # runs with this card as the lowest natural (or, for an ace played
        # high, as the top card, going down)
        for seq in (self.up[p], self.down[p]):
            if not seq:
                continue
            if w == 0:
                delta = bit
                for i, t in enumerate(seq):
                    st = t << 2
                    if not (x >> st) & 15:
                        break
                    delta += 1 << st
                    if i >= 1:
                        yield delta, 0, 13 - i - 2, d, 0
                continue
            stack = [(-1, 0, bit)]
            n_seq = len(seq)
            while stack:
                last, gaps, delta = stack.pop()
                length = last + 2
                if length >= 3:
                    need = gaps
                    room = 13 - length
                else:
                    need = gaps + 3 - length
                    room = 10
                if need <= w and (length > 1 or max_set is not None):
                    yield delta, need, room, d, 0
                g2 = gaps
                i = last + 1
                while i < n_seq and g2 <= w:
                    st = seq[i] << 2
                    if (x >> st) & 15:
                        stack.append((i, g2, delta + (1 << st)))
                    g2 += 1
                    i += 1
        # sets: this card with any further cards of its rank, padded to 3
        own = ((x >> (p << 2)) & 15) - 1
        combos = [(bit * (t + 1), t + 1) for t in range(own + 1)] if own else [(bit, 1)]
        for pp in self.same[p]:
            n = (x >> (pp << 2)) & 15
            if n:
                unit = 1 << (pp << 2)
                combos = [(dl + t * unit, k + t) for dl, k in combos for t in range(n + 1)]
        big = self.big
        for dl, k in combos:
            need = 3 - k if k < 3 else 0
            if need > w:
                continue
            if max_set is None:
                yield dl, need, big, d, 0
            elif k + need <= max_set:
                yield dl, need, max_set - k - need, d, 0

    def _left(self, u: int, cap: int) -> int:
        """Cost of u wilds left over with room for cap of them in melds."""
        if u == 0 or (u >= 3 and self.wild_only):
            return 0  # none, or they form melds of their own (M-4)
        return self.wild_cost[u - cap] if u > cap else 0

    def end(self, w: int, cap: int, d: int) -> tuple[int, int, int]:
        """Settle the isolated cards: (cost, how many rescued, discard kind
        0 none / 1 an isolated card / 2 a wild)."""
        key = (w, cap, d)
        got = self.end_memo.get(key)
        if got is not None:
            return got
        best = (_INF, 0, 0)
        iso, tail, n_iso = self.iso, self.iso_tail, len(self.iso)
        for k in range(0, min(n_iso, w // 2) + 1):
            left = w - 2 * k
            room = cap + k * self.set_room
            if room > left:
                room = left
            if not d:
                cand = (tail[k] + self._left(left, room), k, 0)
                if cand < best:
                    best = cand
                continue
            if k < n_iso:  # discard the best isolated card, rescue the next k
                cand = (tail[k + 1] + self.drank[iso[0]] + self._left(left, room), k, 1)
                if cand < best:
                    best = cand
            if left:
                cand = (tail[k] + _WILD_DISCARD + self._left(left - 1, min(room, left - 1)), k, 2)
                if cand < best:
                    best = cand
        self.end_memo[key] = best
        return best

    def solve(self, x: int, w: int, cap: int, d: int = 0) -> int:
        if cap > w:
            cap = w
        if x == 0:
            return self.end(w, cap, d)[0]
        key = ((x << 5 | w) << 5 | cap) << 1 | d
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        best = _INF
        pick = None
        solve = self.solve
        if w < 2:
            # most states: the lowest card has no partner left, so it can only
            # be deadwood (or the discard); skip the full move search
            p = ((x & -x).bit_length() - 1) >> 2
            sh = p << 2
            q = p % 13
            rank_count = ((x >> (sh - (p - q) * 4)) & 15) + ((x >> ((q + 13) << 2)) & 15) + \
                ((x >> ((q + 26) << 2)) & 15) + ((x >> ((q + 39) << 2)) & 15)
            nxt = (x >> (sh + 4)) & 0xFF if q < 12 else 0
            if q == 11:
                nxt &= 0xF
            if w == 0:
                alone = rank_count < 3 and not (nxt & 0xF and nxt & 0xF0)
            else:
                alone = rank_count < 2 and not nxt
            if alone and self.down[p]:
                top2 = (x >> ((p + 11) << 2)) & 0xFF
                alone = not (top2 & 0xF0 and (w or top2 & 0xF)) and not (w and top2)
            if alone:
                bit = 1 << sh
                pick = (bit, 0, 0, d, self.pen[p])
                best = self.pen[p] + solve(x - bit, w, cap, d)
                if d:
                    v = self.drank[p] + solve(x - bit, w, cap, 0)
                    if v < best:
                        best = v
                        pick = (bit, 0, 0, 0, self.drank[p])
                memo[key] = best
                self.choice[key] = pick
                return best
        for mv in self.moves(x, w, d):
            delta, need, room, d2, add = mv
            v = add + solve(x - delta, w - need, cap + room, d2)
            if v < best or (v == best and add == 0 and d2 == d):  # melds first on ties
                best = v
                pick = mv
        memo[key] = best
        self.choice[key] = pick
        return best

    def ready(self, x: int, w: int, cap: int, d: int = 0) -> bool:
        """True when every card can be melded (but one discard when d): the
        search of :meth:`solve` restricted to moves that leave no deadwood,
        so dead ends are dropped at once."""
        if cap > w:
            cap = w
        if x == 0:
            return self.end(w, cap, d)[0] < _N
        key = ((x << 5 | w) << 5 | cap) << 1 | d
        memo = self.ready_memo
        got = memo.get(key)
        if got is not None:
            return got
        ok = False
        for delta, need, room, d2, add in self.moves(x, w, d):
            if add < _N and self.ready(x - delta, w - need, cap + room, d2):
                ok = True
                break
        memo[key] = ok
        return ok

    def arrangement(self, x: int, wilds: list[Card], d: int = 0) -> tuple[Arrangement, Card | None]:
        """Walk the optimal choices back into melds, deadwood and a discard."""
        w = len(wilds)
        cost = self.solve(x, w, 0, d)
        if cost >= _INF:
            raise MeldError("there is no card to discard")
        wild_list = sorted(wilds, key=lambda c: (-self.rules.penalty_of(c), c.sort_key()))
        plan: list[tuple[list[Card], int, int]] = []  # naturals, wilds needed, room
        dead: list[Card] = []
        discard: Card | None = None
        cap = 0
        while x:
            cap = min(cap, w)
            p = ((x & -x).bit_length() - 1) >> 2
            delta, need, room, d2, add = self.choice[((x << 5 | w) << 5 | cap) << 1 | d]
            if d2 != d:
                discard = self.card_at[p]
            elif add:
                dead.append(self.card_at[p])
            else:
                nat = []
                rest_delta = delta
                while rest_delta:
                    i = ((rest_delta & -rest_delta).bit_length() - 1) >> 2
                    n = (rest_delta >> (i << 2)) & 15
                    nat.extend([self.card_at[i]] * n)
                    rest_delta -= n << (i << 2)
                plan.append((nat, need, room))
            x -= delta
            w -= need
            cap += room
            d = d2
        # the isolated cards: rescued by two wilds each, discarded, or deadwood
        _cost, k, how = self.end(w, min(cap, w), d)
        iso = [self.card_at[i] for i in self.iso]
        if how == 1:
            discard = iso.pop(0)
        for c in iso[:k]:
            plan.append(([c], 2, self.set_room))
        dead.extend(iso[k:])
        w -= 2 * k
        if how == 2:  # the discard is a wild: the most expensive one not needed
            discard = wild_list.pop(0)
            w -= 1
        # hand out wilds: the needed ones first (most expensive), then extras
        n_used = len(wild_list) - w
        used, rest = wild_list[:n_used], wild_list[n_used:]
        groups: list[tuple[str, list[Card], list[Card]]] = []
        for nat, need, _room in plan:
            kind = "set" if len({c.rank for c in nat}) == 1 else "run"
            groups.append((kind, nat, used[:need]))
            used = used[need:]
        if len(rest) >= 3 and self.wild_only:
            # wilds only (M-4): one set, or runs of at most 13 when sets are capped
            if self.max_set is None:
                groups.append(("set", [], rest))
                rest = []
            else:
                while rest:
                    take = len(rest) if len(rest) <= MAX_RUN else min(MAX_RUN, len(rest) - 3)
                    groups.append(("set" if take <= self.max_set else "run", [], rest[:take]))
                    rest = rest[take:]
        else:
            for (_nat, _need, room), grp in zip(plan, groups):
                take = min(room, len(rest))
                if take > 0:
                    grp[2].extend(rest[:take])
                    rest = rest[take:]
        melds = tuple(_build(kind, nat, wl, self.rules) for kind, nat, wl in groups)
        deadwood = tuple(sorted(dead)) + tuple(sorted(rest))
        return Arrangement(melds, deadwood, cost // _W), discard


_SOLVERS: dict[tuple[Any, ...], _Solver] = {}
_SOLVERS_MAX = 512  # solvers kept (a game's hands share most of their searches)
_MEMO_MAX = 1 << 16  # states one kept solver may remember


def _solver_for(rules: MeldRules, naturals: list[Card], wilds: list[Card]) -> tuple[_Solver, int]:
    """A solver for this hand and its encoded naturals.

    A search's results depend only on the rules, the wilds' points and the
    isolated cards, so hands that share them (a player's hand from one turn
    to the next, a bot weighing each discard) share one memo: later calls
    start from the states earlier calls solved."""
    costs = _wild_costs(rules, wilds)
    x, iso = _encode(rules, len(costs), naturals)
    key = (rules, costs, tuple(iso))
    kept = _SOLVERS.get(key)
    if kept is not None:
        if len(kept.memo) > _MEMO_MAX:
            kept.memo.clear()
            kept.choice.clear()
        if len(kept.ready_memo) > _MEMO_MAX:
            kept.ready_memo.clear()
        return kept, x
    if len(_SOLVERS) >= _SOLVERS_MAX:
        del _SOLVERS[next(iter(_SOLVERS))]  # the oldest
    s = _Solver(rules, wilds)
    s.use_isolated(iso)
    _SOLVERS[key] = s
    return s, x


def _build(kind: str, naturals: list[Card], wilds: list[Card], rules: MeldRules) -> Meld:
    naturals = sorted(naturals)
    if not naturals:
        if kind == "set":
            return _make_set([], wilds, rules.wild_rank or 13)
        ranks = list(range(1, len(wilds) + 1))
        return Meld(tuple(wilds), "run", tuple(Card(r, "h") for r in ranks), (True,) * len(wilds))
    if kind == "set":
        return _make_set(naturals, wilds, naturals[0].rank)
    fit = _run_fit(naturals, len(wilds), rules)
    assert fit is not None, (naturals, wilds)
    return _make_run(naturals, wilds, fit[0])


_DEFAULT_RULES = MeldRules()


def _prepare(hand: Any, rules: MeldRules | None) -> tuple[Any, MeldRules]:
    if rules is None:
        rules = _DEFAULT_RULES
    elif type(rules) is not MeldRules:
        raise MeldError(f"rules must be a MeldRules, not {type(rules).__name__}")
    cards_ = hand
    if type(hand) is tuple or type(hand) is list:
        for c in hand:
            if type(c) is not Card:
                cards_ = as_cards(hand)
                break
    else:
        cards_ = as_cards(hand)
    if len(cards_) > 16:
        raise MeldError(f"a hand has at most 16 cards here; this one has {len(cards_)}")
    if not rules.jokers_wild and any(c.rank == 0 for c in cards_):
        raise MeldError("jokers are not used with these rules (jokers_wild=False); "
                        "remove the joker or use rules where jokers are wild")
    return cards_, rules


_last_fast: list[Any] = [None, None]


def _fast_ready(cards_: Any, rules: MeldRules) -> tuple[int, tuple[Any, ...]] | None:
    """(hand mask, tables) when the fast path applies: no wilds, no two
    identical cards, aces not both low and high."""
    if rules.aces == "low_or_high":
        return None
    if _last_fast[0] is rules:
        ft = _last_fast[1]
    else:
        ft = _fast_tables(rules)
        _last_fast[0], _last_fast[1] = rules, ft
    posmap = ft[1]
    wr = rules.wild_rank
    m = 0
    for c in cards_:
        r = c.rank
        if r == wr or r == 0:
            return None
        m |= 1 << posmap[c.index]
    if m.bit_count() != len(cards_):
        return None
    return m, ft


# ---------------------------------------------------------------------------
# A fast path for the commonest case: one pack's worth of distinct cards and
# no wilds (gin, and every hand without a wild).  The melds of such a hand are
# found with bit operations on four 13-bit suit masks, then the best set of
# disjoint melds is searched directly.  Exactness is checked against the
# general search and a brute force in the tests.


@functools.lru_cache(maxsize=2)
def _suit_cards(high: bool) -> tuple[list[list[tuple[Card, ...]]], list[list[tuple[Card, ...]]]]:
    """The cards of every 13-bit suit mask, in run order and in sorted order
    (built once per ace layout: they don't depend on any other rule)."""
    ranks = list(range(2, 14)) + [1] if high else list(range(1, 14))
    card_at = [Card(r, s) for s in SUITS for r in ranks]
    in_order: list[list[tuple[Card, ...]]] = []
    in_sort: list[list[tuple[Card, ...]]] = []
    for si in range(4):
        row: list[tuple[Card, ...]] = [()] * 8192
        for mask in range(1, 8192):
            low = mask & -mask
            row[mask] = (card_at[si * 13 + low.bit_length() - 1],) + row[mask ^ low]
        in_order.append(row)
        in_sort.append([tuple(sorted(t)) for t in row] if high else row)
    return in_order, in_sort


@functools.lru_cache(maxsize=16)
def _suit_values(vals: tuple[int, ...]) -> list[int]:
    """Points of the cards of every 13-bit suit mask."""
    val13 = [0] * 8192
    for m in range(1, 8192):
        low = m & -m
        val13[m] = val13[m ^ low] + vals[low.bit_length() - 1]
    return val13


@functools.lru_cache(maxsize=512)
def _fast_tables(rules: MeldRules) -> tuple[Any, ...]:
    high = rules.aces == "high"
    ranks = list(range(2, 14)) + [1] if high else list(range(1, 14))
    vals = [rules.penalty_of(Card(r, "c")) for r in ranks]
    val13 = _suit_values(tuple(vals))
    posmap = list(range(52))
    if high:
        posmap = [si * 13 + (12 if r == 1 else r - 2) for si in range(4) for r in range(1, 14)]
    card_at = [Card(r, s) for s in SUITS for r in ranks]
    allow4 = rules.max_set_size is None or rules.max_set_size >= 4
    drank = _tables(rules)[3]
    in_order, in_sort = _suit_cards(high)
    return val13, posmap, card_at, allow4, vals, drank, in_order, in_sort


def _fast_melds(m: int, ft: tuple[Any, ...]) -> list[tuple[int, int, int]]:
    """All melds inside the 52-bit hand mask m: (mask, points, cards)."""
    val13, _posmap, _card_at, allow4, vals, _drank, _in_order, _in_sort = ft
    s0, s1, s2, s3 = m & 0x1FFF, (m >> 13) & 0x1FFF, (m >> 26) & 0x1FFF, m >> 39
    suits = (s0, s1, s2, s3)
    melds: list[tuple[int, int, int]] = []
    t3 = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    if not t3 and not ((s0 & (s0 >> 1) & (s0 >> 2)) | (s1 & (s1 >> 1) & (s1 >> 2))
                       | (s2 & (s2 >> 1) & (s2 >> 2)) | (s3 & (s3 >> 1) & (s3 >> 2))):
        return melds
    while t3:
        b = t3 & -t3
        t3 ^= b
        v = vals[b.bit_length() - 1]
        bits = [b << (13 * i) for i in range(4) if suits[i] & b]
        full = bits[0] | bits[1] | bits[2] | (bits[3] if len(bits) == 4 else 0)
        if len(bits) == 4:
            if allow4:
                melds.append((full, 4 * v, 4))
            for one in bits:
                melds.append((full ^ one, 3 * v, 3))
        else:
            melds.append((full, 3 * v, 3))
    for i in range(4):
        s = suits[i]
        r3 = s & (s >> 1) & (s >> 2)
        sh = 13 * i
        while r3:
            b = r3 & -r3
            r3 ^= b
            run = b * 7
            n = 3
            melds.append((run << sh, val13[run], 3))
            nb = b << 3
            while s & nb:
                run |= nb
                n += 1
                nb <<= 1
                melds.append((run << sh, val13[run], n))
    return melds


def _fast_packings(melds: list[tuple[int, int, int]]) -> Iterator[tuple[int, int, int, tuple[int, ...]]]:
    """Every set of pairwise disjoint melds: (union mask, points, cards, meld indexes)."""
    stack: list[tuple[int, int, int, int, tuple[int, ...]]] = [(0, 0, 0, 0, ())]
    k = len(melds)
    while stack:
        start, used, pts, n, chosen = stack.pop()
        yield used, pts, n, chosen
        for j in range(start, k):
            mm, v, c = melds[j]
            if not mm & used:
                stack.append((j + 1, used | mm, pts + v, n + c, chosen + (j,)))


def _fast_arrangement(m: int, melds: list[tuple[int, int, int]], chosen: tuple[int, ...],
                      ft: tuple[Any, ...], pen: int) -> Arrangement:
    in_order, in_sort = ft[6], ft[7]
    out = []
    used = 0
    if len(chosen) > 1:
        chosen = tuple(sorted(chosen, key=lambda j: (melds[j][0] & -melds[j][0])))
    for j in chosen:
        mm = melds[j][0]
        used |= mm
        cs = (in_order[0][mm & 0x1FFF] + in_order[1][(mm >> 13) & 0x1FFF]
              + in_order[2][(mm >> 26) & 0x1FFF] + in_order[3][mm >> 39])
        out.append(Meld(cs, "set" if cs[0].rank == cs[1].rank else "run", cs))
    rest = m & ~used
    dead = (in_sort[0][rest & 0x1FFF] + in_sort[1][(rest >> 13) & 0x1FFF]
            + in_sort[2][(rest >> 26) & 0x1FFF] + in_sort[3][rest >> 39])
    return Arrangement(tuple(out), dead, pen)


def _fast_best(m: int, ft: tuple[Any, ...]) -> tuple[int, list[tuple[int, int, int]], tuple[int, ...]]:
    """(points melded, melds, chosen) of the best packing: most points, then most cards."""
    melds = _fast_melds(m, ft)
    if not melds:
        return 0, melds, ()
    if len(melds) == 1:
        return melds[0][1], melds, (0,)
    best = -1
    best_chosen: tuple[int, ...] = ()
    for _used, pts, n, chosen in _fast_packings(melds):
        score = pts * 64 + n
        if score > best:
            best = score
            best_chosen = chosen
    return best >> 6, melds, best_chosen


def _fast_discard(m: int, ft: tuple[Any, ...]) -> Discard:
    """Best discard: over every packing, throw the best card outside it."""
    val13, _posmap, card_at, _allow4, vals, drank, _in_order, _in_sort = ft
    order = sorted((i for i in range(52) if m >> i & 1), key=drank.__getitem__)
    melds = _fast_melds(m, ft)
    best: tuple[int, int, int] | None = None
    best_pick: tuple[int, tuple[int, ...]] = (order[0], ())
    for used, pts, n, chosen in _fast_packings(melds):
        for i in order:
            if not used >> i & 1:
                key = (-(pts + vals[i % 13]), -n, drank[i])
                if best is None or key < best:
                    best = key
                    best_pick = (i, chosen)
                break
    i, chosen = best_pick
    rest = m & ~(1 << i)
    pen = _fast_total(rest, val13) - sum(melds[j][1] for j in chosen)
    return Discard(card_at[i], _fast_arrangement(rest, melds, chosen, ft, pen))


def _fast_total(m: int, val13: list[int]) -> int:
    return val13[m & 0x1FFF] + val13[(m >> 13) & 0x1FFF] + val13[(m >> 26) & 0x1FFF] + val13[m >> 39]


def _split_hand(cards_: Any, rules: MeldRules) -> tuple[list[Card], list[Card]]:
    wr = rules.wild_rank
    naturals = [c for c in cards_ if c.rank != wr and c.rank != 0]
    wilds = [c for c in cards_ if c.rank == wr or c.rank == 0]
    return naturals, wilds


def best_arrangement(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Arrangement:
    """The arrangement of ``hand`` with the lowest penalty (M-7), exactly.

    >>> from rummy.cards import cards
    >>> a = best_arrangement(cards("Qh Kh Ah"))             # aces low: 10+10+1
    >>> a.penalty, best_arrangement(cards("Qh Kh Ah"), MeldRules(aces="high")).penalty
    (21, 0)
    >>> print(best_arrangement(cards("7h 9h Jk 4c 4d 5s"), MeldRules(wild_rank=5)))
    [4c 4d Jk=4h] | [7h 5s=8h 9h]; deadwood: none; penalty 0
    """
    cards_, rules = _prepare(hand, rules)
    fast = _fast_ready(cards_, rules)
    if fast is not None:
        m, ft = fast
        pts, melds, chosen = _fast_best(m, ft)
        return _fast_arrangement(m, melds, chosen, ft, _fast_total(m, ft[0]) - pts)
    naturals, wilds = _split_hand(cards_, rules)
    s, x = _solver_for(rules, naturals, wilds)
    return s.arrangement(x, wilds)[0]


def penalty(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> int:
    """The lowest penalty of ``hand`` (the penalty of its best arrangement).

    >>> penalty("Qh Kh 3s 5c 5d 5s")
    23
    """
    cards_, rules = _prepare(hand, rules)
    fast = _fast_ready(cards_, rules)
    if fast is not None:
        m, ft = fast
        return _fast_total(m, ft[0]) - _fast_best(m, ft)[0]
    naturals, wilds = _split_hand(cards_, rules)
    s, x = _solver_for(rules, naturals, wilds)
    return s.solve(x, len(wilds), 0) // _W


def all_melded(hand: Iterable[Card | str] | str, rules: MeldRules | None = None, *,
               discard: bool = False) -> bool:
    """True when every card of ``hand`` fits in melds (penalty 0); with
    ``discard=True``, every card but one (the hand can go out).  Faster than
    asking :func:`penalty` or :func:`best_discard`, because the search stops
    at the first card that can't be melded.

    >>> from rummy.cards import cards
    >>> all_melded(cards("7h 8h 9h Kc")), all_melded(cards("7h 8h 9h Kc"), discard=True)
    (False, True)
    >>> all_melded(cards("7h 9h 4c 4d 5s"), MeldRules(wild_rank=5))     # one wild, two gaps
    False
    >>> all_melded(cards("7h 9h Jk 4c 4d 5s"), MeldRules(wild_rank=5))
    True
    """
    cards_, rules = _prepare(hand, rules)
    if discard and not cards_:
        raise MeldError("all_melded(discard=True) needs at least one card to discard")
    fast = _fast_ready(cards_, rules)
    if fast is not None:
        if discard:
            return _fast_discard(*fast).penalty == 0
        m, ft = fast
        return _fast_total(m, ft[0]) == _fast_best(m, ft)[0]
    naturals, wilds = _split_hand(cards_, rules)
    s, x = _solver_for(rules, naturals, wilds)
    return s.ready(x, len(wilds), 0, int(discard))


def best_discard(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Discard:
    """For a hand of n+1 cards: the discard leaving the lowest penalty, exactly.

    One search decides the discard together with the melds, so every card is
    considered (not just "the highest deadwood card" of one arrangement,
    which is wrong on ties).  Ties: the fewest deadwood cards left, then a
    natural card before a wild, then the card worth more points, then
    suit-then-rank order.

    >>> from rummy.cards import cards
    >>> d = best_discard(cards("7h 8h 9h Kc"))
    >>> d.card, d.penalty
    (Card.parse('Kc'), 0)
    """
    cards_, rules = _prepare(hand, rules)
    if not cards_:
        raise MeldError("best_discard needs at least one card to discard")
    fast = _fast_ready(cards_, rules)
    if fast is not None:
        return _fast_discard(*fast)
    naturals, wilds = _split_hand(cards_, rules)
    s, x = _solver_for(rules, naturals, wilds)
    arrangement, card = s.arrangement(x, wilds, d=1)
    assert card is not None
    return Discard(card, arrangement)


# The joker constant is re-exported for convenience in doctests.
_ = (JOKER, RANKS)
