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
them.  A generator that can deal from several variants picks one with
:func:`pick_variant`: at random, unless the drill was asked for one
(``drill(rule, seed, variant=...)``: a lesson's practice deals from the variant
it teaches).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any

from rummy import rulebook
from rummy.cards import Card
from rummy.rulebook import three_hints
from rummy.teach import AnyOf, Question, as_number, same_answer, show_answer

__all__ = ["Drill", "Feedback", "Row", "Generator", "generator", "generators", "drill",
           "pick_variant", "asked_variant"]


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
    #: what judged the answer: "rule" (legal and right by the rules) or "play"
    #: (a legal choice weighed against the best play)
    judged: str = "rule"
    #: False for an answer that could not be read (it is not a try)
    counted: bool = True


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
    #: what the drill judges: "rule" (an answer legal and right by the rules) or
    #: "play" (the best play among legal choices, within ``margin``)
    judges: str = "rule"
    #: a play drill's choices, each with its expected points (lower is better)
    #: and the words that say so ("the stock leaves 51.4 on average")
    values: Callable[[], Mapping[str, tuple[float, str]]] | None = field(default=None, repr=False)
    #: a play drill's choices the rules forbid, each with the reason (judged "rule")
    illegal: Mapping[str, str] = field(default_factory=dict)
    #: how many points a legal choice may cost more than the best and still be right
    margin: float = 0.0
    #: why a wrong answer is wrong, computed from the position (None: not known)
    explain: Callable[[Any], str | None] | None = field(default=None, repr=False)
    #: what a number answer counts ("points", "cards", ...), None: read from the question
    unit: str | None = None

    def expected(self) -> Any:
        """The answers the engine judges right for this position (computed now);
        for a play drill every legal choice within ``margin`` of the best."""
        if self.values is None:
            return self.solve()
        vals = self.values()
        best = min(v for v, _w in vals.values())
        ok = [k for k, (v, _w) in vals.items() if v - best <= self.margin + 1e-9]
        return ok[0] if len(ok) == 1 else AnyOf(*ok)

    def _question(self, want: Any) -> Question:
        return Question(self.question, _with_synonyms(want), choices=self.choices,
                        unit=self.unit)

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

    def _cite(self, text: str) -> str:
        """``text`` naming the drill's own rule."""
        text = text.strip()
        return text if f"({self.rule})" in text else f"{text} ({self.rule})".strip()

    def _choice_of(self, given: Any, options: Any) -> str | None:
        """Which of ``options`` (choices or cards) ``given`` names, or None."""
        q = self._question(AnyOf(*options))
        given = q.resolve(given)
        for k in options:
            if same_answer(_with_synonyms(k), given, unit=q.unit or None):
                return str(k)
        return None

    def check(self, given: Any) -> Feedback:
        """Judge ``given``: right, or why it is wrong (computed from the position),
        naming the rule; an answer that can't be read is not counted.  A play
        drill (``judges == "play"``) takes every legal choice within ``margin``
        of the best and says so with the numbers; a legal weaker choice is
        judged as play (``judged == "play"``), never as a rule broken.

        >>> d = drill("M-1", seed=1)
        >>> d.check("maybe").rule, d.check("maybe").counted
        ('M-1', False)
        """
        want = self.expected()
        q = self._question(want)
        if self.answer_kind == "choice" and self.choices:
            readable = q.is_right(given) or self._choice_of(given, self.choices) is not None
        else:
            readable = q.readable(given)
        if not readable:
            how = {"card": "a card, such as 8♥ or 8h", "cards": "cards, such as 7♥ 8♥ 9♥",
                   "number": "a number, such as 12", "yes/no": "yes or no"}
            choose = f"one of: {', '.join(self.choices)}" if self.choices else "a word"
            return Feedback(False, self.rule, f"Answer with {how.get(self.answer_kind, choose)} "
                            f"({self.rule}).", counted=False)
        if self.values is not None:
            return self._check_play(given)
        if q.is_right(given):
            return Feedback(True, self.rule,
                            self._cite(f"Right: {self._shown(want)}. {self.why}"))
        note = ""
        if self.explain is not None:
            note = self.explain(q.resolve(given)) or ""
        if not note and self.mistake is not None and same_answer(self.mistake, q.resolve(given)):
            note = self.mistake_why
        if not note:
            note = q.check(given)[1].removeprefix("Not yet.").strip() if q.unit_clash(
                str(given)) else _off(given, want)
        return Feedback(False, self.rule, self._cite(f"Not quite. {note}"))

    def _check_play(self, given: Any) -> Feedback:
        assert self.values is not None
        vals = self.values()
        options = [*vals, *self.illegal]
        choice = self._choice_of(given, options)
        if choice is None:
            return Feedback(False, self.rule, f"Answer with one of: {', '.join(options)} "
                            f"({self.rule}).", counted=False)
        if choice in self.illegal:
            return Feedback(False, self.rule, self._cite(f"Not allowed: {self.illegal[choice]}"))
        best_key = min(vals, key=lambda k: vals[k][0])
        best = vals[best_key][0]
        gap = vals[choice][0] - best
        name = self._label
        if len(vals) <= 3:
            said = ", ".join(w for _v, w in vals.values())
            legal = "both are legal" if len(vals) == 2 else "all are legal"
        else:  # many choices (a discard): the one given and the best
            said = ", ".join(dict.fromkeys((vals[choice][1], vals[best_key][1])))
            legal = "any of these is legal"
        if gap <= 1e-9:
            others = [k for k in vals if k != choice]
            close = min((vals[k][0] - best for k in others), default=0.0)
            return Feedback(True, self.rule, self._cite(
                f"Right: {said}; {legal}, and {name(choice)} is the best"
                + (f", by {_num(close)}." if close > 1e-9 else ".") + f" {self.why}"),
                judged="play")
        if gap <= self.margin + 1e-9:
            return Feedback(True, self.rule, self._cite(
                f"Right: {said}; {legal}. {name(best_key).capitalize()} is better by {_num(gap)}, "
                f"within the margin of {_num(self.margin)} this question allows. {self.why}"),
                judged="play")
        return Feedback(False, self.rule, self._cite(
            f"Legal, but not the best play: {said}; {name(best_key)} is better by {_num(gap)}, "
            f"more than the margin of {_num(self.margin)}."), judged="play")

    def _label(self, key: str) -> str:
        """A play drill's choice as a sentence names it: "the stock", "the K♦"."""
        if self.answer_kind in ("card", "cards"):
            return f"the {show_answer(key)}"
        return {"take upcard": "taking the upcard", "pass": "passing"}.get(key, f"the {key}")

    def hints(self) -> tuple[str, str, str]:
        """Three hints in order: what to look at (a question), the rule that
        decides and why, then the answer."""
        return three_hints(self.rule, self.look, self.why, f"The answer: {self._shown(self.expected())}.")

    def _shown(self, want: Any) -> str:
        """An answer as the learner reads it: a named choice in its own words."""
        if self.answer_kind == "choice":
            return " or ".join(map(str, want.answers)) if isinstance(want, AnyOf) else str(want)
        return show_answer(want)


#: What a generator is: ``(rng, seed) -> Drill`` without its rule and seed.
Generator = Callable[[Random, int], Drill]
_GENERATORS: dict[str, Callable[..., Drill]] = {}


#: the variant the drill being made was asked for (``drill(..., variant=...)``), or None
_ASKED: ContextVar[str | None] = ContextVar("rummy_practice_variant", default=None)


def pick_variant(rng: Random, choices: Sequence[str]) -> str:
    """The variant a generator that can deal from any of ``choices`` deals from: the one
    the drill was asked for, when it is one of them, else one at random.  ``rng`` is
    drawn from the same either way, so the rest of the position is made as before.

    >>> pick_variant(Random(1), ("three_thirteen", "tre_tretton"))
    'three_thirteen'
    """
    picked: str = rng.choice(tuple(choices))
    asked = _ASKED.get()
    return asked if asked is not None and asked in choices else picked


def asked_variant(choices: Sequence[str]) -> str | None:
    """The variant the drill being made was asked for, if it is one of ``choices``
    (a generator that deals from one variant unless asked for another); draws
    nothing from the drill's random numbers.

    >>> asked_variant(("three_thirteen",)) is None   # no drill is being made
    True
    """
    asked = _ASKED.get()
    return asked if asked in choices else None


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
        def made(seed: int, variant: str | None = None) -> Drill:
            token = _ASKED.set(variant)
            try:
                made_ = make(Random(seed), seed)
            finally:
                _ASKED.reset(token)
            if variant is not None and made_.variant != variant:
                raise ValueError(f"the drill of {rule} deals from {_title(made_.variant)}, not from "
                                 f"{_title(variant)}: practise {rule} without a variant, or a rule "
                                 f"of {_title(variant)}")
            return replace(made_, rule=rule, seed=seed)

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


def drill(rule: str, seed: int = 0, *, variant: str | None = None) -> Drill:
    """A drill for ``rule`` (an id such as ``"TT-7"``) on the position made from ``seed``;
    with ``variant`` (a variant's name), dealt from that variant (a ValueError if the
    rule's drill can't deal from it).

    >>> drill("G-7", seed=2).kind
    'count'
    >>> drill("TT-5", seed=1, variant="tre_tretton").variant
    'tre_tretton'
    """
    gen = _GENERATORS.get(rule)
    if gen is None:
        raise ValueError(f"no drill for {rule!r}; rule ids are: {', '.join(sorted(_GENERATORS))}")
    if variant is None:
        return gen(seed)
    from rummy.variants import find_variant

    return gen(seed, find_variant(variant).name)


def _title(variant: str) -> str:
    from rummy.variants import find_variant

    return find_variant(variant).title


#: other words a learner uses for a drill's named choices ("pile" for the discard pile)
SYNONYMS: dict[str, tuple[str, ...]] = {
    "discard pile": ("pile", "the pile", "take it", "take the card", "take the discard",
                     "from the discard pile", "the discard", "take from the pile", "discards",
                     "draw from the discard pile", "draw from the pile", "take the top discard"),
    "stock": ("the stock", "draw from the stock", "from the stock", "stock pile",
              "draw a stock card", "the deck", "deck"),
    "pool": ("the pool", "draw from the pool", "from the pool", "middle", "the middle pool",
             "middle pool"),
    "right pile": ("right", "the right pile", "right neighbour", "right neighbour's pile",
                   "pile on my right", "the pile on my right", "from the right", "take it",
                   "my right neighbour's pile"),
    "own pile": ("own", "my own pile", "my pile", "mine", "my own"),
    "take upcard": ("take it", "take", "upcard", "take the upcard", "the upcard", "yes"),
    "pass": ("decline", "no", "don't take it", "leave it", "pass it"),
    "call match": ("match", "match!", "call", "call it"),
    "play on": ("play", "go on", "keep playing", "continue", "wait"),
    "one more cycle": ("one more draw and discard", "one more draw/discard", "another cycle",
                       "one more round of draw and discard", "play one more cycle",
                       "one more", "another draw and discard", "more cycle"),
    "scored now": ("scored", "score now", "scored at once", "it is scored now", "score it",
                   "the hand is scored now", "the hand is scored"),
    "knock": ("knock now", "i knock", "yes knock"),
    "discard": ("don't knock", "do not knock", "no knock", "play on", "not knock"),
    "nobody": ("no one", "no-one", "none", "no winner", "tie", "a tie", "nobody wins"),
}


def _with_synonyms(want: Any) -> Any:
    """``want`` with the other words for each named choice it holds."""
    if isinstance(want, AnyOf):
        return AnyOf(*(_with_synonyms(a) for a in want.answers))
    if isinstance(want, str) and want in SYNONYMS:
        return AnyOf(want, *SYNONYMS[want])
    return want


def _off(given: Any, want: Any) -> str:
    """A wrong answer said back: too high or too low for a number, else not the answer."""
    n, w = as_number(given), as_number(want) if not isinstance(want, (AnyOf, bool)) else None
    if n is not None and w is not None and n != w:
        return f"{given} is too {'high' if n > w else 'low'} for this position."
    return f"{given} is not the answer for this position."


def _num(x: float) -> str:
    """A number of points as feedback writes it: 2.6, 3 (no ".0")."""
    return f"{x:.1f}".removesuffix(".0")
