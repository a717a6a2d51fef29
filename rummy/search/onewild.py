"""At most three wilds: the roomy search on bit masks, for the hands asked of most.

A hand with at most three wilds (cards of the wild rank or jokers) and
no natural card three times, under rules whose sets take any number of
wilds and whose aces play either low or high (not both), is searched
here, without a solver object, count vectors or kept memos: each natural
is a bit at its position in the roomy search's order
(:func:`rummy.search.tables.tables_of`: rank-major from the top rank
down, so that the lowest bit is the first card searched, its set
partners the next bits and its runs every fourth bit); the cards held
twice are a second mask.  A hand without a wild and without a card twice
is the one-pack fast path's (:mod:`rummy.search.onepack`), not this
module's: that path may break ties another way.

The search is :class:`rummy.search.roomy.Roomy`'s, move for move, on
these hands: the lowest card's runs down its suit, each taking one copy
of every natural it spans (a gap takes a wild), shorter first; then its
sets, every copy of its rank that could start no run in reach and, in
every combination and number of copies, those that could (with two
wilds, a card alone); then every copy of the card left unmelded.  The
last meld of the lowest cost wins a tie, and leaving the card unmelded
wins only when it costs less.  Cards that can only be deadwood are
settled first, as the roomy search settles them: the isolated ones
(:func:`rummy.search.tables.encode`; with two wilds or three, the
costliest is rescued by two when the search leaves them unused,
:func:`_wilds_search`), a row of lowest cards without a meld, and
without a wild every card in no meld of three naturals.  With one wild
and no meld of three naturals at all (most small hands), every meld
takes the wild and leaves the rest as deadwood, so the best such meld is
found in one pass (:func:`_one_meld`).  The answer is built as
:meth:`rummy.search.general.Solver._assemble` builds it: the melds in
the order of their lowest card, the wilds (the most expensive first) to
the melds that need them, three or more left over as a set of their own
(when melds may be all wilds), else to the first melds with room.  So
the arrangement is the roomy search's, ties included
(tests/test_search.py checks the two, and the brute force's penalty, on
random hands).  When the answer leaves a wild without a meld to join,
the caller asks the general search (None here).

Static tables only, per rule set (hand-independent, built once in about
0.4 ms): nothing that depends on a hand is kept between calls.

This module imports :mod:`rummy.cards`, :mod:`rummy.melds` and the
modules :mod:`rummy.search.tables` and :mod:`rummy.search.general`.

>>> from rummy.cards import cards
>>> rules = MeldRules(wild_rank=9)
>>> hand = cards("7h 8h 9c Kd Ks 2c")
>>> print(onewild_arrangement(tuple(sorted(c.index for c in hand)), rules))
[Kd Ks 9c=Kc]; deadwood: 2c 7h 8h; penalty 17
"""

from __future__ import annotations

from itertools import compress
from operator import eq
from typing import Any

from rummy.cards import JOKER, Card
from rummy.melds import Arrangement, MeldRules, make_arrangement, make_set
from rummy.search.general import natural_meld, plan_order, plan_order_high
from rummy.search.tables import CARD_OF, INF, PER_CARD, PER_POINT, SET_ROOM, tables_of

#: per rule set: (each Card.index's bit, a wild's above the positions;
#: the Card.index at each position; aces high; the search's tables with
#: the wild and without it (:func:`_solve`); whether each Card.index is
#: natural; each Card.index's deadwood cost, a wild's 0; the search's
#: tables by the number of wilds in hand, from two; each position's
#: discard rank; each Card.index's points), or None when this search does
#: not serve the rules
_TABLES: dict[MeldRules, Any] = {}
_last: list[Any] = [None, None]
_WILD = 1 << 8  # a wild's bit in a hand's mask, above the positions' (shifted by 52)
_COLUMN = sum(1 << (4 * q) for q in range(13))  # the first suit's bit of each rank
_RANK4 = [15 << (p & ~3) for p in range(52)]  # the four positions of each position's rank
_POSITIONS = (1 << 52) - 1  # every position's bit
_BELOW = [sum(1 << q for q in range(p, 52, 4)) for p in range(52)]  # a position and the next of its suit


def onewild_tables(rules: MeldRules) -> tuple[Any, ...] | None:
    """The static tables of this search for ``rules`` (see :data:`_TABLES`),
    or None when it does not serve them (sets of a capped size, or aces
    both low and high).

    >>> onewild_tables(MeldRules(wild_rank=9, aces="low_or_high")) is None
    True
    """
    if _last[0] is rules:
        return _last[1]  # type: ignore[no-any-return]
    got = _TABLES.get(rules, False)
    if got is False:
        got = None
        if rules.max_set_size is None and rules.aces != "low_or_high":
            (_pos_of, _card_at, pen, drank, up, _down, _same, index_pos, _local, pts, _better, _unit,
             idx_at, wild_at, _order, _unit_top) = tables_of(rules)
            bits = [_WILD << 52 if wild_at[i] else 1 << index_pos[i] for i in range(52)] + [_WILD << 52]
            reach = [sum(1 << q for q in up[p][:2]) for p in range(52)]
            same = [sum(1 << q for q in range(p + 1, p - (p & 3) + 4)) for p in range(52)]
            near = [same[p] | reach[p] for p in range(52)]
            pen = list(pen)
            # the deadwood cost of every 8-bit chunk of a mask (two ranks), by chunk
            chunks = []
            for c in range(7):
                row = [0] * 256
                for m in range(1, 256):
                    low = m & -m
                    q = 8 * c + low.bit_length() - 1
                    row[m] = row[m ^ low] + (pen[q] if q < 52 else 0)
                chunks.append(row)
            # without a wild, a card starts a run only with the next card of its suit
            reach0 = [1 << up[p][0] if up[p] else 0 for p in range(52)]
            wild_first = [0 if wild_at[i] else 1 for i in range(52)] + [0]
            # each Card.index's deadwood cost, a wild's 0 (a hand's naturals' cost in one sum)
            nat_pen = [0 if wild_at[i] else pen[index_pos[i]] for i in range(52)] + [0]
            # with two wilds or three, a card starts a run with any of the
            # next three or four of its suit
            by_wilds = [None, None] + [(chunks, [sum(1 << q for q in up[p][:n + 1]) for p in range(52)],
                                        near, same, pen) for n in (2, 3)]
            got = (bits, list(idx_at), rules.aces == "high", (chunks, reach, near, same, pen),
                   (chunks, reach0, near, same, pen), wild_first, nat_pen, by_wilds, list(drank),
                   list(pts))
        if len(_TABLES) >= 512:
            _TABLES.clear()
        _TABLES[rules] = got
    _last[0], _last[1] = rules, got
    return got


def _solve(x: int, w: int, memo: dict[int, tuple[int, Any, int]], t: tuple[Any, ...]) -> int:
    """The lowest cost of the naturals ``x`` (a mask of positions) with
    ``w`` wilds (0 or 1) left, a wild left over costing nothing; each
    state's cost and choice go to ``memo`` (keyed ``x << 1 | w``): (its
    cost, the meld taken as (its cards, the wilds it needs, its room) or
    the bit of the card left unmelded, the cards without a meld settled
    as deadwood first).  A lowest card without a meld (none of its rank
    and none of the next two cards of its suit with the wild; not three
    of its rank and not the next two cards of its suit without) is
    settled at once, and so is the next, as the roomy search settles a
    row of them."""
    (p0, p1, p2, p3, p4, p5, p6), reach, near, same, pen = t
    key = x << 1 | w
    settled = 0
    add = 0
    if not w:
        # no wild left: every card in no set of three and no run of three
        # of the naturals left is deadwood, settled at once
        a, b, c, d = x & _COLUMN, x >> 1 & _COLUMN, x >> 2 & _COLUMN, x >> 3 & _COLUMN
        r = x & x >> 4 & x >> 8
        settled = x & ~(r | r << 4 | r << 8 | ((a & b & (c | d)) | ((a | b) & c & d)) * 15)
        if settled:
            x -= settled
            add = (p0[settled & 255] + p1[settled >> 8 & 255] + p2[settled >> 16 & 255]
                   + p3[settled >> 24 & 255] + p4[settled >> 32 & 255] + p5[settled >> 40 & 255]
                   + p6[settled >> 48])
            if not x:
                memo[key] = (add, None, settled)
                return add
        b = x & -x
        p = b.bit_length() - 1
    else:
        while True:
            b = x & -x
            p = b.bit_length() - 1
            if x & near[p]:
                break
            settled |= b
            add += pen[p]
            x -= b
            if not x:
                memo[key] = (add, None, settled)
                return add
    best = INF
    pick: Any = None
    # runs: p on top, down its suit, every natural they span; a gap takes the wild
    delta, gaps, i = b, 0, 0
    q = p + 4
    while q < 52:
        u = 1 << q
        if x & u:
            delta |= u
            need = gaps if i else 1
            if need <= w:
                y = x - delta
                if y:
                    got = memo.get(y << 1 | w - need)
                    v = _solve(y, w - need, memo, t) if got is None else got[0]
                else:
                    v = 0
                if v <= best:
                    best = v
                    pick = (delta, need, 11 - i)
        else:
            gaps += 1
            if gaps > w:
                break
        q += 4
        i += 1
    # sets: p and every later card of its rank that could start no run in
    # reach; those that could, in every combination (fewer first)
    sm = x & same[p]
    if sm:
        dl, k = b, 1
        free: list[int] | None = None
        while sm:
            u = sm & -sm
            sm -= u
            if x & reach[u.bit_length() - 1]:
                if free is None:
                    free = [u]
                else:
                    free.append(u)
            else:
                dl |= u
                k += 1
        combos = [(dl, k)]
        if free is not None:
            for u in free:
                combos = [(d2 + j * u, k2 + j) for d2, k2 in combos for j in (0, 1)]
        for dl, k in combos:
            need = 3 - k if k < 3 else 0
            if need <= w:
                y = x - dl
                if y:
                    got = memo.get(y << 1 | w - need)
                    v = _solve(y, w - need, memo, t) if got is None else got[0]
                else:
                    v = 0
                if v <= best:
                    best = v
                    pick = (dl, need, SET_ROOM)
    # p left unmelded (only when that costs less)
    cost = pen[p]
    if cost < best:
        z = x - b
        if z:
            got = memo.get(z << 1 | w)
            v = cost + (_solve(z, w, memo, t) if got is None else got[0])
        else:
            v = cost
        if v < best:
            best = v
            pick = b
    best += add
    memo[key] = (best, pick, settled)
    return best


def _solve_wilds(x: int, w: int, memo: dict[int, tuple[int, Any, int]], memo2: dict[int, tuple[int, Any]],
                 t: tuple[Any, ...], bonus: int) -> int:
    """:func:`_solve` of distinct naturals ``x`` with ``w`` wilds left, two
    or more, kept in ``memo2`` (keyed ``x << 2 | w``: (its cost, its
    choice)); the states with one wild or none go to :func:`_solve` and
    ``memo``.  Every card has a meld here (a set of it and two wilds), so
    none is settled first; its melds are the roomy search's, each card's
    runs then its sets (alone with two wilds when its rank holds no other
    card), and the card is left unmelded only when that costs less.
    ``bonus``: what an answer that ends with two wilds left or more saves,
    the costliest isolated card rescued by two of them (0 when there is
    none; the isolated cards' whole cost is counted by the caller).  ``t``:
    the tables for the wilds in hand (a card starts a run with any of the
    next cards of its suit that many wilds reach)."""
    _chunks, reach, _near, same, pen = t
    b = x & -x
    p = b.bit_length() - 1
    best = INF
    pick: Any = None
    # runs: p on top, down its suit, every natural they span; a gap takes a wild
    delta, gaps, i = b, 0, 0
    q = p + 4
    top = (x & _BELOW[p]).bit_length() - 1  # (the last card of the suit: no run goes past it)
    while q <= top:
        u = 1 << q
        if x & u:
            delta |= u
            need = gaps if i else 1
            y = x - delta
            left = w - need
            if left < 2:
                if y:
                    got = memo.get(y << 1 | left)
                    v = _solve(y, left, memo, t) if got is None else got[0]
                else:
                    v = 0
            elif y:
                got2 = memo2.get(y << 2 | left)
                v = _solve_wilds(y, left, memo, memo2, t, bonus) if got2 is None else got2[0]
            else:
                v = bonus
            if v <= best:
                best = v
                pick = (delta, need, 11 - i)
        else:
            gaps += 1
            if gaps > w:
                break
        q += 4
        i += 1
    # sets: p and every later card of its rank that could start no run in
    # reach; those that could, in every combination (fewer first)
    sm = x & same[p]
    dl, k = b, 1
    free: list[int] | None = None
    while sm:
        u = sm & -sm
        sm -= u
        if x & reach[u.bit_length() - 1]:
            if free is None:
                free = [u]
            else:
                free.append(u)
        else:
            dl |= u
            k += 1
    combos = [(dl, k)]
    if free is not None:
        for u in free:
            combos = [(d2 + j * u, k2 + j) for d2, k2 in combos for j in (0, 1)]
    for dl, k in combos:
        need = 3 - k if k < 3 else 0
        y = x - dl
        left = w - need
        if left < 2:
            if y:
                got = memo.get(y << 1 | left)
                v = _solve(y, left, memo, t) if got is None else got[0]
            else:
                v = 0
        elif y:
            got2 = memo2.get(y << 2 | left)
            v = _solve_wilds(y, left, memo, memo2, t, bonus) if got2 is None else got2[0]
        else:
            v = bonus
        if v <= best:
            best = v
            pick = (dl, need, SET_ROOM)
    # p left unmelded (only when that costs less; no state costs below bonus)
    cost = pen[p]
    if cost + bonus < best:
        z = x - b
        if z:
            got2 = memo2.get(z << 2 | w)
            v = cost + (_solve_wilds(z, w, memo, memo2, t, bonus) if got2 is None else got2[0])
        else:
            v = cost + bonus
        if v < best:
            best = v
            pick = b
    memo2[x << 2 | w] = (best, pick)
    return best


def _one_meld(x: int, cx: int, t: tuple[Any, ...]) -> tuple[int, Any]:
    """:func:`_solve` with the wild at hand, when no three of the naturals
    ``x`` make a meld: every meld takes the wild, so the answer is one
    meld and the rest deadwood, whose cost is the whole less the meld's
    cards'.  Returns (the meld's cards' cost, the meld as (cards, wilds
    needed, room)), found in one pass over the cards in search order
    instead of a search of states: the search's state of a lowest card p
    holds every card from p on (the cards before it are left unmelded or
    settled), a meld of p takes only later cards, and leaving p unmelded
    wins only when a later card's meld saves strictly more; among p's own
    melds (its runs, shorter first, then its sets) the last of the most
    saved wins, as the search's ``<=`` has it.  A card with no partner in
    reach (none of its rank after it, and neither of the next two cards
    of its suit) has no meld and is passed.  Every other card has one, so
    a meld is always found for a hand that has such a card.  The pass
    stops when the cards after p cost no more than the best meld saves
    (``cx``: the cost of every card of x): no later meld can save more."""
    reach, near, same, pen = t[1], t[2], t[3], t[4]
    best = -1
    pick: Any = None
    y = x
    while y:
        b = y & -y
        y -= b
        p = b.bit_length() - 1
        cx -= pen[p]
        if not x & near[p]:
            continue
        mine = -1
        mpick: Any = None
        # runs: p on top, down its suit, every natural they span; the wild
        # takes the gap, or makes the third card
        delta, gaps, i, dc = b, 0, 0, pen[p]
        q = p + 4
        while q < 52:
            u = 1 << q
            if x & u:
                delta |= u
                dc += pen[q]
                if dc >= mine:
                    mine = dc
                    mpick = (delta, 1, 11 - i)
            elif gaps:
                break
            else:
                gaps = 1
            q += 4
            i += 1
        # sets: p and one later card of its rank (a third would be a meld
        # of naturals); a card that could start no run in reach is always
        # taken, those that could in every combination (fewer first)
        sm = x & same[p]
        if sm:
            free: list[int] | None = None
            dl = b
            while sm:
                u = sm & -sm
                sm -= u
                if x & reach[u.bit_length() - 1]:
                    if free is None:
                        free = [u]
                    else:
                        free.append(u)
                else:
                    dl |= u
            combos = [dl]
            if free is not None:
                for u in free:
                    combos = [d2 + j * u for d2 in combos for j in (0, 1)]
            cp = pen[p]
            for dl in combos:
                if dl != b:  # two cards (one needs two wilds)
                    v = cp + pen[(dl - b).bit_length() - 1]
                    if v >= mine:
                        mine = v
                        mpick = (dl, 1, SET_ROOM)
        if mine > best:  # a later card's meld wins only when it saves more
            best = mine
            pick = mpick
        if cx <= best:
            break
    return best, pick


def _twice_sets(x1: int, x2: int, b: int, p: int, n: int, same: list[int], reach: list[int]
                ) -> list[tuple[int, int, int]]:
    """The sets :func:`_solve2` and :func:`_solve2_wilds` weigh for the card
    ``p`` (its bit ``b``, held ``n`` times): ``(cards, cards twice, copies)``
    of each, every copy of ``p`` and of each later card of its rank that
    could start no run in reach, and of those that could, 0, 1 or 2 copies
    (fewer first)."""
    t1, t2, k = b, b if n == 2 else 0, n
    sm = x1 & same[p]
    free: list[int] | None = None
    while sm:
        u = sm & -sm
        sm -= u
        if x1 & reach[u.bit_length() - 1]:
            if free is None:
                free = [u]
            else:
                free.append(u)
        else:
            t1 |= u
            k += 1
            if x2 & u:
                t2 |= u
                k += 1
    combos = [(t1, t2, k)]
    if free is not None:
        for u in free:
            if x2 & u:
                combos = [c for a1, a2, k2 in combos
                          for c in ((a1, a2, k2), (a1 | u, a2, k2 + 1), (a1 | u, a2 | u, k2 + 2))]
            else:
                combos = [c for a1, a2, k2 in combos for c in ((a1, a2, k2), (a1 | u, a2, k2 + 1))]
    return combos


def _solve2(x1: int, x2: int, w: int, memo: dict[int, tuple[int, Any, Any]],
            t: tuple[Any, ...]) -> int:
    """:func:`_solve` of naturals some of which are held twice: ``x1`` the
    positions held, ``x2`` those held twice (no card three times).  A
    meld or a row of deadwood is ``(cards, cards twice)``, and a move
    takes one copy of each of its cards and the second copy of its cards
    twice; the roomy search's moves: a run takes one copy at each rank it
    spans, a set every copy of the lowest card and of each card of its
    rank that could start no run in reach, and of those that could, every
    number of copies (fewer first); the lowest card left unmelded leaves
    every copy.  Memo keys: ``(x1 << 52 | x2) << 1 | w``."""
    (p0, p1, p2, p3, p4, p5, p6), reach, near, same, pen = t
    key = (x1 << 52 | x2) << 1 | w
    s1 = s2 = 0
    add = 0
    if not w:
        # no wild left: the cards in no set of three (copies counted) and no
        # run of three are deadwood, every copy, settled at once
        tot = (x1 & _COLUMN) + (x1 >> 1 & _COLUMN) + (x1 >> 2 & _COLUMN) + (x1 >> 3 & _COLUMN) \
            + (x2 & _COLUMN) + (x2 >> 1 & _COLUMN) + (x2 >> 2 & _COLUMN) + (x2 >> 3 & _COLUMN)
        r = x1 & x1 >> 4 & x1 >> 8
        s1 = x1 & ~(r | r << 4 | r << 8 | ((tot + 5 * _COLUMN) >> 3 & _COLUMN) * 15)
        if s1:
            s2 = x2 & s1
            x1 -= s1
            x2 -= s2
            for m in (s1, s2):
                if m:
                    add += (p0[m & 255] + p1[m >> 8 & 255] + p2[m >> 16 & 255] + p3[m >> 24 & 255]
                            + p4[m >> 32 & 255] + p5[m >> 40 & 255] + p6[m >> 48])
            if not x1:
                memo[key] = (add, None, (s1, s2))
                return add
        b = x1 & -x1
        p = b.bit_length() - 1
    else:
        while True:  # a card held once without a partner near
            b = x1 & -x1
            p = b.bit_length() - 1
            if x2 & b or x1 & near[p]:
                break
            s1 |= b
            add += pen[p]
            x1 -= b
            if not x1:
                memo[key] = (add, None, (s1, 0))
                return add
    best = INF
    pick: Any = None
    # runs: one copy at each rank they span; a gap takes the wild
    delta, gaps, i = b, 0, 0
    q = p + 4
    while q < 52:
        u = 1 << q
        if x1 & u:
            delta |= u
            need = gaps if i else 1
            if need <= w:
                y1 = (x1 & ~delta) | (x2 & delta)
                if y1:
                    y2 = x2 & ~delta
                    got = memo.get((y1 << 52 | y2) << 1 | w - need)
                    v = _solve2(y1, y2, w - need, memo, t) if got is None else got[0]
                else:
                    v = 0
                if v <= best:
                    best = v
                    pick = (delta, 0, need, 11 - i)
        else:
            gaps += 1
            if gaps > w:
                break
        q += 4
        i += 1
    # sets: every copy of p and of each later card of its rank that could
    # start no run in reach; of those that could, 0, 1 or 2 copies
    n = 2 if x2 & b else 1
    combos = _twice_sets(x1, x2, b, p, n, same, reach)
    for t1, t2, k in combos:
        need = 3 - k if k < 3 else 0
        if need <= w:
            y1 = (x1 & ~t1) | (x2 & t1 & ~t2)
            if y1:
                y2 = x2 & ~t1
                got = memo.get((y1 << 52 | y2) << 1 | w - need)
                v = _solve2(y1, y2, w - need, memo, t) if got is None else got[0]
            else:
                v = 0
            if v <= best:
                best = v
                pick = (t1, t2, need, SET_ROOM)
    # every copy of p left unmelded (only when that costs less)
    cost = pen[p] * n
    if cost < best:
        y1 = x1 - b
        if y1:
            y2 = x2 & ~b
            got = memo.get((y1 << 52 | y2) << 1 | w)
            v = cost + (_solve2(y1, y2, w, memo, t) if got is None else got[0])
        else:
            v = cost
        if v < best:
            best = v
            pick = (b, b if n == 2 else 0)
    best += add
    memo[key] = (best, pick, (s1, s2) if s1 else 0)
    return best


def _solve2_wilds(x1: int, x2: int, w: int, memo: dict[int, tuple[int, Any, Any]],
                  memo2: dict[int, tuple[int, Any]], t: tuple[Any, ...], bonus: int) -> int:
    """:func:`_solve2` with ``w`` wilds left, two or more (``x1`` the
    positions held, ``x2`` those held twice), kept in ``memo2`` (keyed
    ``(x1 << 52 | x2) << 2 | w``: (its cost, its choice)); the states with
    one wild or none go to :func:`_solve2` and ``memo``.  As in
    :func:`_solve_wilds`, every card has a meld (its copies and two
    wilds), none is settled first, and an answer that ends with two wilds
    left or more saves ``bonus`` (the costliest isolated card rescued; the
    isolated cards' cost is counted by the caller).  ``t``: the tables for
    the wilds in hand."""
    _chunks, reach, _near, same, pen = t
    b = x1 & -x1
    p = b.bit_length() - 1
    best = INF
    pick: Any = None
    # runs: one copy at each rank they span; a gap takes a wild
    delta, gaps, i = b, 0, 0
    q = p + 4
    top = (x1 & _BELOW[p]).bit_length() - 1  # (the last card of the suit: no run goes past it)
    while q <= top:
        u = 1 << q
        if x1 & u:
            delta |= u
            need = gaps if i else 1
            y1 = (x1 & ~delta) | (x2 & delta)
            left = w - need
            if y1:
                y2 = x2 & ~delta
                if left < 2:
                    got = memo.get((y1 << 52 | y2) << 1 | left)
                    v = _solve2(y1, y2, left, memo, t) if got is None else got[0]
                else:
                    got2 = memo2.get((y1 << 52 | y2) << 2 | left)
                    v = _solve2_wilds(y1, y2, left, memo, memo2, t, bonus) if got2 is None else got2[0]
            else:
                v = 0 if left < 2 else bonus
            if v <= best:
                best = v
                pick = (delta, 0, need, 11 - i)
        else:
            gaps += 1
            if gaps > w:
                break
        q += 4
        i += 1
    # sets: every copy of p and of each later card of its rank that could
    # start no run in reach; of those that could, 0, 1 or 2 copies
    n = 2 if x2 & b else 1
    combos = _twice_sets(x1, x2, b, p, n, same, reach)
    for t1, t2, k in combos:
        need = 3 - k if k < 3 else 0
        y1 = (x1 & ~t1) | (x2 & t1 & ~t2)
        left = w - need
        if y1:
            y2 = x2 & ~t1
            if left < 2:
                got = memo.get((y1 << 52 | y2) << 1 | left)
                v = _solve2(y1, y2, left, memo, t) if got is None else got[0]
            else:
                got2 = memo2.get((y1 << 52 | y2) << 2 | left)
                v = _solve2_wilds(y1, y2, left, memo, memo2, t, bonus) if got2 is None else got2[0]
        else:
            v = 0 if left < 2 else bonus
        if v <= best:
            best = v
            pick = (t1, t2, need, SET_ROOM)
    # every copy of p left unmelded (only when that costs less)
    cost = pen[p] * n
    if cost + bonus < best:
        y1 = x1 - b
        if y1:
            y2 = x2 & ~b
            got2 = memo2.get((y1 << 52 | y2) << 2 | w)
            v = cost + (_solve2_wilds(y1, y2, w, memo, memo2, t, bonus) if got2 is None else got2[0])
        else:
            v = cost + bonus
        if v < best:
            best = v
            pick = (b, b if n == 2 else 0)
    memo2[(x1 << 52 | x2) << 2 | w] = (best, pick)
    return best


def _twice_wilds_search(x1: int, x2: int, n: int, key: tuple[int, ...], tables: tuple[Any, ...],
                        wild_only: bool
                        ) -> tuple[int, int, list[tuple[int, int, int, int]], tuple[int, int, int], int,
                                   tuple[list[int], int]] | None:
    """:func:`_twice_search` of a hand with cards held twice (``x2``;
    ``x1``: every card held) and ``n`` wilds, two or three (``key``: the
    hand's sorted card indexes): (its cost, n, the melds chosen as (cards,
    cards twice, wilds needed, room), the deadwood (cards, cards twice,
    every card held twice), the wilds left over, (the wilds' Card.index
    values, the Card.index of the isolated card two of them rescue or
    -1)), or None when a wild has no meld to join.  The isolated cards
    (held once, :func:`_isolated`) are kept out of the search, as in
    :func:`_wilds_search`."""
    bits, idx_at, t, drank = tables[0], tables[1], tables[7][n], tables[8]
    pen = t[4]
    twice = x2
    iso = _isolated(x1, n) & ~x2
    cost, first, bonus = _rescue(iso, pen, drank) if iso else (0, -1, 0)
    x1 -= iso
    memo: dict[int, tuple[int, Any, Any]] = {}
    memo2: dict[int, tuple[int, Any]] = {}
    cost += _solve2_wilds(x1, x2, n, memo, memo2, t, bonus)  # (x1 holds the cards held twice)
    plan = []
    d1 = d2 = 0
    w = n
    while x1:
        if w >= 2:
            pick = memo2[(x1 << 52 | x2) << 2 | w][1]
        else:
            _cost, pick, settled = memo[(x1 << 52 | x2) << 1 | w]
            if settled:
                s1, s2 = settled
                d1 |= s1
                d2 |= s2
                x1 -= s1
                x2 -= s2
                if pick is None:
                    break
        a1, a2 = pick[0], pick[1]
        if len(pick) == 2:
            d1 |= a1
            d2 |= a2
        else:
            plan.append(pick)
            w -= pick[2]
        x1, x2 = (x1 & ~a1) | (x2 & a1 & ~a2), x2 & ~a1
    rescued = -1
    if w >= 2 and first >= 0:  # two wilds left or more: they rescue the costliest isolated card
        rescued = idx_at[first]
        iso -= 1 << first
        w -= 2
    elif not _left_fits(plan, w, 3, wild_only):
        return None  # a wild has no meld to join: the search with room decides
    wilds = [i for i in key if bits[i] >> 52]
    return cost, n, plan, (d1 | iso, d2, twice), w, (wilds, rescued)


def _twice_search(x1: int, x2: int, wild: int, tables: tuple[Any, ...]
                  ) -> tuple[int, int, list[tuple[int, int, int, int]], tuple[int, int, int], int, int] | None:
    """:func:`_search` of a hand with cards held twice (``x2``; ``x1``: every
    card held) and at most one wild (``wild``: its Card.index, or -1): (its
    cost, the wilds in hand, the melds chosen as (cards, cards twice, wilds
    needed, room), the deadwood (cards, cards twice, and every card held
    twice), the wilds left over, the wild's Card.index), or None when the
    wild has no meld to join."""
    t1, t0 = tables[3], tables[4]
    w = 1 if wild >= 0 else 0
    d1 = d2 = cost = 0
    twice = x2
    if w:
        # the cards held once that are isolated (none of their rank, none
        # of the next two ranks of their suit either way): deadwood whatever
        # the rest does (a card held twice has a set with the wild)
        a, b, c, d = x1 & _COLUMN, x1 >> 1 & _COLUMN, x1 >> 2 & _COLUMN, x1 >> 3 & _COLUMN
        d1 = x1 & ~x2 & ~((x1 << 4 | x1 >> 4 | x1 << 8 | x1 >> 8)
                          | ((a & (b | c | d)) | (b & (c | d)) | (c & d)) * 15)
        if d1:
            ch = t1[0]
            cost = (ch[0][d1 & 255] + ch[1][d1 >> 8 & 255] + ch[2][d1 >> 16 & 255]
                    + ch[3][d1 >> 24 & 255] + ch[4][d1 >> 32 & 255] + ch[5][d1 >> 40 & 255]
                    + ch[6][d1 >> 48])
            x1 -= d1
    memo: dict[int, tuple[int, Any, Any]] = {}
    cost += _solve2(x1, x2, w, memo, t1 if w else t0)
    plan = []
    w0 = w
    while x1:
        _cost, pick, settled = memo[(x1 << 52 | x2) << 1 | w]
        if settled:
            s1, s2 = settled
            d1 |= s1
            d2 |= s2
            x1 -= s1
            x2 -= s2
            if pick is None:
                break
        if len(pick) == 2:
            a1, a2 = pick
            d1 |= a1
            d2 |= a2
            x1, x2 = (x1 & ~a1) | (x2 & a1 & ~a2), x2 & ~a1
        else:
            plan.append(pick)
            a1, a2 = pick[0], pick[1]
            x1, x2 = (x1 & ~a1) | (x2 & a1 & ~a2), x2 & ~a1
            w -= pick[2]
    if w and not any(pick[3] for pick in plan):
        return None  # the wild has no meld to join: the search with room decides
    return cost, w0, plan, (d1, d2, twice), w, wild


def _isolated(x: int, n: int) -> int:
    """The cards of the mask ``x`` (held once) that are isolated with ``n``
    wilds in hand, two or three: none of their rank, and none of the next
    n + 1 cards of their suit either way (:func:`rummy.search.tables.encode`)."""
    a, b, c, d = x & _COLUMN, x >> 1 & _COLUMN, x >> 2 & _COLUMN, x >> 3 & _COLUMN
    near = x << 4 | x >> 4 | x << 8 | x >> 8 | x << 12 | x >> 12
    if n > 2:
        near |= x << 16 | x >> 16
    return x & ~(near | ((a & (b | c | d)) | (b & (c | d)) | (c & d)) * 15)


def _rescue(iso: int, pen: list[int], drank: list[int]) -> tuple[int, int, int]:
    """(the isolated cards' cost, the position of the best discard among
    them, which two wilds left over rescue (-1 when there is none), what
    that rescue saves as a negative cost)."""
    cost = 0
    first = -1
    m = iso
    while m:
        b = m & -m
        m -= b
        q = b.bit_length() - 1
        cost += pen[q]
        if first < 0 or drank[q] < drank[first]:
            first = q
    return cost, first, -pen[first] if first >= 0 else 0


def _left_fits(plan: list[Any], w: int, room_at: int, wild_only: bool) -> bool:
    """Do ``w`` wilds left over fit (the roomy search's
    :meth:`rummy.search.roomy.Roomy.holds`, no card rescued): none left,
    three or more making a meld of their own (when melds may be all
    wilds), or room enough in the melds (``room_at``: where a plan
    entry holds its room)."""
    if not w or (w >= 3 and wild_only):
        return True
    room = 0
    for m in plan:
        room += m[room_at]
    return room >= w


def _wilds_search(x: int, n: int, key: tuple[int, ...], tables: tuple[Any, ...], wild_only: bool
                  ) -> tuple[int, int, list[Any], int, int, tuple[list[int], int]] | None:
    """:func:`_search` of distinct naturals ``x`` (a mask of positions) and
    ``n`` wilds, two or three (``key``: the hand's sorted card indexes;
    ``tables``: the rules' tables; ``wild_only``: may a meld be all
    wilds): (its cost, n, the melds chosen as (cards, wilds needed, room),
    the deadwood's bits, the wilds left over, (the wilds' Card.index
    values, the Card.index of the isolated card two of them rescue or
    -1)), or None when a wild has no meld to join.  The isolated cards
    (:func:`_isolated`) are the roomy search's: kept out of the search,
    and the costliest (the best discard first,
    :func:`rummy.search.tables.encode`) rescued by two wilds when the
    search leaves two or more unused."""
    bits, idx_at, t, drank = tables[0], tables[1], tables[7][n], tables[8]
    pen = t[4]
    iso = _isolated(x, n)
    cost, first, bonus = _rescue(iso, pen, drank) if iso else (0, -1, 0)
    x -= iso
    memo: dict[int, tuple[int, Any, int]] = {}
    memo2: dict[int, tuple[int, Any]] = {}
    cost += _solve_wilds(x, n, memo, memo2, t, bonus) if x else bonus
    plan = []
    dead = 0
    w = n
    while x:
        if w >= 2:
            pick = memo2[x << 2 | w][1]
        else:
            _cost, pick, settled = memo[x << 1 | w]
            if settled:
                dead |= settled
                x -= settled
                if pick is None:
                    break
        if type(pick) is int:
            dead |= pick
            x -= pick
        else:
            plan.append(pick)
            x -= pick[0]
            w -= pick[1]
    rescued = -1
    if w >= 2 and first >= 0:  # two wilds left or more: they rescue the costliest isolated card
        rescued = idx_at[first]
        iso -= 1 << first
        w -= 2
    elif not _left_fits(plan, w, 2, wild_only):
        return None  # a wild has no meld to join: the search with room decides
    wilds = [i for i in key if bits[i] >> 52]
    return cost, n, plan, dead | iso, w, (wilds, rescued)


def _indexes(key: tuple[int, ...], bits: list[int], m1: int, m2: int, twice: int,
             idx_at: list[int]) -> list[int]:
    """The Card.index of each position of ``m1``, and again of ``m2``, in
    index order (``key``: the hand's sorted card indexes, whose cards held
    twice are the positions of ``twice``): every copy of the cards of m1,
    less one of each card held twice that is in m1 and not m2."""
    out = list(compress(key, map(m1.__and__, map(bits.__getitem__, key))))
    once = twice & m1 & ~m2
    while once:
        b = once & -once
        once -= b
        out.remove(idx_at[b.bit_length() - 1])
    return out


def _cards(key: tuple[int, ...], bits: list[int], m: int) -> tuple[Card, ...]:
    """The cards of ``key`` (sorted card indexes) whose bits are in ``m``, in index order."""
    return tuple(map(CARD_OF.__getitem__, compress(key, map(m.__and__, map(bits.__getitem__, key)))))


def _search(key: tuple[int, ...], rules: MeldRules, most: int = 3
            ) -> tuple[int, int, list[Any], Any, int, Any, tuple[Any, ...]] | None:
    """The search of a hand (``key``: its sorted card indexes) that this
    module serves: (its cost, the wilds in hand (0 to 3), the melds
    chosen as (cards, wilds needed, room), the deadwood's bits, the wilds
    left over, the wild's Card.index (with more: see :func:`_wilds_search`),
    the rules' tables); None when the module does not serve the hand (or
    it holds more than ``most`` wilds), or when its answer leaves a wild
    without a meld to join."""
    t = _last[1] if _last[0] is rules else onewild_tables(rules)
    if t is None:
        return None
    tables: tuple[Any, ...] = t
    bits, t1, t0, wild_first, nat_pen = t[0], t[3], t[4], t[5], t[6]
    pen = t1[4]
    x = sum(map(bits.__getitem__, key))
    w = x >> 52
    cost = 0
    if w == _WILD and x.bit_count() == len(key):  # one wild, distinct naturals
        w = 1
        x -= _WILD << 52
        wild = min(key, key=wild_first.__getitem__)
        a, b2, c, d = x & _COLUMN, x >> 1 & _COLUMN, x >> 2 & _COLUMN, x >> 3 & _COLUMN
        if not (x & x >> 4 & x >> 8 or a & b2 & (c | d) or (a | b2) & c & d):
            # no meld of three naturals: one meld takes the wild, the rest
            # is deadwood (the isolated cards too: they have no partner)
            cost = sum(map(nat_pen.__getitem__, key))
            saved, pick = _one_meld(x, cost, t1)
            if pick is None:
                return None  # no meld for the wild to join
            return cost - saved, 1, [pick], x - pick[0], 0, wild, tables
        # the isolated cards (none of their rank, none of the next two ranks
        # of their suit either way): deadwood whatever the rest does
        dead = x & ~((x << 4 | x >> 4 | x << 8 | x >> 8)
                     | ((a & (b2 | c | d)) | (b2 & (c | d)) | (c & d)) * 15)
        if dead:
            ch = t1[0]
            cost = (ch[0][dead & 255] + ch[1][dead >> 8 & 255] + ch[2][dead >> 16 & 255]
                    + ch[3][dead >> 24 & 255] + ch[4][dead >> 32 & 255] + ch[5][dead >> 40 & 255]
                    + ch[6][dead >> 48])
            x -= dead
        t = t1
    elif w == 0:  # no wild: the cards held twice, when none of them is in a meld
        # the second copies: each index equal to the one before it (the key
        # is sorted); the sum of their bits has a carry when a card is there
        # three times (two equal bits), and x, every copy's bit, is the cards
        # held plus the second copies
        rest = key[1:]
        dead = sum(map(bits.__getitem__, compress(rest, map(eq, key, rest))))
        if not dead:
            return None  # one pack's worth of distinct cards: the fast path's
        if dead.bit_count() != len(key) - (x - dead).bit_count():
            return None  # three copies make a set
        x -= dead
        lone = dead
        while lone:
            b = lone & -lone
            lone -= b
            p = b.bit_length() - 1
            if x & _RANK4[p] != b or x >> 4 & x >> 8 & b or x << 4 & x >> 4 & b or x << 8 & x << 4 & b:
                # another card of its rank, or a row of three of its suit through it
                twice = _twice_search(x, dead, -1, tables)
                return None if twice is None else (*twice, tables)
            cost += 2 * pen[p]
        x -= dead
        if not x:
            return cost, 0, [], dead, 0, -1, tables
        t = t0
        wild = -1
    elif 2 <= x >> 60 <= most:  # two wilds or three (the top position's carry stays below them)
        n = x >> 60
        x -= n << 60
        rest = key[1:]
        x2 = sum(map(bits.__getitem__, compress(rest, map(eq, key, rest)))) & _POSITIONS
        x1 = x - x2  # (a wild held twice is not a natural card twice)
        if x2.bit_count() + x1.bit_count() != len(key) - n:
            return None  # three copies
        wild_only = rules.min_naturals == 0
        many = (_wilds_search(x1, n, key, tables, wild_only) if not x2
                else _twice_wilds_search(x1, x2, n, key, tables, wild_only))
        return None if many is None else (*many, tables)
    elif w >= 2 * _WILD:
        return None  # four wilds or more: the roomy search's
    else:  # a card twice (and the wild, or a card at the top position twice)
        wild = -1
        if x >> 60:  # (a wild's bit: the top position's carry stays below it)
            if x >> 61:
                return None  # two wilds
            wild = min(key, key=wild_first.__getitem__)
            x -= _WILD << 52
        rest = key[1:]
        x2 = sum(map(bits.__getitem__, compress(rest, map(eq, key, rest))))
        if not x2:
            return None
        x1 = x - x2
        if x2.bit_count() + x1.bit_count() != len(key) - (wild >= 0):
            return None  # three copies
        twice = _twice_search(x1, x2, wild, tables)
        return None if twice is None else (*twice, tables)
    memo: dict[int, tuple[int, Any, int]] = {}
    cost += _solve(x, w, memo, t)
    plan = []
    w0 = w
    while x:
        _cost, pick, settled = memo[x << 1 | w]
        if settled:
            dead |= settled
            x -= settled
            if pick is None:
                break
        if type(pick) is int:
            dead |= pick
            x -= pick
        else:
            plan.append(pick)
            x -= pick[0]
            w -= pick[1]
    if w and not any(room for _cards, _need, room in plan):
        return None  # the wild has no meld to join: the search with room decides
    return cost, w0, plan, dead, w, wild, tables


def onewild_arrangement(key: tuple[int, ...], rules: MeldRules, most: int = 3) -> Arrangement | None:
    """The roomy search's best arrangement of a hand of at most three wilds
    (at most ``most``) and no card three times (``key``: the hand's sorted
    card indexes), the tie rule among equal penalties (naturals in sets)
    not yet applied; None when this search does not serve the hand or its
    answer leaves a wild without a meld.

    >>> from rummy.cards import cards
    >>> hand = cards("5h 7h Jk Kc")
    >>> a = onewild_arrangement(tuple(sorted(c.index for c in hand)), MeldRules())
    >>> print(a)
    [5h Jk=6h 7h]; deadwood: Kc; penalty 10
    >>> onewild_arrangement((0, 1, 2), MeldRules()) is None   # no wild, no card twice
    True
    """
    got = _search(key, rules, most)
    if got is None:
        return None
    cost, w0, picks, dead, w, wild, t = got
    bits, high = t[0], t[2]
    plan = []
    if type(dead) is tuple:  # a card twice: (cards, cards twice)
        idx_at = t[1]
        twice = dead[2]
        for d, d2, need, room in picks:
            plan.append((_indexes(key, bits, d, d2, twice, idx_at), need, room))
        deadwood = tuple(map(CARD_OF.__getitem__, _indexes(key, bits, dead[0], dead[1], twice, idx_at)))
    else:
        for d, need, room in picks:
            plan.append((list(compress(key, map(d.__and__, map(bits.__getitem__, key)))), need, room))
        deadwood = _cards(key, bits, dead)
    if len(plan) > 1:
        plan.sort(key=plan_order_high if high else plan_order)
    melds = []
    if not w0:
        for nat, _need, _room in plan:
            melds.append(natural_meld(nat, [], rules))
        return make_arrangement(tuple(melds), deadwood, cost // PER_POINT)
    if w0 >= 2:
        return _wilds_arrangement(plan, deadwood, cost, w, wild, t[9], rules)
    wc: Card = CARD_OF[wild] if wild < 52 else JOKER
    given = False
    for nat, need, room in plan:
        if not given and (room > 0 if w else need):
            melds.append(natural_meld(nat, [wc], rules))
            given = True
        else:
            melds.append(natural_meld(nat, [], rules))
    return make_arrangement(tuple(melds), deadwood, cost // PER_POINT)


def _wilds_arrangement(plan: list[tuple[list[int], int, int]], deadwood: tuple[Card, ...], cost: int,
                       w: int, wild: tuple[list[int], int], pts: list[int], rules: MeldRules
                       ) -> Arrangement:
    """The arrangement of an answer with two wilds or three (``plan`` in
    its order, ``w`` wilds no meld needs, ``wild``: the wilds' Card.index
    values and the isolated card two of them rescue or -1), the wilds
    handed out as :meth:`rummy.search.general.Solver._assemble` hands
    them: the most expensive first (then in card order) to the melds that
    need them, in order (a rescued card's set last), then three or more
    left over as a set of their own when melds may be all wilds, else to
    the first melds with room."""
    idx, rescued = wild
    n = len(idx)
    order = sorted(idx, key=lambda i: (-pts[i], i))
    wilds: list[Card] = [CARD_OF[i] if i < 52 else JOKER for i in order]
    if rescued >= 0:
        plan.append(([rescued], 2, n))  # (a set's room: the wilds in hand)
    n_used = n - w
    used, rest = wilds[:n_used], wilds[n_used:]
    groups: list[list[Card]] = []
    for _nat, need, _room in plan:
        groups.append(used[:need])
        used = used[need:]
    extra = []
    if len(rest) >= 3 and rules.min_naturals == 0:
        extra.append(make_set([], rest, rules.wild_rank or 13))
    else:
        for (_nat, _need, room), grp in zip(plan, groups):
            if not rest:
                break
            take = min(room, len(rest))
            if take > 0:
                grp.extend(rest[:take])
                rest = rest[take:]
    melds = []
    for (nat, _need, _room), grp in zip(plan, groups):
        melds.append(natural_meld(nat, grp, rules))
    return make_arrangement(tuple(melds + extra), deadwood, cost // PER_POINT)


def onewild_penalty(key: tuple[int, ...], rules: MeldRules, most: int = 3) -> tuple[int, bool] | None:
    """(the penalty, whether no card is deadwood) of :func:`onewild_arrangement`'s
    answer, without building it; None when that is None.

    >>> onewild_penalty((4, 6, 12, 52), MeldRules())     # 5c 7c Kc Jk: [5c Jk 7c], Kc left
    (10, False)
    """
    got = _search(key, rules, most)
    if got is None:
        return None
    return got[0] // PER_POINT, got[0] < PER_CARD
