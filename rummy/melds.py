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
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
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
    ('Qh Kh Jk=Jh', 'run')
    """

    cards: tuple[Card, ...]
    kind: Literal["set", "run"]
    represents: tuple[Card, ...]

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
        return tuple((c, r) for c, r in zip(self.cards, self.represents) if c != r or
                     c.is_joker)

    def __str__(self) -> str:
        parts = []
        for c, r in zip(self.cards, self.represents):
            parts.append(str(c) if c == r else f"{c}={r}")
        return " ".join(parts)

    def __len__(self) -> int:
        return len(self.cards)

    def _repr_svg_(self) -> str:
        from rummy import render

        return render.meld_svg(self)


def _make_set(naturals: list[Card], wilds: list[Card], rank: int) -> Meld:
    present = [c.suit for c in naturals]
    free = [s for s in SUITS if s not in present] or list(SUITS)
    reps = [Card(rank, free[i % len(free)]) for i in range(len(wilds))]
    return Meld(tuple(naturals + wilds), "set", tuple(naturals + reps))


def _make_run(naturals: list[Card], wilds: list[Card], ranks: list[int]) -> Meld:
    suit = naturals[0].suit
    by_rank = {c.rank: c for c in naturals}
    cards_out: list[Card] = []
    reps: list[Card] = []
    w = iter(wilds)
    for r in ranks:
        if r in by_rank:
            cards_out.append(by_rank.pop(r))
            reps.append(Card(r, suit))
        else:
            cards_out.append(next(w))
            reps.append(Card(r, suit))
    return Meld(tuple(cards_out), "run", tuple(reps))


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


@functools.lru_cache(maxsize=64)
def _tables(rules: MeldRules) -> tuple[dict[Card, int], list[Card], list[int]]:
    """Position of each natural card (suit * 13 + p, p ordering ranks for
    runs: aces last when aces are high), the card at each position, and the
    encoded deadwood cost of each position."""
    high = rules.aces == "high"
    pos_of: dict[Card, int] = {}
    card_at: list[Card] = []
    pen: list[int] = []
    for si, s in enumerate(SUITS):
        ranks = list(range(2, 14)) + [1] if high else list(range(1, 14))
        for p, r in enumerate(ranks):
            c = Card(r, s)
            pos_of[c] = si * 13 + p
            card_at.append(c)
            pen.append(rules.penalty_of(c) * _DEAD + 1)
    return pos_of, card_at, pen


class _Solver:
    """Exact minimum-penalty search for one rule set and one hand's wilds."""

    __slots__ = ("rules", "pen", "pos_of", "card_at", "memo", "wild_cost", "big", "ace_both",
                 "max_set", "max_run")

    def __init__(self, rules: MeldRules, wilds: list[Card]):
        self.rules = rules
        self.pos_of, self.card_at, self.pen = _tables(rules)
        self.ace_both = rules.aces == "low_or_high"
        self.max_set = rules.max_set_size
        self.max_run = MAX_RUN
        # wilds sorted most expensive first; the cheapest are the ones left over
        costs = sorted((rules.penalty_of(c) for c in wilds), reverse=True)
        self.wild_cost = [0] * (len(costs) + 1)
        for left in range(1, len(costs) + 1):
            self.wild_cost[left] = sum(costs[len(costs) - left:]) * _DEAD + left
        self.big = len(costs)
        self.memo: dict[int, int] = {}

    # The moves available for the lowest card of x.  Each is
    # (delta, wilds needed, spare room for extra wilds, kind, positions).
    def moves(self, x: int, w: int) -> Iterator[tuple[int, int, int, str, tuple[int, ...]]]:
        low = (x & -x).bit_length() - 1
        p = low >> 2
        si, q = divmod(p, 13)
        base = si * 13
        bit = 1 << (4 * p)
        max_run = self.max_run
        # runs with this card as lowest natural, going up (and down from a high ace)
        directions = [range(q + 1, 13)]
        if self.ace_both and q == 0:
            directions.append(range(12, 0, -1))
        for seq in directions:
            # depth-first over which ranks above are taken as naturals
            stack: list[tuple[int, int, int, int, tuple[int, ...]]] = [(0, 0, bit, 1, (p,))]
            while stack:
                dist, gaps, delta, k, posns = stack.pop()
                length = dist + 1
                total = max(length, 3)
                need = gaps + total - length
                if need <= w and total <= max_run:
                    yield delta, need, max_run - total, "run", posns
                for i in range(dist, len(seq)):
                    g2 = gaps + (i - dist)
                    if g2 > w or i + 2 > max_run:
                        break
                    pp = base + seq[i]
                    if (x >> (4 * pp)) & 15:
                        stack.append((i + 1, g2, delta | (1 << (4 * pp)), k + 1, posns + (pp,)))
        # sets with this card: any further cards of its rank (this suit's copies
        # and higher suits'), padded with wilds to 3
        choices = []
        for sj in range(si, 4):
            pp = sj * 13 + q
            n = (x >> (4 * pp)) & 15
            if sj == si:
                n -= 1
            if n:
                choices.append([(t, pp) for t in range(n + 1)])
        max_set = self.max_set
        for combo in itertools.product(*choices):
            k = 1 + sum(t for t, _ in combo)
            need = 3 - k if k < 3 else 0
            if need > w:
                continue
            if max_set is not None and k + need > max_set:
                continue
            delta = bit
            posns = [p]
            for t, pp in combo:
                delta += t << (4 * pp)
                posns.extend([pp] * t)
            room = self.big if max_set is None else max_set - k - need
            yield delta, need, room, "set", tuple(posns)

    def solve(self, x: int, w: int, cap: int) -> int:
        if x == 0:
            if w == 0:
                return 0
            if w >= 3 and self.rules.min_naturals == 0:
                return 0  # the wilds left form melds of their own (M-4)
            return self.wild_cost[w - cap] if w > cap else 0
        if cap > w:
            cap = w
        key = (x << 10) | (w << 5) | cap
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        low = (x & -x).bit_length() - 1
        best = self.pen[low >> 2] + self.solve(x - (1 << (low & ~3)), w, cap)
        for delta, need, room, _kind, _posns in self.moves(x, w):
            v = self.solve(x - delta, w - need, cap + room)
            if v < best:
                best = v
        memo[key] = best
        return best

    def arrangement(self, naturals: list[Card], wilds: list[Card]) -> Arrangement:
        x = 0
        for c in naturals:
            x += 1 << (4 * self.pos_of[c])
        w = len(wilds)
        cost = self.solve(x, w, 0)
        # walk the optimal choices back
        wild_list = sorted(wilds, key=lambda c: (-self.rules.penalty_of(c), c.sort_key()))
        plan: list[tuple[str, tuple[int, ...], int, int]] = []  # kind, posns, need, room
        dead: list[Card] = []
        cap = 0
        while x:
            capc = min(cap, w)
            target = self.solve(x, w, capc)
            low = (x & -x).bit_length() - 1
            chosen = None
            for delta, need, room, kind, posns in self.moves(x, w):
                if self.solve(x - delta, w - need, capc + room) == target:
                    chosen = (delta, need, room, kind, posns)
                    break
            dead_v = self.pen[low >> 2] + self.solve(x - (1 << (low & ~3)), w, capc)
            if dead_v < target or chosen is None:
                assert dead_v == target
                dead.append(self.card_at[low >> 2])
                x -= 1 << (low & ~3)
                continue
            delta, need, room, kind, posns = chosen
            plan.append((kind, posns, need, room))
            x -= delta
            w -= need
            cap = capc + room
        # hand out wilds: the needed ones first (most expensive), then extras
        wi = 0
        groups: list[tuple[str, list[Card], list[Card]]] = []
        for kind, posns, need, _room in plan:
            groups.append((kind, [self.card_at[pp] for pp in posns], wild_list[wi:wi + need]))
            wi += need
        rest = wild_list[wi:]
        if len(rest) >= 3 and self.rules.min_naturals == 0:
            # wilds only (M-4): one set, or runs of at most 13 when sets are capped
            if self.max_set is None:
                groups.append(("set", [], rest))
            else:
                while rest:
                    take = len(rest) if len(rest) <= MAX_RUN else min(MAX_RUN, len(rest) - 3)
                    groups.append(("set" if take <= self.max_set else "run", [], rest[:take]))
                    rest = rest[take:]
        else:
            for (_kind, _posns, _need, room), grp in zip(plan, groups):
                take = min(room, len(rest))
                if take > 0:
                    grp[2].extend(rest[:take])
                    rest = rest[take:]
        melds = tuple(_build(kind, nat, wl, self.rules) for kind, nat, wl in groups)
        deadwood = tuple(sorted(dead)) + tuple(sorted(rest))
        return Arrangement(melds, deadwood, cost // _DEAD)


def _build(kind: str, naturals: list[Card], wilds: list[Card], rules: MeldRules) -> Meld:
    naturals = sorted(naturals)
    if not naturals:
        if kind == "set":
            return _make_set([], wilds, rules.wild_rank or 13)
        ranks = list(range(1, len(wilds) + 1))
        return Meld(tuple(wilds), "run", tuple(Card(r, "h") for r in ranks))
    if kind == "set":
        return _make_set(naturals, wilds, naturals[0].rank)
    fit = _run_fit(naturals, len(wilds), rules)
    assert fit is not None, (naturals, wilds)
    return _make_run(naturals, wilds, fit[0])


def _prepare(hand: Any, rules: MeldRules | None) -> tuple[tuple[Card, ...], MeldRules]:
    rules = rules or MeldRules()
    if not isinstance(rules, MeldRules):
        raise MeldError(f"rules must be a MeldRules, not {type(rules).__name__}")
    cards_ = as_cards(hand)
    if len(cards_) > 16:
        raise MeldError(f"a hand has at most 16 cards here; this one has {len(cards_)}")
    if len(cards_) > 8:
        worst = max(Counter(c for c in cards_ if not c.is_joker).values(), default=0)
        if worst > 8:
            raise MeldError("no card can appear more than 8 times (at most 8 packs)")
    return cards_, rules


def best_arrangement(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Arrangement:
    """The arrangement of ``hand`` with the lowest penalty (M-7), exactly.

    >>> from rummy.cards import cards
    >>> a = best_arrangement(cards("Qh Kh Ah"))             # aces low: 10+10+1
    >>> a.penalty, best_arrangement(cards("Qh Kh Ah"), MeldRules(aces="high")).penalty
    (21, 0)
    >>> print(best_arrangement(cards("7h 9h 4c Jk 5c"), MeldRules(wild_rank=5)))
    [7h 9h Jk=8h] | [4c 5c=4d]... 
    """
    cards_, rules = _prepare(hand, rules)
    naturals = [c for c in cards_ if not rules.is_wild(c)]
    wilds = [c for c in cards_ if rules.is_wild(c)]
    return _Solver(rules, wilds).arrangement(naturals, wilds)


def penalty(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> int:
    """The lowest penalty of ``hand`` (the penalty of its best arrangement).

    >>> penalty("Qh Kh 3s 5c 5d 5s")
    23
    """
    cards_, rules = _prepare(hand, rules)
    naturals = [c for c in cards_ if not rules.is_wild(c)]
    wilds = [c for c in cards_ if rules.is_wild(c)]
    s = _Solver(rules, wilds)
    x = 0
    for c in naturals:
        x += 1 << (4 * s.pos_of[c])
    return s.solve(x, len(wilds), 0) // _DEAD


def best_discard(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Discard:
    """For a hand of n+1 cards: the discard leaving the lowest penalty, exactly.

    Every distinct card is tried (not just "the highest deadwood card" of one
    arrangement, which is wrong on ties).  Ties: a natural card before a wild,
    then the card worth more points, then suit-then-rank order.

    >>> from rummy.cards import cards
    >>> d = best_discard(cards("7h 8h 9h Kc"))
    >>> d.card, d.penalty
    (Card.parse('Kc'), 0)
    """
    cards_, rules = _prepare(hand, rules)
    if not cards_:
        raise MeldError("best_discard needs at least one card to discard")
    all_wilds = [c for c in cards_ if rules.is_wild(c)]
    best: tuple[tuple[int, int, int, tuple[int, int]], Card, _Solver] | None = None
    solvers: dict[tuple[int, int], _Solver] = {}
    for card in sorted(set(cards_)):
        rest = list(cards_)
        rest.remove(card)
        wilds = [c for c in rest if rules.is_wild(c)]
        naturals = [c for c in rest if not rules.is_wild(c)]
        # share one memo between discards that leave the same wilds
        skey = (len(wilds), sum(rules.penalty_of(c) for c in wilds))
        if rules.is_wild(card):
            skey = (len(wilds), -1 - all_wilds.index(card))
        s = solvers.get(skey)
        if s is None:
            s = solvers[skey] = _Solver(rules, wilds)
        x = 0
        for c in naturals:
            x += 1 << (4 * s.pos_of[c])
        cost = s.solve(x, len(wilds), 0)
        key = (cost, int(rules.is_wild(card)), -rules.penalty_of(card), card.sort_key())
        if best is None or key < best[0]:
            best = (key, card, s)
    assert best is not None
    _, card, _ = best
    rest = list(cards_)
    rest.remove(card)
    return Discard(card, best_arrangement(rest, rules))


# The joker constant is re-exported for convenience in doctests.
_ = (JOKER, RANKS)
