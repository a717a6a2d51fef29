"""How many wilds complete a hand's natural cards: the odds' question.

The odds module (:mod:`rummy.probability`) counts complete hands: a hand is
complete when its natural cards can all be melded with the wilds it holds.
:func:`min_wilds_counts` is the fewest wilds that meld every natural card,
:func:`covers_counts` whether a budget of wilds does (faster: the budget
bounds the search), both of naturals packed as counts, 4 bits per card at
``Card.index``; :func:`min_wilds` asks it of a hand.  They walk the moves
of the general search (:meth:`rummy.search.general.Solver.moves`) that
meld the lowest card, one kept solver per rule set.

This module imports :mod:`rummy.cards`, :mod:`rummy.melds`,
:mod:`rummy.search.tables` and :mod:`rummy.search.general`.

>>> min_wilds("7h 8h Th Kc Kd")     # 9h fills the run, a third king the set
2
"""

from __future__ import annotations

from collections.abc import Iterable

from rummy.cards import Card
from rummy.melds import MeldRules
from rummy.search.general import Solver
from rummy.search.tables import DEFAULT_RULES, prepare, rule_tables

#: the kept solver of each rule set (its memo: which naturals a budget covers)
COVER_SOLVERS: dict[MeldRules, Solver] = {}
_COVER_MEMO_MAX = 2_000_000


def _cover_solver(rules: MeldRules) -> Solver:
    s = COVER_SOLVERS.get(rules)
    if s is None:
        s = COVER_SOLVERS[rules] = Solver(rules, [])
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
