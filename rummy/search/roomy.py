"""The roomy search: the general search for rules whose sets take any number of wilds.

When sets take any number of wilds (no ``max_set_size``, every variant
with wilds), a wild left over always has a meld to join once one meld
exists, so the state drops the room and the moves shrink: a run from the
lowest card takes a natural at every rank it spans that has one (a wild
there instead frees the natural for nothing the wild can't do), so it is
chosen by its bottom card alone; a set takes every copy of the lowest
card and leaves out a card of another suit only for a run that card may
start.  An answer that leaves wilds without a meld (no meld at all, or
runs only with less room than wilds, which takes 14 cards or more) is
searched again with room counted (:class:`rummy.search.general.Solver`,
which :class:`Roomy` extends).  It finds the very arrangements of the
search with room, ties included (tests/test_search.py checks both).  Its
count vector holds the cards the other way round (position p in field
51 - p, ``rummy.search.tables.TOP``): the first remaining card is the top
field, which ``bit_length`` finds and one shift reads, and the numbers
shrink as the search goes on.

This module imports :mod:`rummy.cards`, :mod:`rummy.melds`,
:mod:`rummy.search.tables` and :mod:`rummy.search.general`.

>>> from rummy.cards import cards
>>> from rummy.search.tables import PER_POINT
>>> s = Roomy(MeldRules(wild_rank=5), list(cards("5s")))
>>> s.rsolve(s.encode(cards("7h 9h 4c 4d")), 1, 0) // PER_POINT     # 5s fills 8h: 4 + 4 left
8
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummy.cards import Card
from rummy.melds import Arrangement, MeldError, MeldRules
from rummy.search.general import MEMO_MAX, Solver
from rummy.search.tables import (
    FIELD_TOP,
    INF,
    PER_CARD,
    SET_ROOM,
    UNIT_TOP,
    WILD_DISCARD,
    flip,
    latest,
)

#: bit 0 of each field of a count vector; the low nibble of each byte; the
#: low byte of each 16-bit lane (a rank's four fields in the roomy search's
#: layout); 3 below the top bit of each lane; the top bit of each lane
_ONES = sum(1 << (4 * f) for f in range(52))
_BYTE_LOW = sum(15 << (8 * i) for i in range(26))
_LANE_LOW = sum(255 << (16 * i) for i in range(13))
_LANE_THREE = sum((0x8000 - 3) << (16 * i) for i in range(13))
_LANE_TOP = sum(0x8000 << (16 * i) for i in range(13))


def meldless(x: int, both: bool) -> int:
    """The fields (all four bits) of the cards of a count vector in the
    roomy search's layout (``TOP``) that share no meld of three naturals
    with the others: their rank holds fewer than three cards, and no
    three cards in a row of their suit take them in (``both``: an ace
    also plays low, under the two).  Such a card has no meld without a
    wild in any part of x either.

    >>> from rummy.cards import cards
    >>> from rummy.search.tables import rule_tables
    >>> rules = MeldRules()
    >>> x = sum(rule_tables(rules)[15][c.index] for c in cards("7h 8h 9h 9d 9c Ks Ks 4c"))
    >>> dead = x & meldless(x, False)
    >>> sorted(str(rule_tables(rules)[1][51 - f]) for f in range(52) if dead >> (f << 2) & 15)
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


#: the roomy search's meld lists per (rules, number of wilds): (melds of a
#: lowest card by the part of a count vector they depend on, the runs that
#: leave out a better discard, likewise)
MELD_LISTS: dict[tuple[MeldRules, int], tuple[dict[int, Any], dict[int, Any]]] = {}
_MELD_LISTS_MAX = 1 << 17  # meld lists kept per rules and number of wilds
_MELD_LISTS_KEYS = 16  # (rules, number of wilds) kept, the ones asked longest ago dropped


last_meld_lists: list[Any] = [None, -1, None]  # the rules and number of wilds asked last, their lists


def forget() -> None:
    """Forget the meld lists kept between hands (``clear_memo`` calls this)."""
    MELD_LISTS.clear()
    last_meld_lists[0] = last_meld_lists[2] = None


def meld_lists(rules: MeldRules, big: int) -> tuple[dict[int, Any], dict[int, Any]]:
    """The roomy search's meld lists for these rules and ``big`` wilds in
    hand (see :data:`MELD_LISTS`), shared by every solver of the two; the
    lists are emptied when they have grown too big."""
    last = last_meld_lists
    if last[0] is rules and last[1] == big:
        got = last[2]
    else:
        got = latest(MELD_LISTS, (rules, big), _MELD_LISTS_KEYS, lambda: ({}, {}))
        last[0], last[1], last[2] = rules, big, got
    if len(got[0]) > _MELD_LISTS_MAX or len(got[1]) > _MELD_LISTS_MAX:
        got[0].clear()
        got[1].clear()
    return got  # type: ignore[no-any-return]


class Roomy(Solver):
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
    counted (:class:`Solver`) when the check fails.

    Its count vectors hold position p in field 51 - p (``TOP``): the
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
        self.fallback: Solver | None = None
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
        self.rmelds, self.rextra = meld_lists(rules, self.big)
        self.rready_memo: tuple[list[dict[int, bool]], ...] | None = None  # made on first use
        self.rend_memo: dict[int, tuple[int, int, int]] = {}
        # the fields of the cards that share no meld of three naturals in
        # the hand searched last (:meth:`rsolve`), and whether an ace also
        # plays low
        self.dead = 0
        self.both = rules.aces == "low_or_high"
        (self.rlocal, self.seqs, self.sames, self.xcand, self.rbetter, self.lone, self.field_idx,
         self.field_pen, self.lane_pen) = reach

    def general(self, x: int) -> tuple[Solver, int]:
        """The search with room for these rules, wilds and isolated cards
        (made once, on first use), and the count vector ``x`` in its layout."""
        g = self.fallback
        if g is None:
            g = self.fallback = Solver(self.rules, self.wilds, None, self.iso)
        return g, flip(x)

    def trim(self) -> None:
        """:meth:`Solver.trim` for the roomy search's memos."""
        memo = self.rmemo
        if sum(map(len, memo[0])) + sum(map(len, memo[1] or ())) > MEMO_MAX:
            for memos in (*self.rmemo, *self.rchoice):
                for m in memos or ():
                    m.clear()
        ready = self.rready_memo
        if ready is not None and sum(map(len, ready[0])) + sum(map(len, ready[1])) > MEMO_MAX:
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
            best = (INF, 0, 0)
            if n_iso:
                k1 = min(n_iso - 1, w >> 1)
                best = (tail[k1 + 1] + self.drank[iso[0]], k1, 1)
            if w:
                k2 = min(n_iso, (w - 1) >> 1)
                cand = (tail[k2] + WILD_DISCARD, k2, 2)
                if cand < best:
                    best = cand
        self.rend_memo[key] = best
        return best

    def _rmelds_of(self, x: int, p: int, key: int) -> tuple[int, list[tuple[int, int, int]]]:
        """(fewest wilds any needs, the melds of the lowest card ``p`` of x
        as (cards removed, wilds needed, room)), found once per part of x
        they depend on (``key``: x & rlocal[p]), with every wild at hand."""
        big = self.big
        bit = UNIT_TOP[p]
        out: list[tuple[int, int, int]] = []
        low = INF
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
                out.append((dl, need, SET_ROOM))
        else:
            combos = [(dl, k)]
            for unit, c in free:
                combos = [(d2 + t * unit, k2 + t) for d2, k2 in combos for t in range(c + 1)]
            for dl, k in combos:
                need = 3 - k if k < 3 else 0
                if need <= big:
                    if need < low:
                        low = need
                    out.append((dl, need, SET_ROOM))
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
        self.dead = meldless(x, self.both)
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
                if lane_pen:  # their deadwood cost, in one product (see rummy.search.tables)
                    y = (xm & _BYTE_LOW) + (xm >> 4 & _BYTE_LOW)
                    y = (y & _LANE_LOW) + (y >> 8 & _LANE_LOW)  # each rank's count in its lane
                    settled = (y * lane_pen >> 192 & 0xFFFF) * PER_CARD
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
            x -= UNIT_TOP[p] if c == 1 else c << sh
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
        best = INF
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
            dl = UNIT_TOP[p] if n == 1 else n << sh
            add = pen[p] * n
        else:  # one copy thrown
            dl = UNIT_TOP[p]
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
            elif v == best and d and z & FIELD_TOP[p]:
                # a copy of p thrown, then a set of the other copies: the
                # search with room's set of p less one copy (its last
                # meld), the copy left then thrown; that wins the tie
                c = self.rchoice[0][w].get(z)
                if type(c) is tuple and c[2] == SET_ROOM:
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
        cards of its runs (the lone-card tests of :mod:`rummy.search.tables`) without a lookup.
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
        (:meth:`Solver.moves`), so that the last of equal cost is its
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
            delta, gaps = UNIT_TOP[p], 0
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
            if m[2] == SET_ROOM:  # the sets, after the runs (in their order)
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
            return self.rend(w, d)[0] < PER_CARD
        assert self.rready_memo is not None
        memo = self.rready_memo[d][w]
        got = memo.get(x)
        if got is not None:
            return got
        ok = False
        p = 51 - ((x.bit_length() - 1) >> 2)  # the lowest card: the top field
        if d:
            ok = self._rready(x - UNIT_TOP[p], w, 0)
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
            if r == SET_ROOM:
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
            other = WILD_DISCARD + self.rsolve(x, w - 1, 0)
            if other < cost:
                cost, d, w = other, 0, w - 1
                thrown = wild_list.pop(0)
        if cost >= INF:
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
            if x & FIELD_TOP[p]:
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
