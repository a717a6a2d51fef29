"""One pack, no wilds: the fast path of the meld search, and gin's hands as 52-bit masks.

A card is a bit (``suit * 13 + rank - 1``, suits in c d h s order, the
order cards sort in: :func:`bit`, ``Card.index``); a hand is an ``int``
mask (:func:`mask_of`, :func:`cards_of`).  The melds one pack can make
are listed once, here (:data:`RUNS_BY_LOW`, :data:`SETS_BY_LOW`,
:data:`MELD_MASKS`): gin's engine checks and lists knocks with them, and
the fast path builds its Meld values from them.

The fast path: one pack's worth of distinct cards and no wilds (gin, and
every hand without a wild), as a 52-bit mask (four 13-bit suits; with
aces high the ace is the top bit of its suit).  Its lowest penalty
(``penalty``, :func:`mask_penalty`, ``all_melded``) is read from tables:
per suit, the deadwood of every 13-bit mask that makes runs only, and per
rank held 3 or 4 times, a choice of which cards (if any) go to a set;
most hands hold no rank 3 times and cost four lookups
(:func:`onepack_deadwood`).  The arrangement and the best discard search
the packings of disjoint melds found with bit operations
(:func:`fast_melds`).  Tests check both against the general search and
the brute force.

Gin's questions on masks: the lowest deadwood (:func:`mask_penalty`), the
defender's best lay-offs (:func:`best_layoffs_masks`, G-8), the cards that
extend a meld (:func:`extension_bits`) and every arrangement within a
knock limit (:func:`arrangements_of`); gin's engine (:mod:`rummy.gin`) and
its bots (:mod:`rummy.bots.gin`) use these names.

This module imports :mod:`rummy.cards`, :mod:`rummy.errors`,
:mod:`rummy.melds` and :mod:`rummy.search.tables`.

>>> from rummy.cards import cards
>>> mask_penalty(mask_of(cards("7h 8h 9h 9c 9d Kc 2s")))   # set 9c-9d-9h: 7+8+10+2 left
27
>>> best_layoffs_masks(mask_of(cards("5h Kc")), (mask_of(cards("6h 7h 8h")),), {})
(10, ((30, 0),))
>>> cards_of(1 << 30), bit(cards("5h")[0])       # 5h lays off onto meld 0; Kc is left
([Card.parse('5h')], 30)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import Any

from rummy.cards import SUITS, Card, deck
from rummy.errors import GameError
from rummy.melds import (
    Arrangement,
    Discard,
    Meld,
    MeldError,
    MeldRules,
    make_arrangement,
    make_discard,
    make_meld,
)
from rummy.search.tables import INDEX, tables_of

# ---------------------------------------------------------------------------
# Cards as bits

#: The 52 cards in bit order (the same order as ``deck(1, 0)``).
CARDS: list[Card] = [Card(_r, _s) for _s in SUITS for _r in range(1, 14)]
assert tuple(CARDS) == deck(1, 0)  # the same order as the shared deck
#: gin's points of each card by bit (G-1: aces 1, faces 10)
VALUES = [min(c.rank, 10) for c in CARDS]

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


# ---------------------------------------------------------------------------
# The melds of one pack


def _melds_by_low() -> tuple[list[list[int]], list[list[int]]]:
    """Every run and every set of one pack as a mask, listed under its
    lowest bit: runs of 3 to 13 cards (shorter first), sets of 3 and 4."""
    runs: list[list[int]] = [[] for _ in range(52)]
    sets: list[list[int]] = [[] for _ in range(52)]
    for si in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                runs[si * 13 + lo].append(sum(1 << (si * 13 + r) for r in range(lo, hi + 1)))
    for r in range(13):
        rank_bits = [si * 13 + r for si in range(4)]
        for k in (3, 4):
            for combo in combinations(rank_bits, k):
                sets[min(combo)].append(sum(1 << b for b in combo))
    return runs, sets


#: the runs (shorter first) and the sets of one pack, by their lowest bit
RUNS_BY_LOW, SETS_BY_LOW = _melds_by_low()
#: every meld of one pack (329: 66 runs per suit, 5 sets per rank)
MELD_MASKS = frozenset(m for group in (RUNS_BY_LOW, SETS_BY_LOW) for ms in group for m in ms)


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


_R13 = (1 << 13) - 1
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


# ---------------------------------------------------------------------------
# The fast path


_last_fast: list[Any] = [None, None, None]  # the rules asked last, their tables and cards


@functools.lru_cache(maxsize=512)
def _fast_cards(rules: MeldRules) -> tuple[frozenset[int], list[int]]:
    """The card indexes that are wild (the joker's, 52, always: the fast
    path has no wilds) and each card's bit in the fast path's hand mask."""
    wild = {52}
    if rules.wild_rank is not None:
        wild |= {s * 13 + rules.wild_rank - 1 for s in range(4)}
    posmap = _fast_tables(rules)[1]
    return frozenset(wild), [1 << posmap[i] for i in range(52)]


def fast_ready(cards_: Any, rules: MeldRules) -> tuple[int, tuple[Any, ...]] | None:
    """(hand mask, tables) when the fast path applies: no wilds, no two
    identical cards, aces not both low and high."""
    if rules.aces == "low_or_high":
        return None
    if _last_fast[0] is rules:
        ft, fc = _last_fast[1], _last_fast[2]
    else:
        ft, fc = _fast_tables(rules), _fast_cards(rules)
        _last_fast[0], _last_fast[1], _last_fast[2] = rules, ft, fc
    idx = list(map(INDEX, cards_))  # the loops run in C
    if not fc[0].isdisjoint(idx) or len(set(idx)) != len(idx):
        return None
    return sum(map(fc[1].__getitem__, idx)), ft


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
    gen = tables_of(rules)  # the general search orders discards; its positions differ
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


def onepack_deadwood(m: int, dw: list[int], choices: list[tuple[int, ...]]) -> int:
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
#: the rules asked last of :func:`quick_tables` and their tables
last_quick: list[Any] = [None, None]
_QUICK: dict[MeldRules, Any] = {}  # per-rule tables (as the lru_caches of the other tables)


def quick_tables(rules: MeldRules) -> tuple[list[int], list[int], list[tuple[int, ...]],
                                             tuple[Any, ...], dict[int, Meld]] | None:
    """(bit of each card index 0..52 in the fast path's mask, with wilds and
    the joker marked; per-suit run deadwood; set choices; the fast path's
    tables; every meld's Meld by mask, :func:`meld_objects`) for the rules,
    or None when the fast path never applies (aces both low and high)."""
    if last_quick[0] is rules:
        return last_quick[1]  # type: ignore[no-any-return]
    if rules in _QUICK:
        got = _QUICK[rules]
    else:
        got = None
        if rules.aces != "low_or_high":
            ft = _fast_tables(rules)
            wild, bits = _fast_cards(rules)
            marked = [_MARK if i in wild else bits[i] for i in range(52)] + [_MARK]
            got = (marked, _run_deadwood(tuple(ft[4])), _set_choices(ft[3]), ft,
                   meld_objects(rules.aces == "high"))
        if len(_QUICK) >= 512:
            _QUICK.clear()
        _QUICK[rules] = got
    last_quick[0], last_quick[1] = rules, got
    return got


def quick_mask(hand: Any, rules: Any) -> tuple[int, tuple[Any, ...]] | bool:
    """(mask, quick tables) when ``hand`` is a list or tuple of at most 16
    distinct natural :class:`Card` values and ``rules`` a MeldRules the fast
    path serves; False when it is such a list of cards but with a wild, a
    joker or a card twice (not the fast path's); else True (unknown: the
    caller takes the checked way)."""
    if (type(hand) is not tuple and type(hand) is not list) or len(hand) > 16 \
            or type(rules) is not MeldRules:
        return True
    q = quick_tables(rules)
    if q is None:
        return True
    bits = q[0]
    # a sum of n powers of two has n bits set only when they are distinct
    try:  # (a string's index is a method: the mask is made of Card values only)
        m = 0
        for c in hand:  # (a loop: no comprehension's frame and list)
            m += bits[c.index]
    except (AttributeError, TypeError):
        return True
    if m >> 52 or m.bit_count() != len(hand):
        return False  # a wild, a joker or two identical cards
    return m, q


def fast_melds(m: int, ft: tuple[Any, ...]) -> list[tuple[int, int, int]]:
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
def meld_objects(high: bool) -> dict[int, Meld]:
    """Every meld one pack can make (329: runs of 3 to 13 cards in each
    suit, sets of 3 and 4: :data:`MELD_MASKS`) by mask, in the fast path's
    positions (with aces high the ace is the top bit of its suit): a
    static table, built once per ace layout, so that an arrangement
    reuses the frozen Meld values."""
    in_order = _suit_cards(high)[0]
    return {mm: _meld_of(mm, in_order) for mm in MELD_MASKS}


def fast_arrangement(m: int, melds: list[tuple[int, int, int]], chosen: tuple[int, ...],
                     ft: tuple[Any, ...], pen: int) -> Arrangement:
    """The arrangement of the hand mask ``m`` (fast path tables ``ft``)
    that melds ``chosen`` (indexes into ``melds``, :func:`fast_melds`),
    in the order of their lowest card, and leaves ``pen`` points."""
    in_sort = ft[7]
    objs = meld_objects(ft[1][0] != 0)  # the ace of clubs at position 12: aces high
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


def runs_arrangement(m: int, q: tuple[Any, ...]) -> Arrangement | None:
    """:func:`fast_arrangement` of :func:`fast_best`'s packing, without
    weighing packings, when the hand mask ``m`` has no card that could go
    to a set or a run, no row of six or more cards of a suit, and no rank
    held four times when sets of four are not allowed (``q``:
    :func:`quick_tables`): its melds are then its rows of three to five
    cards of a suit, each one run, and each rank held three times or more,
    one set (the only packing that melds every card of them, and a card in
    none of them has no meld), in the order of their lowest card; else
    None.  (A row of six could also be two runs of three, and a rank held
    four times three sets of three: :func:`fast_best` settles which.)

    >>> from rummy.cards import cards
    >>> q = quick_tables(MeldRules())
    >>> print(runs_arrangement(mask_of(cards("4h 5h 6h 9c Tc Jc Qc 2d")), q))
    [9c Tc Jc Qc] | [4h 5h 6h]; deadwood: 2d; penalty 2
    """
    s0, s1, s2, s3 = m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39
    rows = _RUN_ROWS
    used = rows[s0] | rows[s1] << 13 | rows[s2] << 26 | rows[s3] << 39
    t3 = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)  # ranks held three times or more
    ft = q[3]
    sets: list[int] = []
    if t3:
        # a rank none of whose cards lies in a row gives its biggest set
        # (the only best choice: all four when sets of four are allowed,
        # else any three, a tie the packing search settles); a card in a
        # row could go to the set or the run: the packing search weighs it
        allow4 = ft[3]
        while t3:
            b = t3 & -t3
            t3 ^= b
            held = b * _RANK_COLUMN & m
            if held & used or (not allow4 and held.bit_count() == 4):
                return None
            sets.append(held)
        for held in sets:
            m ^= held
        s0, s1, s2, s3 = m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39
    dw = q[1]
    pen = dw[s0] + dw[s1] + dw[s2] + dw[s3]
    in_sort = ft[7]
    rest = m & ~used
    dead = (in_sort[0][rest & 0x1FFF] + in_sort[1][(rest >> 13) & 0x1FFF]
            + in_sort[2][(rest >> 26) & 0x1FFF] + in_sort[3][rest >> 39])
    if not used and not sets:
        return make_arrangement((), dead, pen)
    objs = q[4]
    out = []
    while used:  # each row: the lowest bit and the ones above it in a row
        row = used & ~(used + (used & -used))
        if row.bit_count() > 5:
            return None
        out.append(row)
        used ^= row
    if sets:  # the melds in the order of their lowest card
        out += sets
        out.sort(key=_low_bit)
    melds = []
    for mm in out:  # (a loop: no comprehension's frame)
        melds.append(objs[mm])
    return make_arrangement(tuple(melds), dead, pen)


def _low_bit(mask: int) -> int:
    """The lowest bit of a mask (a meld's lowest card, in the fast path's
    positions: the order of an arrangement's melds)."""
    return mask & -mask


def fast_best(m: int, ft: tuple[Any, ...]) -> tuple[int, list[tuple[int, int, int]], tuple[int, ...]]:
    """(points melded, melds, chosen) of the best packing: most points, then most cards."""
    melds = fast_melds(m, ft)
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


def fast_discard(m: int, ft: tuple[Any, ...]) -> Discard:
    """Best discard: over every packing, throw the best card outside it."""
    i, pen, melds, chosen = fast_discard_pick(m, ft)
    rest = m & ~(1 << i)
    return make_discard(ft[2][i], fast_arrangement(rest, melds, chosen, ft, pen))


def fast_discard_pick(m: int, ft: tuple[Any, ...]
                      ) -> tuple[int, int, list[tuple[int, int, int]], tuple[int, ...]]:
    """:func:`fast_discard`'s choice: (the position thrown, the penalty
    left, the melds of m, the packing kept)."""
    val13, vals, drank = ft[0], ft[4], ft[5]
    melds = fast_melds(m, ft)
    if not melds:  # (most hands of a few cards) the best discard, every other card deadwood
        i = _best_card(m, ft)
        return i, fast_total(m, val13) - vals[i % 13], melds, ()
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
    pen = fast_total(m & ~(1 << i), val13) - sum([melds[j][1] for j in chosen])
    return i, pen, melds, chosen


def fast_total(m: int, val13: list[int]) -> int:
    """The points of every card of the hand mask ``m`` (``val13``: the
    points of each 13-bit suit mask)."""
    return val13[m & 0x1FFF] + val13[(m >> 13) & 0x1FFF] + val13[(m >> 26) & 0x1FFF] + val13[m >> 39]


# ---------------------------------------------------------------------------
# Gin's hands as masks


#: gin's rules (G-1): one pack, no wilds, aces low, sets of 3 or 4
GIN_RULES = MeldRules(jokers_wild=False, max_set_size=4)
#: :func:`mask_penalty`'s answers per rules, by mask
_MASK_MEMOS: dict[MeldRules, dict[int, int]] = {}
_MASK_MEMO_MAX = 400_000


def forget() -> None:
    """Forget the answers :func:`mask_penalty` kept (``clear_memo`` calls this)."""
    _MASK_MEMOS.clear()


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
    q = quick_tables(rules)
    assert q is not None  # aces low
    got = onepack_deadwood(mask, q[1], q[2])
    if len(memo) > _MASK_MEMO_MAX:
        memo.clear()
    memo[mask] = got
    return got


#: what :func:`best_layoffs_masks` keeps of the hands and melds it asked
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


def arrangements_of(mask: int, limit: int) -> list[tuple[tuple[int, ...], int]]:
    """Every way to split ``mask`` into melds and deadwood worth at most
    ``limit`` points: (meld masks, deadwood mask), each split once.

    >>> from rummy.cards import cards
    >>> [([cards_of(m) for m in melds], cards_of(dead))
    ...  for melds, dead in arrangements_of(mask_of(cards("7h 8h 9h 2c")), 2)]
    [([[Card.parse('7h'), Card.parse('8h'), Card.parse('9h')]], [Card.parse('2c')])]
    """
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
