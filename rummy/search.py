"""The one meld search: every question about arranging a hand is answered here.

``penalty`` (and ``penalty_less``: of the hand less each card asked),
``best_arrangement``, ``best_discard`` (and ``best_discard_choice``: its
card and penalty alone), ``all_melded`` / ``is_complete`` (is a hand
complete, with or without one discard), ``go_out_discards``,
``lone_cards`` (the natural cards without a partner; ``is_lone``: of one card),
``best_layoffs_masks`` (gin's defender, G-8), ``min_wilds`` /
``min_wilds_counts`` / ``covers_counts`` (how many wilds complete the
natural cards: the odds module's question) and ``mask_penalty`` (a 52-bit
one-pack hand, gin's hot path) all come from this module; the fast paths
are chosen inside it.  :mod:`rummy.melds` re-exports the main ones, and
no other module searches melds.

How the general search works: the natural (non-wild) cards are a vector of
counts (one 4-bit field per card, so identical cards from several packs
are one count), rank-major from the top rank down, so a card's set
partners sit next to it and the costly cards come first; the wilds are a
count.  The search takes the first remaining card and tries every way to
use it: as deadwood, as the discard (one discard owed), in a set with
other cards of its rank, or as the top natural card of a run in its suit
(wilds filling gaps).  A meld is its naturals plus the wilds it needs and
the room it has for more, so wilds are handed out at the end: the cheapest
are the ones left over.  With a discard owed, a card that no remaining
card could beat as a discard is thrown rather than kept (a wild thrown is
weighed once, at the top).  Ties go to the meld over leaving the card
unmelded, and among melds to the last one met: the runs (each as the
cards it takes below the first card: one taking fewer, or skipping a
card another one takes, is met first; so of two equal runs from a card
the longer, or the one that leaves out a lower card, wins), then the
sets (fewer copies of the card first).  A row of cards without partners
is deadwood in one step.  Results are memoised on (counts, wilds left, spare room,
discard owed), and the meld moves are found once per part of the vector
they depend on (the card, the rest of its suit below it, its rank); the
memo is kept between hands that share the rules, the wilds' points and
the isolated cards, and the answers are kept per hand (``clear_memo``
empties both; the per-rule tables stay).

The roomy search: when sets take any number of wilds (no ``max_set_size``,
every variant with wilds), a wild left over always has a meld to join once
one meld exists, so the state drops the room and the moves shrink: a run
from the lowest card takes a natural at every rank it spans that has one
(a wild there instead frees the natural for nothing the wild can't do), so
it is chosen by its bottom card alone; a set takes every copy of the
lowest card and leaves out a card of another suit only for a run that card
may start.  An answer that leaves wilds without a meld (no meld at all, or
runs only with less room than wilds, which takes 14 cards or more) is
searched again with room counted.  It finds the very arrangements of the
search with room, ties included (tests/test_search.py checks both).  Its
count vector holds the cards the other way round (position p in field
51 - p): the first remaining card is the top field, which ``bit_length``
finds and one shift reads, and the numbers shrink as the search goes on.

The fast path: one pack's worth of distinct cards and no wilds (gin, and
every hand without a wild), as a 52-bit mask (four 13-bit suits).  Its
lowest penalty (``penalty``, ``mask_penalty``, ``all_melded``) is read
from tables: per suit, the deadwood of every 13-bit mask that makes runs
only, and per rank held 3 or 4 times, a choice of which cards (if any) go
to a set; most hands hold no rank 3 times and cost four lookups.  The
arrangement and the best discard search the packings of disjoint melds
found with bit operations.  Tests check both against the general search
and the brute force.

>>> from rummy.cards import cards
>>> penalty(cards("Qh Kh 3s 5c 5d 5s"))
23
>>> min_wilds(cards("7h 8h Th Kc Kd"))     # 9h fills the run, a third king the set
2
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from rummy.cards import JOKER, SUITS, Card, as_cards, format_cards
from rummy.melds import (
    MAX_RUN,
    Arrangement,
    Discard,
    Meld,
    MeldError,
    MeldRules,
    make_arrangement,
    make_discard,
    make_meld,
    make_run,
    make_set,
    run_fit,
)

__all__ = [
    "penalty",
    "best_arrangement",
    "best_discard",
    "best_discard_choice",
    "all_melded",
    "is_complete",
    "may_go_out",
    "go_out_discards",
    "penalty_less",
    "lone_cards",
    "is_lone",
    "extension_bits",
    "min_wilds",
    "min_wilds_counts",
    "covers_counts",
    "mask_penalty",
    "best_layoffs_masks",
    "GIN_RULES",
    "clear_memo",
]



_W = 1 << 13  # cost encoding: penalty * _W + deadwood cards * _N + discard preference
_N = 1 << 7
_INF = 1 << 62
_WILD_DISCARD = 100  # discard preference of a wild (naturals rank 0..51, lower preferred)
#: the roomy search's count vectors hold position p in field 51 - p (the
#: field at shift 204 - 4p): the lowest position, searched first, is the
#: top field, found by ``bit_length`` alone, and read off by one shift
_TOP = 204


@functools.lru_cache(maxsize=512)
def _tables(rules: MeldRules) -> tuple[Any, ...]:
    """Per-position tables for one rule set.

    A natural card's position is q * 4 + suit, rank-major from the top
    rank down (the ace first when it may play high, last when it plays
    low), so that the search meets the costly cards first: the lowest
    position's set partners are the next positions, its run partners every
    fourth (runs are built downwards).  Returns the position of each card,
    the card at each position, the encoded deadwood cost, the discard
    preference (0 = the card best thrown on a tie: most points first), the
    run positions after each (next lower ranks of its suit), the positions
    of an ace's low runs (2, 3, ...) when it plays low or high, the
    same-rank positions after it, Card.index -> position, the part of a
    count vector the melds of a lowest card depend on, each card's points
    by Card.index, the positions after each that are better discards,
    each Card.index's unit in a count vector, the Card.index at each
    position, whether each Card.index (the joker's, 52, included) is a
    wild, the positions in discard preference order (best first), and
    each Card.index's unit in the roomy search's count vectors (``_TOP``).
    """
    pos_of: dict[Card, int] = {}
    card_at: list[Card] = []
    pen: list[int] = []
    ranks = list(range(13, 1, -1))
    ranks = ranks + [1] if rules.aces == "low" else [1] + ranks
    for r in ranks:
        for s in SUITS:
            c = Card(r, s)
            pos_of[c] = len(card_at)
            card_at.append(c)
            pen.append(rules.penalty_of(c) * _W + _N)
    order = sorted(range(52), key=lambda i: (-rules.penalty_of(card_at[i]), card_at[i].sort_key()))
    drank = [0] * 52
    for i, pos in enumerate(order):
        drank[pos] = i
    up = [tuple(range(p + 4, 52, 4)) for p in range(52)]
    down: list[tuple[int, ...]] = [()] * 52
    if rules.aces == "low_or_high":
        for si in range(4):
            down[si] = tuple(range(48 + si, si, -4))  # 2, 3, ... K above an ace played as 1
    same = [tuple(range(p + 1, p - p % 4 + 4)) for p in range(52)]
    index_pos = [pos_of[c] for c in (Card(r, s) for s in SUITS for r in range(1, 14))]
    # the part of a count vector that the melds of its lowest card p depend
    # on: p and the cards above it in its suit, and p's rank in higher suits
    local = [0] * 52
    for p in range(52):
        m = 0
        for t in (p, *up[p], *same[p]):
            m |= 15 << (t << 2)
        local[p] = m
    pts = [rules.penalty_of(Card(r, s)) for s in SUITS for r in range(1, 14)] + [rules.joker_penalty]
    better = [0] * 52
    for p in range(52):
        for t in range(p + 1, 52):
            if drank[t] < drank[p]:
                better[p] |= 15 << (t << 2)
    unit = [1 << (index_pos[i] << 2) for i in range(52)]
    idx_at = [c.index for c in card_at]
    wild_at = [i % 13 + 1 == rules.wild_rank for i in range(52)] + [True]
    unit_top = [1 << (_TOP - (index_pos[i] << 2)) for i in range(52)]
    return (pos_of, card_at, pen, drank, up, down, same, index_pos, local, pts, better, unit, idx_at,
            wild_at, order, unit_top)


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
    pts = _rule_tables(rules)[9]
    if type(wilds) is list and len(wilds) < 2:  # most hands (no comprehension's frame)
        return (pts[wilds[0].index],) if wilds else ()
    return tuple(sorted([pts[c.index] for c in wilds], reverse=True))


@functools.lru_cache(maxsize=64)
def _partners_of(both: bool, reach: int) -> list[int]:
    """For each position, the positions (as count-vector fields) whose cards
    could share a meld with it: its rank in the other suits, and its suit
    within ``reach`` ranks (an ace that plays low or high reaches both the
    king's side and the two's side, ``both``).  Built once per ace layout
    and reach, whatever the other rules (a game's rounds share them)."""
    out = [0] * 52
    for p in range(52):
        q, s = p >> 2, p & 3
        m = 0
        for t in range(q * 4, q * 4 + 4):
            if t != p:
                m |= 15 << (t << 2)
        for j in range(13):
            if j == q:
                continue
            dist = abs(j - q)
            if both and (j == 0 or q == 0):  # the ace is first: K next to it, 2 last
                i = q or j
                dist = min(i, 13 - i)
            if dist <= reach:
                m |= 15 << ((j * 4 + s) << 2)
        out[p] = m
    return out


@functools.lru_cache(maxsize=64)
def _partners_by_index(aces: str, reach: int, top: bool = False) -> tuple[list[int], list[int]]:
    """:func:`_partners_of` and each card's field shift in a count vector,
    by ``Card.index`` (0..51): what :func:`_encode` reads to find the
    isolated cards (``top``: in the roomy search's layout, ``_TOP``)."""
    index_pos = _tables(MeldRules(aces=aces))[7]  # type: ignore[arg-type]
    partners = _partners_of(aces == "low_or_high", reach)
    if top:
        return [_flip(partners[p]) for p in index_pos], [_TOP - (p << 2) for p in index_pos]
    return [partners[p] for p in index_pos], [p << 2 for p in index_pos]


#: the room of a set in the roomy search: more than any number of wilds
_SET_ROOM = 64
_UNIT = [1 << (p << 2) for p in range(52)]  # one card at each position, as a count vector
_UNIT_TOP = [1 << (_TOP - (p << 2)) for p in range(52)]  # the same in the roomy search's layout
_FIELD_TOP = [15 << (_TOP - (p << 2)) for p in range(52)]  # each position's field in that layout


#: bit 0 of each field of a count vector; the low nibble of each byte; the
#: low byte of each 16-bit lane (a rank's four fields in the roomy search's
#: layout); 3 below the top bit of each lane; the top bit of each lane
_ONES = sum(1 << (4 * f) for f in range(52))
_BYTE_LOW = sum(15 << (8 * i) for i in range(26))
_LANE_LOW = sum(255 << (16 * i) for i in range(13))
_LANE_THREE = sum((0x8000 - 3) << (16 * i) for i in range(13))
_LANE_TOP = sum(0x8000 << (16 * i) for i in range(13))


def _meldless(x: int, both: bool) -> int:
    """The fields (all four bits) of the cards of a count vector in the
    roomy search's layout (``_TOP``) that share no meld of three naturals
    with the others: their rank holds fewer than three cards, and no
    three cards in a row of their suit take them in (``both``: an ace
    also plays low, under the two).  Such a card has no meld without a
    wild in any part of x either.

    >>> from rummy.cards import cards
    >>> rules = MeldRules()
    >>> x = sum(_rule_tables(rules)[15][c.index] for c in cards("7h 8h 9h 9d 9c Ks Ks 4c"))
    >>> dead = x & _meldless(x, False)
    >>> sorted(str(_rule_tables(rules)[1][51 - f]) for f in range(52) if dead >> (f << 2) & 15)
    ['4c', 'Ks']
    """
    nz = (x | x >> 1 | x >> 2 | x >> 3) & _ONES  # a card in the field
    r = nz & nz >> 16 & nz >> 32  # the top card of three in a row (the next ranks are 16 bits down)
    runs = r | r << 16 | r << 32
    if both:  # A 2 3: the aces in the top lane, the twos in the lowest, the threes next
        r = nz >> 192 & nz & nz >> 16 & 0xFFFF
        runs |= r | r << 16 | r << 192
    y = (x & _BYTE_LOW) + (x >> 4 & _BYTE_LOW)  # two fields' counts per byte
    y = (y & _LANE_LOW) + (y >> 8 & _LANE_LOW)  # a rank's count per lane
    sets = ((y + _LANE_THREE) & _LANE_TOP) >> 15  # bit 0 of each rank of three cards or more
    return (nz & ~(runs | sets * 0x1111)) * 15


def _flip(x: int) -> int:
    """A count vector in the other layout: position p's count moves from
    field p to field 51 - p, or back (``_TOP``).

    >>> _flip(3) == 3 << _TOP, _flip(_flip(0x1203)) == 0x1203
    (True, True)
    """
    out = 0
    while x:
        i = (x.bit_length() - 1) >> 2
        n = x >> (i << 2)
        x -= n << (i << 2)
        out |= n << (_TOP - (i << 2))
    return out


_EIGHTS = sum(8 << (4 * p) for p in range(52))  # a count of 8 or more in some field


def _encode(rules: MeldRules, big: int, naturals: Sequence[Card],
            top: bool = False) -> tuple[int, list[int]]:
    """The count vector of the naturals less the isolated ones, and the
    isolated positions, best discard first.  A natural is isolated when no
    other natural could share a meld with it, given ``big`` wilds.  (``top``:
    in the roomy search's layout, see ``_TOP``.)"""
    tables = _rule_tables(rules)
    drank, index_pos, unit = tables[3], tables[7], tables[15 if top else 11]
    x = sum([unit[c.index] for c in naturals])
    if len(naturals) > 8 and (x & _EIGHTS or len(naturals) == 16) and max(Counter(map(_INDEX, naturals)).values()) > 8:
        raise MeldError("no card can appear more than 8 times (at most 8 packs)")
    partners, shift = _partners_by_index(rules.aces, big + 1, top)
    iso: list[int] = []
    for c in naturals:
        i = c.index
        if not x & partners[i] and (x >> shift[i]) & 15 == 1:  # most cards have a partner
            iso.append(index_pos[i])
    units = _UNIT_TOP if top else _UNIT
    for p in iso:
        x -= units[p]
    iso.sort(key=drank.__getitem__)
    return x, iso


#: what a solver holds that depends on its rules and its wilds' points
#: alone, per (rules, wilds' points); the last asked kept at hand
_STATICS: dict[tuple[MeldRules, tuple[int, ...]], tuple[Any, ...]] = {}
_last_static: list[Any] = [None, None, None]


def _static(rules: MeldRules, costs: tuple[int, ...]) -> tuple[Any, ...]:
    """For a solver of these rules and wilds' points (``costs``, most
    expensive first): the rules and their tables, the set size cap, whether
    melds may be all wilds, the number of wilds, the cost of the cheapest
    ``left`` wilds left over, the room of a set, and the roomy search's run
    tables (:func:`_run_reach`).  Made once per rules and points (a game's
    hands share them)."""
    if _last_static[0] is rules and _last_static[1] == costs:
        return _last_static[2]  # type: ignore[no-any-return]
    key = (rules, costs)
    got = _STATICS.get(key)
    if got is None:
        (pos_of, card_at, pen, drank, up, down, same, index_pos, local, _pts, better, _unit,
         idx_at, _wild_at, by_drank, _unit_top) = _rule_tables(rules)
        big = len(costs)
        wild_cost = [0] * (big + 1)
        for left in range(1, big + 1):
            wild_cost[left] = sum(costs[big - left:]) * _W + left * _N
        max_set = rules.max_set_size
        set_room = big if max_set is None else max_set - 3
        got = (rules, pos_of, card_at, pen, drank, up, down, same, index_pos, local, better, idx_at,
               by_drank, max_set, rules.min_naturals == 0, big, wild_cost, set_room,
               _run_reach(rules, big + 1))
        if len(_STATICS) >= 4096:
            _STATICS.clear()
        _STATICS[key] = got
    _last_static[0], _last_static[1], _last_static[2] = rules, costs, got
    return got


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
                 "set_room", "index_pos", "choice", "ready_memo", "meld_memo", "local", "better",
                 "iso_first", "idx_at", "iso_low", "by_drank", "field_idx", "field_pen")
    top = False  # its count vectors' layout: position p in field p (True: in field 51 - p, ``_TOP``)

    def __init__(self, rules: MeldRules, wilds: list[Card], costs: tuple[int, ...] | None = None,
                 iso: list[int] | None = None):
        self._setup(rules, wilds, costs, iso)
        self.memo: dict[int, int] = {}
        self.ready_memo: dict[int, bool] = {}
        self.meld_memo: dict[int, list[tuple[int, int, int]]] = {}
        self.choice: dict[int, Any] = {}
        self.end_memo: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def _setup(self, rules: MeldRules, wilds: list[Card], costs: tuple[int, ...] | None,
               iso: list[int] | None = None) -> tuple[Any, ...]:
        """The tables and the wilds' costs (``costs``: ``_wild_costs(rules,
        wilds)``, when the caller has it), and the isolated positions
        (``iso``, best discard first; none when not given).  Returns the
        roomy search's run tables (:func:`_run_reach`)."""
        if costs is None:
            costs = _wild_costs(rules, wilds)
        (self.rules, self.pos_of, self.card_at, self.pen, self.drank, self.up, self.down,
         self.same, self.index_pos, self.local, self.better, self.idx_at, self.by_drank,
         self.max_set, self.wild_only, self.big, self.wild_cost, self.set_room, reach) = _static(rules, costs)
        # the Card.index and the deadwood cost of the card in each field of a count vector
        self.field_idx, self.field_pen = self.idx_at, self.pen
        if iso:
            self.use_isolated(iso)
        else:
            self.iso: list[int] = []
            self.iso_tail: list[int] = [0]
            self.iso_first = 1 << 30  # the discard preference of the best isolated card
            self.iso_low = [0] * (self.big + 1)  # see use_isolated
        return reach  # type: ignore[no-any-return]

    def trim(self) -> None:
        """Forget what the memos hold when they have grown too big (a kept
        solver, before its next hand)."""
        if len(self.memo) > _MEMO_MAX:
            self.memo.clear()
            self.choice.clear()
            self.meld_memo.clear()
        if len(self.ready_memo) > _MEMO_MAX:
            self.ready_memo.clear()

    def encode(self, naturals: Sequence[Card]) -> int:
        """The count vector of the naturals, less the isolated ones (kept in
        ``self.iso``, best discard first), in this search's layout."""
        x, iso = _encode(self.rules, self.big, naturals, self.top)
        self.use_isolated(iso)
        return x

    def use_isolated(self, iso: list[int]) -> None:
        """Settle these isolated positions (best discard first) in :meth:`end`."""
        # tail[i]: the cost of the isolated cards from the i-th on (a loop:
        # a hand has few, and a chain of iterators costs more for so few)
        pen = self.pen
        tail = [0]
        t = 0
        for p in reversed(iso):
            t += pen[p]
            tail.append(t)
        tail.reverse()
        self.iso = iso
        self.iso_tail = tail
        self.iso_first = self.drank[iso[0]] if iso else 1 << 30
        # the isolated cards' cost with w wilds left and no discard owed
        # (the cost of rend(w, 0)): what every state of the roomy search
        # with w wilds costs at least (two wilds rescue one card, the
        # costliest first; tail[len(iso)] is 0)
        n = self.big + 1
        if n <= 2:  # no two wilds: no card rescued
            self.iso_low = [t] * n
        else:
            k = len(iso)
            self.iso_low = [tail[min(w >> 1, k)] for w in range(n)]

    def moves(self, x: int, w: int, d: int) -> Iterator[tuple[int, int, int, int, int]]:
        """Every way to use the lowest card of x: (cards removed, wilds used,
        room added, discard flag after, cost added)."""
        p = ((x ^ (x - 1)).bit_length() - 1) >> 2
        bit = 1 << (p << 2)
        yield bit, 0, 0, d, self.pen[p]  # deadwood
        if d:
            yield bit, 0, 0, 0, self.drank[p]  # the discard
        max_set = self.max_set
        # runs with this card as the first natural in search order (its top
        # card; or, for an ace that also plays low, its lowest card, going up)
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
        solve = self.solve
        pen = self.pen
        p = ((x ^ (x - 1)).bit_length() - 1) >> 2
        if w < 2:
            # most states: the lowest card has no partner left, so it can only
            # be deadwood (or the discard); skip the full move search, and
            # without a discard owed, take every such card in a row at once
            add = 0
            y = x
            while True:
                sh = p << 2
                r4 = (y >> ((p >> 2) << 4)) & 0xFFFF  # p's rank (earlier suits are gone)
                rank_count = (r4 & 15) + ((r4 >> 4) & 15) + ((r4 >> 8) & 15) + (r4 >> 12)
                n1 = (y >> (sh + 16)) & 15  # the next two cards of p's suit (one and two ranks down)
                n2 = (y >> (sh + 32)) & 15
                if w == 0:
                    alone = rank_count < 3 and not (n1 and n2)
                else:
                    alone = rank_count < 2 and not (n1 or n2)
                if alone and self.down[p]:  # an ace that also plays low: the 2 and 3
                    nk = (y >> ((p + 48) << 2)) & 15
                    nq = (y >> ((p + 44) << 2)) & 15
                    alone = not (nk and (w or nq)) and not (w and (nk or nq))
                if not alone:
                    break
                if d:
                    bit = 1 << sh
                    pick = (bit, 0, 0, 0, self.drank[p])
                    best = self.drank[p] + solve(x - bit, w, cap, 0)
                    if x & self.better[p] or self.iso_first < self.drank[p]:
                        v = pen[p] + solve(x - bit, w, cap, d)
                        if v < best:
                            best = v
                            pick = (bit, 0, 0, d, pen[p])
                    memo[key] = best
                    self.choice[key] = pick
                    return best
                n = (y >> sh) & 15
                y -= n << sh
                add += n * pen[p]
                if y == 0:
                    break
                p = ((y ^ (y - 1)).bit_length() - 1) >> 2
            if add:
                best = add + solve(y, w, cap, 0)
                memo[key] = best
                self.choice[key] = (x - y, 0, 0, 0, add)
                return best
        bit = 1 << (p << 2)
        y = x - bit
        # the children's memo entries are looked up here (most are there)
        k0 = ((y << 5 | w) << 5 | cap) << 1
        best = _INF
        if d:  # the discard
            add = self.drank[p]
            v = memo.get(k0) if y else None
            best = add + (solve(y, w, cap, 0) if v is None else v)
            pick = (bit, 0, 0, 0, add)
        # deadwood; with a discard owed, only while a better discard may
        # come (else throwing this card is at least as good: a wild thrown
        # instead is the caller's other branch, see best_discard)
        if not d or x & self.better[p] or self.iso_first < self.drank[p]:
            add = pen[p]
            v = memo.get(k0 | d) if y else None
            v = add + (solve(y, w, cap, d) if v is None else v)
            if v < best:
                best = v
                pick = (bit, 0, 0, d, add)
        melds = self.meld_memo.get(x & self.local[p])
        if melds is None:
            melds = self._melds_of(x)
        for delta, need, room in melds:
            if need <= w:
                y, w2, c2 = x - delta, w - need, cap + room
                if c2 > w2:
                    c2 = w2
                v = memo.get(((y << 5 | w2) << 5 | c2) << 1 | d) if y else None
                if v is None:
                    v = solve(y, w2, c2, d)
                if v <= best:  # melds first on ties (the last one found)
                    best = v
                    pick = (delta, need, room, d, 0)
        memo[key] = best
        self.choice[key] = pick
        return best

    def _melds_of(self, x: int) -> list[tuple[int, int, int]]:
        """The meld moves of :meth:`moves` for the lowest card of ``x`` with
        every wild at hand, as (cards removed, wilds needed, room added);
        found once per ``x`` (states differ in wilds left far more often than
        in cards left), and a state with fewer wilds takes those it can pay."""
        key = x & self.local[((x ^ (x - 1)).bit_length() - 1) >> 2]
        melds = self.meld_memo.get(key)
        if melds is None:
            melds = [(delta, need, room) for delta, need, room, _d2, add in self.moves(key, self.big, 0)
                     if add == 0]
            self.meld_memo[key] = melds
        return melds

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
        # the lowest card as the discard, or in a meld (never deadwood)
        ok = False
        if d:
            p = ((x ^ (x - 1)).bit_length() - 1) >> 2
            ok = self.ready(x - (1 << (p << 2)), w, cap, 0)
        if not ok:
            melds = self._melds_of(x)
            for delta, need, room in melds:
                if need <= w and self.ready(x - delta, w - need, cap + room, d):
                    ok = True
                    break
        memo[key] = ok
        return ok

    def _indexes(self, delta: int) -> list[int]:
        """The cards of a count vector as ``Card.index`` values, in index
        order (a card counted twice is there twice)."""
        out: list[int] = []
        idx_at = self.field_idx
        while delta:  # one card at a time, the top field first (a card counted twice comes round twice)
            i = (delta.bit_length() - 1) >> 2
            out.append(idx_at[i])
            delta -= _UNIT[i]
        out.sort()
        return out

    def _wild_throw_may_win(self, x: int, w: int, cost: int, total: int | None = None) -> bool:
        """Could throwing a wild beat ``cost``, the best natural discard?

        Only when the rest of the hand, arranged without that wild, has no
        meld at all: if it has a meld with a natural card, the wild can
        stand in for that natural, which is thrown instead (the same cards
        left over, and a natural is preferred as the discard on a tie); if
        its only melds are of wilds, the wild joins one of them and an
        unmelded natural is thrown.  Both need sets without a size cap and
        melds that may be all wilds; otherwise the question is searched.
        Without melds the cost is known: every natural card (``total``,
        when the caller has it: the encoded deadwood cost of every natural
        card, the isolated ones included) and the wilds left over."""
        if cost >= _INF or self.max_set is not None or not self.wild_only:
            return True
        if cost <= _WILD_DISCARD + self.iso_tail[0]:
            return False  # less than the isolated cards alone
        if total is not None:
            return cost > _WILD_DISCARD + total + self._left(w - 1, 0)
        total = self.iso_tail[0] + self._deadwood(x)
        return cost > _WILD_DISCARD + total + self._left(w - 1, 0)

    def _deadwood(self, x: int) -> int:
        """The deadwood cost of every card of the count vector x, card by
        card (in either layout: ``field_pen`` is by field)."""
        fp = self.field_pen
        total = 0
        while x:  # the top field first
            f = (x.bit_length() - 1) >> 2
            c = x >> (f << 2)
            x -= c << (f << 2)
            total += c * fp[f]
        return total

    def arrangement(self, x: int, wilds: list[Card], d: int = 0,
                    total: int | None = None) -> tuple[Arrangement, Card | None]:
        """Walk the optimal choices back into melds, deadwood and a discard.

        With a discard owed (``d``) the search prefers throwing a natural
        card it meets first to keeping it for a later discard, so a wild
        thrown is weighed here: the most expensive wild thrown, the rest of
        the hand arranged with one wild fewer (the wilds left over are the
        cheapest either way; ``total``: see :meth:`_wild_throw_may_win`)."""
        w = len(wilds)
        cost = self.solve(x, w, 0, d)
        wild_list = self._wild_order(wilds)
        thrown: Card | None = None
        if d and w and self._wild_throw_may_win(x, w, cost, total):
            other = _WILD_DISCARD + self.solve(x, w - 1, 0, 0)
            if other < cost:
                cost, d, w = other, 0, w - 1
                thrown = wild_list.pop(0)
        if cost >= _INF:
            raise MeldError("there is no card to discard")
        plan: list[tuple[list[int], int, int]] = []  # naturals, wilds needed, room
        dead: list[int] = []
        discard: Card | None = thrown
        cap = 0
        while x:
            cap = min(cap, w)
            p = ((x ^ (x - 1)).bit_length() - 1) >> 2
            delta, need, room, d2, add = self.choice[((x << 5 | w) << 5 | cap) << 1 | d]
            if d2 != d:
                discard = self.card_at[p]
            elif add:  # deadwood: this card, or a row of cards without partners
                dead += self._indexes(delta)
            else:
                plan.append((self._indexes(delta), need, room))
            x -= delta
            w -= need
            cap += room
            d = d2
        # the isolated cards: rescued by two wilds each, discarded, or deadwood
        _cost, k, how = self.end(w, min(cap, w), d)
        return self._assemble(plan, dead, self.iso, k, how, discard, w, wild_list, cost)

    def _wild_order(self, wilds: list[Card]) -> list[Card]:
        """The wilds, most expensive first (then in card order: Card.index
        order is sort_key order, the joker last)."""
        if len(wilds) < 2:
            return list(wilds)
        pts = _rule_tables(self.rules)[9]
        return sorted(wilds, key=lambda c: (-pts[c.index], c.index))

    def _assemble(self, plan: list[tuple[list[int], int, int]], dead: list[int], spare: list[int],
                  k: int, how: int, discard: Card | None, w: int, wild_list: list[Card],
                  cost: int) -> tuple[Arrangement, Card | None]:
        """Melds, deadwood and the discard from a search's choices: ``plan``
        (naturals as card indexes in index order, wilds needed, room) of
        the melds chosen, ``dead`` the card indexes left unmelded, ``spare``
        (the positions left unmelded, best discard first) of which the
        first is the discard when ``how`` is 1 and the next ``k`` are
        rescued by two wilds each; a wild is the discard when ``how`` is 2;
        ``w`` wilds are not yet given to a meld (``wild_list``: every wild,
        most expensive first)."""
        # melds in the order of their lowest card by suit, then rank in run
        # order (the one-pack fast path's order), whatever order the search
        # took; then runs before sets, then by all their cards, so that
        # melds sharing a lowest card come in one order whichever way the
        # search met them
        if len(plan) > 1:
            if self.rules.aces == "high":
                plan.sort(key=_plan_order_high)
            else:
                plan.sort(key=_plan_order)
        idx_at = self.idx_at
        iso = [idx_at[i] for i in spare] if spare else []
        if how == 1:
            discard = _CARD_OF[iso.pop(0)]
        if k:
            set_room = self.set_room
            for i in iso[:k]:
                plan.append(([i], 2, set_room))
            w -= 2 * k
            iso = iso[k:]
        dead += iso
        dead.sort()
        if how == 2:  # the discard is a wild: the most expensive one not needed
            discard = wild_list.pop(0)
            w -= 1
        rules = self.rules
        made: list[Meld] = []  # (loops: a hand has few melds, and a comprehension is a call)
        if not wild_list:  # no wilds: the naturals alone
            for nat, _need, _room in plan:
                made.append(_natural_meld(nat, [], rules))
            return make_arrangement(tuple(made), tuple([_CARD_OF[i] for i in dead]), cost // _W), discard
        # hand out wilds: the needed ones first (most expensive), then extras
        n_used = len(wild_list) - w
        used, rest = wild_list[:n_used], wild_list[n_used:]
        groups: list[tuple[list[int], list[Card]]] = []
        for nat, need, _room in plan:
            groups.append((nat, used[:need]))
            used = used[need:]
        extra: list[Meld] = []
        if len(rest) >= 3 and self.wild_only:
            # wilds only (M-4): one set, or runs of at most 13 when sets are capped
            if self.max_set is None:
                extra.append(_build("set", [], rest, rules))
                rest = []
            else:
                while rest:
                    take = len(rest) if len(rest) <= MAX_RUN else min(MAX_RUN, len(rest) - 3)
                    extra.append(_build("set" if take <= self.max_set else "run", [], rest[:take], rules))
                    rest = rest[take:]
        else:
            for (_nat, _need, room), grp in zip(plan, groups):
                if not rest:
                    break
                take = min(room, len(rest))
                if take > 0:
                    grp[1].extend(rest[:take])
                    rest = rest[take:]
        for nat, wl in groups:
            made.append(_natural_meld(nat, wl, rules))
        melds = tuple(made + extra) if extra else tuple(made)
        deadwood = tuple([_CARD_OF[i] for i in dead])
        if rest:
            deadwood += tuple(sorted(rest, key=_INDEX))
        return make_arrangement(melds, deadwood, cost // _W), discard


def _dicts(n: int) -> list[dict[Any, Any]]:
    """n new empty dicts (without a comprehension's frame for the usual
    one to three).

    >>> _dicts(2), _dicts(4)
    ([{}, {}], [{}, {}, {}, {}])
    """
    if n == 1:
        return [{}]
    if n == 2:
        return [{}, {}]
    if n == 3:
        return [{}, {}, {}]
    return [{} for _ in range(n)]


class _Roomy(_Solver):
    """The search for rules whose sets take any number of wilds (no
    ``max_set_size``): every wild left over after the melds' needs is
    taken by a meld, so the state drops the room (``cap``): it is the
    cards left, the wilds left and whether a discard is owed.  Three rules
    of dominance keep the moves few (each is an exchange that costs
    nothing):

    * a run from the lowest card takes, at each rank it spans, a natural
      card of its suit when there is one (a wild there instead frees the
      natural for something the wild does as well), so a run is chosen
      by its bottom card alone, and a run ends on a natural;
    * a set takes every copy of the lowest card (a copy left out is in a
      run, which the copy in the set could join instead), and it leaves
      out a card of another suit only for a run that card starts: a card
      without a run partner in reach joins the set (or would be
      deadwood, or in a second set of the rank, which merges into this);
    * a run of one natural is a set of one natural (a set has more room);
    * without a discard owed, the lowest card left unmelded leaves all its
      copies unmelded: a copy in a meld is the lowest card before it.

    Ties are those of the search with room: its moves that the rules
    above merge are met in its order.  With a discard owed, the runs that
    leave out a better discard are weighed among the runs (:meth:`_rextra_of`),
    and a copy of the lowest card thrown before a set of its other copies
    is that search's set less the copy, which wins a tie as its last meld.

    Leftover wilds cost nothing.  That holds unless no meld is made at
    all, or the melds are runs only and the wilds left over outnumber
    their room (which needs 14 or more cards in the arrangement): each
    answer is checked (:meth:`holds`), and searched again with the room
    counted (:class:`_Solver`) when the check fails.

    Its count vectors hold position p in field 51 - p (``_TOP``): the
    lowest card is the top field (``bit_length`` finds it, one shift reads
    its count), and the numbers shrink as the search takes cards.
    """

    __slots__ = ("rmemo", "rchoice", "rmelds", "rextra", "rready_memo", "rend_memo", "rlocal", "seqs",
                 "sames", "xcand", "wilds", "fallback", "lone", "rbetter", "dead", "both", "lane_pen")
    top = True

    def __init__(self, rules: MeldRules, wilds: list[Card], costs: tuple[int, ...] | None = None,
                 iso: list[int] | None = None):
        # the search with room's memos are made only when it is needed (general)
        reach = self._setup(rules, wilds, costs, iso)
        self.wilds = wilds
        self.fallback: _Solver | None = None
        # the memo and the choices: one dict per (discard owed, wilds left),
        # keyed by the count vector alone (no key to build per lookup); those
        # of a discard owed are made on first use
        n = self.big + 1
        # (rmemo[d][w]: dict[int, int], rchoice[d][w]: dict[int, Any]; d=1 None until used).
        # A choice is the meld taken, as its meld list holds it (cards, wilds
        # it needs, room), or a count vector of cards left unmelded: with a
        # discard owed, the card thrown, or (negated) a card kept as deadwood
        # with the discard still owed (see :meth:`_walk`).  So a state
        # solved makes no new tuple: fewer objects for the garbage collector
        # to track and walk (about a tenth of a game's time went there)
        self.rmemo: list[Any] = [_dicts(n), None]
        self.rchoice: list[Any] = [_dicts(n), None]
        # the meld lists depend on the rules and the number of wilds only:
        # shared by every solver of the same two (a game's next hands)
        self.rmelds, self.rextra = _meld_lists(rules, self.big)
        self.rready_memo: tuple[list[dict[int, bool]], ...] | None = None  # made on first use
        self.rend_memo: dict[int, tuple[int, int, int]] = {}
        # the fields of the cards that share no meld of three naturals in
        # the hand searched last (:meth:`rsolve`), and whether an ace also
        # plays low
        self.dead = 0
        self.both = rules.aces == "low_or_high"
        (self.rlocal, self.seqs, self.sames, self.xcand, self.rbetter, self.lone, self.field_idx,
         self.field_pen, self.lane_pen) = reach

    def general(self, x: int) -> tuple[_Solver, int]:
        """The search with room for these rules, wilds and isolated cards
        (made once, on first use), and the count vector ``x`` in its layout."""
        g = self.fallback
        if g is None:
            g = self.fallback = _Solver(self.rules, self.wilds, None, self.iso)
        return g, _flip(x)

    def trim(self) -> None:
        """:meth:`_Solver.trim` for the roomy search's memos."""
        memo = self.rmemo
        if sum(map(len, memo[0])) + sum(map(len, memo[1] or ())) > _MEMO_MAX:
            for memos in (*self.rmemo, *self.rchoice):
                for m in memos or ():
                    m.clear()
        ready = self.rready_memo
        if ready is not None and sum(map(len, ready[0])) + sum(map(len, ready[1])) > _MEMO_MAX:
            for m in (*ready[0], *ready[1]):
                m.clear()
        if self.fallback is not None:
            self.fallback.trim()

    def rend(self, w: int, d: int) -> tuple[int, int, int]:
        """:meth:`end` with room for every wild left over: as many isolated
        cards as the wilds allow are rescued (the costliest), and with a
        discard owed the best isolated card or a wild is thrown."""
        key = (w << 1) | d
        got = self.rend_memo.get(key)
        if got is not None:
            return got
        iso, tail, n_iso = self.iso, self.iso_tail, len(self.iso)
        k = min(n_iso, w >> 1)
        if not d:
            best = (tail[k], k, 0)
        else:
            best = (_INF, 0, 0)
            if n_iso:
                k1 = min(n_iso - 1, w >> 1)
                best = (tail[k1 + 1] + self.drank[iso[0]], k1, 1)
            if w:
                k2 = min(n_iso, (w - 1) >> 1)
                cand = (tail[k2] + _WILD_DISCARD, k2, 2)
                if cand < best:
                    best = cand
        self.rend_memo[key] = best
        return best

    def _rmelds_of(self, x: int, p: int, key: int) -> tuple[int, list[tuple[int, int, int]]]:
        """(fewest wilds any needs, the melds of the lowest card ``p`` of x
        as (cards removed, wilds needed, room)), found once per part of x
        they depend on (``key``: x & rlocal[p]), with every wild at hand."""
        big = self.big
        bit = _UNIT_TOP[p]
        out: list[tuple[int, int, int]] = []
        low = _INF
        # runs: p on top, a natural at every rank that has one, ending on a natural
        for seq in self.seqs[p]:
            delta, gaps = bit, 0
            for field, unit, room, first, _q in seq:
                if x & field:
                    delta += unit
                    need = gaps + first  # (gaps is 0 at the first card)
                    if need < low:
                        low = need
                    out.append((delta, need, room))
                else:
                    gaps += 1
                    if gaps > big:
                        break
        # sets: every copy of p, and of each other suit all its copies, or
        # (for a card that may start a run) fewer
        f = 51 - p  # p's field, the top one
        o = (f & 3) << 2  # its shift within its rank's four fields
        row = x >> ((f << 2) - o)  # p's rank (earlier suits are gone)
        n = row >> o
        dl, k = bit * n, n
        free: list[tuple[int, int]] | None = None
        for sh, unit, rm in self.sames[p]:
            c = (row >> sh) & 15
            if c:
                if x & rm:
                    if free is None:
                        free = []
                    free.append((unit, c))
                else:
                    dl += c * unit
                    k += c
        if free is None:  # one set (the lines below without a list: most ranks have no free card)
            need = 3 - k if k < 3 else 0
            if need <= big:
                if need < low:
                    low = need
                out.append((dl, need, _SET_ROOM))
        else:
            combos = [(dl, k)]
            for unit, c in free:
                combos = [(d2 + t * unit, k2 + t) for d2, k2 in combos for t in range(c + 1)]
            for dl, k in combos:
                need = 3 - k if k < 3 else 0
                if need <= big:
                    if need < low:
                        low = need
                    out.append((dl, need, _SET_ROOM))
        got = self.rmelds[key] = (low, out)
        return got

    def rsolve(self, x: int, w: int, d: int) -> int:
        """The lowest cost of the naturals ``x`` with ``w`` wilds (and a
        discard owed when ``d``), every wild left over taken by a meld."""
        if x == 0:
            return self.rend(w, d)[0]
        memo = self.rmemo[d]
        if memo is None:  # the first search with a discard owed
            n = self.big + 1
            memo = self.rmemo[1] = _dicts(n)
            self.rchoice[1] = _dicts(n)
        got = memo[w].get(x)
        if got is not None:
            return got
        # every state searched holds part of x: a card of x with no meld of
        # three naturals has none in any state, and is deadwood in every
        # state without a wild or a discard owed
        self.dead = _meldless(x, self.both)
        return self._rsolve(x, w, d)

    def _rsolve(self, x: int, w: int, d: int) -> int:
        """:meth:`rsolve` of a state not yet solved (x not empty); the
        children's memo entries are looked up here (most are there)."""
        memo = self.rmemo[d]  # by wilds left, for this discard flag
        pen = self.pen
        rmelds, rlocal = self.rmelds, self.rlocal
        lone = self.lone[w]  # None from two wilds on
        x0, settled = x, 0  # settled: the deadwood of a row of cards settled at once
        if not (w or d):  # no wild and no discard: the cards without a meld of naturals settle at once
            xm = x & self.dead
            if xm:
                x -= xm
                lane_pen = self.lane_pen
                if lane_pen:  # their deadwood cost, in one product (see _run_reach)
                    y = (xm & _BYTE_LOW) + (xm >> 4 & _BYTE_LOW)
                    y = (y & _LANE_LOW) + (y >> 8 & _LANE_LOW)  # each rank's count in its lane
                    settled = (y * lane_pen >> 192 & 0xFFFF) * _N
                else:
                    settled = self._deadwood(xm)
                if not x:
                    best = settled + self.iso_low[0]  # rend(0, 0)'s cost
                    memo[0][x0] = best
                    self.rchoice[0][0][x0] = x0
                    return best
        melds: Sequence[tuple[int, int, int]]  # those of the lowest card, (cards, need, room)
        while True:
            f = (x.bit_length() - 1) >> 2  # the lowest card's field: the top one
            p = 51 - f
            sh = f << 2
            # the lowest card can only be deadwood: so can every card after
            # it that has no meld either (a row of cards settled at once)
            if lone is not None:  # :meth:`_rmelds_at`, inline (one test per deadwood card)
                if w:
                    hi, one = lone[p]
                    alone = x < hi and not x & one
                    c = 1
                else:
                    base, o, few, a, b, a2, b2 = lone[p]
                    row = x >> base
                    alone = row in few and not (x & a and x & b or a2 and x & a2 and x & b2)
                    c = row >> o
                if alone:
                    if d:
                        low, melds = w + 1, ()
                        break
                else:
                    low, melds = rmelds.get(key := x & rlocal[p]) or self._rmelds_of(x, p, key)
                    if low <= w or d:
                        break
                    c = x >> sh
            else:
                low, melds = rmelds.get(key := x & rlocal[p]) or self._rmelds_of(x, p, key)
                if low <= w or d:
                    break
                c = x >> sh
            x -= _UNIT_TOP[p] if c == 1 else c << sh
            settled += c * pen[p]
            if not x:
                best = settled + self.iso_low[w]  # rend(w, 0)'s cost
                memo[w][x0] = best
                self.rchoice[0][w][x0] = x0
                return best
        if x is not x0:  # a row settled: x0 is that row and x (solved here when new)
            v = memo[w].get(x)
            if v is not None:
                best = settled + v
                memo[w][x0] = best
                self.rchoice[0][w][x0] = x0 - x
                return best
        # the melds first; then each way to leave p unmelded, searched only
        # when its least cost (what it adds, and the isolated cards' cost
        # that every state with w wilds pays) is below the best so far.
        # Ties go as if leaving p unmelded came first: to a meld, or to
        # the option met first.  With a discard owed and a better discard
        # that a run from p may leave out, those runs join the melds, in
        # the search with room's order (see _rextra_of)
        best = _INF
        pick: Any = None
        if low <= w:
            if d and x & self.xcand[p]:
                melds = self.rextra.get(key := x & rlocal[p]) or self._rextra_of(x, p, key)
            for m in melds:
                delta, need, _room = m
                if need <= w:
                    y = x - delta
                    if y:
                        v = memo[w - need].get(y)
                        if v is None:
                            v = self._rsolve(y, w - need, d)
                    else:
                        v = self.rend(w - need, 1)[0] if d else self.iso_low[w - need]
                    if v <= best:
                        best = v
                        pick = m
        if not d:
            # every copy of p left unmelded (a copy in a meld is met first:
            # the copies left over are then the lowest cards again)
            n = x >> sh
            dl = _UNIT_TOP[p] if n == 1 else n << sh
            add = pen[p] * n
        else:  # one copy thrown
            dl = _UNIT_TOP[p]
            add = dp = self.drank[p]
        if add + self.iso_low[w] <= best:
            z = x - dl
            if z:
                v = self.rmemo[0][w].get(z)
                v = add + (self._rsolve(z, w, 0) if v is None else v)
            else:
                v = add + self.iso_low[w]
            if v < best:
                best = v
                pick = dl
            elif v == best and d and z & _FIELD_TOP[p]:
                # a copy of p thrown, then a set of the other copies: the
                # search with room's set of p less one copy (its last
                # meld), the copy left then thrown; that wins the tie
                c = self.rchoice[0][w].get(z)
                if type(c) is tuple and c[2] == _SET_ROOM:
                    pick = dl
        if d and pen[p] < best and (x & self.rbetter[p] or self.iso_first < dp):
            # one copy unmelded, the discard still owed (when a later card
            # may be a better discard)
            y = x - dl
            if y:
                v = memo[w].get(y)
                v = pen[p] + (self._rsolve(y, w, 1) if v is None else v)
            else:
                v = pen[p] + self.rend(w, 1)[0]
            if v < best:
                best = v
                pick = -dl
        memo[w][x] = best
        self.rchoice[d][w][x] = pick
        if x is not x0:
            best += settled
            memo[w][x0] = best
            self.rchoice[0][w][x0] = x0 - x
        return best

    def _rmelds_at(self, x: int, p: int, w: int) -> tuple[int, Any]:
        """(fewest wilds any needs, the melds of the lowest card ``p`` of x):
        :meth:`_rmelds_of`, kept, or (w + 1, ()) when p has no meld with
        the ``w`` wilds left (0 or 1), told from p's rank and the first
        cards of its runs (see :func:`_lone_tests`) without a lookup.
        (:meth:`_rsolve` has this inline.)"""
        if w == 1:
            hi, one = self.lone[1][p]
            if x < hi and not x & one:
                return 2, ()
        elif w == 0:
            base, _o, few, a, b, a2, b2 = self.lone[0][p]
            if x >> base in few and not (x & a and x & b or a2 and x & a2 and x & b2):
                return 1, ()
        return self.rmelds.get(key := x & self.rlocal[p]) or self._rmelds_of(x, p, key)

    def _rextra_of(self, x: int, p: int, key: int) -> list[tuple[int, int, int]]:
        """With a discard owed: the melds of the lowest card ``p`` of x
        (:meth:`_rmelds_of`) and the runs from p that leave out one natural
        inside them (a wild in its place), a single card that is a better
        discard than ``p``, in the order the search with room meets them
        (:meth:`_Solver.moves`), so that the last of equal cost is its
        choice too: the runs, each as the list of cards it takes below p,
        a run before every run it is the start of, and before it the runs
        that leave out (skip) the first card where they differ, so
        the longer and, of those leaving a card out, the one leaving out a
        lower card, come later; then the sets.  A run otherwise takes
        every natural it spans, but a better discard than p inside it may
        be the one thrown (a discard's tie-break is part of the cost), and
        one worse than p never is: throwing p and starting the run lower
        is as good and throws the better card.  (``key``: x & rlocal[p],
        the part of x they depend on.)"""
        big = self.big
        drank = self.drank
        dp = drank[p]
        runs: list[tuple[tuple[int, ...], tuple[int, int, int]]] = []  # (order, meld)
        for si, seq in enumerate(self.seqs[p]):
            delta, gaps = _UNIT_TOP[p], 0
            took: list[int] = [si]  # the run's order: its seq, then minus the index of each card taken
            inner: list[tuple[int, int]] = []  # (unit, place in took) of naturals that could be left out
            for i, (field, unit, room, first, q) in enumerate(seq):
                c = x & field
                if c:
                    delta += unit
                    took.append(-i)
                    need = gaps + first
                    runs.append((tuple(took), (delta, need, room)))
                    if need < big:
                        for u, at in inner:
                            runs.append((tuple(took[:at] + took[at + 1:]), (delta - u, need + 1, room)))
                    if c == unit and drank[q] < dp:  # one card there
                        inner.append((unit, len(took) - 1))
                else:
                    gaps += 1
                    if gaps > big:
                        break
        runs.sort()
        out = [m for _order, m in runs]
        _low, melds = self.rmelds.get(key) or self._rmelds_of(x, p, key)
        for m in melds:
            if m[2] == _SET_ROOM:  # the sets, after the runs (in their order)
                out.append(m)
        self.rextra[key] = out
        return out

    def rready(self, x: int, w: int, d: int) -> bool:
        """Can every card be melded (but one discard when d)?  The caller
        makes sure a meld is made (some natural card is not the discard)."""
        if self.rready_memo is None:
            n = self.big + 1
            self.rready_memo = ([{} for _ in range(n)], [{} for _ in range(n)])
        return self._rready(x, w, d)

    def _rready(self, x: int, w: int, d: int) -> bool:
        if x == 0:
            return self.rend(w, d)[0] < _N
        assert self.rready_memo is not None
        memo = self.rready_memo[d][w]
        got = memo.get(x)
        if got is not None:
            return got
        ok = False
        p = 51 - ((x.bit_length() - 1) >> 2)  # the lowest card: the top field
        if d:
            ok = self._rready(x - _UNIT_TOP[p], w, 0)
        if not ok:
            low, melds = self._rmelds_at(x, p, w)
            if low <= w:
                for delta, need, _room in melds:
                    if need <= w and self._rready(x - delta, w - need, d):
                        ok = True
                        break
        memo[x] = ok
        return ok

    def _walk(self, x: int, w: int, d: int
              ) -> tuple[list[tuple[int, int, int]], int, Card | None, int, int]:
        """The choices of :meth:`rsolve` from (x, w, d): the melds (cards,
        need, room), the deadwood (a count vector), the discard, and the
        wilds and discard flag left at the end."""
        plan: list[tuple[int, int, int]] = []
        dead = 0
        discard: Card | None = None
        choice = self.rchoice
        while x:
            pick = choice[d][w][x]
            if type(pick) is int:
                if pick < 0:  # a card left unmelded, the discard still owed
                    pick = -pick
                    dead += pick
                elif d:  # the discard owed: the lowest card
                    discard = self.card_at[51 - ((x.bit_length() - 1) >> 2)]  # the top field's
                    d = 0
                else:  # cards left unmelded
                    dead += pick
                x -= pick
            else:  # a meld: (its cards, the wilds it needs, its room)
                plan.append(pick)
                x -= pick[0]
                w -= pick[1]
        return plan, dead, discard, w, d

    def holds(self, x: int, w: int, d: int,
              walk: tuple[list[tuple[int, int, int]], int, Card | None, int, int] | None = None
              ) -> bool:
        """Does the roomy answer for (x, w, d) hold with the room counted:
        every wild left over goes to a meld, or forms melds of its own?
        (``walk``: its :meth:`_walk`, when the caller has it.)"""
        plan, _dead, _card, w, d = walk or self._walk(x, w, d)
        _cost, k, how = self.rend(w, d)
        left = w - 2 * k - (how == 2)
        if left == 0 or (left >= 3 and self.wild_only):
            return True
        if k:
            return True  # a rescued card's set takes any number
        room = 0
        for _delta, _need, r in plan:
            if r == _SET_ROOM:
                return True  # a set
            room += r
        return left <= room

    def _rchoices(self, x: int, wilds: list[Card], d: int, total: int | None
                  ) -> tuple[int, list[Card], Card | None,
                             tuple[list[tuple[int, int, int]], int, Card | None, int, int]] | None:
        """The roomy search's answer for (x, wilds, d): (its cost, the wilds
        most expensive first (less a wild thrown), the wild thrown, its
        :meth:`_walk`), or None when it leaves a wild without room.  With a
        discard owed, throwing a wild is weighed here (see :meth:`arrangement`)."""
        w = len(wilds)
        if d:
            short = self._costliest_thrown(x, w)
            if short is not None:
                return short[0], self._wild_order(wilds), None, short[1]
        cost = self.rsolve(x, w, d)
        wild_list = self._wild_order(wilds)
        thrown: Card | None = None
        if d and w and self._wild_throw_may_win(x, w, cost, total):
            other = _WILD_DISCARD + self.rsolve(x, w - 1, 0)
            if other < cost:
                cost, d, w = other, 0, w - 1
                thrown = wild_list.pop(0)
        if cost >= _INF:
            raise MeldError("there is no card to discard")
        walk = self._walk(x, w, d)
        if not self.holds(x, w, d, walk):
            return None
        return cost, wild_list, thrown, walk

    def _costliest_thrown(self, x: int, w: int
                          ) -> tuple[int, tuple[list[tuple[int, int, int]], int, Card | None, int, int]] | None:
        """With a discard owed, the answer read off the search without one
        when that settles it: (its cost, its :meth:`_walk`), else None.

        Throwing a natural card c leaves at least the whole hand's cost
        less c's (c put back as deadwood arranges the whole hand), plus c's
        discard preference; that bound is lowest for the natural card that
        is the best discard on a tie (the most points, then the tie order).
        When that card is isolated (no other card could share a meld with
        it) and the best arrangement of the whole hand leaves it unmelded
        (no two wilds to spare rescue it), throwing it meets the bound: it
        is the discard, and that arrangement is the rest.  A wild thrown
        does worse: that arrangement keeps a meld (or the hand has no wild:
        :meth:`holds` makes sure of it), so the rest after a wild thrown
        either keeps a meld, which the wild would join (no better than the
        whole hand, and a wild is the worst discard on a tie), or has none
        and costs every natural card (more than the whole hand's cost).
        (Asked of a searched card, the test fails more often than not, and
        then costs more than it saves.)"""
        iso = self.iso
        if not iso:
            return None
        drank, first = self.drank, self.iso_first  # first: the best isolated card's preference
        for p in self.by_drank:
            if drank[p] >= first:
                break
            if x & _FIELD_TOP[p]:
                return None  # a searched card is a better discard
        cost = self.rsolve(x, w, 0)
        plan, dead, _card, left, _d = walk = self._walk(x, w, 0)  # left: wilds no meld needs
        if self.rend(left, 0)[1] or not self.holds(x, w, 0, walk):
            return None  # the isolated card is rescued, or the room must be counted
        return cost + first - self.pen[iso[0]], (plan, dead, None, left, 1)  # the end throws it

    def rdiscard(self, x: int, wilds: list[Card], total: int | None = None) -> tuple[Card, int] | None:
        """The discard of :meth:`rarrangement` (one discard owed) and the
        search's cost, without the arrangement; None when the answer needs
        room counted."""
        got = self._rchoices(x, wilds, 1, total)
        if got is None:
            return None
        cost, wild_list, thrown, (_plan, _dead, discard, w, d) = got
        how = self.rend(w, d)[2]
        if how == 1:  # the best isolated card
            discard = self.card_at[self.iso[0]]
        elif how == 2:  # the most expensive wild not needed
            discard = wild_list[0]
        card = discard or thrown
        assert card is not None
        return card, cost

    def rarrangement(self, x: int, wilds: list[Card], d: int = 0, total: int | None = None
                     ) -> tuple[Arrangement, Card | None] | None:
        """:meth:`arrangement` of the roomy search; None when its answer
        leaves a wild without room (then the caller searches with room)."""
        got = self._rchoices(x, wilds, d, total)
        if got is None:
            return None
        cost, wild_list, thrown, (plan, dead, discard, w, d) = got
        _cost, k, how = self.rend(w, d)
        indexes = self._indexes
        melds = []  # (a loop: a hand has few melds, and a comprehension is a call)
        for delta, need, room in plan:
            melds.append((indexes(delta), need, room))
        return self._assemble(melds, indexes(dead), self.iso, k, how, discard or thrown, w, wild_list, cost)


@functools.lru_cache(maxsize=512)
def _run_reach(rules: MeldRules, reach: int) -> tuple[Any, ...]:
    """The roomy search's tables (its layout, ``_TOP``): those of
    :func:`_run_reach_of` for the rules' ace layout, those of
    :func:`_run_discards`, :func:`_lone_tests` by the number of wilds
    left (0 to ``reach`` - 1; None from two on), the Card.index and the
    deadwood cost of the card in each field, and the ranks' costs for
    summing deadwood in one product (one lookup for a new solver)."""
    t = _tables(rules)
    # the deadwood cost of each rank (a 16-bit lane, the top rank highest),
    # in units of _N, in the lanes in reverse: a vector of the count of each
    # rank times it holds the dot product (the cards' deadwood cost) in its
    # lane 12, when no lane of the product can overflow (at most 16 cards
    # of a cost under 2**12 units); else 0 (the cost is summed card by card)
    costs = [t[2][51 - 4 * i] // _N for i in range(13)]  # lane i: the cost of a card of that rank
    lane_pen = sum(c << (16 * (12 - i)) for i, c in enumerate(costs)) if max(costs) < 1 << 12 else 0
    # the lone-card tests by the number of wilds left (None from two on)
    lone = (*_lone_tests(rules.aces), *[None] * (reach - 2))
    return (*_run_reach_of(rules.aces, reach), *_run_discards(rules), lone,
            t[12][::-1], t[2][::-1], lane_pen)


@functools.lru_cache(maxsize=512)
def _run_discards(rules: MeldRules) -> tuple[list[int], list[int]]:
    """For each position, the cards of its suit a run from it passes that
    are better discards (which such a run may leave out, see
    ``_Roomy._rextra_of``), and all the later positions that are better
    discards (``better`` of :func:`_tables`), in the roomy search's layout."""
    t = _tables(rules)
    up, down, better = t[4], t[5], t[10]
    better_top = [_flip(m) for m in better]
    xcand = [0] * 52
    for p in range(52):
        m = 0
        for q in (*up[p], *down[p]):
            m |= _FIELD_TOP[q]
        xcand[p] = m & better_top[p]
    return xcand, better_top


@functools.lru_cache(maxsize=64)
def _run_reach_of(aces: str, reach: int) -> tuple[list[int], list[tuple[tuple[tuple[int, ...], ...], ...]],
                                                  list[tuple[tuple[int, int, int], ...]]]:
    """Static tables of the roomy search (its layout, ``_TOP``), per ace
    layout and reach (the wilds in hand plus one), whatever the other
    rules: for each position, the part of a count vector its melds as the
    lowest card depend on (its ``local`` part and the reach of each card of
    its rank); its run sequences (down its suit, and up from an ace that
    also plays low), each card as (its field's mask and unit in a count
    vector, the room of a run that ends there, 1 for the first card, its
    position); and for each later card of its rank, (its
    field's shift within the rank's 16 bits, its unit in a count vector,
    the cards of its suit a run from it could reach first)."""
    t = _tables(MeldRules(aces=aces))  # type: ignore[arg-type]
    up, down, same, local = t[4], t[5], t[6], t[8]
    reach_of = [0] * 52
    for p in range(52):
        m = 0
        for q in (*up[p][:reach], *down[p][:reach]):
            m |= _FIELD_TOP[q]
        reach_of[p] = m
    rlocal = [0] * 52
    seqs: list[tuple[tuple[tuple[int, ...], ...], ...]] = []
    sames: list[tuple[tuple[int, int, int], ...]] = []
    for p in range(52):
        m = _flip(local[p])
        for q in same[p]:
            m |= reach_of[q]
        rlocal[p] = m
        # (the room of the run that ends there: 13 less its span; whether
        # it is the first card, which a run of two naturals meets with one wild)
        seqs.append(tuple(tuple((_FIELD_TOP[q], _UNIT_TOP[q], 11 - i, int(i == 0), q)
                                for i, q in enumerate(seq))
                          for seq in (up[p], down[p]) if seq))
        sames.append(tuple((((51 - q) & 3) << 2, _UNIT_TOP[q], reach_of[q]) for q in same[p]))
    return rlocal, seqs, sames


@functools.lru_cache(maxsize=8)
def _lone_tests(aces: str) -> tuple[list[tuple[int, int, frozenset[int], int, int, int, int]],
                                    list[tuple[int, int]]]:
    """For each position p, what tells whether p, as the lowest card (the
    top field of a count vector in the roomy search's layout, ``_TOP``),
    has a meld with no wild, and with one (the roomy search asks before it
    looks up p's meld lists).  With one wild, p has a meld when its rank
    holds another card or one of the first two cards of a run is there (a
    gap takes the wild): (the bound below which p is alone in its rank,
    the fields of the first two cards of each of its runs).  With none,
    when its rank holds three cards or a run's first two cards are both
    there: (the shift of p's rank, p's shift within it, the values of the
    rank's fields with at most two cards, the fields of the first and the
    second card of its first run, likewise of its second run, 0 when there
    is none).

    >>> lone0, lone1 = _lone_tests("low")
    >>> base, o, few, a, b, a2, b2 = lone0[0]  # the king of clubs, the first position
    >>> base, o, a == _FIELD_TOP[4], b == _FIELD_TOP[8], a2 == b2 == 0
    (192, 12, True, True, True)
    >>> sorted(hex(v) for v in few)  # itself once or twice, or with one card of a later suit
    ['0x1000', '0x1001', '0x1010', '0x1100', '0x2000']
    """
    t = _tables(MeldRules(aces=aces))  # type: ignore[arg-type]
    up, down = t[4], t[5]
    lone0 = []
    lone1 = []
    for p in range(52):
        pairs = [(_FIELD_TOP[seq[0]], _FIELD_TOP[seq[1]] if len(seq) > 1 else 0)
                 for seq in (up[p], down[p]) if seq]
        pairs += [(0, 0)] * (2 - len(pairs))
        (a, b), (a2, b2) = pairs
        f = 51 - p
        o = (f & 3) << 2
        base = (f << 2) - o
        few = frozenset({1 << o, 2 << o, *((1 << o) | (1 << o2) for o2 in range(0, o, 4))})
        lone0.append((base, o, few, a, b, a2, b2))
        lone1.append((_UNIT_TOP[p] + (1 << base), a | b | a2 | b2))
    return lone0, lone1


#: the roomy search's meld lists per (rules, number of wilds): (melds of a
#: lowest card by the part of a count vector they depend on, the runs that
#: leave out a better discard, likewise)
_MELD_LISTS: dict[tuple[MeldRules, int], tuple[dict[int, Any], dict[int, Any]]] = {}
_MELD_LISTS_MAX = 1 << 17  # meld lists kept per rules and number of wilds
_MELD_LISTS_KEYS = 16  # (rules, number of wilds) kept, the ones asked longest ago dropped


_last_meld_lists: list[Any] = [None, -1, None]  # the rules and number of wilds asked last, their lists


def _latest(kept: dict[Any, Any], key: Any, limit: int, make: Callable[[], Any]) -> Any:
    """``kept[key]`` (``make()`` when missing), moved last: a dict kept in
    the order its keys were last asked, that drops the one asked longest
    ago to stay within ``limit`` keys (a game moves on to new rules each
    round, and what the old rounds kept would only burden the memory and
    the garbage collector)."""
    got = kept.pop(key, None)
    if got is None:
        got = make()
        if len(kept) >= limit:
            del kept[next(iter(kept))]
    kept[key] = got
    return got


def _meld_lists(rules: MeldRules, big: int) -> tuple[dict[int, Any], dict[int, Any]]:
    last = _last_meld_lists
    if last[0] is rules and last[1] == big:
        got = last[2]
    else:
        got = _latest(_MELD_LISTS, (rules, big), _MELD_LISTS_KEYS, lambda: ({}, {}))
        last[0], last[1], last[2] = rules, big, got
    if len(got[0]) > _MELD_LISTS_MAX or len(got[1]) > _MELD_LISTS_MAX:
        got[0].clear()
        got[1].clear()
    return got  # type: ignore[no-any-return]


_SOLVERS: dict[tuple[Any, ...], _Solver] = {}
# solvers kept (a game's hands share most of their searches; more keep
# memos alive that the garbage collector walks over and over, and that
# crowd the CPU's caches: 512 cost a greedy game 2% more instructions than
# 64, and 64 ran 2-4% slower than 16 beside another process's games)
_SOLVERS_MAX = 16
_MEMO_MAX = 1 << 16  # states one kept solver may remember
_ISO_SEEN: dict[Any, bool] = {}  # (rules, wilds' points) whose hands had isolated cards


def _solver_for(rules: MeldRules, naturals: list[Card], wilds: list[Card],
                encoded: tuple[int, list[int]] | None = None) -> tuple[_Solver, int]:
    """A solver for this hand and its encoded naturals.

    A search's results depend only on the rules, the wilds' points and the
    isolated cards, so hands that share them (a player's hand from one turn
    to the next, a bot weighing each discard) share one memo: later calls
    start from the states earlier calls solved.  A game's hands keep
    changing their isolated cards, though: from the second set of isolated
    cards seen for the same rules and wilds' points (fewer than two wilds,
    which could rescue an isolated card), the hands share one solver that
    searches their isolated cards with the rest (the lone-card test of its
    search settles them as deadwood), not one solver per set (a greedy
    game: 141M -> 138M instructions; a single question, asked after
    :func:`clear_memo`, keeps the smaller search of its own solver)."""
    costs = _wild_costs(rules, wilds)
    kind = _solver_kind(rules)
    x, iso = encoded or _encode(rules, len(costs), naturals, kind.top)
    key = (rules, costs, tuple(iso))
    kept = _SOLVERS.get(key)
    if kept is None and iso and len(costs) < 2 and kind is _Roomy:
        rc = (rules, costs)
        if rc in _ISO_SEEN:  # a second set of isolated cards: the shared solver
            for p in iso:
                x += _UNIT_TOP[p]
            iso = []
            key = (rules, costs, ())
            kept = _SOLVERS.get(key)
        else:
            if len(_ISO_SEEN) >= 4096:
                _ISO_SEEN.clear()
            _ISO_SEEN[rc] = True
    if kept is not None:
        kept.trim()
        return kept, x
    if len(_SOLVERS) >= _SOLVERS_MAX:
        del _SOLVERS[next(iter(_SOLVERS))]  # the oldest
    s = kind(rules, wilds, costs, iso)
    _SOLVERS[key] = s
    return s, x


def _solver_kind(rules: MeldRules) -> type[_Solver]:
    """The search for these rules: the roomy search when sets take any
    number of wilds, else the search with room (each with its layout of
    count vectors, ``top``)."""
    return _Solver if rules.max_set_size is not None else _Roomy


def _plan_order(m: tuple[list[int], int, int]) -> tuple[int, bool, list[int]]:
    """Where a meld goes in an arrangement, from its plan entry (its
    naturals' card indexes in index order, ...): by its lowest card, then
    a run before a set (a set's cards share a rank, so its first and last
    do; a run's differ), then by all its cards."""
    idx = m[0]
    return idx[0], idx[0] % 13 == idx[-1] % 13, idx


#: a card index in run order when aces play high (the ace above the king)
_HIGH_ORDER = [i + 12 if i % 13 == 0 else i - 1 for i in range(52)]


def _plan_order_high(m: tuple[list[int], int, int]) -> tuple[int, bool, list[int]]:
    """:func:`_plan_order` when aces play high."""
    return _plan_order((sorted([_HIGH_ORDER[i] for i in m[0]]), 0, 0))


#: every natural card by Card.index
_CARD_OF = [Card(r, s) for s in SUITS for r in range(1, 14)]


def _natural_meld(nat: list[int], wilds: list[Card], rules: MeldRules) -> Meld:
    """The meld of these naturals (card indexes in index order, at least
    one) and wilds: a set when they share a rank, else a run."""
    first, last = nat[0] % 13, nat[-1] % 13
    if not wilds and (first or rules.aces == "low" or first == last):
        # a set, or a run in index order (no ace that might play high): its
        # cards stand for themselves
        cards_ = tuple([_CARD_OF[i] for i in nat])
        return make_meld(cards_, "set" if first == last else "run", cards_)
    naturals = [_CARD_OF[i] for i in nat]
    if first == last:
        return make_set(naturals, wilds, naturals[0].rank)
    if rules.aces == "low":
        # a run on the one line A..K: the wilds fill its gaps, then go on
        # above its top card (below its bottom one from the king on)
        n = len(nat)
        size = n + len(wilds)
        top = last + len(wilds) - (last - first + 1 - n)
        if top > 12:
            top = 12
        base = nat[0] - first  # the suit's first index
        out: list[Card] = []
        flags: list[bool] = []
        wild = iter(wilds)
        j = 0
        for i in range(base + top - size + 1, base + top + 1):
            if j < n and nat[j] == i:
                out.append(naturals[j])
                j += 1
                flags.append(False)
            else:
                out.append(next(wild))
                flags.append(True)
        return make_meld(tuple(out), "run", tuple(_CARD_OF[base + top - size + 1:base + top + 1]), tuple(flags))
    fit = run_fit(naturals, len(wilds), rules)
    assert fit is not None, (naturals, wilds)
    return make_run(naturals, wilds, fit[0])


def _arrange(s: _Solver, x: int, wilds: list[Card], d: int,
             total: int | None = None) -> tuple[Arrangement, Card | None]:
    """The best arrangement (and discard, when ``d``): the roomy search's
    when it applies and its answer holds, else the search with room
    (``total``: every natural card's encoded deadwood cost, when the
    caller has it).  The answers shown are read by the tie rule
    (:func:`_naturals_in_sets`)."""
    if type(s) is _Roomy:
        got = s.rarrangement(x, wilds, d, total)
        if got is not None:
            return got
        s, x = s.general(x)
    return s.arrangement(x, wilds, d, total)


def _naturals_in_sets(arr: Arrangement, rules: MeldRules) -> Arrangement:
    """The tie rule, among arrangements of equal penalty: naturals go in
    sets first and wilds fill runs, then the search's order.  A wild in a
    set whose rank a natural card of a run has trades places with that
    card (the run keeps a natural card, so it stays a meld in every
    variant); the melds, their order and the deadwood are otherwise the
    search's, so the penalty is unchanged.  It runs after the search, on
    the one arrangement chosen, and costs nothing for hands without wilds.

    >>> from rummy.cards import cards
    >>> print(best_arrangement(cards("Jc Jh 9h Ts Js Qs"), MeldRules(wild_rank=9)))
    [Jc Jh Js] | [Ts 9h=Js Qs]; deadwood: none; penalty 0
    """
    melds = list(arr.melds)
    changed = False
    for i in range(len(melds)):
        while True:
            s = melds[i]
            if s.kind != "set" or not s.wild:
                break
            nats = [c for c, f in zip(s.cards, s.wild) if not f]
            wl = [c for c, f in zip(s.cards, s.wild) if f]
            if not nats or not wl:
                break
            rank = nats[0].rank
            swap = None
            for j, r in enumerate(melds):
                if r.kind != "run":
                    continue
                flags = r.wild or (False,) * len(r.cards)
                rn = [c for c, f in zip(r.cards, flags) if not f]
                if len(rn) < 2:  # the run would be wilds only
                    continue
                hit = next((c for c in rn if c.rank == rank), None)
                if hit is not None:
                    swap = j, hit, rn, [c for c, f in zip(r.cards, flags) if f]
                    break
            if swap is None:
                break
            j, hit, rn, rw = swap
            wild = wl.pop()  # the cheapest of the set's wilds (most expensive first)
            rn.remove(hit)
            melds[i] = Meld.of((*nats, hit, *wl), rules)  # (rare: the plain constructor)
            melds[j] = Meld.of((*rn, wild, *rw), rules)
            changed = True
    if not changed:
        return arr
    return make_arrangement(tuple(melds), arr.deadwood, arr.penalty)


def _build(kind: str, naturals: list[Card], wilds: list[Card], rules: MeldRules) -> Meld:
    naturals = sorted(naturals, key=_INDEX)
    if not naturals:
        if kind == "set":
            return make_set([], wilds, rules.wild_rank or 13)
        ranks = list(range(1, len(wilds) + 1))
        return Meld(tuple(wilds), "run", tuple(Card(r, "h") for r in ranks), (True,) * len(wilds))
    if kind == "set":
        return make_set(naturals, wilds, naturals[0].rank)
    fit = run_fit(naturals, len(wilds), rules)
    assert fit is not None, (naturals, wilds)
    return make_run(naturals, wilds, fit[0])


_DEFAULT_RULES = MeldRules()


def _prepare(hand: Any, rules: MeldRules | None) -> tuple[Any, MeldRules]:
    if rules is None:
        rules = _DEFAULT_RULES
    elif type(rules) is not MeldRules:
        raise MeldError(f"rules must be a MeldRules, not {type(rules).__name__}")
    cards_ = hand
    if type(hand) is tuple or type(hand) is list:
        if hand and set(map(type, hand)) != _ONLY_CARDS:  # (the check runs in C)
            cards_ = as_cards(hand)
    else:
        cards_ = as_cards(hand)
    if len(cards_) > 16:
        raise MeldError(f"a hand has at most 16 cards here; this one has {len(cards_)}")
    _check_jokers(cards_, rules)
    return cards_, rules


def _check_jokers(cards_: Any, rules: MeldRules) -> None:
    if not rules.jokers_wild and 52 in map(_INDEX, cards_):
        raise MeldError("jokers are not used with these rules (jokers_wild=False); "
                        "remove the joker or use rules where jokers are wild")


_ONLY_CARDS = {Card}
_INDEX = operator.attrgetter("index")
_last_fast: list[Any] = [None, None, None]


@functools.lru_cache(maxsize=512)
def _fast_cards(rules: MeldRules) -> tuple[frozenset[int], list[int]]:
    """The card indexes that are wild (the joker's, 52, always: the fast
    path has no wilds) and each card's bit in the fast path's hand mask."""
    wild = {52}
    if rules.wild_rank is not None:
        wild |= {s * 13 + rules.wild_rank - 1 for s in range(4)}
    posmap = _fast_tables(rules)[1]
    return frozenset(wild), [1 << posmap[i] for i in range(52)]


def _fast_ready(cards_: Any, rules: MeldRules) -> tuple[int, tuple[Any, ...]] | None:
    """(hand mask, tables) when the fast path applies: no wilds, no two
    identical cards, aces not both low and high."""
    if rules.aces == "low_or_high":
        return None
    if _last_fast[0] is rules:
        ft, fc = _last_fast[1], _last_fast[2]
    else:
        ft, fc = _fast_tables(rules), _fast_cards(rules)
        _last_fast[0], _last_fast[1], _last_fast[2] = rules, ft, fc
    idx = list(map(_INDEX, cards_))  # the loops run in C
    if not fc[0].isdisjoint(idx) or len(set(idx)) != len(idx):
        return None
    return sum(map(fc[1].__getitem__, idx)), ft


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
    gen = _tables(rules)  # the general search orders discards; its positions differ
    drank = [gen[3][gen[0][c]] for c in card_at]
    in_order, in_sort = _suit_cards(high)
    return val13, posmap, card_at, allow4, vals, drank, in_order, in_sort, _best_in_suit(tuple(drank))


@functools.lru_cache(maxsize=16)
def _best_in_suit(drank: tuple[int, ...]) -> tuple[bytes, ...]:
    """For each suit, at every 13-bit mask of its cards, the fast path's
    position of the best discard among them (by ``drank``, the discard
    order of each position), 0 for the empty mask: four tables of bytes,
    which the garbage collector does not walk."""
    out = []
    for si in range(4):
        ranked = drank[13 * si:13 * si + 13]
        best = bytearray(8192)
        for m in range(1, 8192):
            low = m & -m
            o = low.bit_length() - 1
            rest = m ^ low
            if rest:
                b = best[rest] - 13 * si
                if ranked[b] < ranked[o]:
                    o = b
            best[m] = 13 * si + o
        out.append(bytes(best))
    return tuple(out)


def _best_card(m: int, ft: tuple[Any, ...]) -> int:
    """The position of the best discard (the lowest ``drank``) in the
    fast path's non-empty hand mask m."""
    drank, best = ft[5], ft[8]
    s0, s1, s2, s3 = m & 0x1FFF, (m >> 13) & 0x1FFF, (m >> 26) & 0x1FFF, m >> 39
    i = -1
    if s0:
        i = best[0][s0]
    if s1:
        p = best[1][s1]
        if i < 0 or drank[p] < drank[i]:
            i = p
    if s2:
        p = best[2][s2]
        if i < 0 or drank[p] < drank[i]:
            i = p
    if s3:
        p = best[3][s3]
        if i < 0 or drank[p] < drank[i]:
            i = p
    return i


@functools.lru_cache(maxsize=16)
def _run_deadwood(vals: tuple[int, ...]) -> list[int]:
    """Deadwood of every 13-bit suit mask when its cards may only make runs:
    every row of 3 or more consecutive cards is one run, the rest is
    deadwood (built once per ace layout and card points)."""
    val13 = _suit_values(vals)
    out = [0] * 8192
    for m in range(1, 8192):
        r3 = m & (m >> 1) & (m >> 2)
        out[m] = val13[m & ~(r3 | r3 << 1 | r3 << 2)]
    return out


@functools.lru_cache(maxsize=2)
def _set_choices(allow4: bool) -> list[tuple[int, ...]]:
    """For a rank position p (0..12) and the 4-bit pattern of the suits that
    hold it (bit i: suit i), at ``[p * 16 + pattern]``: every set the hand
    can make of that rank, as a 52-bit mask (all 4 cards when sets of 4 are
    allowed, each 3 of them; empty below 3 cards)."""
    out: list[tuple[int, ...]] = [()] * (13 * 16)
    for p in range(13):
        for pattern in range(16):
            held = [1 << (13 * i + p) for i in range(4) if pattern >> i & 1]
            full = sum(held)
            if len(held) == 3:
                out[p * 16 + pattern] = (full,)
            elif len(held) == 4:
                out[p * 16 + pattern] = ((full,) if allow4 else ()) + tuple(full ^ b for b in held)
    return out


def _onepack_deadwood(m: int, dw: list[int], choices: list[tuple[int, ...]]) -> int:
    """Lowest deadwood of the 52-bit one-pack hand ``m`` (no wilds).

    Sets are chosen per rank: a rank held 3 or 4 times may give a set (which
    3, or all 4) or none; at most 3 ranks of a 10-card hand, usually none.
    Whatever is left of each suit makes runs only, and its deadwood is read
    from the per-suit table ``dw`` (:func:`_run_deadwood`).  Exact: every
    arrangement is some choice of sets plus the runs of what is left, and
    each suit's runs are best taken as every row of 3 or more cards.
    """
    s0, s1, s2, s3 = m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39
    best = dw[s0] + dw[s1] + dw[s2] + dw[s3]
    t3 = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)  # ranks held 3+ times
    if not t3 or not best:
        return best
    # cards in a row of 3+ of their suit: a rank none of whose cards is in
    # one gives its biggest set, with no choice to weigh
    rows = _RUN_ROWS
    free = ~(rows[s0] | rows[s1] << 13 | rows[s2] << 26 | rows[s3] << 39)
    picks = [0]
    fixed = 0
    while t3:
        b = t3 & -t3
        t3 ^= b
        p = b.bit_length() - 1
        sets = choices[p * 16 + ((s0 >> p & 1) | (s1 >> p & 1) << 1
                                 | (s2 >> p & 1) << 2 | (s3 >> p & 1) << 3)]
        held = b * _RANK_COLUMN & m
        if held & free == held:
            fixed |= sets[0]
        else:
            picks += [c | s for c in picks for s in sets]
    if fixed:
        m &= ~fixed
        s0, s1, s2, s3 = m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39
        best = dw[s0] + dw[s1] + dw[s2] + dw[s3]
    for c in picks[1:]:
        r = m & ~c
        d = dw[r & 0x1FFF] + dw[r >> 13 & 0x1FFF] + dw[r >> 26 & 0x1FFF] + dw[r >> 39]
        if d < best:
            best = d
    return best


#: the cards of every 13-bit suit mask that lie in a row of 3 or more
_RUN_ROWS = [0] * 8192
for _m in range(8192):
    _r3 = _m & (_m >> 1) & (_m >> 2)
    _RUN_ROWS[_m] = _r3 | _r3 << 1 | _r3 << 2
_RANK_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the four cards of a rank, shifted by rank

_MARK = 1 << 60  # a wild card's bit in the quick mask: sends the hand to the general search
_last_quick: list[Any] = [None, None]  # the rules asked last and their tables
_QUICK: dict[MeldRules, Any] = {}  # per-rule tables (as the lru_caches of the other tables)


def _quick_tables(rules: MeldRules) -> tuple[list[int], list[int], list[tuple[int, ...]],
                                             tuple[Any, ...]] | None:
    """(bit of each card index 0..52 in the fast path's mask, with wilds and
    the joker marked; per-suit run deadwood; set choices; the fast path's
    tables) for the rules, or None when the fast path never applies (aces
    both low and high)."""
    if _last_quick[0] is rules:
        return _last_quick[1]  # type: ignore[no-any-return]
    if rules in _QUICK:
        got = _QUICK[rules]
    else:
        got = None
        if rules.aces != "low_or_high":
            ft = _fast_tables(rules)
            wild, bits = _fast_cards(rules)
            marked = [_MARK if i in wild else bits[i] for i in range(52)] + [_MARK]
            got = (marked, _run_deadwood(tuple(ft[4])), _set_choices(ft[3]), ft)
        if len(_QUICK) >= 512:
            _QUICK.clear()
        _QUICK[rules] = got
    _last_quick[0], _last_quick[1] = rules, got
    return got


def _quick_mask(hand: Any, rules: Any) -> tuple[int, tuple[Any, ...]] | bool:
    """(mask, quick tables) when ``hand`` is a list or tuple of at most 16
    distinct natural :class:`Card` values and ``rules`` a MeldRules the fast
    path serves; False when it is such a list of cards but with a wild, a
    joker or a card twice (not the fast path's); else True (unknown: the
    caller takes the checked way)."""
    if (type(hand) is not tuple and type(hand) is not list) or len(hand) > 16 \
            or type(rules) is not MeldRules:
        return True
    q = _quick_tables(rules)
    if q is None or not {*map(type, hand)} <= _ONLY_CARDS:
        return True
    bits = q[0]
    # a sum of n powers of two has n bits set only when they are distinct
    m = sum([bits[c.index] for c in hand])
    if m >> 52 or m.bit_count() != len(hand):
        return False  # a wild, a joker or two identical cards
    return m, q


#: the tuple of cards asked last, its rules and :func:`_prepared`'s answer
#: (a tuple is asked again as it is: the engine asks of a hand, then the
#: bot that observes it; the tuple is held, so an equal id is the same tuple)
_last_prepared: list[Any] = [None, None, None]


def _prepared(hand: Any, rules: MeldRules | None
              ) -> tuple[Any, MeldRules, tuple[int, tuple[Any, ...]] | None]:
    """(cards, rules, (mask, quick tables) or None): the hand checked, and
    the fast path's mask when it applies."""
    if hand is _last_prepared[0] and rules is _last_prepared[1]:
        return _last_prepared[2]  # type: ignore[no-any-return]
    got: tuple[Any, MeldRules, tuple[int, tuple[Any, ...]] | None]
    quick = _quick_mask(hand, _DEFAULT_RULES if rules is None else rules)
    if quick is True:  # not a list of cards: the checked way
        cards_, checked = _prepare(hand, rules)
        fast = _fast_ready(cards_, checked)
        if fast is None:
            got = cards_, checked, None
        else:
            q = _quick_tables(checked)
            assert q is not None
            got = cards_, checked, (fast[0], q)
    elif quick is False:  # cards and rules, checked by _quick_mask, but not the fast path's
        checked = _DEFAULT_RULES if rules is None else rules
        _check_jokers(hand, checked)
        got = hand, checked, None
    else:
        got = hand, _DEFAULT_RULES if rules is None else rules, quick
    if type(hand) is tuple:
        _last_prepared[0], _last_prepared[1], _last_prepared[2] = hand, rules, got
    return got


def _fast_melds(m: int, ft: tuple[Any, ...]) -> list[tuple[int, int, int]]:
    """All melds inside the 52-bit hand mask m: (mask, points, cards)."""
    val13, _posmap, _card_at, allow4, vals, _drank, _in_order, _in_sort, _best = ft
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


def _meld_of(mm: int, in_order: list[list[tuple[Card, ...]]]) -> Meld:
    """The Meld of a one-pack meld mask (its cards in run or suit order)."""
    cs = (in_order[0][mm & 0x1FFF] + in_order[1][(mm >> 13) & 0x1FFF]
          + in_order[2][(mm >> 26) & 0x1FFF] + in_order[3][mm >> 39])
    return make_meld(cs, "set" if cs[0].rank == cs[1].rank else "run", cs)


@functools.lru_cache(maxsize=2)
def _meld_objects(high: bool) -> dict[int, Meld]:
    """Every meld one pack can make (329: runs of 3 to 13 cards in each
    suit, sets of 3 and 4), by mask: a static table, built once per ace
    layout, so that an arrangement reuses the frozen Meld values."""
    in_order = _suit_cards(high)[0]
    out = {}
    for si in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                mm = ((1 << (hi + 1)) - (1 << lo)) << (13 * si)
                out[mm] = _meld_of(mm, in_order)
    for p in range(13):
        held = [1 << (13 * si + p) for si in range(4)]
        full = sum(held)
        for mm in [full] + [full ^ b for b in held]:
            out[mm] = _meld_of(mm, in_order)
    return out


def _fast_arrangement(m: int, melds: list[tuple[int, int, int]], chosen: tuple[int, ...],
                      ft: tuple[Any, ...], pen: int) -> Arrangement:
    in_sort = ft[7]
    objs = _meld_objects(ft[1][0] != 0)  # the ace of clubs at position 12: aces high
    out = []
    used = 0
    if len(chosen) > 1:
        chosen = tuple(sorted(chosen, key=lambda j: (melds[j][0] & -melds[j][0])))
    for j in chosen:
        mm = melds[j][0]
        used |= mm
        out.append(objs[mm])
    rest = m & ~used
    dead = (in_sort[0][rest & 0x1FFF] + in_sort[1][(rest >> 13) & 0x1FFF]
            + in_sort[2][(rest >> 26) & 0x1FFF] + in_sort[3][rest >> 39])
    return make_arrangement(tuple(out), dead, pen)


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
    i, pen, melds, chosen = _fast_discard_pick(m, ft)
    rest = m & ~(1 << i)
    return make_discard(ft[2][i], _fast_arrangement(rest, melds, chosen, ft, pen))


def _fast_discard_pick(m: int, ft: tuple[Any, ...]
                       ) -> tuple[int, int, list[tuple[int, int, int]], tuple[int, ...]]:
    """:func:`_fast_discard`'s choice: (the position thrown, the penalty
    left, the melds of m, the packing kept)."""
    val13, vals, drank = ft[0], ft[4], ft[5]
    melds = _fast_melds(m, ft)
    if not melds:  # (most hands of a few cards) the best discard, every other card deadwood
        i = _best_card(m, ft)
        return i, _fast_total(m, val13) - vals[i % 13], melds, ()
    best: tuple[int, int, int] | None = None
    best_pick: tuple[int, tuple[int, ...]] = (-1, ())
    for used, pts, n, chosen in _fast_packings(melds):
        rest = m & ~used
        if rest:  # the best card outside the packing
            i = _best_card(rest, ft)
            key = (-(pts + vals[i % 13]), -n, drank[i])
            if best is None or key < best:
                best = key
                best_pick = (i, chosen)
    i, chosen = best_pick
    pen = _fast_total(m & ~(1 << i), val13) - sum([melds[j][1] for j in chosen])
    return i, pen, melds, chosen


def bits_of(mask: int) -> list[int]:
    """The bits set in ``mask``, lowest first.

    >>> bits_of(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _fast_total(m: int, val13: list[int]) -> int:
    return val13[m & 0x1FFF] + val13[(m >> 13) & 0x1FFF] + val13[(m >> 26) & 0x1FFF] + val13[m >> 39]


def _split_hand(cards_: Any, rules: MeldRules) -> tuple[list[Card], list[Card]]:
    """(the naturals, the wilds) of a hand, each in hand order."""
    wild_at = _rule_tables(rules)[13]
    wilds = [c for c in cards_ if wild_at[c.index]]
    if not wilds:
        return list(cards_), wilds
    return [c for c in cards_ if not wild_at[c.index]], wilds


#: the last hand split and encoded: (rules, its key, (naturals, wilds,
#: encoded)), one tuple replaced whole (threads never see a mixed one); the
#: engine's go-out check and the player's questions that follow ask of one
#: hand in turn
_last_split: tuple[Any, Any, Any] = (None, None, None)


def _split_encoded(cards_: Any, rules: MeldRules, key: tuple[int, ...]
                   ) -> tuple[list[Card], list[Card], tuple[int, list[int]]]:
    """(the naturals, the wilds, their encoding for these rules' search) of
    a hand (``key``: its :func:`_hand_key`); the lists are shared: never
    changed by a caller."""
    global _last_split
    last = _last_split
    if last[0] is rules and last[1] == key:
        return last[2]  # type: ignore[no-any-return]
    naturals, wilds = _split_hand(cards_, rules)
    got = naturals, wilds, _encode(rules, len(wilds), naturals, _solver_kind(rules).top)
    _last_split = (rules, key, got)
    return got


#: answers kept per rules and question: a hand asked about again (a bot
#: weighing its turn, the engine checking the same move, the next turn's
#: hand after a discard) is answered without a search.  Keys: the hand's
#: sorted card indexes.  The fast path (one pack, no wilds) is not kept: it
#: costs little more than a lookup.
_ANSWERS: dict[MeldRules, dict[str, dict[Any, Any]]] = {}
_ANSWERS_MAX = 1 << 15
# rule sets whose answers are kept, the ones asked longest ago dropped first
# (a Three-Thirteen game moves on to new rules each round, and seldom goes
# back: kept answers hold arrangements that the garbage collector walks at
# every full pass, and that crowd the CPU's caches)
_ANSWERS_RULES = 2
_last_answers: list[Any] = [None, None]  # the rules asked last and their questions' answers


def _kept(rules: MeldRules, kind: str) -> dict[Any, Any]:
    """The answers kept for these rules and this question (``kind``)."""
    if _last_answers[0] is rules:  # most calls in a row share one rule set
        kinds = _last_answers[1]
    else:
        kinds = _latest(_ANSWERS, rules, _ANSWERS_RULES, dict)
        _last_answers[0], _last_answers[1] = rules, kinds
    kept = kinds.get(kind)
    if kept is None:
        kept = kinds[kind] = {}
    elif len(kept) > _ANSWERS_MAX:
        kept.clear()
    return kept  # type: ignore[no-any-return]


_last_key: list[Any] = [None, None]  # the tuple of cards asked last and its key


def _hand_key(cards_: Any) -> tuple[int, ...]:
    """The card indexes of a hand, in order (the kept answers' key); the
    last tuple of cards asked is answered again at once (as in
    :func:`_prepared`)."""
    if cards_ is _last_key[0]:
        return _last_key[1]  # type: ignore[no-any-return]
    key = [c.index for c in cards_]
    key.sort()
    got = tuple(key)
    if type(cards_) is tuple:
        _last_key[0], _last_key[1] = cards_, got
    return got


def best_arrangement(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Arrangement:
    """The arrangement of ``hand`` with the lowest penalty (M-7), exactly.

    >>> from rummy.cards import cards
    >>> a = best_arrangement(cards("Qh Kh Ah"))             # aces low: 10+10+1
    >>> a.penalty, best_arrangement(cards("Qh Kh Ah"), MeldRules(aces="high")).penalty
    (21, 0)
    >>> print(best_arrangement(cards("7h 9h Jk 4c 4d 5s"), MeldRules(wild_rank=5)))
    [4c 4d Jk=4h] | [7h 5s=8h 9h]; deadwood: none; penalty 0
    """
    cards_, rules, fast = _prepared(hand, rules)
    if fast is None:
        return _general_arrangement(cards_, rules)
    m, ft = fast[0], fast[1][3]
    pts, melds, chosen = _fast_best(m, ft)
    return _fast_arrangement(m, melds, chosen, ft, _fast_total(m, ft[0]) - pts)


def _general_arrangement(cards_: Any, rules: MeldRules) -> Arrangement:
    kept = _kept(rules, "a")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        naturals, wilds, encoded = _split_encoded(cards_, rules, key)
        s, x = _solver_for(rules, naturals, wilds, encoded)
        got = _arrange(s, x, wilds, 0)[0]
        if wilds and len(got.melds) > 1:
            got = _naturals_in_sets(got, rules)
        kept[key] = got
        _kept(rules, "p")[key] = got.penalty
        _kept(rules, "m")[key] = not got.deadwood
    return got  # type: ignore[no-any-return]


def penalty(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> int:
    """The lowest penalty of ``hand`` (the penalty of its best arrangement).

    >>> penalty("Qh Kh 3s 5c 5d 5s")
    23
    """
    # one pack, no wilds (the checks of _quick_mask, inline: gin's hot path)
    r = _DEFAULT_RULES if rules is None else rules
    if (type(hand) is tuple or type(hand) is list) and len(hand) <= 16 and type(r) is MeldRules:
        q = _last_quick[1] if _last_quick[0] is r else _quick_tables(r)
        if q is not None and {*map(type, hand)} <= _ONLY_CARDS:
            bits = q[0]
            m = sum([bits[c.index] for c in hand])
            if not m >> 52 and m.bit_count() == len(hand):
                s0, s1, s2, s3 = m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39
                if (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3):  # some rank held 3+ times
                    return _onepack_deadwood(m, q[1], q[2])
                dw = q[1]  # runs only
                return dw[s0] + dw[s1] + dw[s2] + dw[s3]
            # cards, but a wild, a joker or a card twice: the general search
            cards_, rules = _prepare(hand, r)
            return _general_penalty(cards_, rules)
    cards_, rules = _prepare(hand, rules)
    fast = _fast_ready(cards_, rules)
    if fast is not None:  # one pack, no wilds, given as text
        q = _quick_tables(rules)
        assert q is not None
        return _onepack_deadwood(fast[0], q[1], q[2])
    return _general_penalty(cards_, rules)


def _general_penalty(cards_: Any, rules: MeldRules) -> int:
    kept = _kept(rules, "p")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        naturals, wilds, encoded = _split_encoded(cards_, rules, key)
        s, x = _solver_for(rules, naturals, wilds, encoded)
        if isinstance(s, _Roomy):
            cost = s.rsolve(x, len(wilds), 0)
            if s.holds(x, len(wilds), 0):
                got = kept[key] = cost // _W
                _kept(rules, "m")[key] = cost < _N  # no deadwood card
                return got  # type: ignore[no-any-return]
        arrangement = _arrange(s, x, wilds, 0)[0]
        got = kept[key] = arrangement.penalty
        _kept(rules, "m")[key] = not arrangement.deadwood
    return got  # type: ignore[no-any-return]


def penalty_less(hand: Iterable[Card | str] | str, rules: MeldRules | None = None
                 ) -> Callable[[Card | str], int]:
    """A function telling, card by card, the lowest penalty of ``hand``
    less one copy of that card: :func:`penalty` of each hand left, for
    less when several are asked (what a bot weighing its discards asks),
    because the hand is checked, split and encoded once.

    >>> less = penalty_less("Qh Kh 3s 5c 5d 5s")
    >>> less(Card.parse("Kh")), less("5c"), penalty("Qh Kh 3s 5d 5s")
    (13, 33, 33)
    >>> less(Card.parse("2c"))
    Traceback (most recent call last):
    ...
    rummy.melds.MeldError: 2c is not in the hand (Qh Kh 3s 5c 5d 5s)
    """
    cards_, rules, fast = _prepared(hand, rules)
    key = _hand_key(cards_)
    kept = _kept(rules, "p")
    tables = _rule_tables(rules)
    wild_at, index_pos = tables[13], tables[7]
    state: list[Any] = []  # the roomy solver, the naturals' vector, the wilds, the isolated

    def less(card: Card | str) -> int:
        if not isinstance(card, Card):
            card = Card.parse(card)  # (its error says what a card looks like)
        i = card.index
        rest = list(key)
        try:
            rest.remove(i)
        except ValueError:
            raise MeldError(f"{card} is not in the hand ({format_cards(cards_)})") from None
        rest_key = tuple(rest)
        got = kept.get(rest_key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        if fast is None and not wild_at[i]:
            if not state:
                naturals, wilds = _split_hand(cards_, rules)
                s, x = _solver_for(rules, naturals, wilds)
                state[:] = (s if type(s) is _Roomy else None, x, len(wilds),
                            set(s.iso) if type(s) is _Roomy else ())
            s, x, w, iso = state
            pos = index_pos[i]
            if s is not None and pos not in iso:  # the same solver: one card fewer
                y = x - _UNIT_TOP[pos]
                cost = s.rsolve(y, w, 0)
                if s.holds(y, w, 0):
                    got = kept[rest_key] = cost // _W
                    _kept(rules, "m")[rest_key] = cost < _N  # no deadwood card
                    return got  # type: ignore[no-any-return]
        left = list(cards_)
        left.remove(card)
        return penalty(left, rules)

    return less


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
    cards_, rules, fast = _prepared(hand, rules)
    if discard and not cards_:
        raise MeldError("all_melded(discard=True) needs at least one card to discard")
    if fast is not None:
        m, q = fast
        if discard:
            return _fast_discard_pick(m, q[3])[1] == 0
        return _onepack_deadwood(m, q[1], q[2]) == 0
    kept = _kept(rules, "d" if discard else "m")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        got = kept[key] = _melded(rules, discard, *_split_hand(cards_, rules))
    return got  # type: ignore[no-any-return]


def _melded(rules: MeldRules, discard: bool, naturals: list[Card], wilds: list[Card],
            encoded: tuple[int, list[int]] | None = None) -> bool:
    """:func:`all_melded`'s search (the caller keeps its answer; ``encoded``:
    the naturals' count vector and isolated cards, when it has them)."""
    x, iso = encoded or _encode(rules, len(wilds), naturals, _solver_kind(rules).top)
    if len(iso) > discard + len(wilds) // 2:
        return False  # more cards without a partner than wilds to rescue them
    s, x = _solver_for(rules, naturals, wilds, (x, iso))
    if type(s) is _Roomy and len(naturals) + len(wilds) - discard < 14 and len(naturals) > discard:
        return s.rready(x, len(wilds), int(discard))
    g, x = s.general(x) if type(s) is _Roomy else (s, x)
    return g.ready(x, len(wilds), 0, int(discard))


def go_out_discards(hand: Iterable[Card | str] | str, rules: MeldRules | None = None
                    ) -> list[Card]:
    """The cards of ``hand`` whose discard leaves every other card in
    melds (the ways to go out, TT-6), each once, in index order; empty
    when the hand can't go out.  One call asks :func:`all_melded` of every
    hand left, for less: the hand is checked and split once.

    >>> from rummy.cards import cards
    >>> go_out_discards(cards("6h 7h 8h 9h"))
    [Card.parse('6h'), Card.parse('9h')]
    >>> go_out_discards(cards("7h 9h Jk 4c 4d 5s Kc"), MeldRules(wild_rank=5))
    [Card.parse('Kc')]
    >>> go_out_discards(cards("2c 7d Kh 9s"))
    []
    """
    cards_, rules, fast = _prepared(hand, rules)
    if not cards_:
        raise MeldError("go_out_discards needs at least one card to discard")
    # A card in no meld of the hand is in none of a hand left: when two are,
    # nothing goes out; when one is, only it may be thrown
    if fast is not None:  # one pack, no wilds: each hand left by its mask
        m, q = fast
        ft = q[3]
        cover = 0
        for mm, _pts, _n in _fast_melds(m, ft):
            cover |= mm
        loose = m & ~cover
        if loose & (loose - 1):
            return []
        card_at = ft[2]
        outs = [card_at[i] for i in (bits_of(loose) if loose else bits_of(m))
                if _onepack_deadwood(m & ~(1 << i), q[1], q[2]) == 0]
        outs.sort(key=_INDEX)
        return outs
    key = _hand_key(cards_)
    kept = _kept(rules, "d")
    can = kept.get(key)
    if can is False:
        return []
    naturals, wilds, encoded = _split_encoded(cards_, rules, key)
    if can is None:
        can = kept[key] = _melded(rules, True, naturals, wilds, encoded)
        if not can:
            return []
    tables = _rule_tables(rules)
    wild_at = tables[13]
    # the isolated naturals (no partner, even with every wild) stay isolated
    # in every hand left; wilds rescue two each: one too many, and only an
    # isolated card may be thrown
    iso = encoded[1]
    candidates: Iterable[int] = key
    if len(iso) > len(wilds) // 2:
        idx_at = tables[12]
        candidates = sorted([idx_at[p] for p in iso])
    melded = _kept(rules, "m")
    # a natural that is not one of the solver's isolated cards is asked of
    # the hand's own solver, its count less that card (the hand left shares
    # the rules, the wilds and those isolated cards: see _solver_for), when
    # _melded would ask it of the roomy search
    s: _Roomy | None = None
    x = 0
    unit, pos = tables[15], tables[7]
    if len(key) < 15 and len(naturals) > 1:
        solver, x = _solver_for(rules, naturals, wilds, encoded)
        if type(solver) is _Roomy:
            s = solver
    outs = []
    last = -1
    for i in candidates:
        if i == last:
            continue
        last = i
        card = _CARD_OF[i] if i < 52 else JOKER
        rest = list(key)
        rest.remove(i)
        rest_key = tuple(rest)
        got = melded.get(rest_key)
        if got is None:
            if s is not None and not wild_at[i] and pos[i] not in s.iso:
                got = s.rready(x - unit[i], len(wilds), 0)
            elif wild_at[i]:
                left = list(wilds)
                left.remove(card)
                got = _melded(rules, False, naturals, left)
            else:
                left = list(naturals)
                left.remove(card)
                got = _melded(rules, False, left, wilds)
            melded[rest_key] = got
        if got:
            outs.append(card)
    return outs


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
    cards_, rules, fast = _prepared(hand, rules)
    if not cards_:
        raise MeldError("best_discard needs at least one card to discard")
    if fast is not None:
        return _fast_discard(fast[0], fast[1][3])
    kept = _kept(rules, "b")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        s, x, wilds, total = _discard_search(cards_, rules)
        arrangement, card = _arrange(s, x, wilds, 1, total)
        assert card is not None
        if wilds and len(arrangement.melds) > 1:
            arrangement = _naturals_in_sets(arrangement, rules)
        got = kept[key] = make_discard(card, arrangement)
        _keep_discard(rules, key, card, arrangement.penalty, not arrangement.deadwood)
    return got  # type: ignore[no-any-return]


def best_discard_choice(hand: Iterable[Card | str] | str, rules: MeldRules | None = None
                        ) -> tuple[Card, int]:
    """The card :func:`best_discard` throws and the penalty it leaves: the
    same answer, without building the arrangement (what a bot weighing its
    moves needs, for less).

    >>> best_discard_choice("7h 8h 9h Kc")
    (Card.parse('Kc'), 0)
    >>> best_discard_choice("7h 9h Qc 4d 5s 2c", MeldRules(wild_rank=5))   # 5s fills 8h
    (Card.parse('Qc'), 6)
    """
    cards_, rules, fast = _prepared(hand, rules)
    if not cards_:
        raise MeldError("best_discard_choice needs at least one card to discard")
    if fast is not None:
        ft = fast[1][3]
        i, pen = _fast_discard_pick(fast[0], ft)[:2]
        return ft[2][i], pen
    key = _hand_key(cards_)
    whole = _kept(rules, "b").get(key)
    if whole is not None:
        return whole.card, whole.penalty
    kept = _kept(rules, "c")
    got = kept.get(key)
    if got is None:
        naturals, wilds, encoded = _split_encoded(cards_, rules, key)
        lone = _lone_discard(rules, naturals, wilds, encoded[1])
        if lone is not None:
            rest = list(cards_)
            rest.remove(lone)
            left = penalty(rest, rules)
            if left:  # (0: all melded or not, which the search tells)
                got = kept[key] = (lone, left)
                _keep_discard(rules, key, lone, left, False)
                return got
        s, x, wilds, total = _discard_search(cards_, rules, naturals, wilds, encoded)
        light = s.rdiscard(x, wilds, total) if type(s) is _Roomy else None
        if light is None:  # the search with room: its arrangement decides
            d = best_discard(cards_, rules)
            return d.card, d.penalty
        card, cost = light
        got = kept[key] = (card, cost // _W)
        _keep_discard(rules, key, card, cost // _W, cost % _W < _N)  # no deadwood card
    return got  # type: ignore[no-any-return]


def _discard_search(cards_: Any, rules: MeldRules, naturals: list[Card] | None = None,
                    wilds: list[Card] | None = None,
                    encoded: tuple[int, list[int]] | None = None
                    ) -> tuple[_Solver, int, list[Card], int | None]:
    """The solver and count vector of a hand that owes a discard, its wilds,
    and (when it has wilds) every natural's deadwood cost: may throwing a
    wild win?  (``naturals``, ``wilds``, ``encoded``: the hand split and
    encoded, when the caller has done it.)"""
    if naturals is None or wilds is None:
        naturals, wilds = _split_hand(cards_, rules)
    s, x = _solver_for(rules, naturals, wilds, encoded)
    total = None
    if wilds:
        pts = _rule_tables(rules)[9]
        total = sum([pts[c.index] for c in naturals]) * _W + len(naturals) * _N
    return s, x, wilds, total


def _lone_discard(rules: MeldRules, naturals: list[Card], wilds: list[Card], iso: list[int]
                  ) -> Card | None:
    """The best discard of a hand, told without a search when it is a lone
    card: with at most one wild, an isolated natural (``iso``: the
    isolated positions, best discard first) that is the best discard on a
    tie of every natural (the most points, then the tie order) and worth no
    fewer points than the wild.  No meld holds it (it has no partner, and
    no two wilds), so throwing another card c leaves it unmelded: the rest
    costs at least the hand without it (c put back as deadwood arranges
    that hand), with at least as many deadwood cards on a tie, and then
    the lone card is the better discard.  None otherwise."""
    if len(wilds) > 1 or not iso:
        return None
    tables = _rule_tables(rules)
    drank, index_pos, pts = tables[3], tables[7], tables[9]
    first = iso[0]
    best = drank[first]
    for c in naturals:
        if drank[index_pos[c.index]] < best:
            return None
    card: Card = tables[1][first]
    if wilds and pts[wilds[0].index] > pts[card.index]:
        return None
    return card


def _keep_discard(rules: MeldRules, key: tuple[int, ...], card: Card, penalty: int,
                  complete: bool) -> None:
    """What a best discard tells of other questions: the hand kept after it
    has this penalty (a player asks on the next turn) and is all melded when
    ``complete`` (its arrangement has the fewest deadwood cards of its
    penalty; not the arrangement itself, which on a tie may differ from
    best_arrangement's: a fixed search order); and this hand can go out
    when the kept hand has no deadwood (the engine asks)."""
    rest = list(key)
    rest.remove(card.index)
    rest_key = tuple(rest)
    _kept(rules, "p")[rest_key] = penalty
    _kept(rules, "m")[rest_key] = complete
    _kept(rules, "d")[key] = complete


# ---------------------------------------------------------------------------
# The same search, asked other questions.


def clear_memo() -> None:
    """Forget every search result kept between calls (the per-rule tables
    stay).  Answers never change; only the time of the next calls does.

    >>> clear_memo(); penalty("7h 8h 9h Kc")
    10
    """
    global _last_split
    _SOLVERS.clear()
    _ISO_SEEN.clear()
    _ANSWERS.clear()
    _last_answers[0] = _last_answers[1] = None
    _last_split = (None, None, None)
    _COVER_SOLVERS.clear()
    _MASK_MEMOS.clear()
    _MELD_LISTS.clear()
    _last_meld_lists[0] = _last_meld_lists[2] = None
    _last_prepared[0] = _last_prepared[1] = _last_prepared[2] = None
    _last_key[0] = _last_key[1] = None


# -- is the hand complete? ---------------------------------------------------

def is_complete(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> bool:
    """True when every card of ``hand`` is in a meld (BT-4): the same
    question as ``all_melded(hand, rules)``, under the name the Big Table
    engine asks it.

    >>> from rummy.cards import cards
    >>> rules = MeldRules(wild_rank=5)
    >>> is_complete(cards("7h 8h 5c Kd Kd Ks"), rules), is_complete(cards("7h 8h 5c Kd Kd Qs"), rules)
    (True, False)
    """
    return all_melded(hand, rules)


def may_go_out(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> bool:
    """A quick necessary condition for ``all_melded(hand, rules, discard=True)``
    (TT-6): with fewer than two wilds, at most one natural card may lack a
    partner that could share a meld with it.  False: the hand certainly
    can't go out; True: ask :func:`all_melded`.

    >>> may_go_out("2c 7d Kh 9s"), may_go_out("7h 8h 9h Kc")
    (False, True)
    """
    cards_, rules = _prepare(hand, rules)
    naturals, wilds = _split_hand(cards_, rules)
    if len(wilds) >= 2:
        return True
    return len(_encode(rules, len(wilds), naturals)[1]) <= 1


def lone_cards(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> list[Card]:
    """The natural cards of ``hand`` without a partner: each is the only
    copy of its card and no other natural card of the hand could share a
    meld with it, even with every wild of the hand filling gaps (in index
    order).  When the hand holds fewer than two wilds, no meld of its cards
    holds a lone card: it is deadwood in every arrangement (two wilds could
    make a set of it).

    >>> lone_cards("Kc 7h 8h 2d 2s 9c")
    [Card.parse('9c'), Card.parse('Kc')]
    >>> lone_cards("Kc 7h 9h Jk", MeldRules(wild_rank=None))   # the joker fills 8h
    [Card.parse('Kc')]
    """
    cards_, rules = _prepare(hand, rules)
    naturals, wilds = _split_hand(cards_, rules)
    iso = _encode(rules, len(wilds), naturals)[1]
    card_at = _rule_tables(rules)[1]
    return sorted([card_at[p] for p in iso], key=_INDEX)


def is_lone(card: Card | str, hand: Iterable[Card | str] | str,
            rules: MeldRules | None = None) -> bool:
    """True when ``card`` is one of :func:`lone_cards` of ``hand``: a
    natural card held once that no other natural card of the hand could
    share a meld with, even with every wild of the hand filling gaps.
    Asked of one card, for less than listing them all.  A card not in the
    hand raises :class:`MeldError`.

    >>> is_lone("9c", "Kc 7h 8h 2d 2s 9c"), is_lone("8h", "Kc 7h 8h 2d 2s 9c")
    (True, False)
    >>> is_lone("Kc", "Kc 7h 9h Jk", MeldRules(wild_rank=None))
    True
    """
    cards_, rules = _prepare(hand, rules)
    c = card if type(card) is Card else as_cards([card])[0]
    tables = _rule_tables(rules)
    wild_at, unit = tables[13], tables[11]
    i = c.index
    if c not in cards_:
        raise MeldError(f"{c} is not in the hand ({format_cards(cards_)})")
    if wild_at[i]:
        return False
    x = 0
    big = 0
    for h in cards_:
        j = h.index
        if wild_at[j]:
            big += 1
        else:
            x += unit[j]
    partners, shift = _partners_by_index(rules.aces, big + 1)
    return not x & partners[i] and (x >> shift[i]) & 15 == 1  # :func:`_encode`'s test


# -- how many wilds do the naturals need? -------------------------------------

_COVER_SOLVERS: dict[MeldRules, _Solver] = {}
_COVER_MEMO_MAX = 2_000_000


def _cover_solver(rules: MeldRules) -> _Solver:
    s = _COVER_SOLVERS.get(rules)
    if s is None:
        s = _COVER_SOLVERS[rules] = _Solver(rules, [])
    elif len(s.ready_memo) > _COVER_MEMO_MAX:
        s.ready_memo.clear()
    return s


def _solver_counts(x: int, rules: MeldRules) -> int:
    """Counts packed by ``Card.index`` (position suit * 13 + rank - 1) as
    the search packs them (aces high: the ace after the king)."""
    index_pos = _rule_tables(rules)[7]
    out = 0
    while x:
        i = ((x ^ (x - 1)).bit_length() - 1) >> 2
        n = (x >> (i << 2)) & 15
        x -= n << (i << 2)
        out += n << (index_pos[i] << 2)
    return out


def _covers(s: _Solver, x: int, b: int) -> bool:
    """Can the naturals ``x`` (search packing) all be melded with ``b`` wilds
    or fewer?  The moves of :meth:`_Solver.moves` that meld the lowest card."""
    if x == 0:
        return True
    key = (x << 6) | b
    memo = s.ready_memo
    got = memo.get(key)
    if got is not None:
        return got
    ok = False
    for delta, need, _room, _d2, add in s.moves(x, b, 0):
        if add == 0 and _covers(s, x - delta, b - need):
            ok = True
            break
    memo[key] = ok
    return ok


def covers_counts(x: int, budget: int, rules: MeldRules | None = None) -> bool:
    """True if the natural cards ``x`` (counts packed 4 bits per card, at
    ``Card.index``) can all be melded with at most ``budget`` wilds.

    >>> from rummy.cards import cards
    >>> x = sum(1 << (4 * c.index) for c in cards("7h 8h Th Kc Kd"))
    >>> covers_counts(x, 1), covers_counts(x, 2)
    (False, True)
    """
    rules = rules or _DEFAULT_RULES
    return _covers(_cover_solver(rules), _solver_counts(x, rules), min(budget, 63))


def min_wilds_counts(x: int, rules: MeldRules | None = None) -> int:
    """The fewest wilds with which the natural cards ``x`` (packed as in
    :func:`covers_counts`) can all be melded.

    >>> from rummy.cards import cards
    >>> min_wilds_counts(sum(1 << (4 * c.index) for c in cards("Qh Kh Ah")), MeldRules(aces="high"))
    0
    """
    rules = rules or _DEFAULT_RULES
    s = _cover_solver(rules)
    y = _solver_counts(x, rules)
    b = 0
    while not _covers(s, y, b):
        b += 1
    return b


def min_wilds(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> int:
    """The fewest wilds that would let every natural card of ``hand`` be
    melded (the wilds already in ``hand`` are not counted).

    >>> min_wilds("7h 8h Th Kc Kd")     # 9h fills the run, a third king the set
    2
    """
    cards_, rules = _prepare(hand, rules)
    x = 0
    for c in cards_:
        if not rules.is_wild(c):
            x += 1 << (4 * c.index)
    return min_wilds_counts(x, rules)


# -- one pack, no wilds, as a 52-bit mask (gin) -------------------------------

#: gin's rules (G-1): one pack, no wilds, aces low, sets of 3 or 4
GIN_RULES = MeldRules(jokers_wild=False, max_set_size=4)
_MASK_MEMOS: dict[MeldRules, dict[int, int]] = {}
_MASK_MEMO_MAX = 400_000


def mask_penalty(mask: int, rules: MeldRules = GIN_RULES) -> int:
    """Lowest penalty of the one-pack hand whose cards are the set bits of
    ``mask`` (bit ``Card.index``), under rules with no wild rank and aces
    low: the fast path, remembered per mask.

    >>> from rummy.cards import cards
    >>> mask_penalty(sum(1 << c.index for c in cards("7h 8h 9h 9c 9d Kc 2s")))
    27
    """
    memo = _MASK_MEMOS.get(rules)
    if memo is None:
        if rules.wild_rank is not None or rules.aces != "low":
            raise MeldError("mask_penalty needs rules without a wild rank and with aces low; "
                            f"these have {rules.describe()}")
        memo = _MASK_MEMOS[rules] = {}
    got = memo.get(mask)
    if got is not None:
        return got
    q = _quick_tables(rules)
    assert q is not None  # aces low
    got = _onepack_deadwood(mask, q[1], q[2])
    if len(memo) > _MASK_MEMO_MAX:
        memo.clear()
    memo[mask] = got
    return got


def extension_bits(meld_mask: int) -> int:
    """Cards that could be laid off onto this meld now (one more card), as a
    52-bit mask (bit ``Card.index``).

    >>> extension_bits(0b111 << 4) == (1 << 3 | 1 << 7)   # 5-6-7 of clubs: 4 or 8
    True
    """
    lo = (meld_mask & -meld_mask).bit_length() - 1
    hi = meld_mask.bit_length() - 1
    if lo % 13 == hi % 13:  # a set: the missing suits of its rank (at most 4 cards)
        r = lo % 13
        full = (1 | 1 << 13 | 1 << 26 | 1 << 39) << r
        return full & ~meld_mask
    ext = 0
    if lo % 13 != 0:
        ext |= 1 << (lo - 1)
    if hi % 13 != 12:
        ext |= 1 << (hi + 1)
    return ext


LayoffMemo = dict[tuple[int, tuple[int, ...]], tuple[int, tuple[tuple[int, int], ...]]]


def best_layoffs_masks(hand: int, melds: tuple[int, ...], memo: LayoffMemo | None = None,
                       rules: MeldRules = GIN_RULES) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The defender's best lay-offs (G-8) onto the knocker's ``melds``, all
    as 52-bit masks: ``(deadwood left, ((card bit, meld index), ...))`` in
    an order that works (chains included: a card may extend a run an
    earlier lay-off extended).  Lowest deadwood, then fewest lay-offs; the
    cards kept are arranged by :func:`mask_penalty`.  Pass one ``memo``
    to calls about the same melds to share their work.

    >>> from rummy.cards import cards
    >>> m = lambda text: sum(1 << c.index for c in cards(text))
    >>> dw, plan = best_layoffs_masks(m("5h 4h Kc 2s"), (m("6h 7h 8h"),))
    >>> dw, [(str(Card(b % 13 + 1, SUITS[b // 13])), i) for b, i in plan]   # 5h, then 4h
    (12, [('5h', 0), ('4h', 0)])
    """
    if memo is None:
        memo = {}
    key = (hand, melds)
    got = memo.get(key)
    if got is not None:
        return got
    best: tuple[int, tuple[tuple[int, int], ...]] = (mask_penalty(hand, rules), ())
    for i, m in enumerate(melds):
        ext = extension_bits(m) & hand
        while ext:
            b = ext & -ext
            ext ^= b
            sub = best_layoffs_masks(hand ^ b, melds[:i] + (m | b,) + melds[i + 1:], memo, rules)
            cand = (sub[0], ((b.bit_length() - 1, i),) + sub[1])
            if cand[0] < best[0] or cand[0] == best[0] and len(cand[1]) < len(best[1]):
                best = cand
    memo[key] = best
    return best
