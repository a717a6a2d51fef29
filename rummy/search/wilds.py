"""How many wilds complete a hand's natural cards: the odds' question.

The odds module (:mod:`rummy.probability`) counts complete hands: a hand is
complete when its natural cards can all be melded with the wilds it holds.
:func:`min_wilds_counts` is the fewest wilds that meld every natural card,
:func:`covers_counts` whether a budget of wilds does (faster: the budget
bounds the search), both of naturals packed as counts, 4 bits per card at
``Card.index``; :func:`min_wilds` asks it of a hand.  These walk the moves
of the general search (:meth:`rummy.search.general.Solver.moves`) that meld
the lowest card, one kept solver per rule set.

:func:`meld_parts` is the other way to the same answers, kept apart on
purpose: it lists every meld's natural part directly (each set of a rank,
each run of a suit, with the wilds it needs), and the odds count complete
hands by putting such parts together.  It shares no code with the search,
so the odds have two exact counts that agree only if both are right
(``tests/test_probability.py`` compares the count built from these parts
with one that asks the search of every hand).

This module imports :mod:`rummy.cards`, :mod:`rummy.melds`,
:mod:`rummy.search.tables` and :mod:`rummy.search.general`.

>>> min_wilds("7h 8h Th Kc Kd")     # 9h fills the run, a third king the set
2
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from rummy.cards import Card
from rummy.melds import MeldRules
from rummy.search.general import Solver
from rummy.search.tables import DEFAULT_RULES, prepare, rule_tables

#: the kept solver of each rule set (its memo: which naturals a budget covers)
_COVER_SOLVERS: dict[MeldRules, Solver] = {}


def forget() -> None:
    """Forget the kept cover solvers and their memos (``clear_memo`` calls this)."""
    _COVER_SOLVERS.clear()
_COVER_MEMO_MAX = 2_000_000


def _cover_solver(rules: MeldRules) -> Solver:
    s = _COVER_SOLVERS.get(rules)
    if s is None:
        s = _COVER_SOLVERS[rules] = Solver(rules, [])
    elif len(s.ready_memo) > _COVER_MEMO_MAX:
        s.ready_memo.clear()
    return s


def _solver_counts(x: int, rules: MeldRules) -> int:
    """Counts packed by ``Card.index`` (position suit * 13 + rank - 1) as
    the search packs them (aces high: the ace after the king)."""
    index_pos = rule_tables(rules)[7]
    out = 0
    while x:
        i = ((x ^ (x - 1)).bit_length() - 1) >> 2
        n = (x >> (i << 2)) & 15
        x -= n << (i << 2)
        out += n << (index_pos[i] << 2)
    return out


def _covers(s: Solver, x: int, b: int) -> bool:
    """Can the naturals ``x`` (search packing) all be melded with ``b`` wilds
    or fewer?  The moves of :meth:`Solver.moves` that meld the lowest card."""
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
    rules = rules or DEFAULT_RULES
    return _covers(_cover_solver(rules), _solver_counts(x, rules), min(budget, 63))


def min_wilds_counts(x: int, rules: MeldRules | None = None) -> int:
    """The fewest wilds with which the natural cards ``x`` (packed as in
    :func:`covers_counts`) can all be melded.

    >>> from rummy.cards import cards
    >>> min_wilds_counts(sum(1 << (4 * c.index) for c in cards("Qh Kh Ah")), MeldRules(aces="high"))
    0
    """
    rules = rules or DEFAULT_RULES
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
    cards_, rules = prepare(hand, rules)
    x = 0
    for c in cards_:
        if not rules.is_wild(c):
            x += 1 << (4 * c.index)
    return min_wilds_counts(x, rules)


# ---------------------------------------------------------------------------
# The parts of melds that natural cards can fill


def meld_parts(rules: MeldRules, packs: int, most: int, budget: int
               ) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Every way a meld can hold natural cards from ``packs`` packs, with
    at most ``most`` naturals and ``budget`` wilds filling its gaps and
    making it up to three cards: (the naturals packed as counts, 4 bits
    per card at ``Card.index``; how many; the wilds it needs; their
    positions, each once), by lowest position, then size, then packing.
    The odds (:mod:`rummy.probability`) count complete hands exactly by
    putting such parts together.

    >>> parts = meld_parts(MeldRules(), 1, 3, 0)     # no wild: sets of 3, runs of 3
    >>> len(parts), parts[0]                          # 13 x 4 sets, 4 x 11 runs; Ac 2c 3c first
    (96, (273, 3, 0, (0, 1, 2)))
    """
    max_set = rules.max_set_size
    parts: dict[tuple[int, ...], tuple[int, int]] = {}
    for r in range(1, 14):
        if r == rules.wild_rank:
            continue
        top = min(most, max_set if max_set is not None else most)
        for counts in itertools.product(range(min(packs, top) + 1), repeat=4):
            k = sum(counts)
            if not 1 <= k <= top:
                continue
            cost = 3 - k if k < 3 else 0
            if cost > budget:
                continue
            posns = tuple(si * 13 + r - 1 for si in range(4) for _ in range(counts[si]))
            parts[posns] = (k, cost)
    readings = []
    if rules.aces in ("low", "low_or_high"):
        readings.append(list(range(1, 14)))
    if rules.aces in ("high", "low_or_high"):
        readings.append(list(range(2, 14)) + [1])
    wild = rules.wild_rank
    for line in readings:
        for si in range(4):
            for i, r0 in enumerate(line):
                if r0 == wild:
                    continue
                stack: list[tuple[int, int, tuple[int, ...]]] = [(i, 0, (r0,))]
                while stack:
                    last, gaps, ranks = stack.pop()
                    for j in range(last + 1, len(line)):
                        g2 = gaps + j - last - 1
                        if g2 > budget:
                            break
                        if line[j] == wild or len(ranks) + 1 > most:
                            continue
                        rs = ranks + (line[j],)
                        span = j - i + 1
                        cost = g2 + (3 - span if span < 3 else 0)
                        if cost <= budget:
                            posns = tuple(sorted(si * 13 + r - 1 for r in rs))
                            old = parts.get(posns)
                            if old is None or cost < old[1]:
                                parts[posns] = (len(rs), cost)
                        stack.append((j, g2, rs))
    out = []
    for posns, (k, cost) in parts.items():
        packed = sum(1 << (4 * pp) for pp in posns)
        out.append((packed, k, cost, tuple(sorted(set(posns)))))
    out.sort(key=lambda t: (t[3][0], t[1], t[0]))
    return out
