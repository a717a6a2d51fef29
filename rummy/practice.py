"""Practice drills: one generator per rule of ``docs/RULES.md`` (no Jupyter import).

A *drill* is a rule id, a position, a question, the answers the engine judges
right for that position, and feedback.  Positions are dealt from chosen cards
with the family's ``arrange()`` (never a lucky seed); each rule has a
*generator* that makes a new position from each seed, so a learner can
practise a rule again on a new hand.  The right answers are never stored with
the drill: :meth:`Drill.expected` asks the engine (legal moves, the best
arrangement, the score sheet, what happens after a move) each time.  Answers
are checked by meaning with the kit's one checker, :func:`rummy.teach.same_answer`.

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
>>> len(generators()) == len(rulebook.RULES)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummy import rulebook
from rummy.cards import JOKER, Card, deck, rank_name
from rummy.game import Action, GameError, new_game
from rummy.melds import MeldRules, is_meld
from rummy.rulebook import rules_of, three_hints
from rummy.search import best_arrangement, penalty
from rummy.teach import AnyOf, as_card, as_cards, same_answer, show_answer
from rummy.variants import find_variant

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

_NAMES = ("You", "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit")
_SUITS = "cdhs"


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


@dataclass(eq=False)
class Drill:
    """One practice question on one position (see the module's description).

    ``expected()`` asks the engine for the answers right here (an
    :class:`rummy.teach.AnyOf` when several are); ``check(given)`` judges an
    answer with :func:`rummy.teach.same_answer`; ``hints()`` gives three steps:
    a question that points at what to look at, the rule that decides and why,
    then the answer.
    """

    rule: str
    kind: str
    variant: str
    seed: int
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


# ---------------------------------------------------------------------------
# Dealing chosen positions


def _cards_text(cs: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in cs)


def _take(pool: Counter[Card], cs: Sequence[Card]) -> bool:
    need = Counter(cs)
    if any(pool[c] < k for c, k in need.items()):
        return False
    pool.subtract(need)
    return True


def _random_meld(rng: random.Random, pool: Counter[Card], size: int, *,
                 avoid: frozenset[int] = frozenset(), kind: str = "") -> list[Card] | None:
    """A set or a run of ``size`` natural cards out of ``pool`` (taken from it)."""
    for _ in range(60):
        k = kind or rng.choice(("set", "run"))
        if k == "set":
            size_ = min(size, 4)
            rank = rng.choice([r for r in range(1, 14) if r not in avoid])
            suits = rng.sample(_SUITS, size_)
            cs = [Card(rank, s) for s in suits]
        else:
            start = rng.randint(1, 14 - size)
            ranks = list(range(start, start + size))
            if any(r in avoid for r in ranks):
                continue
            s = rng.choice(_SUITS)
            cs = [Card(r, s) for r in ranks]
        if _take(pool, cs):
            return cs
    return None


def _loose(rng: random.Random, pool: Counter[Card], k: int, rules: MeldRules, *,
           avoid: frozenset[int] = frozenset(), spread: bool = True) -> list[Card]:
    """``k`` natural cards that make no meld together (each a different rank and,
    with ``spread``, ranks at least 3 apart within a suit)."""
    usable = set(range(1, 14)) - avoid - ({rules.wild_rank} if rules.wild_rank else set())
    per_rank = 1 if k < len(usable) else 2  # two of a rank make no set
    for _ in range(200):
        cs: list[Card] = []
        ranks: Counter[int] = Counter()
        for _ in range(400):
            if len(cs) == k:
                break
            c = Card(rng.randint(1, 13), rng.choice(_SUITS))
            if (ranks[c.rank] >= per_rank or c.rank in avoid or pool[c] - cs.count(c) < 1
                    or rules.is_wild(c) or c in cs and per_rank == 2):
                continue
            if spread and any(d.suit == c.suit and abs(d.rank - c.rank) < 3 for d in cs):
                continue
            cs.append(c)
            ranks[c.rank] += 1
        if len(cs) == k and not any(rules.is_wild(c) for c in cs):
            _take(pool, cs)
            return cs
    if not spread:  # any cards of the rest will do (the engine judges them all the same)
        rest = sorted((c for c in pool.elements() if not rules.is_wild(c) and c.rank not in avoid),
                      key=lambda c: c.index)
        cs = rng.sample(rest, k)
        _take(pool, cs)
        return cs
    raise RuntimeError("no loose cards found")  # pragma: no cover


def _shoe(packs: int, jokers: int = 0) -> Counter[Card]:
    return Counter(deck(packs, jokers))


def _tt_game(variant: str, players: int, seed: int, hands: Sequence[Sequence[Card]],
             discard: Sequence[Card], stock_top: Sequence[Card] = (), *, round: int,
             dealer: int | None = None, **options: Any) -> Any:
    g = new_game(variant, players=list(_NAMES[:players]) if not find_variant(variant).seats
                 else None, seed=seed, **options)
    g.arrange([list(h) for h in hands], list(discard), list(stock_top), round=round,
              dealer=players - 1 if dealer is None else dealer)
    return g


def _complete_hand(rng: random.Random, pool: Counter[Card], size: int, rules: MeldRules
                   ) -> list[Card]:
    """``size`` natural cards that meld completely (sets and runs of 3 to 5)."""
    avoid = frozenset({rules.wild_rank} if rules.wild_rank else set())
    for _ in range(100):
        saved = +pool
        parts: list[int] = []
        left = size
        while left:
            if left <= 5:
                parts.append(left)
                break
            p = rng.randint(3, min(5, left - 3))
            parts.append(p)
            left -= p
        out: list[Card] = []
        for p in parts:
            m = _random_meld(rng, pool, p, avoid=avoid, kind="run" if p > 4 else "")
            if m is None:
                break
            out += m
        if len(out) == size:
            return out
        pool.clear()
        pool.update(saved)
    raise RuntimeError("no complete hand found")  # pragma: no cover


def _choice_of(names: Sequence[str]) -> AnyOf | str:
    return names[0] if len(names) == 1 else AnyOf(*names)


def _cards_answer(cs: Sequence[Card]) -> Any:
    names = sorted({str(c) for c in cs})
    return _choice_of(names)


def _tt_rules(variant: str, r: int, **options: Any) -> MeldRules:
    return find_variant(variant).meld_rules(r, **options)


# ---------------------------------------------------------------------------
# Generators: one per rule id.  Each takes a seed and returns a Drill.

Generator = Callable[[int], Drill]
_GENERATORS: dict[str, Generator] = {}


def _gen(rule: str) -> Callable[[Generator], Generator]:
    def put(f: Generator) -> Generator:
        _GENERATORS[rule] = f
        return f
    return put


def _meld_question(rule: str, variant: str, seed: int, r: int, cs: Sequence[Card],
                   rules: MeldRules, *, look: str, why: str, facts: Sequence[str] = (),
                   options: Mapping[str, Any] | None = None) -> Drill:
    """A judgement: is ``cs`` one meld in round ``r`` of ``variant``?"""
    shown = tuple(cs)
    wild = rank_name(rules.wild_rank, plural=True) if rules.wild_rank else "nothing"
    want = lambda: is_meld(shown, rules)  # noqa: E731
    return Drill(
        rule=rule, kind="judgement", variant=variant, seed=seed,
        question=f"Is {_cards_text(shown)} one meld here?",
        facts=(f"{find_variant(variant).title}, round {r}: {wild} are wild.", *facts)
        if rules.wild_rank else (f"{find_variant(variant).title}: nothing is wild.", *facts),
        rows=(Row("The cards", shown),), solve=want, look=look, why=why,
        answer_kind="yes/no", choices=("yes", "no"), mistake=not is_meld(shown, rules),
        mistake_why="Check the cards against the rule once more.")


def _is_card(text: str) -> bool:
    try:
        Card.parse(text)
    except ValueError:
        return False
    return len(text) == 2


@_gen("C-1")
def _c1(seed: int) -> Drill:
    rng = random.Random(seed)
    players = rng.choice((3, 4)) if seed % 2 else rng.randint(5, 8)
    variant = "three_thirteen"
    g = new_game(variant, players=list(_NAMES[:players]), seed=seed)
    card = Card(rng.randint(1, 13), rng.choice(_SUITS))
    r = rng.randint(2, 11)
    pool = _shoe(g.packs)
    rules = _tt_rules(variant, r)
    hand = [card, card] + _loose(rng, pool - Counter([card, card]), r, rules,
                                 avoid=frozenset({card.rank}))
    rng.shuffle(hand)
    packs = g.packs
    return Drill(
        rule="C-1", kind="count", variant=variant, seed=seed,
        question=f"{players} players share this shoe. How many {card.symbol} does it hold?",
        facts=(f"Three Thirteen for {players} players, round {r}.",
               f"Your hand holds {card.symbol} twice."),
        rows=(Row("Your hand", tuple(hand)),),
        solve=lambda: Counter(deck(g.packs, g.jokers))[card],
        look=f"How many packs are mixed for {players} players, and how often is each card in a pack?",
        why=f"{players} players play with {packs} packs, and each pack holds every card once.",
        answer_kind="number", mistake=1,
        mistake_why="One pack holds each card once, but this game mixes several packs.")


@_gen("C-2")
def _c2(seed: int) -> Drill:
    rng = random.Random(seed)
    rules = MeldRules()  # gin: nothing wild, aces low
    pool = _shoe(1)
    k = rng.randint(3, 5)
    hand = _loose(rng, pool, k, rules)
    faces = sum(c.rank for c in hand)
    return Drill(
        rule="C-2", kind="count", variant="gin_three", seed=seed,
        question="None of these cards is in a meld. How many penalty points are they worth?",
        facts=("Nothing is wild, aces are low.",), rows=(Row("Deadwood", tuple(hand)),),
        solve=lambda: penalty(hand, rules),
        look="Which of these cards are pictures (J, Q, K), and what is an ace worth?",
        why="Add the points card by card.", answer_kind="number",
        mistake=faces if faces != penalty(hand, rules) else penalty(hand, rules) + 1,
        mistake_why="J, Q and K are worth 10 each, not 11, 12 and 13.")


@_gen("C-3")
def _c3(seed: int) -> Drill:
    rng = random.Random(seed)
    s = rng.choice(_SUITS)
    shapes = ((1, 2, 3), (12, 13, 1), (13, 1, 2), (12, 13, 1, 2), (1, 2, 3, 4), (11, 12, 13, 1),
              (1, 2, 3, 4, 5))
    ranks = shapes[seed % len(shapes)]
    cs = [Card(r, s) for r in ranks]
    rules = MeldRules()
    return _meld_question("C-3", "gin_three", seed, 1, cs, rules,
                          look="Where does the ace sit: below the 2, or above the king?",
                          why="With aces low the ace comes before the 2 only.")


@_gen("C-4")
def _c4(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r, jokers=2)
    pool = _shoe(2, 2)
    avoid = frozenset({r + 2})
    rank = rng.choice([x for x in range(1, 14) if x not in avoid])
    if rng.random() < 0.5:
        cs = [Card(rank, s) for s in rng.sample(_SUITS, 2)] + [JOKER]
    else:
        start = rng.randint(1, 11)
        s = rng.choice(_SUITS)
        cs = [Card(start, s), JOKER, Card(start + 2, s)]
        if any(c.rank in avoid for c in cs if c != JOKER):
            cs = [Card(rank, s) for s in rng.sample(_SUITS, 2)] + [JOKER]
    _take(pool, cs)
    return _meld_question("C-4", variant, seed, r, cs, rules,
                          look="What can the joker stand for?",
                          why="The joker fills the place the other two cards leave.")


@_gen("M-1")
def _m1(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r)
    rank = rng.choice([x for x in range(1, 14) if x != rules.wild_rank])
    shape = rng.choice(("set", "twin", "mixed", "pair"))
    suits = rng.sample(_SUITS, 3)
    if shape == "set":
        cs = [Card(rank, s) for s in suits]
    elif shape == "twin":
        cs = [Card(rank, suits[0]), Card(rank, suits[0]), Card(rank, suits[1])]
    elif shape == "mixed":
        other = rng.choice([x for x in range(1, 14) if x not in (rank, rules.wild_rank)])
        cs = [Card(rank, suits[0]), Card(rank, suits[1]), Card(other, suits[2])]
    else:
        cs = [Card(rank, suits[0]), Card(rank, suits[1])]
    return _meld_question("M-1", variant, seed, r, cs, rules,
                          facts=("Three players: two packs are mixed.",),
                          look="Are all the cards of one rank, and are there at least three?",
                          why="Suits don't matter in a set; identical cards from two packs are fine.")


@_gen("M-2")
def _m2(seed: int) -> Drill:
    rng = random.Random(seed)
    rules = MeldRules()
    s = rng.choice(_SUITS)
    start = rng.randint(2, 9)
    shape = rng.choice(("run", "gap", "suits", "twice", "long"))
    if shape == "run":
        cs = [Card(start + i, s) for i in range(3)]
    elif shape == "long":
        cs = [Card(start + i, s) for i in range(5)]
    elif shape == "gap":
        cs = [Card(start, s), Card(start + 1, s), Card(start + 3, s)]
    elif shape == "suits":
        t = rng.choice([x for x in _SUITS if x != s])
        cs = [Card(start, s), Card(start + 1, t), Card(start + 2, s)]
    else:
        cs = [Card(start, s), Card(start + 1, s), Card(start + 1, s), Card(start + 2, s)]
    return _meld_question("M-2", "gin_three", seed, 1, cs, rules,
                          look="One suit? Ranks one after the other, none twice?",
                          why="A run needs one suit, consecutive ranks and no rank twice.")


@_gen("M-3")
def _m3(seed: int) -> Drill:
    rng = random.Random(seed)
    rules = MeldRules()
    s = rng.choice(_SUITS)
    start = rng.randint(1, 10)
    end = start + 2
    others = [x for x in _SUITS if x != s]
    rng.shuffle(others)
    shape = rng.random() < 0.6
    run = [Card(start + i, s) for i in range(3)]
    if shape:  # the last card of the run would be needed in the set too
        extra = [Card(end, others[0]), Card(end, others[1])]
    else:  # enough for both
        extra = [Card(end, others[0]), Card(end, others[1]), Card(end, others[2])]
    hand = tuple(run + extra)
    return Drill(
        rule="M-3", kind="judgement", variant="gin_three", seed=seed,
        question="Can every one of these cards be in a meld at the same time?",
        facts=("Nothing is wild, aces are low.",), rows=(Row("Your cards", hand),),
        solve=lambda: best_arrangement(hand, rules).penalty == 0,
        look=f"Which meld would the {Card(end, s).symbol} go in?",
        why="Count the cards each meld needs; a card can't be in two of them.",
        answer_kind="yes/no", choices=("yes", "no"),
        mistake=best_arrangement(hand, rules).penalty != 0,
        mistake_why="A card used in one meld can't be used again in another.")


@_gen("M-4")
def _m4(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = rng.choice(("three_thirteen", "tre_tretton"))
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r)
    w = r + 2
    suits = list(_SUITS)
    rng.shuffle(suits)
    shape = rng.choice(("one", "two", "none"))
    nat_rank = rng.choice([x for x in range(1, 14) if x != w])
    if shape == "one":
        cs = [Card(nat_rank, suits[0]), Card(nat_rank, suits[1]), Card(w, suits[2])]
    elif shape == "two":
        cs = [Card(nat_rank, suits[0]), Card(w, suits[1]), Card(w, suits[2])]
    else:
        cs = [Card(w, suits[0]), Card(w, suits[1]), Card(w, suits[2])]
    return _meld_question("M-4", variant, seed, r, cs, rules,
                          look="Which of these cards are wild this round, and what can each stand for?",
                          why=("In Tre-tretton a meld needs a natural card." if variant == "tre_tretton"
                               else "In Three Thirteen even wilds alone make a meld."))


@_gen("M-4a")
def _m4a(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "tre_tretton"
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r)
    w = r + 2
    k = rng.choice((3, 3, 4))
    if rng.random() < 0.7:
        cs = [Card(w, s) for s in rng.sample(_SUITS, k)]
    elif w >= 2 and w <= 12:
        s = rng.choice(_SUITS)
        cs = [Card(w - 1, s), Card(w, s), Card(w + 1, s)]
    else:
        cs = [Card(w, s) for s in rng.sample(_SUITS, k)]
    return _meld_question("M-4a", variant, seed, r, cs, rules,
                          look=f"The cards are {rank_name(w, plural=True)}: are any of them natural?",
                          why="A card of the wild rank is wild even in a set of its own rank.")


@_gen("M-5")
def _m5(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r)
    w = r + 2
    s = rng.choice(_SUITS)
    ws = rng.choice(_SUITS)
    for _ in range(100):
        a = rng.randint(1, 13)
        gap = rng.choice((1, 2, 3, 4))
        b = a + gap
        if b <= 13 and w not in (a, b):
            break
    cs = [Card(a, s), Card(b, s), Card(w, ws)]
    rng.shuffle(cs)
    return _meld_question("M-5", variant, seed, r, cs, rules,
                          look="Put the two naturals in order: which place is left for the wild?",
                          why="The wild takes the place the naturals leave, anywhere in the run.")


@_gen("M-6")
def _m6(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    r = rng.randint(1, 6)
    rules = _tt_rules(variant, r)
    size = r + 2
    pool = _shoe(1)
    ana = _complete_hand(rng, pool, size, rules)
    you = _loose(rng, pool, size, rules)
    ben = _loose(rng, pool, size, rules)
    up = _loose(rng, pool, 1, rules)
    top = _loose(rng, pool, 1, rules)
    g = _tt_game(variant, 3, seed, [you, ana, ben], up, top, round=r, dealer=0)
    g.apply("draw stock")  # Ana
    g.apply(f"go out {top[0]}")
    g.apply("draw stock")  # Ben
    g.apply(str(g.legal_actions()[0]))
    g.apply("draw stock")  # you, last turn
    shown = dict(g.observe(0).shown).get(1, ())
    melds = [c for m in shown for c in m.cards]
    return Drill(
        rule="M-6", kind="judgement", variant=variant, seed=seed,
        question="Ana went out and her melds lie open. May you add one of your cards to them?",
        facts=(f"Round {r}: your last turn.",),
        rows=(Row("Ana's melds", tuple(melds)), Row("Your hand", tuple(g.observe(0).hand))),
        solve=lambda: any(a.verb == "lay off" for a in g.legal_actions(0)),
        look="In this family, whose melds can your cards go into?",
        why="Lay-offs belong to Gin (G-8); here only your own melds count.",
        answer_kind="yes/no", choices=("yes", "no"), mistake=True,
        mistake_why="Only Gin has lay-offs.", game=g)


@_gen("M-7")
def _m7(seed: int) -> Drill:
    rng = random.Random(seed)
    rules = MeldRules()
    s = rng.choice(_SUITS)
    start = rng.randint(1, 8)
    end = start + 2
    others = [x for x in _SUITS if x != s]
    rng.shuffle(others)
    # a run and two more of the run's end rank: the end card goes where it saves most
    hand = [Card(start + i, s) for i in range(3)] + [Card(end, others[0]), Card(end, others[1])]
    pool = _shoe(1) - Counter(hand)
    hand += _loose(rng, pool, rng.randint(1, 2), rules, avoid=frozenset(range(start - 2, end + 3)))
    hand_t = tuple(hand)
    naive = sum(min(c.rank, 10) for c in hand[3:])
    return Drill(
        rule="M-7", kind="count", variant="gin_three", seed=seed,
        question="What do these cards score, arranged as well as they can be?",
        facts=("Nothing is wild, aces are low.",), rows=(Row("Your hand", hand_t),),
        solve=lambda: best_arrangement(hand_t, rules).penalty,
        look=f"The {Card(end, s).symbol} fits two melds: which choice leaves fewer points?",
        why="Try each way to arrange the hand and keep the lowest.",
        answer_kind="number",
        mistake=naive if naive != best_arrangement(hand_t, rules).penalty else naive + 1,
        mistake_why="That is the run laid first; another arrangement leaves fewer points.")


@_gen("TT-1")
def _tt1(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = rng.choice(("three_thirteen", "tre_tretton", "three_thirteen_jokers"))
    r = 1 + seed % 11 if seed < 11 else rng.randint(1, 11)
    players = 4 if variant == "three_thirteen_jokers" else rng.randint(2, 4)
    g = new_game(variant, players=None if variant == "three_thirteen_jokers" else players, seed=seed)
    rules = _tt_rules(variant, r)
    pool = _shoe(g.packs, g.jokers)
    hands = [_loose(rng, pool, r + 2, rules, spread=False) for _ in range(players)]
    up = _loose(rng, pool, 1, rules)
    g.arrange(hands, up, round=r)
    return Drill(
        rule="TT-1", kind="count", variant=variant, seed=seed,
        question=f"How many cards is each player dealt in round {r}?",
        facts=(f"{find_variant(variant).title}, round {r} of 11.",), rows=(),
        solve=lambda: len(g.hands[0]),
        look="How does the number of cards grow from round 1, where each player gets 3?",
        why=f"Round {r}: {r} + 2.", answer_kind="number", mistake=r,
        mistake_why="That is the round's number; each player gets two more.", game=g)


@_gen("TT-2")
def _tt2(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = rng.choice(("three_thirteen", "tre_tretton"))
    r = [1, 5, 8, 9, 10, 11, 2, 3, 4, 6, 7][seed % 11] if seed < 22 else rng.randint(1, 11)
    g = new_game(variant, players=list(_NAMES[:2]), seed=seed)
    rules = _tt_rules(variant, r)
    pool = _shoe(1)
    hands = [_loose(rng, pool, r + 2, rules, spread=False) for _ in range(2)]
    g.arrange(hands, _loose(rng, pool, 1, rules), round=r)

    def solve() -> Any:
        w = g.rules.wild_rank
        short = {11: "J", 12: "Q", 13: "K"}.get(w, str(w))
        return AnyOf(rank_name(w, plural=True), rank_name(w), short)
    return Drill(
        rule="TT-2", kind="count", variant=variant, seed=seed,
        question=f"Which rank is wild in round {r}?",
        facts=(f"{find_variant(variant).title}, round {r}: {r + 2} cards each.",),
        rows=(Row("Your hand", tuple(g.hands[0]), pick=False),), solve=solve,
        look="How many cards does each player hold this round?",
        why=f"{r + 2} cards are dealt, so the rank {r + 2} is wild.",
        answer_kind="choice", mistake=rank_name(r if r > 1 else 13, plural=True),
        mistake_why="The wild rank is the number of cards dealt, not the round's number.",
        game=g)


@_gen("TT-3")
def _tt3(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    players = rng.randint(3, 5)
    names = list(_NAMES[1:players + 1])
    r = rng.randint(1, 11)
    dealer = rng.randrange(players)
    rules = _tt_rules(variant, r)
    g = new_game(variant, players=names, seed=seed)
    pool = _shoe(g.packs)
    hands = [_loose(rng, pool, r + 2, rules, spread=False) for _ in range(players)]
    g.arrange(hands, _loose(rng, pool, 1, rules), round=r, dealer=dealer)
    ask_next = rng.random() < 0.5
    order = ", ".join(names) + " sit in that order, clockwise (each next one on the left)"
    if ask_next:
        question = f"{names[dealer]} deals round {r}. Who deals round {r + 1}?" if r < 11 else \
            f"{names[dealer]} deals round {r}. Who plays first?"
    else:
        question = f"{names[dealer]} deals round {r}. Who plays first?"

    def solve() -> str:
        if ask_next and r < 11:
            return g.players[(g.dealer + 1) % g.n]
        return g.players[g.current_player]
    return Drill(
        rule="TT-3", kind="procedure", variant=variant, seed=seed, question=question,
        facts=(order + ".",), rows=(), solve=solve,
        look=f"Who sits on {names[dealer]}'s left?",
        why="The deal passes to the left, and the player left of the dealer starts.",
        answer_kind="choice", choices=tuple(names), mistake=names[dealer],
        mistake_why="The dealer does not play first, and does not deal twice.", game=g)


@_gen("TT-4")
def _tt4(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    players = rng.randint(2, 4)
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r)
    g = new_game(variant, players=list(_NAMES[:players]), seed=seed)
    pool = _shoe(g.packs)
    hands = [_loose(rng, pool, r + 2, rules, spread=False) for _ in range(players)]
    g.arrange(hands, _loose(rng, pool, 1, rules), round=r)
    return Drill(
        rule="TT-4", kind="count", variant=variant, seed=seed,
        question=f"{players} players, {g.packs} pack{'s' if g.packs > 1 else ''}, round {r}: "
                 "how many cards are left in the stock after the deal?",
        facts=(f"Each player holds {r + 2} cards.",),
        rows=(Row("Discard pile", (g.pile[-1],)),),
        solve=lambda: g.observe(0).stock_size,
        look="Which cards leave the shoe before the first turn: only the hands?",
        why="The hands, then one card turned up onto the discard pile; the rest is the stock.",
        answer_kind="number", mistake=52 * g.packs - players * (r + 2),
        mistake_why="The card turned up to start the discard pile is not in the stock.", game=g)


def _tt_draw_position(rng: random.Random, seed: int, variant: str, r: int, *,
                      helps: bool, **options: Any) -> Any:
    """Round ``r``, you play first: your hand and the open card, which either
    completes a meld (``helps``) or is a high card that helps nothing."""
    rules = _tt_rules(variant, r, **options)
    size = r + 2
    v = find_variant(variant)
    players = 4 if v.seats else 2
    g0 = new_game(variant, players=None if v.seats else list(_NAMES[:players]), seed=seed, **options)
    pool = _shoe(g0.packs, g0.jokers)
    avoid = frozenset({size})
    if helps:
        meld = _random_meld(rng, pool, 3, avoid=avoid)
        assert meld is not None
        open_card = meld.pop(rng.randrange(3))
        rest = _loose(rng, pool, size - 2, rules, avoid=avoid | {c.rank for c in meld} | {open_card.rank})
        you = meld + rest
    else:
        you = _loose(rng, pool, size, rules, avoid=avoid)
        open_card = None
        for _ in range(200):
            c = Card(rng.randint(10, 13), rng.choice(_SUITS))
            if pool[c] and c.rank not in avoid and c.rank not in {x.rank for x in you} and not any(
                    x.suit == c.suit and abs(x.rank - c.rank) < 3 for x in you):
                open_card = c
                break
        if open_card is None:
            open_card = next(c for c in sorted(pool.elements(), key=lambda c: -c.index)
                             if c.rank not in avoid and c.rank not in {x.rank for x in you})
        _take(pool, [open_card])
    others = [_loose(rng, pool, size, rules, spread=False) for _ in range(players - 1)]
    g0.arrange([you, *others], [open_card], round=r, dealer=players - 1)
    return g0


@_gen("TT-5")
def _tt5(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = rng.choice(("three_thirteen", "tre_tretton"))
    r = rng.randint(2, 6)
    g = _tt_draw_position(rng, seed, variant, r, helps=rng.random() < 0.5)
    top = g.pile[-1]
    hand = tuple(g.hands[0])

    def solve() -> str:
        rules = g.rules
        now = best_arrangement(hand, rules).penalty
        with_top = list(hand) + [top]
        after = min(penalty([c for j, c in enumerate(with_top) if j != i], rules)
                    for i in range(len(hand)))  # the taken card can't go back (TT-5)
        return "discard pile" if after < now else "stock"
    right = solve()
    return Drill(
        rule="TT-5", kind="move", variant=variant, seed=seed,
        question=f"Your turn. Do you draw from the stock or take the {top.symbol} from the "
                 "discard pile?",
        facts=(f"Round {r}: {rank_name(r + 2, plural=True)} are wild.",),
        rows=(Row("Your hand", hand), Row("Discard pile", (top,))), solve=solve,
        look=f"Does the {top.symbol} make a meld with your cards, and could you throw it back?",
        why="Take the open card only when it lowers what your hand costs; a card taken "
            "from the pile can't be thrown back this turn.",
        answer_kind="choice", choices=("stock", "discard pile"),
        mistake="stock" if right == "discard pile" else "discard pile",
        mistake_why=(f"The {top.symbol} completes a meld." if right == "discard pile" else
                     f"The {top.symbol} helps nothing, and you could not throw it back."),
        game=g)


def _tt_out_position(rng: random.Random, seed: int, variant: str, r: int, **options: Any
                     ) -> tuple[Any, Card]:
    """Round ``r``: you hold a complete hand less one card; the stock gives a card."""
    rules = _tt_rules(variant, r, **options)
    size = r + 2
    v = find_variant(variant)
    players = 4 if v.seats else 2
    g = new_game(variant, players=None if v.seats else list(_NAMES[:players]), seed=seed, **options)
    pool = _shoe(g.packs, g.jokers)
    full = _complete_hand(rng, pool, size, rules)
    extra = _loose(rng, pool, 1, rules, avoid=frozenset({size}))[0]
    drawn_i = rng.randrange(size)
    drawn = full.pop(drawn_i)
    you = full + [extra]
    others = [_loose(rng, pool, size, rules, spread=False) for _ in range(players - 1)]
    up = _loose(rng, pool, 1, rules)
    g.arrange([you, *others], up, [drawn], round=r, dealer=players - 1)
    g.apply("draw stock")
    return g, extra


@_gen("TT-6")
def _tt6(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = rng.choice(("three_thirteen", "tre_tretton"))
    r = rng.randint(1, 9)
    g, extra = _tt_out_position(rng, seed, variant, r)
    hand = tuple(g.hands[0])
    drawn = g.drawn
    outs = lambda: _cards_answer([a.card for a in g.legal_actions(0) if a.verb == "go out"])  # noqa: E731
    wrong = _not_out(g, hand)
    return Drill(
        rule="TT-6", kind="move", variant=variant, seed=seed,
        question="You drew a card. Which card do you throw to go out?",
        facts=(f"Round {r}: {rank_name(r + 2, plural=True)} are wild. You drew {drawn.symbol}.",),
        rows=(Row("Your hand", hand, pick=True),), solve=outs,
        look="Which of your cards are already in melds, and which one is left over?",
        why="Go out by throwing the one card that is in no meld.",
        answer_kind="card", mistake=str(wrong),
        mistake_why=f"Without the {wrong.symbol} the other cards don't all meld.", game=g)


@_gen("TT-7")
def _tt7(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    r = rng.randint(1, 8)
    rules = _tt_rules(variant, r)
    size = r + 2
    g = new_game(variant, players=list(_NAMES[:2]), seed=seed)
    pool = _shoe(1)
    ana = _complete_hand(rng, pool, size, rules)
    full = _complete_hand(rng, pool, size, rules)
    drawn = full.pop(rng.randrange(size))
    extra = _loose(rng, pool, 1, rules, avoid=frozenset({size}))[0]
    ana_top = _loose(rng, pool, 1, rules, avoid=frozenset({size}))
    up = _loose(rng, pool, 1, rules)
    # Ana (seat 1) plays first: draws, goes out; you then draw the card you need
    g.arrange([full + [extra], ana], up, ana_top + [drawn], round=r, dealer=0)
    g.apply("draw stock", player=1)
    g.apply(f"go out {ana_top[0]}", player=1)
    g.apply("draw stock", player=0)
    hand = tuple(g.hands[0])
    wrong = _not_out(g, hand)
    return Drill(
        rule="TT-7", kind="move", variant=variant, seed=seed,
        question="Ana went out. On your last turn you drew a card: which card do you throw?",
        facts=(f"Round {r}: {rank_name(size, plural=True)} are wild. You drew {drawn.symbol}.",),
        rows=(Row("Ana's melds", tuple(ana)), Row("Your hand", hand, pick=True)),
        solve=lambda: _cards_answer([a.card for a in g.legal_actions(0) if a.verb == "go out"]),
        look="Someone went out: is the round over for you, or can you still complete your hand?",
        why="Your last turn still counts: complete your hand and you score 0 too.",
        answer_kind="card", mistake=str(wrong),
        mistake_why=f"Throwing the {wrong.symbol} leaves cards out of your melds.", game=g)


def _not_out(g: Any, hand: Sequence[Card]) -> Card:
    """A card whose discard does not go out (a typical wrong answer)."""
    outs = {a.card for a in g.legal_actions(0) if a.verb == "go out"}
    return next((c for c in hand if c not in outs),
                next(c for c in deck(1) if c not in hand))


def _play_out_round(g: Any, bots: str = "greedy") -> None:
    from rummy.bots import make_bot

    start = g.number
    bot = make_bot(bots, seed=1)
    for _ in range(500):
        if g.is_over or g.number != start:
            return
        seat = g.to_act()[0]
        g.apply(bot.choose(g.observe(seat)), player=seat)


@_gen("TT-8")
def _tt8(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = rng.choice(("three_thirteen", "tre_tretton"))
    r = rng.randint(2, 6)
    rules = _tt_rules(variant, r)
    size = r + 2
    g = new_game(variant, players=["Ana", "Ben"], seed=seed)
    pool = _shoe(1)
    ana = _complete_hand(rng, pool, size, rules)
    meld = _random_meld(rng, pool, 3, avoid=frozenset({size}))
    assert meld is not None
    ben = meld + _loose(rng, pool, size - 3, rules, avoid=frozenset({size}))
    tops = _loose(rng, pool, 3, rules, avoid=frozenset({size}))
    up = _loose(rng, pool, 1, rules)
    g.arrange([ana, ben], up, tops, round=r, dealer=1)
    g.apply("draw stock")
    g.apply(f"go out {tops[0]}")
    before = len(g.round_scores)
    ben_final: list[Card] = []
    g.apply("draw stock")
    ben_final = list(g.hands[1])
    worst = max(ben_final, key=lambda c: (rules.penalty_of(c), c.index))
    acts = [a for a in g.legal_actions() if a.card == worst]
    g.apply(acts[0])
    assert len(g.round_scores) == before + 1
    last = dict((s, arr) for s, arr, _p in g.last_round)
    shown = tuple(last[1].cards)
    face = sum(rules.penalty_of(c) for c in shown)
    return Drill(
        rule="TT-8", kind="count", variant=variant, seed=seed,
        question="Ana went out; the round is over. What does Ben score?",
        facts=(f"Round {r}: {rank_name(size, plural=True)} are wild.",),
        rows=(Row("Ben's cards", shown),), solve=lambda: g.round_scores[-1][1],
        look="Which of Ben's cards can he meld, and which are left over?",
        why="Ben is scored on his best arrangement: only the unmelded cards count.",
        answer_kind="number", mistake=face if face != g.round_scores[-1][1] else 0,
        mistake_why="Cards in melds cost nothing; and only the player who went out scores 0.",
        game=g)


@_gen("TT-9")
def _tt9(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    players = 3
    g = new_game(variant, players=["Ana", "Ben", "Cleo"], seed=seed)
    rules = _tt_rules(variant, 11)
    pool = _shoe(g.packs)
    tie = rng.random() < 0.4
    hands = []
    for i in range(players):
        hands.append(_complete_hand(rng, pool, 13, rules) if (i == 0 or (tie and i == 1))
                     else _random_meld(rng, pool, 3, avoid=frozenset({13})) +  # type: ignore[operator]
                     _loose(rng, pool, 10, rules, avoid=frozenset({13}), spread=False))
    tops = _loose(rng, pool, 3, rules, avoid=frozenset({13}))
    g.arrange(hands, _loose(rng, pool, 1, rules), tops, round=11, dealer=2)
    _play_out_round(g)
    totals = ", ".join(f"{p} {s}" for p, s in zip(g.players, g.scores))

    def solve() -> Any:
        w = g.winner
        return g.players[w] if w is not None else AnyOf("nobody", "no one")
    worst = g.players[max(range(players), key=lambda s: g.scores[s])]
    return Drill(
        rule="TT-9", kind="procedure", variant=variant, seed=seed,
        question="Round 11 is over. Who wins the game?",
        facts=(f"The totals: {totals}.",), rows=(), solve=solve,
        look="Is a high total good or bad, and does anybody share the best total?",
        why="Penalty points add up: the lowest total wins, and a tie for lowest means nobody wins.",
        answer_kind="choice", choices=(*g.players, "nobody"), mistake=worst,
        mistake_why="Points are penalties: the fewest win.", game=g)


@_gen("TT-10")
def _tt10(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    r = rng.randint(6, 11)
    size = r + 2
    rules = _tt_rules(variant, r)
    g = new_game(variant, players=["You", "Ana"], seed=seed)
    pool = _shoe(1)
    hands = [_loose(rng, pool, size, rules, spread=False) for _ in range(2)]
    g.arrange(hands, _loose(rng, pool, 1, rules), round=r, dealer=1)
    # both draw from the stock and throw the card drawn until one card is left
    while g.observe(0).stock_size > 1:
        g.apply("draw stock")
        g.apply(f"discard {g.drawn}")
    pile = g.observe(0).pile_size
    stock = g.observe(0).stock_size

    def solve() -> int:
        h = g.copy()
        h.apply("draw stock")
        h.apply(f"discard {h.drawn}")
        return _refill(h)
    who = "You" if g.current_player == 0 else g.players[g.current_player]
    verb = ("draw it and discard" if who == "You" else "draws it and discards")
    return Drill(
        rule="TT-10", kind="count", variant=variant, seed=seed,
        question=f"The stock holds {stock} card. {who} {verb}; then the discard pile "
                 f"holds {pile + 1} cards. How many cards form the new stock?",
        facts=(f"Round {r}.",), rows=(Row("Discard pile, top", (g.pile[-1],)),), solve=solve,
        look="Which card of the discard pile stays where it is?",
        why="The whole pile but its top card is shuffled into the new stock.",
        answer_kind="number", mistake=pile + 1,
        mistake_why="The top card stays face up: it starts the new discard pile.", game=g)


def _refill(h: Any) -> int:
    """How many cards the engine shuffled into the new stock (read from its log)."""
    import re

    for line in reversed(h.log):
        m = re.search(r"shuffled into a new stock of (\d+) cards", line)
        if m:
            return int(m.group(1))
    raise AssertionError("the stock was not refilled")  # pragma: no cover


@_gen("TT-11")
def _tt11(seed: int) -> Drill:
    players = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12][seed % 11] if seed < 55 else 2 + seed % 11
    variant = "three_thirteen"
    return Drill(
        rule="TT-11", kind="count", variant=variant, seed=seed,
        question=f"How many packs does Three Thirteen use for {players} players?",
        facts=("In round 11 everyone holds 13 cards; one card starts the discard pile, and the "
               "stock must give each player at least one card.",), rows=(),
        solve=lambda: new_game(variant, players=players, seed=seed).packs,
        look=f"How many cards does round 11 need for {players} players?",
        why=f"{players} x 13 + 1 + {players} cards must fit.", answer_kind="number",
        mistake=1 if players > 2 else 2,
        mistake_why="Count the cards round 11 needs and divide by 52, rounding up.")


@_gen("TT-12")
def _tt12(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    g = new_game(variant, players=2, seed=seed)
    turns = rng.choice((120, 150, 180, 190, 195, 198, 199, 200, 201, 210, 250)) + seed % 7
    return Drill(
        rule="TT-12", kind="procedure", variant=variant, seed=seed,
        question=f"{turns} turns have been played this round (all players together) and nobody "
                 "has gone out. Is the round stopped and scored now?",
        facts=("A stall rule keeps a round from running forever.",), rows=(),
        solve=lambda: turns >= g.stall_turns,
        look="After how many turns does the stall rule end a round?",
        why="The cap is 200 turns for all players together.",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not (turns >= g.stall_turns),
        mistake_why="Compare with the 200-turn cap.")


@_gen("TS-1")
def _ts1(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    aces = rng.choice(("low", "low_or_high"))
    r = rng.randint(2, 9)
    rules = _tt_rules(variant, r, aces=aces)
    s = rng.choice(_SUITS)
    ranks = rng.choice(((12, 13, 1), (1, 2, 3), (13, 1, 2), (11, 12, 13, 1)))
    cs = [Card(x, s) for x in ranks]
    return _meld_question("TS-1", variant, seed, r, cs, rules,
                          facts=(f"The option aces is {aces!r}.",),
                          look="Where may an ace sit with this option: low, high, or both?",
                          why=("With low_or_high an ace may sit below the 2 or above the king, "
                               "never both at once." if aces == "low_or_high"
                               else "With aces low an ace comes before the 2 only."))


def _lone_wild(rng: random.Random, variant: str, **options: Any) -> tuple[int, MeldRules, list[Card]]:
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r, **options)
    w = r + 2
    # two naturals of different suits and far ranks: no meld with a wild
    for _ in range(200):
        a, b = Card(rng.randint(1, 13), rng.choice(_SUITS)), Card(rng.randint(1, 13), rng.choice(_SUITS))
        if a.suit != b.suit and abs(a.rank - b.rank) > 2 and w not in (a.rank, b.rank):
            return r, rules, [a, b, Card(w, rng.choice(_SUITS))]
    raise RuntimeError  # pragma: no cover


@_gen("TS-2")
def _ts2(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen"
    r, rules, cs = _lone_wild(rng, variant)
    wild = cs[-1]
    return Drill(
        rule="TS-2", kind="count", variant=variant, seed=seed,
        question=f"Round {r}: the {wild.symbol} is wild and ends the round unmelded. "
                 "What does it cost?",
        facts=(f"Three Thirteen, round {r}: {rank_name(r + 2, plural=True)} are wild.",),
        rows=(Row("The wild", (wild,)),), solve=lambda: rules.penalty_of(wild),
        look="Does a wild cost more than its face value in this variant?",
        why="In Three Thirteen a wild left unmelded costs its face value.",
        answer_kind="number", mistake=15, mistake_why="15 is the jokers variant's price (TJ-5).")


@_gen("TR-1")
def _tr1(seed: int) -> Drill:
    n = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10][seed % 10]

    def solve() -> bool:
        try:
            new_game("tre_tretton", players=n, seed=seed)
        except (GameError, ValueError):
            return False
        return True
    return Drill(
        rule="TR-1", kind="judgement", variant="tre_tretton", seed=seed,
        question=f"Can {n} player{'s' if n != 1 else ''} play Tre-tretton?", facts=(), rows=(),
        solve=solve, look="How many players is the Swedish game written for?",
        why="Tre-tretton is for 2 to 4 players.", answer_kind="yes/no", choices=("yes", "no"),
        mistake=not (2 <= n <= 4), mistake_why="Tre-tretton is played by 2, 3 or 4.")


@_gen("TR-2")
def _tr2(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "tre_tretton"
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r)
    w = r + 2
    nat = rng.choice([x for x in range(1, 14) if x != w])
    suits = rng.sample(_SUITS, 3)
    k = rng.choice((0, 1, 2))
    cs = [Card(nat, suits[i]) for i in range(k)] + [Card(w, suits[i]) for i in range(k, 3)]
    if k == 0 and rng.random() < 0.5:
        cs = [Card(w, suits[0]), Card(w, suits[1]), Card(w, suits[1])]
    return _meld_question("TR-2", variant, seed, r, cs, rules,
                          look="How many of these cards are natural (not wild)?",
                          why="A meld here needs at least one natural card.")


@_gen("TR-3")
def _tr3(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "tre_tretton"
    r, rules, cs = _lone_wild(rng, variant)
    hand = tuple(cs)
    return Drill(
        rule="TR-3", kind="count", variant=variant, seed=seed,
        question="These cards end the round unmelded. What do they cost?",
        facts=(f"Tre-tretton, round {r}: {rank_name(r + 2, plural=True)} are wild.",),
        rows=(Row("Your cards", hand),), solve=lambda: penalty(hand, rules),
        look=f"What does the wild {cs[-1].symbol} cost when it is left over?",
        why="A wild left unmelded costs its face value here.",
        answer_kind="number", mistake=penalty(hand[:2], rules),
        mistake_why="A wild left over is not free: it costs its face value.")


@_gen("TJ-1")
def _tj1(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    g = new_game(variant, seed=seed)
    r = rng.randint(1, 11)
    dealer = rng.randrange(4)
    rules = _tt_rules(variant, r)
    pool = _shoe(g.packs, g.jokers)
    hands = [_loose(rng, pool, r + 2, rules, spread=False) for _ in range(4)]
    g.arrange(hands, _loose(rng, pool, 1, rules), round=r, dealer=dealer)
    seats = ", ".join(g.players)
    return Drill(
        rule="TJ-1", kind="procedure", variant=variant, seed=seed,
        question=f"Round {r}: {g.players[dealer]} deals. Who plays first?",
        facts=(f"The seats, clockwise: {seats}.",), rows=(),
        solve=lambda: g.players[g.current_player],
        look=f"Who sits on {g.players[dealer]}'s left?",
        why="You face three computer players; play starts left of the dealer (TT-3).",
        answer_kind="choice", choices=tuple(g.players), mistake=g.players[dealer],
        mistake_why="The dealer plays last, not first.", game=g)


@_gen("TJ-2")
def _tj2(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    jokers = (0, 2, 4)[seed % 3]
    r = rng.randint(1, 11)
    g = new_game(variant, seed=seed, jokers=jokers)
    rules = _tt_rules(variant, r, jokers=jokers)
    pool = _shoe(g.packs, g.jokers)
    hands = [_loose(rng, pool, r + 2, rules, spread=False) for _ in range(4)]
    g.arrange(hands, _loose(rng, pool, 1, rules), round=r)
    return Drill(
        rule="TJ-2", kind="count", variant=variant, seed=seed,
        question=f"Option jokers = {jokers}, round {r}: how many cards are in the stock after the deal?",
        facts=(f"Four players, {r + 2} cards each, one card turned up.",), rows=(),
        solve=lambda: g.observe(0).stock_size,
        look="How many cards are in the shoe before anything is dealt?",
        why=f"104 cards plus {jokers} jokers, less the hands and the card turned up.",
        answer_kind="number", mistake=52 + jokers - 4 * (r + 2) - 1,
        mistake_why="This game uses two packs: 104 cards.", game=g)


@_gen("TJ-3")
def _tj3(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r, jokers=2)
    w = r + 2
    pool = _shoe(2, 2)
    k = r + 2
    hand = [JOKER, Card(w, rng.choice(_SUITS))]
    pool -= Counter(hand)
    hand += _loose(rng, pool, k - 2, rules, avoid=frozenset({w}), spread=False)
    rng.shuffle(hand)
    hand_t = tuple(hand)
    return Drill(
        rule="TJ-3", kind="judgement", variant=variant, seed=seed,
        question="Which of your cards are wild this round? Click or type them all.",
        facts=(f"Round {r}, 2 jokers in the game.",), rows=(Row("Your hand", hand_t, pick=True),),
        solve=lambda: " ".join(str(c) for c in hand_t if rules.is_wild(c)),
        look="Which rank is wild in this round, and what about jokers?",
        why=f"The {rank_name(w, plural=True)} of this round, and the joker in every round.",
        answer_kind="cards", mistake=" ".join(str(c) for c in hand_t if c.rank == w and c != JOKER),
        mistake_why="Jokers are wild in every round too.")


@_gen("TJ-4")
def _tj4(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    aces = rng.choice(("low", "high"))
    r = rng.randint(2, 9)
    rules = _tt_rules(variant, r, aces=aces)
    s = rng.choice(_SUITS)
    ranks = rng.choice(((12, 13, 1), (1, 2, 3), (13, 1, 2)))
    cs = [Card(x, s) for x in ranks]
    return _meld_question("TJ-4", variant, seed, r, cs, rules,
                          facts=(f"The option aces is {aces!r}.",),
                          look="With this option, is the ace below the 2 or above the king?",
                          why="Aces are either low or high, never both at once.")


@_gen("TJ-5")
def _tj5(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    r, rules, cs = _lone_wild(rng, variant, jokers=2)
    if rng.random() < 0.5:
        cs[-1] = JOKER
    hand = tuple(cs)
    face = sum(c.rank if c != JOKER else 0 for c in hand)
    return Drill(
        rule="TJ-5", kind="count", variant=variant, seed=seed,
        question="These cards end the round unmelded. What do they cost?",
        facts=(f"Round {r}: {rank_name(r + 2, plural=True)} and jokers are wild.",),
        rows=(Row("Your cards", hand),), solve=lambda: penalty(hand, rules),
        look="What does a wild left over cost in this variant: its face value?",
        why="A wild of the round's rank costs 15, a joker 20.",
        answer_kind="number", mistake=min(face, 10 * 3) if face != penalty(hand, rules) else 0,
        mistake_why="Wilds cost more here: 15, and a joker 20.")


@_gen("TJ-6")
def _tj6(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    r = rng.randint(1, 11)
    rules = _tt_rules(variant, r, jokers=4)
    w = r + 2
    j = rng.randint(0, 3)
    cs = [JOKER] * j + [Card(w, rng.choice(_SUITS)) for _ in range(3 - j + rng.randint(0, 1))]
    return _meld_question("TJ-6", variant, seed, r, cs, rules,
                          facts=("4 jokers in the game.",),
                          look="Does this variant ask for a natural card in a meld?",
                          why="Here wilds alone make a meld.")


@_gen("TJ-7")
def _tj7(seed: int) -> Drill:
    rng = random.Random(seed)
    variant = "three_thirteen_jokers"
    r = rng.randint(1, 8)
    g, extra = _tt_out_position(rng, seed, variant, r)
    hand = tuple(g.hands[0])
    wrong = _not_out(g, hand)
    return Drill(
        rule="TJ-7", kind="move", variant=variant, seed=seed,
        question="You drew a card. Which card do you discard?",
        facts=(f"Round {r}: {rank_name(r + 2, plural=True)} are wild. You drew {g.drawn.symbol}.",),
        rows=(Row("Your hand", hand, pick=True),),
        solve=lambda: _cards_answer([a.card for a in g.legal_actions(0) if a.verb == "go out"]),
        look="Is there a discard that leaves every other card melded?",
        why="A discard that leaves the whole hand melded goes out: here that is not optional.",
        answer_kind="card", mistake=str(wrong),
        mistake_why="Keeping your hand open is not allowed when a discard goes out.", game=g)


# -- the Big Table ----------------------------------------------------------


def _bt_game(players: int, seed: int, hands: Sequence[Sequence[Card]],
             piles: Sequence[Sequence[Card]], *, hand: int, pool: Sequence[Card] | None = None,
             pool_top: Sequence[Card] = ()) -> Any:
    g = new_game("big_table", players=list(_NAMES[:players]), seed=seed)
    g.arrange([list(h) for h in hands], [list(p) for p in piles],
              pool=None if pool is None else list(pool), pool_top=list(pool_top), hand=hand)
    return g


@_gen("BT-1")
def _bt1(seed: int) -> Drill:
    players = 2 + seed % 11
    return Drill(
        rule="BT-1", kind="count", variant="big_table", seed=seed,
        question=f"How many packs go into the middle pool for {players} players?",
        facts=("The Big Table, with a caller.",), rows=(),
        solve=lambda: new_game("big_table", players=players, seed=seed).packs,
        look="Does the number of packs depend on the players at the Big Table?",
        why="2 to 12 players always use 4 packs shuffled together.", answer_kind="number",
        mistake=2 if players <= 4 else 3,
        mistake_why="The Big Table always shuffles 4 packs together.")


@_gen("BT-2")
def _bt2(seed: int) -> Drill:
    rng = random.Random(seed)
    players = rng.randint(2, 12)
    h = rng.randint(1, 11)
    g = new_game("big_table", players=players, seed=seed)
    rules = find_variant("big_table").meld_rules(h)
    pool = _shoe(4)
    hands = [_loose(rng, pool, h + 2, rules, spread=False) for _ in range(players)]
    piles = [_loose(rng, pool, 1, rules) for _ in range(players)]
    g.arrange(hands, piles, hand=h)
    return Drill(
        rule="BT-2", kind="count", variant="big_table", seed=seed,
        question=f"Hand {h}, {players} players: how many cards are left in the pool after the deal?",
        facts=("4 packs: 208 cards.",), rows=(),
        solve=lambda: g.observe(0).pool_size,
        look="How many cards does each player take from the pool before the first draw?",
        why=f"Each player draws {h + 2} cards and one more for their own pile.",
        answer_kind="number", mistake=208 - players * (h + 2),
        mistake_why="Each player also lays one card face up on their own pile.", game=g)


@_gen("BT-3")
def _bt3(seed: int) -> Drill:
    rng = random.Random(seed)
    h = rng.randint(1, 6)
    size = h + 2
    rules = find_variant("big_table").meld_rules(h)
    pool = _shoe(4)
    helps = rng.random() < 0.5
    avoid = frozenset({size})
    if helps:
        meld = _random_meld(rng, pool, 3, avoid=avoid)
        assert meld is not None
        right_top = meld.pop(rng.randrange(3))
        you = meld + _loose(rng, pool, size - 2, rules, avoid=avoid | {c.rank for c in meld}
                            | {right_top.rank})
    else:
        you = _loose(rng, pool, size, rules, avoid=avoid)
        right_top = _loose(rng, pool, 1, rules, avoid=avoid | {c.rank for c in you})[0]
    own = _loose(rng, pool, 1, rules, avoid=avoid)
    other = _loose(rng, pool, size, rules, spread=False)
    # seat 0 (you) takes from the pile of seat 1's right neighbour: your right is seat 2 of 3
    third = _loose(rng, pool, size, rules, spread=False)
    g = _bt_game(3, seed, [you, other, third], [own, _loose(rng, pool, 1, rules), [right_top]], hand=h)
    hand = tuple(g.hands[0])

    def solve() -> str:
        now = best_arrangement(hand, g.rules).penalty
        with_top = list(hand) + [right_top]
        after = min(penalty([c for j, c in enumerate(with_top) if j != i], g.rules)
                    for i in range(len(with_top)))
        return "right pile" if after < now else "pool"
    return Drill(
        rule="BT-3", kind="move", variant="big_table", seed=seed,
        question="Caller: draw! Do you take from the pool, from the pile on your right "
                 f"({right_top.symbol}) or from your own pile ({own[0].symbol})?",
        facts=(f"Hand {h}: {rank_name(size, plural=True)} are wild.",),
        rows=(Row("Your hand", hand), Row("Pile on your right", (right_top,)),
              Row("Your own pile", tuple(own))), solve=solve,
        look=f"Does the {right_top.symbol} help your hand, and whose pile may you take from?",
        why="Take the right-hand pile's card only when it helps; your own pile is never yours "
            "to take.", answer_kind="choice", choices=("pool", "right pile", "own pile"),
        mistake="own pile", mistake_why="You can never take from your own pile.", game=g)


@_gen("BT-4")
def _bt4(seed: int) -> Drill:
    rng = random.Random(seed)
    h = rng.randint(2, 8)
    size = h + 2
    rules = find_variant("big_table").meld_rules(h)
    pool = _shoe(4)
    complete = rng.random() < 0.6
    you = _complete_hand(rng, pool, size, rules) if complete else (
        _random_meld(rng, pool, 3, avoid=frozenset({size}))  # type: ignore[operator]
        + _loose(rng, pool, size - 3, rules, avoid=frozenset({size})))
    other = _loose(rng, pool, size, rules)
    g = _bt_game(2, seed, [you, other], [_loose(rng, pool, 1, rules), _loose(rng, pool, 1, rules)],
                 hand=h)
    hand = tuple(g.hands[0])

    def solve() -> str:
        return "call match" if Action("call match") in g.legal_actions(0) else "play on"
    return Drill(
        rule="BT-4", kind="move", variant="big_table", seed=seed,
        question="The cards are dealt. Do you call match now, or play on?",
        facts=(f"Hand {h}: {rank_name(size, plural=True)} are wild.",),
        rows=(Row("Your hand", hand),), solve=solve,
        look="Is every one of your cards in a meld?",
        why="Only a hand melded whole may call match, and a hand complete after the deal "
            "may call at once.", answer_kind="choice", choices=("call match", "play on"),
        mistake="play on" if solve() == "call match" else "call match",
        mistake_why="Check every card: is each in a meld?", game=g)


@_gen("BT-5")
def _bt5(seed: int) -> Drill:
    rng = random.Random(seed)
    h = rng.randint(1, 8)
    size = h + 2
    players = rng.randint(2, 5)
    rules = find_variant("big_table").meld_rules(h)
    pool = _shoe(4)
    all_match = rng.random() < 0.3
    hands = [_complete_hand(rng, pool, size, rules)]
    for _ in range(players - 1):
        hands.append(_complete_hand(rng, pool, size, rules) if all_match
                     else _loose(rng, pool, size, rules, spread=False))
    piles = [_loose(rng, pool, 1, rules) for _ in range(players)]
    g = _bt_game(players, seed, hands, piles, hand=h)
    g.apply("call match", player=0)
    others = ", ".join(g.players[1:])

    def solve() -> str:
        k = _copy_game(g)
        for seat in list(k.to_act()):
            if Action("call match") in k.legal_actions(seat):
                k.apply("call match", player=seat)
        if k.hand_number != g.hand_number:
            return "scored now"
        return "one more cycle"
    return Drill(
        rule="BT-5", kind="procedure", variant="big_table", seed=seed,
        question=f"You called match after the deal. {others}: "
                 + ("every hand is melded whole too, and they all call match. " if all_match else "")
                 + "What happens next: one more draw and discard for the others, or is the hand "
                   "scored now?",
        facts=(f"Hand {h}, {players} players.",), rows=(Row("Your melds", tuple(hands[0])),),
        solve=solve, look="Has everybody matched, or are there players still to play?",
        why="After the first match the others get one more cycle; if everybody has matched "
            "there is nobody left to play.",
        answer_kind="choice", choices=("one more cycle", "scored now"),
        mistake="scored now" if solve() == "one more cycle" else "one more cycle",
        mistake_why="Think of who still has a cycle to play.", game=g)


@_gen("BT-6")
def _bt6(seed: int) -> Drill:
    rng = random.Random(seed)
    h = rng.randint(2, 6)
    size = h + 2
    rules = find_variant("big_table").meld_rules(h)
    pool = _shoe(4)
    you = _complete_hand(rng, pool, size, rules)
    ben = (_random_meld(rng, pool, 3, avoid=frozenset({size}))  # type: ignore[operator]
           + _loose(rng, pool, size - 3, rules, avoid=frozenset({size})))
    piles = [_loose(rng, pool, 1, rules, avoid=frozenset({size})) for _ in range(2)]
    top = _loose(rng, pool, 1, rules, avoid=frozenset({size}))
    g = _bt_game(2, seed, [you, ben], piles, hand=h, pool_top=top)
    g.apply("call match", player=0)
    g.apply("draw pool", player=1)
    hand = g.hands[1]
    worst = max(hand, key=lambda c: (rules.penalty_of(c), c.index))
    g.apply(f"discard {worst}", player=1)
    reveal = dict((s, arr) for s, arr, _p in g.last_hand)
    shown = tuple(reveal[1].cards)
    face = sum(rules.penalty_of(c) for c in shown)
    return Drill(
        rule="BT-6", kind="count", variant="big_table", seed=seed,
        question="You matched first; Ana played her last cycle. What does Ana score?",
        facts=(f"Hand {h}: {rank_name(size, plural=True)} are wild (at face value).",),
        rows=(Row("Ana's cards", shown),), solve=lambda: g.rows[-1][1],
        look="Which of Ana's cards can she meld?",
        why="Ana is scored on her best arrangement, wilds at face value.",
        answer_kind="number", mistake=face if face != g.rows[-1][1] else 0,
        mistake_why="Melded cards cost nothing; the rest count.", game=g)


@_gen("BT-7")
def _bt7(seed: int) -> Drill:
    rng = random.Random(seed)
    players = 3
    rules = find_variant("big_table").meld_rules(11)
    pool = _shoe(4)
    tie = rng.random() < 0.4
    hands = [_complete_hand(rng, pool, 13, rules)]
    hands.append(_complete_hand(rng, pool, 13, rules) if tie
                 else _loose(rng, pool, 13, rules, avoid=frozenset({13}), spread=False))
    hands.append(_loose(rng, pool, 13, rules, avoid=frozenset({13}), spread=False))
    piles = [_loose(rng, pool, 1, rules) for _ in range(players)]
    g = _bt_game(players, seed, hands, piles, hand=11)
    from rummy.bots import make_bot

    bot = make_bot("greedy", seed=1)
    for _ in range(400):
        if g.is_over:
            break
        seat = g.to_act()[0]
        g.apply(bot.choose(g.observe(seat)), player=seat)
    totals = ", ".join(f"{p} {s}" for p, s in zip(g.players, g.scores))

    def solve() -> Any:
        w = g.winner
        return g.players[w] if w is not None else AnyOf("nobody", "no one")
    worst = g.players[max(range(players), key=lambda s: g.scores[s])]
    return Drill(
        rule="BT-7", kind="procedure", variant="big_table", seed=seed,
        question="Hand 11 is scored. Who wins?", facts=(f"The totals: {totals}.",), rows=(),
        solve=solve, look="Is a high total good or bad, and is the best total shared?",
        why="The lowest total wins; a tie for lowest means nobody wins.",
        answer_kind="choice", choices=(*g.players, "nobody"), mistake=worst,
        mistake_why="Points are penalties: the fewest win.", game=g)


@_gen("BT-8")
def _bt8(seed: int) -> Drill:
    rng = random.Random(seed)
    players = rng.randint(2, 5)
    h = rng.randint(1, 5)
    size = h + 2
    rules = find_variant("big_table").meld_rules(h)
    pool = _shoe(4)
    hands = [_loose(rng, pool, size, rules, spread=False) for _ in range(players)]
    piles = [_loose(rng, pool, rng.randint(1, 5), rules, spread=False) for _ in range(players)]
    left = rng.randint(0, players - 1)
    tiny = _loose(rng, pool, left, rules, spread=False) if left else []
    g = _bt_game(players, seed, hands, piles, hand=h, pool=tiny)
    sizes = [len(p) for p in g.piles]

    def solve() -> int:
        import copy as _copy
        import re

        k = _copy.deepcopy(g)
        for seat in range(players):
            k.apply("draw pool", player=seat)
        for line in reversed(k.log):
            m = re.search(r"shuffles (\d+) cards", line)
            if m:
                return int(m.group(1))
        raise AssertionError("no reshuffle")  # pragma: no cover
    return Drill(
        rule="BT-8", kind="count", variant="big_table", seed=seed,
        question=f"The pool holds {left} card{'s' if left != 1 else ''} and all {players} players "
                 "draw from it. How many cards does the caller shuffle into the new pool?",
        facts=("The piles hold " + ", ".join(f"{g.players[i]} {n}" for i, n in enumerate(sizes))
               + " cards.",),
        rows=tuple(Row(f"{g.players[i]}'s pile, top", (g.piles[i][-1],)) for i in range(players)),
        solve=solve, look="Which card of each pile stays where it is?",
        why="Every pile but its top card goes into the new pool.", answer_kind="number",
        mistake=sum(sizes), mistake_why="The top card of each pile stays.", game=g)


# -- Gin ---------------------------------------------------------------------

_GIN = MeldRules(max_set_size=4)


def _gin(seed: int, box: Sequence[Card], captain: Sequence[Card], up: Card,
         stock_top: Sequence[Card] = (), roles: Sequence[int] = (0, 1, 2), **options: Any) -> Any:
    g = new_game("gin_three", players=["Ana", "Ben", "Cleo"], seed=seed, **options)
    g.arrange(list(box), list(captain), up, list(stock_top), roles=list(roles))
    return g


def _gin_hands(rng: random.Random, *, melded: int, loose: int, pool: Counter[Card]) -> list[Card]:
    out = _complete_hand(rng, pool, melded, _GIN) if melded else []
    return out + (_loose(rng, pool, loose, _GIN) if loose else [])


def _gin_knock_game(rng: random.Random, seed: int, *, undercut: bool | None = None,
                    layoff: bool = False) -> Any:
    """The box (Ana) knocks on its first turn with a low card of deadwood; the
    captain (Ben) defends: with a card that lays off (``layoff``), with a hand
    that undercuts (``undercut``), or with loose cards."""
    for k in range(300):
        pool = _shoe(1)
        box = _complete_hand(rng, pool, 9, _GIN)
        last = _loose(rng, pool, 1, _GIN, avoid=frozenset(range(4, 14)))
        if undercut:
            cap = _complete_hand(rng, pool, 9, _GIN)
            cap += _loose(rng, pool, 1, _GIN, avoid=frozenset(range(last[0].rank + 1, 14)))
        elif layoff:
            targets = []
            for m in best_arrangement(box, _GIN).melds:
                ranks = sorted(c.rank for c in m.cards)
                if len(set(ranks)) == 1 and len(m.cards) == 3:
                    targets += [Card(ranks[0], x) for x in _SUITS if Card(ranks[0], x) not in m.cards]
                elif len(set(ranks)) == len(ranks):
                    suit = m.cards[0].suit
                    targets += [Card(x, suit) for x in (ranks[0] - 1, ranks[-1] + 1) if 1 <= x <= 13]
            targets = [c for c in targets if pool[c]]
            if not targets:
                continue
            t = rng.choice(targets)
            _take(pool, [t])
            cap = [t] + _loose(rng, pool, 9, _GIN, spread=False)
        else:
            cap = _loose(rng, pool, 10, _GIN, spread=False)
        up = _loose(rng, pool, 1, _GIN, avoid=frozenset(range(1, 9)))[0]
        cap_draw = _loose(rng, pool, 1, _GIN)
        box_draw = _loose(rng, pool, 1, _GIN, avoid=frozenset(range(1, 9)))
        g = _gin(seed + k, box + last, cap, up, cap_draw + box_draw, roles=(0, 1, 2))
        g.apply("pass")          # the captain (Ben)
        g.apply("pass")          # the box (Ana)
        g.apply("draw stock")    # the captain
        g.apply(f"discard {cap_draw[0]}")
        g.apply("draw stock")    # the box
        acts = [a for a in g.legal_actions() if a.verb == "knock"]
        if not acts:
            continue
        g.apply(min(acts, key=lambda a: penalty([c for c in g.hands[0] if c != a.card], _GIN)))
        if undercut is not None:
            probe = _copy_game(g)
            _finish_layoffs(probe)
            if (probe.results[-1].kind == "undercut") != undercut:
                continue
        if layoff and not any(a.verb == "lay off" for a in g.legal_actions()):
            continue
        return g
    raise RuntimeError("no knock position found")  # pragma: no cover


def _copy_game(g: Any) -> Any:
    import copy as _copy

    return _copy.deepcopy(g)


def _finish_layoffs(g: Any) -> None:
    seat = g.to_act()[0]
    for _ in range(20):
        if g.phase != "lay off":
            return
        plan = g.observe(seat).layoff_plan
        if plan:
            g.apply(plan[0], player=seat)
        else:
            g.apply("lay out", player=seat)


def _gin_gin_game(rng: random.Random, seed: int, **options: Any) -> Any:
    """The box goes gin on its first turn: 10 melded cards and a card drawn."""
    for _ in range(200):
        pool = _shoe(1)
        box = _complete_hand(rng, pool, 10, _GIN)
        cap = _loose(rng, pool, 10, _GIN, spread=False)
        up = _loose(rng, pool, 1, _GIN)[0]
        cap_draw = _loose(rng, pool, 1, _GIN)
        drawn = _loose(rng, pool, 1, _GIN)
        g = _gin(seed, box, cap, up, cap_draw + drawn, roles=(0, 1, 2), **options)
        g.apply("pass")
        g.apply("pass")
        g.apply("draw stock")
        g.apply(f"discard {cap_draw[0]}")
        g.apply("draw stock")
        gins = [a for a in g.legal_actions() if a.verb == "gin"]
        if gins:
            return g
    raise RuntimeError("no gin position found")  # pragma: no cover


def _upcard_position(rng: random.Random, seed: int, helps: bool) -> Any:
    pool = _shoe(1)
    if helps:
        meld = _random_meld(rng, pool, 3)
        assert meld is not None
        up = meld.pop(rng.randrange(3))
        cap = meld + _loose(rng, pool, 8, _GIN, avoid=frozenset({c.rank for c in meld} | {up.rank}))
    else:
        cap = _loose(rng, pool, 10, _GIN, spread=False)
        up = None
        for _ in range(400):
            c = Card(rng.randint(9, 13), rng.choice(_SUITS))
            if pool[c] and c.rank not in {x.rank for x in cap} and not any(
                    x.suit == c.suit and abs(x.rank - c.rank) < 3 for x in cap):
                up = c
                break
        if up is None:
            return _upcard_position(rng, seed + 1000, helps)
        _take(pool, [up])
    box = _loose(rng, pool, 10, _GIN, spread=False)
    assert up is not None
    return _gin(seed, box, cap, up, roles=(0, 1, 2))


def _take_helps(hand: Sequence[Card], top: Card) -> bool:
    now = best_arrangement(hand, _GIN).penalty
    with_top = list(hand) + [top]
    after = min(penalty([c for j, c in enumerate(with_top) if j != i], _GIN)
                for i in range(len(hand)))
    return after < now


@_gen("G-1")
def _g1(seed: int) -> Drill:
    rng = random.Random(seed)
    s = rng.choice(_SUITS)
    shape = rng.choice(("qka", "a23", "ka2", "five", "set", "two"))
    if shape == "qka":
        cs = [Card(12, s), Card(13, s), Card(1, s)]
    elif shape == "a23":
        cs = [Card(1, s), Card(2, s), Card(3, s)]
    elif shape == "ka2":
        cs = [Card(13, s), Card(1, s), Card(2, s)]
    elif shape == "five":
        r = rng.randint(1, 13)
        cs = [Card(r, x) for x in _SUITS] + [Card(r, s)]
    elif shape == "set":
        r = rng.randint(1, 13)
        cs = [Card(r, x) for x in rng.sample(_SUITS, rng.choice((3, 4)))]
    else:
        r = rng.randint(3, 10)
        cs = [Card(r, s), Card(r + 1, s), Card(2, s)]
    if shape == "five":  # a set of five can't be made from one pack: four of a kind
        cs = cs[:4]
    return _meld_question("G-1", "gin_three", seed, 1, cs, _GIN,
                          look="Aces are low in Gin, and nothing is wild: does each card fit?",
                          why="Gin melds: sets of 3 or 4, runs of 3 or more, aces low, no wilds.")


@_gen("G-2")
def _g2(seed: int) -> Drill:
    rng = random.Random(seed)
    g = new_game("gin_three", players=["Ana", "Ben", "Cleo"], seed=seed)
    pool = _shoe(1)
    g.arrange(_loose(rng, pool, 10, _GIN, spread=False), _loose(rng, pool, 10, _GIN, spread=False),
              _loose(rng, pool, 1, _GIN)[0])
    draw = next(line for line in g.log if line.startswith("Role draw") and "draw again" not in line)
    cards_drawn = draw.split(":", 1)[1].split(".")[0].strip()
    cards_drawn = " ".join(Card.parse(t).symbol if _is_card(t.rstrip(",")) and not t.endswith(",")
                           else (Card.parse(t[:-1]).symbol + "," if _is_card(t.rstrip(",")) else t)
                           for t in cards_drawn.split())
    role = rng.choice(("box", "captain", "advisor"))
    lowest = {"box": "the lowest card", "captain": "the highest card", "advisor": "the highest card"}
    return Drill(
        rule="G-2", kind="procedure", variant="gin_three", seed=seed,
        question=f"The role draw: {cards_drawn}. Who is the {role}?",
        facts=("Aces are low.",), rows=(),
        solve=lambda: g.players[g.roles.index(role)],
        look="Who drew the highest card, who the middle one, who the lowest?",
        why="Highest is the box, middle the captain, lowest the advisor.",
        answer_kind="choice", choices=tuple(g.players),
        mistake=g.players[g.roles.index({"box": "advisor", "captain": "box", "advisor": "box"}[role])],
        mistake_why=f"That is the player with {lowest[role]}.", game=g)


@_gen("G-3")
def _g3(seed: int) -> Drill:
    rng = random.Random(seed)
    roles = list(range(3))
    rng.shuffle(roles)
    pool = _shoe(1)
    box = _loose(rng, pool, 10, _GIN, spread=False)
    cap = _loose(rng, pool, 10, _GIN, spread=False)
    up = _loose(rng, pool, 1, _GIN)[0]
    g = _gin(seed, box, cap, up, roles=roles)
    ask = rng.choice(("deals", "stock"))
    names = g.players
    facts = (f"{names[roles[0]]} is in the box, {names[roles[1]]} is captain, "
             f"{names[roles[2]]} advises.",)
    if ask == "deals":
        return Drill(
            rule="G-3", kind="procedure", variant="gin_three", seed=seed,
            question="Who deals this hand?", facts=facts, rows=(Row("Upcard", (up,)),),
            solve=lambda: g.players[g.box], look="Which role deals every hand?",
            why="The box deals every hand.", answer_kind="choice", choices=tuple(names),
            mistake=names[roles[1]], mistake_why="The captain plays first but never deals.",
            game=g)
    return Drill(
        rule="G-3", kind="count", variant="gin_three", seed=seed,
        question="After the deal, how many cards form the stock?", facts=facts,
        rows=(Row("Upcard", (up,)),), solve=lambda: g.observe(0).stock_size,
        look="Which cards leave the pack: the two hands only?",
        why="10 cards to the box, 10 to the captain and the upcard leave 31.",
        answer_kind="number", mistake=32, mistake_why="The upcard is not in the stock.", game=g)


@_gen("G-4")
def _g4(seed: int) -> Drill:
    rng = random.Random(seed)
    g = _upcard_position(rng, seed, helps=rng.random() < 0.5)
    hand = tuple(g.hands[g.captain])
    up = g.discards[-1]
    right = "take upcard" if _take_helps(hand, up) else "pass"
    return Drill(
        rule="G-4", kind="move", variant="gin_three", seed=seed,
        question=f"You are the captain and speak first. Do you take the upcard {up.symbol} or pass?",
        facts=("The box may take it if you pass.",),
        rows=(Row("Your hand", hand), Row("Upcard", (up,))),
        solve=lambda: "take upcard" if _take_helps(tuple(g.hands[g.captain]), g.discards[-1])
        else "pass",
        look=f"Does the {up.symbol} make a meld with your cards?",
        why="Take the upcard only when it lowers your deadwood; otherwise pass, and the box "
            "decides next.", answer_kind="choice", choices=("take upcard", "pass"),
        mistake="pass" if right == "take upcard" else "take upcard",
        mistake_why=(f"The {up.symbol} completes a meld." if right == "take upcard"
                     else f"The {up.symbol} helps nothing."), game=g)


@_gen("G-5")
def _g5(seed: int) -> Drill:
    rng = random.Random(seed)
    g = _upcard_position(rng, seed, helps=rng.random() < 0.5)
    g.apply("take upcard")
    hand = tuple(g.hands[g.captain])
    taken = g.just_taken
    return Drill(
        rule="G-5", kind="move", variant="gin_three", seed=seed,
        question=f"You took the {taken.symbol}. Which card do you discard?",
        facts=("You are the captain.",), rows=(Row("Your hand", hand, pick=True),),
        solve=lambda: _cards_answer(_best_gin_discards(g)),
        look="Which card can't you throw this turn, and which of the rest is left out of melds?",
        why="Throw the card that leaves the least deadwood; the card you took can't go "
            "straight back.", answer_kind="card", mistake=str(taken),
        mistake_why=f"The {taken.symbol} can't go straight back.", game=g)


def _best_gin_discards(g: Any) -> list[Card]:
    hand = g.hands[g.turn]
    legal = [a for a in g.legal_actions() if a.verb == "discard"]
    pts = {a.card: penalty([c for c in hand if c != a.card], _GIN) for a in legal}
    low = min(pts.values())
    return [c for c, p in pts.items() if p == low]


@_gen("G-6")
def _g6(seed: int) -> Drill:
    rng = random.Random(seed)
    can = rng.random() < 0.5
    for k in range(100):
        pool = _shoe(1)
        cap = _complete_hand(rng, pool, rng.choice((6, 7)), _GIN)
        cap += _loose(rng, pool, 10 - len(cap), _GIN,
                      avoid=frozenset(range(5, 14)) if can else frozenset(range(1, 6)))
        up = _loose(rng, pool, 1, _GIN)[0]
        drawn = _loose(rng, pool, 1, _GIN, avoid=frozenset(range(1, 9)))
        box = _loose(rng, pool, 10, _GIN, spread=False)
        g = _gin(seed + k, box, cap, up, drawn, roles=(0, 1, 2))
        g.apply("pass")
        g.apply("pass")
        g.apply("draw stock")
        knocks = any(a.verb in ("knock", "gin") for a in g.legal_actions())
        if knocks == can:
            break
    hand = tuple(g.hands[g.captain])
    return Drill(
        rule="G-6", kind="move", variant="gin_three", seed=seed,
        question=f"You drew the {drawn[0].symbol}. Knock or not?",
        facts=("You are the captain; the knock limit is 10.",), rows=(Row("Your hand", hand),),
        solve=lambda: "knock" if any(a.verb in ("knock", "gin") for a in g.legal_actions())
        else "discard",
        look="Meld what you can and throw your worst card: how much deadwood is left?",
        why="Knock only when, less one discard, at most 10 points of deadwood are left.",
        answer_kind="choice", choices=("knock", "discard"),
        mistake="discard" if can else "knock",
        mistake_why="Count the deadwood left after your best discard.", game=g)


@_gen("G-7")
def _g7(seed: int) -> Drill:
    rng = random.Random(seed)
    g = _gin_gin_game(rng, seed)
    gins = [a for a in g.legal_actions() if a.verb == "gin"]
    g.apply(gins[0])
    res = g.results[-1]
    return Drill(
        rule="G-7", kind="count", variant="gin_three", seed=seed,
        question="Ana went gin. What does she score?",
        facts=("The gin bonus is 25.",),
        rows=(Row("Ana's melds", tuple(c for m in res.knocker_melds for c in m.cards)),
              Row("Ben's cards", tuple(c for m in res.defender_melds for c in m.cards)
                  + tuple(res.defender_deadwood))),
        solve=lambda: g.results[-1].points,
        look="What is Ben's deadwood, and what is a gin worth on top of it?",
        why="Gin scores the bonus plus the opponent's deadwood, and nothing is laid off.",
        answer_kind="number", mistake=res.defender_points,
        mistake_why="Add the gin bonus of 25.", game=g)


@_gen("G-8")
def _g8(seed: int) -> Drill:
    rng = random.Random(seed)
    g = _gin_knock_game(rng, seed, layoff=True)
    seat = g.to_act()[0]
    hand = tuple(g.hands[seat])
    k = g._knock
    melds = tuple(c for m in k.melds for c in m)
    fits = {a.card for a in g.legal_actions(seat) if a.verb == "lay off"}
    wrong = next((c for c in hand if c not in fits), hand[0])

    def solve() -> Any:
        plan = g.observe(seat).layoff_plan
        return " ".join(str(a.card) for a in plan) if len(plan) > 1 else (
            str(plan[0].card) if plan else "none")
    return Drill(
        rule="G-8", kind="move", variant="gin_three", seed=seed,
        question="Ana knocked. Which of your cards do you lay off onto her melds?",
        facts=("You are the captain (Ben).",),
        rows=(Row("Ana's melds", melds), Row("Your hand", hand, pick=True)), solve=solve,
        look="Which of your cards would make one of Ana's melds longer?",
        why="Lay off the deadwood that extends a run or completes a set of four.",
        answer_kind="cards" if len(g.observe(seat).layoff_plan) > 1 else "card",
        mistake=str(wrong), mistake_why=f"The {wrong.symbol} fits none of Ana's melds.", game=g)


@_gen("G-8a")
def _g8a(seed: int) -> Drill:
    rng = random.Random(seed)
    # a run and a set share a card: two ways to lay out
    for k in range(100):
        pool = _shoe(1)
        s = rng.choice(_SUITS)
        start = rng.randint(1, 9)
        end = start + 2
        others = [x for x in _SUITS if x != s]
        rng.shuffle(others)
        core = [Card(start + i, s) for i in range(3)] + [Card(end, others[0]), Card(end, others[1])]
        if not _take(pool, core):
            continue
        more = _random_meld(rng, pool, 3, avoid=frozenset(range(start - 1, end + 2)))
        if more is None:
            continue
        low = _loose(rng, pool, 2, _GIN, avoid=frozenset(range(6, 14)) | {c.rank for c in core + more})
        cap = core + more + low
        box = _loose(rng, pool, 10, _GIN, spread=False)
        up = _loose(rng, pool, 1, _GIN)[0]
        drawn = _loose(rng, pool, 1, _GIN, avoid=frozenset(range(1, 9)))
        g = _gin(seed + k, box, cap, up, drawn, roles=(0, 1, 2))
        g.apply("pass")
        g.apply("pass")
        g.apply("draw stock")
        opts = g.knock_options()
        if len(opts) >= 2:
            break
    option = rng.choice(opts)
    over = rng.random() < 0.3
    named_melds: tuple[tuple[Card, ...], ...] = option.melds
    if over and len(option.melds) > 1:
        named_melds = option.melds[1:]
    card = option.action.card
    named = Action(option.action.verb if not over else "knock", card, melds=named_melds)
    hand = tuple(g.hands[g.captain])
    laid = " ".join("[" + " ".join(c.symbol for c in m) + "]" for m in named_melds)
    dead = tuple(c for c in hand if c != card and not any(c in m for m in named_melds))

    def solve() -> bool:
        k = _copy_game(g)
        try:
            k.apply(named)
        except GameError:
            return False
        return True
    lowest = min(o.deadwood_points for o in opts)
    return Drill(
        rule="G-8a", kind="move", variant="gin_three", seed=seed,
        question=f"You knock, throwing the {card.symbol}. May you lay out {laid} and keep "
                 f"{_cards_text(dead)} as deadwood?",
        facts=(f"The lowest deadwood you could leave is {lowest}.",),
        rows=(Row("Your hand", hand),), solve=solve,
        look="Is the deadwood of this arrangement within the knock limit of 10?",
        why="Any arrangement within the knock limit may be laid out, not only the lowest; "
            "your choice decides what the defender can lay off.",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not solve(),
        mistake_why="The lowest arrangement is not the only one allowed; the limit is what counts.",
        game=g)


@_gen("G-9")
def _g9(seed: int) -> Drill:
    rng = random.Random(seed)
    under = rng.random() < 0.5
    try:
        g = _gin_knock_game(rng, seed, undercut=under)
    except RuntimeError:
        g = _gin_knock_game(rng, seed)
    _finish_layoffs(g)
    res = g.results[-1]
    return Drill(
        rule="G-9", kind="count", variant="gin_three", seed=seed,
        question=f"Ana knocked with {res.knocker_points} deadwood; after laying off, Ben has "
                 f"{res.defender_points}. How many points does the winner of the hand score?",
        facts=("The undercut bonus is 10.",),
        rows=(Row("Ana's deadwood", tuple(res.knocker_deadwood)),
              Row("Ben's deadwood", tuple(res.defender_deadwood))),
        solve=lambda: g.results[-1].points,
        look="Whose deadwood is lower, and is the knocker undercut?",
        why="A lower knocker scores the difference; otherwise the defender scores 10 plus it.",
        answer_kind="number", mistake=abs(res.knocker_points - res.defender_points) + (
            10 if res.kind == "knock" else 0),
        mistake_why="Check who is lower: an undercut adds the bonus of 10, a plain knock does not.",
        game=g)


def _after_a_hand(rng: random.Random, seed: int) -> Any:
    if rng.random() < 0.5:
        g = _gin_gin_game(rng, seed)
        g.apply([a for a in g.legal_actions() if a.verb == "gin"][0])
        return g
    g = _gin_knock_game(rng, seed, undercut=rng.random() < 0.5)
    _finish_layoffs(g)
    return g


@_gen("G-10")
def _g10(seed: int) -> Drill:
    rng = random.Random(seed)
    g = _after_a_hand(rng, seed)
    res = g.results[-1]
    adv = res.advisor
    return Drill(
        rule="G-10", kind="count", variant="gin_three", seed=seed,
        question=f"{g.players[adv]} advised this hand. {g.players[res.winner]} won it with "
                 f"{res.points}. How many points does {g.players[adv]} score?",
        facts=tuple(res.sentences), rows=(),
        solve=lambda: g.hand_scores[-1][adv],
        look="Does the advisor play for points?", why="The advisor never scores.",
        answer_kind="number", mistake=res.points,
        mistake_why="The advisor helps the captain but shares nothing.", game=g)


@_gen("G-11")
def _g11(seed: int) -> Drill:
    rng = random.Random(seed)
    g = _after_a_hand(rng, seed)
    res = g.results[-1]
    names = g.players
    ask = rng.choice(("box", "captain"))
    before = f"{names[res.box]} was in the box, {names[res.captain]} captain, {names[res.advisor]} advisor."
    wrong = names[res.box] if ask == "box" and res.winner != res.box else names[res.captain]
    return Drill(
        rule="G-11", kind="procedure", variant="gin_three", seed=seed,
        question=f"{names[res.winner]} won the hand. Who is the {ask} next hand?",
        facts=(before, *res.sentences), rows=(),
        solve=lambda: g.players[g.box if ask == "box" else g.captain],
        look="Did the box win or lose?",
        why="A winning box stays and the others swap; a losing box sits out, the captain "
            "moves into the box and the advisor becomes captain.",
        answer_kind="choice", choices=tuple(names), mistake=wrong,
        mistake_why="Check whether the box won or lost first.", game=g)


@_gen("G-12")
def _g12(seed: int) -> Drill:
    rng = random.Random(seed)
    roles = list(range(3))
    rng.shuffle(roles)
    pool = _shoe(1)
    box = _loose(rng, pool, 10, _GIN, spread=False)
    cap = _loose(rng, pool, 10, _GIN, spread=False)
    up = _loose(rng, pool, 1, _GIN)[0]
    g = _gin(seed, box, cap, up, roles=roles)
    g.apply("pass")
    g.apply("pass")
    while g.number == 1 and g.observe(0).stock_size > 3:
        g.apply("draw stock")
        g.apply(_plain_discard(g))
    names = g.players
    box_name = names[g.box]
    return Drill(
        rule="G-12", kind="procedure", variant="gin_three", seed=seed,
        question="Nobody has knocked and the stock is nearly out. The next player draws and "
                 "discards without knocking, leaving 2 cards in the stock. Who deals the next hand?",
        facts=(f"{box_name} is in the box, {names[g.captain]} captain, {names[g.advisor]} advises.",),
        rows=(Row("Discard pile, top", (g.discards[-1],)),), solve=lambda: _after_draw(g),
        look="Does anybody win a hand that ends with 2 cards in the stock?",
        why="The hand is a draw: nobody scores, and the same box deals again with the same roles.",
        answer_kind="choice", choices=tuple(names), mistake=names[g.captain],
        mistake_why="Nobody won, so the roles stay as they were.", game=g)


def _plain_discard(g: Any) -> Action:
    """A discard without knocking (knocking is never required, G-5)."""
    return next(a for a in g.legal_actions() if a.verb == "discard")


def _after_draw(g: Any) -> str:
    k = _copy_game(g)
    k.apply("draw stock")
    k.apply(_plain_discard(k))
    return k.players[k.box]


@_gen("G-13")
def _g13(seed: int) -> Drill:
    rng = random.Random(seed)
    target = rng.choice((50, 100))
    g = _gin_gin_game(rng, seed, target=target)
    g.apply([a for a in g.legal_actions() if a.verb == "gin"][0])
    totals = ", ".join(f"{p} {s}" for p, s in zip(g.players, g.scores))
    over = g.is_over
    return Drill(
        rule="G-13", kind="procedure", variant="gin_three", seed=seed,
        question=f"The game is played to {target}. After this hand the totals are {totals}. "
                 "Is the game over?",
        facts=(), rows=(),
        solve=lambda: g.is_over,
        look=f"Has anybody reached {target}?",
        why=f"Hands go on until a total reaches the target ({target} here; 100 by default).",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not over,
        mistake_why="Compare each total with the target.", game=g)


# ---------------------------------------------------------------------------
# The public functions


def generators() -> Mapping[str, Generator]:
    """Every rule id of docs/RULES.md with its generator (``seed -> Drill``).

    >>> sorted(generators())[:3]
    ['BT-1', 'BT-2', 'BT-3']
    """
    return dict(_GENERATORS)


def drill(rule: str, seed: int = 0) -> Drill:
    """A drill for ``rule`` (an id such as ``"TT-7"``) on the position made from ``seed``.

    >>> drill("G-7", seed=2).kind
    'count'
    """
    gen = _GENERATORS.get(rule)
    if gen is None:
        raise ValueError(f"no drill for {rule!r}; rule ids are: {', '.join(sorted(_GENERATORS))}")
    return gen(seed)


def drills(rules: Sequence[str] | str | None = None, seed: int = 0) -> Iterator[Drill]:
    """Drills one after another: ``rules`` a list of rule ids, a variant's name
    (its rules) or None (every rule); each round over the rules uses new seeds.

    >>> it = drills("gin_three", seed=5)
    >>> next(it).rule, next(it).rule
    ('C-1', 'C-2')
    """
    if rules is None or isinstance(rules, str) and rules not in _GENERATORS:
        ids = rules_of(rules if isinstance(rules, str) else None)
    else:
        ids = [rules] if isinstance(rules, str) else list(rules)
    k = 0
    while True:
        for r in ids:
            yield drill(r, seed + k)
        k += 1
