"""Dealing the drills' chosen positions, and the answers several families share.

A position is dealt from a :class:`Pool` (the cards still free: the game's
packs and jokers) with the seeded ``rng`` of the drill: loose cards that make
no meld, a random meld, a complete hand, a hand one card short of a meld.
The families' modules lay the hands out with the engine's ``arrange()``.

>>> from random import Random
>>> pool = Pool(Random(1), MeldRules())
>>> hand = pool.complete(6)
>>> len(hand), sum(pool.cards.values()), best_arrangement(hand, MeldRules()).penalty
(6, 46, 0)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from rummy.bots import make_bot
from rummy.cards import SUITS, Card, deck, rank_name
from rummy.melds import MeldRules, is_meld
from rummy.practice.registry import Drill, Row
from rummy.search import all_melded, best_arrangement, penalty
from rummy.teach import AnyOf
from rummy.variants import find_variant

__all__ = [
    "NAMES", "Pool", "cards_text", "run_and_set", "round_rules", "pick_round",
    "play_out", "logged_count", "lowers_cost", "cards_answer", "meld_question",
    "what_it_scores", "who_wins", "draw_values",
]

#: The players' names, the learner first.
NAMES = ("You", "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit")
#: The suits, in the kit's order.


def cards_text(cs: Sequence[Card]) -> str:
    """Cards as a question writes them (``7♥ 8♥ 9♥``)."""
    return " ".join(c.symbol for c in cs)


class Pool:
    """The cards still free for a position (``cards``: the packs and jokers not
    dealt yet), the drill's ``rng`` that picks them and the ``rules`` that say
    what melds and what is wild.  Every method takes the cards it returns
    out of the pool, so the cards of one position never exceed the packs."""

    def __init__(self, rng: Random, rules: MeldRules, packs: int = 1, jokers: int = 0) -> None:
        self.rng = rng
        self.rules = rules
        self.cards: Counter[Card] = Counter(deck(packs, jokers))

    def take(self, cs: Sequence[Card]) -> bool:
        """Take ``cs`` out of the pool if it holds them all (else take nothing)."""
        need = Counter(cs)
        if any(self.cards[c] < k for c, k in need.items()):
            return False
        self.cards.subtract(need)
        return True

    def put_back(self, cs: Sequence[Card]) -> None:
        """Return cards taken from the pool (a hand dealt again)."""
        self.cards.update(cs)

    def meld(self, size: int, *, avoid: frozenset[int] = frozenset(),
             kind: str = "") -> list[Card] | None:
        """A set or a run of ``size`` natural cards, of no rank in ``avoid``."""
        rng = self.rng
        for _ in range(60):
            k = kind or rng.choice(("set", "run"))
            if k == "set":
                size_ = min(size, 4)
                rank = rng.choice([r for r in range(1, 14) if r not in avoid])
                suits = rng.sample(SUITS, size_)
                cs = [Card(rank, s) for s in suits]
            else:
                start = rng.randint(1, 14 - size)
                ranks = list(range(start, start + size))
                if any(r in avoid for r in ranks):
                    continue
                s = rng.choice(SUITS)
                cs = [Card(r, s) for r in ranks]
            if self.take(cs):
                return cs
        return None

    def loose(self, k: int, *, avoid: frozenset[int] = frozenset(),
              spread: bool = True) -> list[Card]:
        """``k`` natural cards that make no meld together (each a different rank and,
        with ``spread``, ranks at least 3 apart within a suit)."""
        rng, rules, pool = self.rng, self.rules, self.cards
        usable = set(range(1, 14)) - avoid - ({rules.wild_rank} if rules.wild_rank else set())
        per_rank = 1 if k < len(usable) else 2  # two of a rank make no set
        for _ in range(200):
            cs: list[Card] = []
            ranks: Counter[int] = Counter()
            for _ in range(400):
                if len(cs) == k:
                    break
                c = Card(rng.randint(1, 13), rng.choice(SUITS))
                if (ranks[c.rank] >= per_rank or c.rank in avoid or pool[c] - cs.count(c) < 1
                        or rules.is_wild(c) or c in cs and per_rank == 2):
                    continue
                if spread and any(d.suit == c.suit and abs(d.rank - c.rank) < 3 for d in cs):
                    continue
                cs.append(c)
                ranks[c.rank] += 1
            if len(cs) == k and not any(rules.is_wild(c) for c in cs):
                self.take(cs)
                return cs
        if not spread:  # any cards of the rest will do (the engine judges them all the same)
            rest = sorted((c for c in pool.elements() if not rules.is_wild(c) and c.rank not in avoid),
                          key=lambda c: c.index)
            cs = rng.sample(rest, k)
            self.take(cs)
            return cs
        raise RuntimeError("no loose cards found")  # pragma: no cover

    def complete(self, size: int) -> list[Card]:
        """``size`` natural cards that meld completely (sets and runs of 3 to 5)."""
        avoid = frozenset({self.rules.wild_rank} if self.rules.wild_rank else set())
        for _ in range(100):
            saved = +self.cards
            parts: list[int] = []
            left = size
            while left:
                if left <= 5:
                    parts.append(left)
                    break
                p = self.rng.randint(3, min(5, left - 3))
                parts.append(p)
                left -= p
            out: list[Card] = []
            for p in parts:
                m = self.meld(p, avoid=avoid, kind="run" if p > 4 else "")
                if m is None:
                    break
                out += m
            if len(out) == size:
                return out
            self.cards = saved
        raise RuntimeError("no complete hand found")  # pragma: no cover

    def one_meld(self, size: int, *, spread: bool = True) -> list[Card]:
        """A hand of ``size`` natural cards, none of rank ``size`` (the round's wild
        rank): a meld of 3 and loose cards, never all melded (a loose card that
        extends the meld, or joins a set with it, is dealt again)."""
        while True:
            meld = self.meld(3, avoid=frozenset({size}))
            assert meld is not None
            hand = meld + self.loose(size - 3, avoid=frozenset({size}), spread=spread)
            if not all_melded(hand, self.rules):
                return hand
            self.put_back(hand)

    def one_short(self, size: int, *, avoid: frozenset[int] = frozenset()
                  ) -> tuple[list[Card], Card]:
        """A hand of ``size`` natural cards holding two cards of a meld of 3, and
        the card that completes it (also taken from the pool)."""
        meld = self.meld(3, avoid=avoid)
        assert meld is not None
        missing = meld.pop(self.rng.randrange(3))
        rest = self.loose(size - 2, avoid=avoid | {c.rank for c in meld} | {missing.rank})
        return meld + rest, missing

    def high_card(self, hand: Sequence[Card], low: int, tries: int, *,
                  avoid: frozenset[int] = frozenset()) -> Card | None:
        """A card of the pool ranked ``low`` to king that helps no meld of ``hand``
        (no rank of it, nothing near in its suit), or None after ``tries``
        draws; not taken from the pool."""
        ranks = {x.rank for x in hand}
        for _ in range(tries):
            c = Card(self.rng.randint(low, 13), self.rng.choice(SUITS))
            if self.cards[c] and c.rank not in avoid and c.rank not in ranks and not any(
                    x.suit == c.suit and abs(x.rank - c.rank) < 3 for x in hand):
                return c
        return None


def run_and_set(rng: Random, highest: int) -> tuple[list[Card], list[Card]]:
    """A run of 3 in a random suit, starting at a rank up to ``highest``, and the
    three other cards of its top rank in a random order: the run's top card and
    two of them make a set, so that card fits either meld."""
    s = rng.choice(SUITS)
    start = rng.randint(1, highest)
    others = [x for x in SUITS if x != s]
    rng.shuffle(others)
    return [Card(start + i, s) for i in range(3)], [Card(start + 2, x) for x in others]


def round_rules(variant: str, r: int, **options: Any) -> MeldRules:
    """The meld rules of round ``r`` of ``variant`` with ``options``."""
    return find_variant(variant).meld_rules(r, **options)


def pick_round(rng: Random, variant: str, low: int, high: int, **options: Any
               ) -> tuple[int, MeldRules]:
    """A round from ``low`` to ``high``, drawn with ``rng``, and its meld rules."""
    r = rng.randint(low, high)
    return r, round_rules(variant, r, **options)


def play_out(g: Any, turns: int = 500) -> None:
    """Let greedy bots play every seat of ``g`` until the round (hand) ends,
    for at most ``turns`` moves."""
    start = g.number
    bot = make_bot("greedy", seed=1)
    for _ in range(turns):
        if g.is_over or g.number != start:
            return
        seat = g.to_act()[0]
        g.apply(bot.choose(g.observe(seat)), player=seat)


def logged_count(g: Any, pattern: str) -> int:
    """The number the last line of the game's log matching ``pattern`` (one
    group of digits) says: how many cards the engine reshuffled."""
    for line in reversed(g.log):
        m = re.search(pattern, line)
        if m:
            return int(m.group(1))
    raise AssertionError(f"nothing in the log says {pattern!r}")  # pragma: no cover


def lowers_cost(hand: Sequence[Card], top: Card, rules: MeldRules, *,
                throw_back: bool = False) -> bool:
    """Whether taking ``top`` and throwing the best card leaves ``hand``
    costing less; ``top`` itself may be thrown only with ``throw_back``."""
    now = best_arrangement(hand, rules).penalty
    with_top = list(hand) + [top]
    after = min(penalty([c for j, c in enumerate(with_top) if j != i], rules)
                for i in range(len(with_top) if throw_back else len(hand)))
    return after < now


def draw_values(hand: Sequence[Card], top: Card, unseen: Counter[Card], rules: MeldRules, *,
                throw_back: bool = False) -> tuple[float, int]:
    """What a draw leaves: (the hand's cost after a stock card and the best
    discard, averaged over the ``unseen`` cards the stock may give; the cost
    after taking ``top`` and the best discard, ``top`` itself only with
    ``throw_back``).

    >>> from rummy.cards import Card
    >>> hand = [Card.parse(x) for x in "7h 8h Kc".split()]
    >>> unseen = Counter({Card.parse("9h"): 1, Card.parse("2s"): 1})
    >>> draw_values(hand, Card.parse("6h"), unseen, MeldRules())
    (8.5, 0)
    """
    def best_after(cs: list[Card], keep: int | None) -> int:
        return min(penalty(cs[:i] + cs[i + 1:], rules) for i in range(len(cs)) if i != keep)
    total = count = 0
    for c, k in unseen.items():
        if k > 0:
            total += best_after([*hand, c], None) * k
            count += k
    taken = best_after([*hand, top], None if throw_back else len(hand))
    return total / count, taken


def cards_answer(cs: Sequence[Card]) -> Any:
    """The answer "any one of these cards": the card, or an :class:`AnyOf`."""
    names = sorted({str(c) for c in cs})
    return names[0] if len(names) == 1 else AnyOf(*names)


def meld_question(variant: str, r: int, cs: Sequence[Card], rules: MeldRules, *, look: str,
                  why: str, facts: Sequence[str] = ()) -> Drill:
    """A judgement: is ``cs`` one meld in round ``r`` of ``variant``?"""
    shown = tuple(cs)
    wild = rank_name(rules.wild_rank, plural=True) if rules.wild_rank else "nothing"
    want = lambda: is_meld(shown, rules)  # noqa: E731
    return Drill(
        kind="judgement", variant=variant,
        question=f"Is {cards_text(shown)} one meld here?",
        facts=(f"{find_variant(variant).title}, round {r}: {wild} are wild.", *facts)
        if rules.wild_rank else (f"{find_variant(variant).title}: nothing is wild.", *facts),
        rows=(Row("The cards", shown),), solve=want, look=look, why=why,
        answer_kind="yes/no", choices=("yes", "no"), mistake=not is_meld(shown, rules),
        mistake_why="Check the cards against the rule once more.")


def what_it_scores(g: Any, variant: str, who: str, shown: tuple[Card, ...], rules: MeldRules,
                   score: Callable[[], int], *, question: str, facts: tuple[str, ...], look: str,
                   why: str, mistake_why: str) -> Drill:
    """A count: what ``who``, whose cards ``shown`` the hand ended with, scores
    (``score()`` reads it from the engine's score sheet); the typical mistake
    counts every card at face value."""
    face = sum(rules.penalty_of(c) for c in shown)
    return Drill(
        kind="count", variant=variant, question=question, facts=facts,
        rows=(Row(f"{who}'s cards", shown),), solve=score, look=look, why=why,
        answer_kind="number", mistake=face if face != score() else 0, mistake_why=mistake_why,
        game=g)


def who_wins(g: Any, variant: str, *, question: str, look: str, why: str) -> Drill:
    """A procedure: who wins the game ``g``, played to its end (nobody on a tie)?"""
    totals = ", ".join(f"{p} {s}" for p, s in zip(g.players, g.scores))

    def solve() -> Any:
        w = g.winner
        return g.players[w] if w is not None else AnyOf("nobody", "no one")
    worst = g.players[max(range(len(g.players)), key=lambda s: g.scores[s])]
    return Drill(
        kind="procedure", variant=variant, question=question,
        facts=(f"The totals: {totals}.",), rows=(), solve=solve, look=look, why=why,
        answer_kind="choice", choices=(*g.players, "nobody"), mistake=worst,
        mistake_why="Points are penalties: the fewest win.", game=g)

