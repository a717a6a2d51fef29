"""Drills of the Big Table (BT-1 to BT-8)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from rummy.action import Action
from rummy.cards import Card, deck, rank_name
from rummy.errors import GameError
from rummy.game import new_game
from rummy.melds import MeldRules
from rummy.practice.deal import (
    NAMES,
    Pool,
    draw_values,
    logged_count,
    play_out,
    round_rules,
    what_it_scores,
    who_wins,
)
from rummy.practice.registry import Drill, Row, generator


def _game(players: int, seed: int, hands: Sequence[Sequence[Card]],
             piles: Sequence[Sequence[Card]], *, hand: int, pool: Sequence[Card] | None = None,
             pool_top: Sequence[Card] = ()) -> Any:
    """A Big Table game of ``players``, arranged for hand ``hand``."""
    g = new_game("big_table", players=list(NAMES[:players]), seed=seed)
    g.arrange([list(h) for h in hands], [list(p) for p in piles],
              pool=None if pool is None else list(pool), pool_top=list(pool_top), hand=hand)
    return g


def _hand(rng: Random, low: int, high: int) -> tuple[int, int, MeldRules, Pool]:
    """A hand number from ``low`` to ``high``, its hand size (the wild rank), its
    meld rules and a full pool."""
    h = rng.randint(low, high)
    rules = round_rules("big_table", h)
    return h, h + 2, rules, Pool(rng, rules, 4)


def _whose(name: str) -> str:
    """A player's name as an owner: "your", "Ana's"."""
    return "your" if name == NAMES[0] else f"{name}'s"


def _names(names: Sequence[str]) -> str:
    """Names in a sentence: "Ana", "Ana and Ben", "Ana, Ben and Cleo"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@generator("BT-1")
def _(rng: Random, seed: int) -> Drill:
    players = (1, 2, 5, 12, 13, 3, 8, 15, 4, 11)[seed % 10] if seed < 30 else rng.randint(1, 16)

    def solve() -> bool:
        try:
            new_game("big_table", players=players, seed=seed)
        except (GameError, ValueError):
            return False
        return True
    return Drill(
        kind="judgement", variant="big_table",
        question=f"Can {players} player{'s' if players != 1 else ''} sit at the Big Table "
                 "(4 packs in the middle pool)?",
        facts=("The Big Table, with a caller.",), rows=(),
        solve=solve,
        look="What are the fewest and the most players the Big Table seats?",
        why="2 to 12 players, always with 4 packs shuffled into one middle pool.",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not solve(),
        mistake_why="The Big Table seats 2 to 12 players.")


@generator("BT-2")
def _(rng: Random, seed: int) -> Drill:
    players = rng.randint(2, 12)
    h = rng.randint(1, 11)
    g = new_game("big_table", players=players, seed=seed)
    rules = round_rules("big_table", h)
    pool = Pool(rng, rules, 4)
    hands = [pool.loose(h + 2, spread=False) for _ in range(players)]
    piles = [pool.loose(1) for _ in range(players)]
    g.arrange(hands, piles, hand=h)
    return Drill(
        kind="count", variant="big_table",
        question=f"Hand {h}, {players} players: how many cards are left in the pool after the deal?",
        facts=("4 packs: 208 cards.",), rows=(),
        solve=lambda: g.observe(0).pool_size,
        look="How many cards does each player take from the pool before the first draw?",
        why=f"Each player draws {h + 2} cards and one more for their own pile.",
        answer_kind="number", mistake=208 - players * (h + 2),
        mistake_why="Each player also lays one card face up on their own pile.", game=g)


#: how many points a weaker legal draw may cost on average and still be right
DRAW_MARGIN = 1.0


@generator("BT-3")
def _(rng: Random, seed: int) -> Drill:
    h, size, rules, pool = _hand(rng, 1, 6)
    helps = rng.random() < 0.5
    avoid = frozenset({size})
    if helps:
        you, right_top = pool.one_short(size, avoid=avoid)
    else:
        you = pool.loose(size, avoid=avoid)
        right_top = pool.loose(1, avoid=avoid | {c.rank for c in you})[0]
    own = pool.loose(1, avoid=avoid)
    other = pool.loose(size, spread=False)
    # seat 0 (you) takes from the pile of seat 1's right neighbour: your right is seat 2 of 3
    third = pool.loose(size, spread=False)
    g = _game(3, seed, [you, other, third], [own, pool.loose(1), [right_top]], hand=h)
    hand = tuple(g.hands[0])
    unseen = Counter(deck(4))
    unseen.subtract([*hand, right_top, *own])

    def values() -> dict[str, tuple[float, str]]:
        stock, taken = draw_values(hand, right_top, unseen, g.rules, throw_back=True)
        return {"pool": (stock, f"the pool leaves {stock:.1f} on average"),
                "right pile": (float(taken), f"the {right_top.symbol} leaves {taken}")}
    return Drill(
        kind="move", variant="big_table",
        question="Caller: draw! Do you take from the pool, from the pile on your right "
                 f"({right_top.symbol}) or from your own pile ({own[0].symbol})? Right is a legal "
                 "choice that leaves your hand costing least after your discard (the pool on "
                 f"average over the cards you can't see), or one within {DRAW_MARGIN:g} point of it.",
        facts=(f"Hand {h}: {rank_name(size, plural=True)} are wild.",),
        rows=(Row("Your hand", hand), Row("Pile on your right", (right_top,)),
              Row("Your own pile", tuple(own))), solve=lambda: None,
        look=f"Whose piles may you take from, and what would the {right_top.symbol} change "
             "after your discard?",
        why="You take the pool's top card or your right neighbour's pile; your own pile is never "
            "yours to take.", answer_kind="choice", choices=("pool", "right pile", "own pile"),
        game=g, judges="play", values=values, margin=DRAW_MARGIN,
        illegal={"own pile": "you can never take from your own pile."})


@generator("BT-4")
def _(rng: Random, seed: int) -> Drill:
    h, size, rules, pool = _hand(rng, 2, 8)
    complete = rng.random() < 0.6
    you = pool.complete(size) if complete else pool.one_meld(size)
    other = pool.loose(size)
    g = _game(2, seed, [you, other], [pool.loose(1), pool.loose(1)], hand=h)
    hand = tuple(g.hands[0])

    def solve() -> bool:
        return Action("call match") in g.legal_actions(0)
    return Drill(
        kind="move", variant="big_table",
        question="The cards are dealt. May you call match now, before the first draw?",
        facts=(f"Hand {h}: {rank_name(size, plural=True)} are wild.",),
        rows=(Row("Your hand", hand),), solve=solve,
        look="Is every one of your cards in a meld?",
        why="Only a hand melded whole may call match, and a hand complete after the deal "
            "may call at once.", answer_kind="yes/no", choices=("yes", "no"),
        mistake=not solve(),
        mistake_why=("Every card of this hand is in a meld, so it may call match at once."
                     if solve() else "Some card of this hand is in no meld."), game=g)


@generator("BT-5")
def _(rng: Random, seed: int) -> Drill:
    h, size, rules, pool = _hand(rng, 1, 8)
    players = rng.randint(2, 5)
    all_match = rng.random() < 0.3
    hands = [pool.complete(size)]
    for _ in range(players - 1):
        hands.append(pool.complete(size) if all_match else pool.loose(size, spread=False))
    piles = [pool.loose(1) for _ in range(players)]
    g = _game(players, seed, hands, piles, hand=h)
    g.apply("call match", player=0)
    others = _names(g.players[1:])

    def solve() -> str:
        k = copy.deepcopy(g)
        for seat in list(k.to_act()):
            if Action("call match") in k.legal_actions(seat):
                k.apply("call match", player=seat)
        if k.hand_number != g.hand_number:
            return "scored now"
        return "one more cycle"
    return Drill(
        kind="procedure", variant="big_table",
        question=(f"You called match after the deal, and so did {others}: every hand was melded "
                  "whole. " if all_match else
                  f"You called match after the deal; {others} did not. ")
                 + "What happens next: one more draw and discard for the players who have not "
                   "matched, or is the hand scored now?",
        facts=(f"Hand {h}, {players} players.",), rows=(Row("Your melds", tuple(hands[0])),),
        solve=solve, look="Has everybody matched, or are there players still to play?",
        why="After the first match the others get one more cycle; if everybody has matched "
            "there is nobody left to play.",
        answer_kind="choice", choices=("one more cycle", "scored now"),
        mistake="scored now" if solve() == "one more cycle" else "one more cycle",
        mistake_why="Think of who still has a cycle to play.", game=g)


@generator("BT-6")
def _(rng: Random, seed: int) -> Drill:
    h, size, rules, pool = _hand(rng, 2, 6)
    you = pool.complete(size)
    ana = pool.one_meld(size)  # not complete: only you may call match (BT-4)
    piles = [pool.loose(1, avoid=frozenset({size})) for _ in range(2)]
    top = pool.loose(1, avoid=frozenset({size}))
    g = _game(2, seed, [you, ana], piles, hand=h, pool_top=top)
    g.apply("call match", player=0)
    g.apply("draw pool", player=1)
    hand = g.hands[1]
    worst = max(hand, key=lambda c: (rules.penalty_of(c), c.index))
    g.apply(f"discard {worst}", player=1)
    reveal = dict((s, arr) for s, arr, _p in g.last_hand)
    return what_it_scores(
        g, "big_table", "Ana", tuple(reveal[1].cards), rules, lambda: g.rows[-1][1],
        question="You matched first; Ana played her last cycle. What does Ana score?",
        facts=(f"Hand {h}: {rank_name(size, plural=True)} are wild (at face value).",),
        look="Which of Ana's cards can she meld?",
        why="Ana is scored on her best arrangement, wilds at face value.",
        mistake_why="Melded cards cost nothing; the rest count.")


@generator("BT-7")
def _(rng: Random, seed: int) -> Drill:
    players = 3
    rules = round_rules("big_table", 11)
    pool = Pool(rng, rules, 4)
    tie = rng.random() < 0.4
    hands = [pool.complete(13)]
    hands.append(pool.complete(13) if tie else pool.loose(13, avoid=frozenset({13}), spread=False))
    hands.append(pool.loose(13, avoid=frozenset({13}), spread=False))
    piles = [pool.loose(1) for _ in range(players)]
    g = _game(players, seed, hands, piles, hand=11)
    play_out(g, turns=400)
    return who_wins(g, "big_table", question="Hand 11 is scored. Who wins?",
                    look="Is a high total good or bad, and is the best total shared?",
                    why="The lowest total wins; a tie for lowest means nobody wins.")


@generator("BT-8")
def _(rng: Random, seed: int) -> Drill:
    players = rng.randint(2, 5)
    h, size, rules, pool = _hand(rng, 1, 5)
    hands = [pool.loose(size, spread=False) for _ in range(players)]
    piles = [pool.loose(rng.randint(1, 5), spread=False) for _ in range(players)]
    left = rng.randint(0, players - 1)
    tiny = pool.loose(left, spread=False) if left else []
    g = _game(players, seed, hands, piles, hand=h, pool=tiny)
    sizes = [len(p) for p in g.piles]

    def solve() -> int:
        k = copy.deepcopy(g)
        for seat in range(players):
            k.apply("draw pool", player=seat)
        return logged_count(k, r"shuffles (\d+) cards")
    return Drill(
        kind="count", variant="big_table",
        question=f"The pool holds {left} card{'s' if left != 1 else ''} and "
                 f"{'both players draw' if players == 2 else f'each of the {players} players draws'}"
                 " from it. How many cards does the caller shuffle into the new pool?",
        facts=(f"{_whose(g.players[0]).capitalize()} pile holds {sizes[0]} cards"
               + "".join(f", {_whose(g.players[i])} {n}" for i, n in enumerate(sizes) if i)
               + ".",),
        rows=tuple(Row(f"{_whose(g.players[i]).capitalize()} pile, top", (g.piles[i][-1],))
                   for i in range(players)),
        solve=solve, look="Which card of each pile stays where it is?",
        why="Every pile but its top card goes into the new pool.", answer_kind="number",
        mistake=sum(sizes), mistake_why="The top card of each pile stays.", game=g)
