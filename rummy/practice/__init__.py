"""Practice drills: one generator per rule of ``docs/RULES.md`` (no Jupyter import).

A *drill* is a rule id, a position, a question, the answers the engine judges
right for that position, and feedback.  Positions are dealt from chosen cards
with the family's ``arrange()`` (never a lucky seed); each rule has a
*generator* that makes a new position from each seed, so a learner can
practise a rule again on a new hand.  The right answers are never stored with
the drill: :meth:`Drill.expected` asks the engine (legal moves, the best
arrangement, the score sheet, what happens after a move) each time.  Answers
are checked by meaning with the kit's one checker, :func:`rummy.teach.same_answer`.

Each drill says what it judges (:attr:`Drill.judges`): ``"rule"``, an answer
legal and right by the rules, or ``"play"``, the best of several legal choices
(which pile to draw from, which card to throw): the question states the
margin, every legal choice within it of the best expected points is right,
and the feedback gives the figures ("the stock leaves 51.4 on average, the
9♠ leaves 54").  The :class:`Feedback` says what judged each answer
(``judged``: a legal weaker choice is ``"play"``, never a rule broken) and
whether it counted (an answer that can't be read is not a try).

Questions fit the rule: a *move* (which card to throw, which pile to take,
knock or not, which cards to lay off), a *judgement* (is this a meld? can
you go out? is this allowed?), a *count* (what does Ben score? how many
cards are dealt in round 7?) or a *procedure* (who deals next, who is in the
box next hand).  Setup rules get question drills, move rules get move drills.

>>> d = drill("TT-1", seed=3)
>>> d.rule, d.kind
('TT-1', 'count')
>>> d.check(d.expected()).right
True
>>> f = d.check("1")
>>> f.right, f.rule
(False, 'TT-1')
>>> list(generators()) == rules_of()
True

The package: :mod:`~rummy.practice.registry` holds the values (:class:`Drill`,
:class:`Feedback`, :class:`Row`) and the registry of generators,
:mod:`~rummy.practice.deal` the dealing of positions every family uses, and
one module per family holds its generators: ``cards_melds`` (C-, M-),
``three_thirteen`` (TT-, TS-, TR-, TJ-), ``big_table`` (BT-) and ``gin``
(G-).  It may import the engine (cards, melds, search, variants, the games
and the bots), :mod:`rummy.teach` (the checker) and :mod:`rummy.rulebook`
(the rules catalogue); never Jupyter, :mod:`widgets` or :mod:`tableserver`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

# importing the modules of generators, one per family, registers their generators
from rummy.practice import big_table, cards_melds, gin, three_thirteen  # noqa: F401
from rummy.practice.registry import Drill, Feedback, Row, drill, generators
from rummy.rulebook import rules_of, three_hints

__all__ = [
    "Drill",
    "Feedback",
    "Row",
    "drill",
    "drills",
    "generators",
    "rules_of",
    "three_hints",
]

def drills(rules: Sequence[str] | str | None = None, seed: int = 0, *,
           variant: str | None = None) -> Iterator[Drill]:
    """Drills one after another: ``rules`` a list of rule ids, a variant's name
    (its rules) or None (every rule); each round over the rules uses new seeds.
    With ``variant``, each drill is dealt from that variant (see :func:`drill`).

    >>> it = drills("gin_three", seed=5)
    >>> next(it).rule, next(it).rule
    ('C-1', 'C-2')
    >>> {d.variant for d, _ in zip(drills(["TT-5", "TT-6"], variant="tre_tretton"), range(6))}
    {'tre_tretton'}
    """
    if rules is None or isinstance(rules, str) and rules not in generators():
        ids = rules_of(rules if isinstance(rules, str) else None)
    else:
        ids = [rules] if isinstance(rules, str) else list(rules)
    k = 0
    while True:
        for r in ids:
            yield drill(r, seed + k, variant=variant)
        k += 1
