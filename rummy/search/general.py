"""The general search: the exact lowest cost of a hand, with each meld's room for wilds counted.

The natural (non-wild) cards are a vector of counts (one 4-bit field per
card, :mod:`rummy.search.tables`), rank-major from the top rank down, so a
card's set partners sit next to it and the costly cards come first; the
wilds are a count.  The search takes the first remaining card and tries
every way to use it: as deadwood, as the discard (one discard owed), in a
set with other cards of its rank, or as the top natural card of a run in
its suit (wilds filling gaps).  A meld is its naturals plus the wilds it
needs and the room it has for more, so wilds are handed out at the end:
the cheapest are the ones left over.  With a discard owed, a card that no
remaining card could beat as a discard is thrown rather than kept (a wild
thrown is weighed once, at the top).

Ties go to the meld over leaving the card unmelded, and among melds to
the last one met: the runs (each as the cards it takes below the first
card: one taking fewer, or skipping a card another one takes, is met
first; so of two equal runs from a card the longer, or the one that
leaves out a lower card, wins), then the sets (fewer copies of the card
first).  A row of cards without partners is deadwood in one step.

Results are memoised on (counts, wilds left, spare room, discard owed),
and the meld moves are found once per part of the vector they depend on
(the card, the rest of its suit below it, its rank).  A :class:`Solver`
serves one rule set and one multiset of wilds;
:mod:`rummy.search.answers` keeps solvers between hands that share them.
Rules whose sets take any number of wilds are searched by
:mod:`rummy.search.roomy` (a subclass), which falls back on this search
when its answer leaves a wild without room.  The odds' wild counting
(:mod:`rummy.search.wilds`) walks this search's moves.

This module imports :mod:`rummy.cards`, :mod:`rummy.melds` and
:mod:`rummy.search.tables`.

>>> from rummy.cards import cards
>>> s = Solver(MeldRules(), [])
>>> s.solve(s.encode(cards("Qh Kh 3s 5c 5d 5s")), 0, 0) // PER_POINT
23
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rummy.cards import Card
from rummy.melds import (
    MAX_RUN,
    Arrangement,
    Meld,
    MeldError,
    MeldRules,
    make_arrangement,
    make_meld,
    make_run,
    make_set,
    run_fit,
)
from rummy.search.tables import (
    CARD_OF,
    INDEX,
    INF,
    PER_CARD,
    PER_POINT,
    UNIT,
    WILD_DISCARD,
    encode,
    rule_tables,
    solver_tables,
    wild_costs,
)

#: states one kept solver may remember (:meth:`Solver.trim`)
MEMO_MAX = 1 << 16


class Solver:
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
    top = False  # its count vectors' layout: position p in field p (True: in field 51 - p, ``TOP``)

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
        """The tables and the wilds' costs (``costs``: ``wild_costs(rules,
        wilds)``, when the caller has it), and the isolated positions
        (``iso``, best discard first; none when not given).  Returns the
        roomy search's run tables (:func:`rummy.search.tables.solver_tables`)."""
        if costs is None:
            costs = wild_costs(rules, wilds)
        (self.rules, self.pos_of, self.card_at, self.pen, self.drank, self.up, self.down,
         self.same, self.index_pos, self.local, self.better, self.idx_at, self.by_drank,
         self.max_set, self.wild_only, self.big, self.wild_cost, self.set_room, reach) = solver_tables(rules, costs)
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
        if len(self.memo) > MEMO_MAX:
            self.memo.clear()
            self.choice.clear()
            self.meld_memo.clear()
        if len(self.ready_memo) > MEMO_MAX:
            self.ready_memo.clear()

    def encode(self, naturals: Sequence[Card]) -> int:
        """The count vector of the naturals, less the isolated ones (kept in
        ``self.iso``, best discard first), in this search's layout."""
        x, iso = encode(self.rules, self.big, naturals, self.top)
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
        best = (INF, 0, 0)
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
                cand = (tail[k] + WILD_DISCARD + self._left(left - 1, min(room, left - 1)), k, 2)
                if cand < best:
                    best = cand
        self.end_memo[key] = best
        return best

    def solve(self, x: int, w: int, cap: int, d: int = 0) -> int:
        """The lowest cost (see :data:`rummy.search.tables.PER_POINT`) of
        the naturals ``x`` with ``w`` wilds, room for ``cap`` more wilds in
        the melds made so far, and a discard owed when ``d``; the choice
        made at each state is kept for :meth:`arrangement`."""
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
        best = INF
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
            return self.end(w, cap, d)[0] < PER_CARD
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
            delta -= UNIT[i]
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
        if cost >= INF or self.max_set is not None or not self.wild_only:
            return True
        if cost <= WILD_DISCARD + self.iso_tail[0]:
            return False  # less than the isolated cards alone
        if total is not None:
            return cost > WILD_DISCARD + total + self._left(w - 1, 0)
        total = self.iso_tail[0] + self._deadwood(x)
        return cost > WILD_DISCARD + total + self._left(w - 1, 0)

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
            other = WILD_DISCARD + self.solve(x, w - 1, 0, 0)
            if other < cost:
                cost, d, w = other, 0, w - 1
                thrown = wild_list.pop(0)
        if cost >= INF:
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
        pts = rule_tables(self.rules)[9]
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
                plan.sort(key=plan_order_high)
            else:
                plan.sort(key=plan_order)
        idx_at = self.idx_at
        iso = list(map(idx_at.__getitem__, spare)) if spare else []
        if how == 1:
            discard = CARD_OF[iso.pop(0)]
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
                made.append(natural_meld(nat, [], rules))
            return make_arrangement(tuple(made), tuple(map(CARD_OF.__getitem__, dead)), cost // PER_POINT), discard
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
            made.append(natural_meld(nat, wl, rules))
        melds = tuple(made + extra) if extra else tuple(made)
        deadwood = tuple(map(CARD_OF.__getitem__, dead))
        if rest:
            deadwood += tuple(sorted(rest, key=INDEX))
        return make_arrangement(melds, deadwood, cost // PER_POINT), discard


def plan_order(m: tuple[list[int], int, int]) -> tuple[int, bool, list[int]]:
    """Where a meld goes in an arrangement, from its plan entry (its
    naturals' card indexes in index order, ...): by its lowest card, then
    a run before a set (a set's cards share a rank, so its first and last
    do; a run's differ), then by all its cards."""
    idx = m[0]
    return idx[0], idx[0] % 13 == idx[-1] % 13, idx


#: a card index in run order when aces play high (the ace above the king)
_HIGH_ORDER = [i + 12 if i % 13 == 0 else i - 1 for i in range(52)]


def plan_order_high(m: tuple[list[int], int, int]) -> tuple[int, bool, list[int]]:
    """:func:`plan_order` when aces play high."""
    return plan_order((sorted([_HIGH_ORDER[i] for i in m[0]]), 0, 0))


def natural_meld(nat: list[int], wilds: list[Card], rules: MeldRules) -> Meld:
    """The meld of these naturals (card indexes in index order, at least
    one) and wilds: a set when they share a rank, else a run."""
    first, last = nat[0] % 13, nat[-1] % 13
    if not wilds and (first or rules.aces == "low" or first == last):
        # a set, or a run in index order (no ace that might play high): its
        # cards stand for themselves
        cards_ = tuple(map(CARD_OF.__getitem__, nat))
        return make_meld(cards_, "set" if first == last else "run", cards_)
    naturals = list(map(CARD_OF.__getitem__, nat))
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
        return make_meld(tuple(out), "run", tuple(CARD_OF[base + top - size + 1:base + top + 1]), tuple(flags))
    fit = run_fit(naturals, len(wilds), rules)
    assert fit is not None, (naturals, wilds)
    return make_run(naturals, wilds, fit[0])


def _build(kind: str, naturals: list[Card], wilds: list[Card], rules: MeldRules) -> Meld:
    naturals = sorted(naturals, key=INDEX)
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
