"""The drills' values (:class:`Drill`, :class:`Feedback`, :class:`Row`) and
the registry of their generators, one per rule id.

A generator is registered with :func:`generator` under its rule id and makes
only the position and the question: it is called with a ``random.Random``
seeded with the drill's seed (and the seed itself, for the engine's own
deal), and the registry fills in the drill's ``rule`` and ``seed``::

    @generator("TT-1")
    def _(rng: Random, seed: int) -> Drill:
        r = rng.randint(1, 11)
        ...
        return Drill(kind="count", variant="three_thirteen", question=..., ...)

:func:`drill` makes the drill of a rule for a seed, :func:`generators` lists
them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any

from rummy import rulebook
from rummy.cards import Card
from rummy.rulebook import three_hints
from rummy.teach import AnyOf, as_card, as_cards, same_answer, show_answer

__all__ = ["Drill", "Feedback", "Row", "Generator", "generator", "generators", "drill"]


@dataclass(frozen=True, slots=True)
class Row:
    """Cards the position shows on the felt, under a label ("Your hand", "Discard pile")."""

    label: str
    cards: tuple[Card, ...]
    #: these cards are the learner's to click (an answer of cards)
    pick: bool = False


@dataclass(frozen=True, slots=True)
class Feedback:
    """How an answer was judged: right or not, the rule, the sentence to read."""

    right: bool
    rule: str
    text: str


@dataclass(eq=False, kw_only=True)
class Drill:
    """One practice question on one position (see :mod:`rummy.practice`).

    A generator makes it without ``rule`` and ``seed``: :func:`generator`
    fills them in.

    ``expected()`` asks the engine for the answers right here (an
    :class:`rummy.teach.AnyOf` when several are); ``check(given)`` judges an
    answer with :func:`rummy.teach.same_answer`; ``hints()`` gives three steps:
    a question that points at what to look at, the rule that decides and why,
    then the answer.
    """

    rule: str = ""
    kind: str
    variant: str
    seed: int = 0
    question: str
    facts: tuple[str, ...]
    rows: tuple[Row, ...]
    solve: Callable[[], Any] = field(repr=False)
    look: str = ""
    why: str = ""
    #: "card", "cards", "number", "yes/no" or "choice"
    answer_kind: str = "choice"
    choices: tuple[str, ...] = ()
    #: a typical wrong answer and why it is wrong (the rule's usual mistake)
    mistake: Any = None
    mistake_why: str = ""
    #: the engine the position lives in (arranged; a copy for each question)
    game: Any = field(default=None, repr=False)

    def expected(self) -> Any:
        """The answers the engine judges right for this position (computed now)."""
        return self.solve()

    def an_answer(self) -> Any:
        """One right answer, as a learner would give it (the first of several)."""
        want = self.expected()
        while isinstance(want, AnyOf):
            want = want.answers[0]
        return want

    @property
    def key(self) -> tuple[Any, ...]:
        """What makes two drills the same: the question and the position."""
        return (self.rule, self.question, self.facts,
                tuple((r.label, tuple(map(str, r.cards))) for r in self.rows))

    def _readable(self, given: Any) -> bool:
        kind = self.answer_kind
        if kind == "card":
            return as_card(given) is not None
        if kind == "cards":
            return as_cards(given) is not None
        return True

    def check(self, given: Any) -> Feedback:
        """Judge ``given``; wrong answers get feedback that names the rule.

        >>> d = drill("M-1", seed=1)
        >>> d.check("maybe").rule
        'M-1'
        """
        want = self.expected()
        if same_answer(want, given):
            return Feedback(True, self.rule, f"Right: {show_answer(want)}. {self.why}".strip())
        if not self._readable(given) or str(given).strip() == "":
            how = {"card": "a card, such as 8♥ or 8h", "cards": "cards, such as 7♥ 8♥ 9♥"}
            return Feedback(False, self.rule, f"Answer with {how.get(self.answer_kind, 'a word')} "
                            f"({self.rule}).")
        note = ""
        if self.mistake is not None and same_answer(self.mistake, given):
            note = " " + self.mistake_why
        return Feedback(False, self.rule, f"Not quite ({self.rule}).{note} Look again: "
                        f"{rulebook.rule(self.rule).text}.".replace("..", "."))

    def hints(self) -> tuple[str, str, str]:
        """Three hints in order: what to look at (a question), the rule that
        decides and why, then the answer."""
        return three_hints(self.rule, self.look, self.why, f"The answer: {show_answer(self.expected())}.")


#: What a generator is: ``(rng, seed) -> Drill`` without its rule and seed.
Generator = Callable[[Random, int], Drill]
_GENERATORS: dict[str, Callable[[int], Drill]] = {}


def generator(rule: str) -> Callable[[Generator], Generator]:
    """Register the decorated ``make(rng, seed)`` as the generator of ``rule``
    (an id of RULES.md): :func:`drill` calls it with ``random.Random(seed)``
    and the seed, and fills the drill's ``rule`` and ``seed``.

    >>> generator("XX-1")
    Traceback (most recent call last):
    ...
    rummy.rulebook.RuleError: no rule 'XX-1' in RULES.md; the rule ids are: C-1, ...
    """
    rulebook.rule(rule)
    if rule in _GENERATORS:
        raise ValueError(f"{rule} has a generator already")

    def register(make: Generator) -> Generator:
        def made(seed: int) -> Drill:
            return replace(make(Random(seed), seed), rule=rule, seed=seed)

        _GENERATORS[rule] = made
        return make
    return register


def generators() -> Mapping[str, Callable[[int], Drill]]:
    """Every rule id of docs/RULES.md with its generator (``seed -> Drill``), in
    RULES.md order.

    >>> list(generators())[:3]
    ['C-1', 'C-2', 'C-3']
    """
    return {r: _GENERATORS[r] for r in rulebook.RULE_IDS if r in _GENERATORS}


def drill(rule: str, seed: int = 0) -> Drill:
    """A drill for ``rule`` (an id such as ``"TT-7"``) on the position made from ``seed``.

    >>> drill("G-7", seed=2).kind
    'count'
    """
    gen = _GENERATORS.get(rule)
    if gen is None:
        raise ValueError(f"no drill for {rule!r}; rule ids are: {', '.join(sorted(_GENERATORS))}")
    return gen(seed)
