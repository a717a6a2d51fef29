"""Drills of the Three-Thirteen family: the shared rules (TT-), then Three
Thirteen's own (TS-), Tre-tretton's (TR-) and the jokers variant's (TJ-)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from rummy.cards import JOKER, SUITS, Card, deck, rank_name
from rummy.errors import GameError
from rummy.game import new_game
from rummy.melds import MeldRules
from rummy.practice.deal import (
    NAMES,
    Pool,
    cards_answer,
    draw_values,
    logged_count,
    meld_question,
    pick_round,
    play_out,
    round_rules,
    what_it_scores,
    who_wins,
)
from rummy.practice.registry import Drill, Row, generator, pick_variant
from rummy.search import penalty
from rummy.teach import AnyOf
from rummy.variants import find_variant


def _deal_loose(rng: Random, g: Any, r: int, rules: MeldRules, **where: Any) -> None:
    """Deal every seat of ``g`` loose cards for round ``r`` and turn one up."""
    pool = Pool(rng, rules, g.packs, g.jokers)
    hands = [pool.loose(r + 2, spread=False) for _ in range(g.n)]
    g.arrange(hands, pool.loose(1), round=r, **where)


def _table(rng: Random, rules: MeldRules, variant: str, seed: int, **options: Any
           ) -> tuple[Any, int, Pool]:
    """A new game of ``variant`` (you and Ana, or you and the three computer
    players of a seated variant), its number of players and its pool."""
    seated = find_variant(variant).seats
    players = 4 if seated else 2
    g = new_game(variant, players=None if seated else list(NAMES[:players]), seed=seed, **options)
    return g, players, Pool(rng, rules, g.packs, g.jokers)


@generator("TT-1")
def _(rng: Random, seed: int) -> Drill:
    variant = pick_variant(rng, ("three_thirteen", "tre_tretton", "three_thirteen_jokers"))
    r = 1 + seed % 11 if seed < 11 else rng.randint(1, 11)
    players = 4 if variant == "three_thirteen_jokers" else rng.randint(2, 4)
    g = new_game(variant, players=None if variant == "three_thirteen_jokers" else players, seed=seed)
    _deal_loose(rng, g, r, round_rules(variant, r))
    return Drill(
        kind="count", variant=variant,
        question=f"How many cards is each player dealt in round {r}?",
        facts=(f"{find_variant(variant).title}, round {r} of 11.",), rows=(),
        solve=lambda: len(g.hands[0]),
        look="How many cards does round 1 deal, and by how many does that grow each round?",
        why=f"Round {r}: {r} + 2.", answer_kind="number", mistake=r,
        mistake_why="That is the round's number; each player gets two more.", game=g)


@generator("TT-2")
def _(rng: Random, seed: int) -> Drill:
    variant = pick_variant(rng, ("three_thirteen", "tre_tretton"))
    r = [1, 5, 8, 9, 10, 11, 2, 3, 4, 6, 7][seed % 11] if seed < 22 else rng.randint(1, 11)
    g = new_game(variant, players=list(NAMES[:2]), seed=seed)
    _deal_loose(rng, g, r, round_rules(variant, r))

    def solve() -> Any:
        w = g.rules.wild_rank
        short = {11: "J", 12: "Q", 13: "K"}.get(w, str(w))
        return AnyOf(rank_name(w, plural=True), rank_name(w), short)
    return Drill(
        kind="count", variant=variant,
        question=f"Which rank is wild in round {r}?",
        facts=(f"{find_variant(variant).title}, round {r}: {r + 2} cards each.",),
        rows=(Row("Your hand", tuple(g.hands[0]), pick=False),), solve=solve,
        look="How many cards does each player hold this round?",
        why=f"{r + 2} cards are dealt, so the rank {r + 2} is wild.",
        answer_kind="choice", mistake=rank_name(r if r > 1 else 13, plural=True),
        mistake_why="The wild rank is the number of cards dealt, not the round's number.",
        game=g)


@generator("TT-3")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    players = rng.randint(3, 5)
    names = list(NAMES[1:players + 1])
    r = rng.randint(1, 11)
    dealer = rng.randrange(players)
    g = new_game(variant, players=names, seed=seed)
    _deal_loose(rng, g, r, round_rules(variant, r), dealer=dealer)
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
        kind="procedure", variant=variant, question=question,
        facts=(order + ".",), rows=(), solve=solve,
        look="Which way does the deal pass, and which way does play go from the dealer?",
        why="The deal passes to the left, and the player left of the dealer starts.",
        answer_kind="choice", choices=tuple(names), mistake=names[dealer],
        mistake_why="The dealer does not play first, and does not deal twice.", game=g)


@generator("TT-4")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    players = rng.randint(2, 4)
    r = rng.randint(1, 11)
    g = new_game(variant, players=list(NAMES[:players]), seed=seed)
    _deal_loose(rng, g, r, round_rules(variant, r))
    return Drill(
        kind="count", variant=variant,
        question=f"{players} players, {g.packs} pack{'s' if g.packs > 1 else ''}, round {r}: "
                 "how many cards are left in the stock after the deal?",
        facts=(f"Each player holds {r + 2} cards.",),
        rows=(Row("Discard pile", (g.pile[-1],)),),
        solve=lambda: g.observe(0).stock_size,
        look="Which cards leave the shoe before the first turn: only the hands?",
        why="The hands, then one card turned up onto the discard pile; the rest is the stock.",
        answer_kind="number", mistake=52 * g.packs - players * (r + 2),
        mistake_why="The card turned up to start the discard pile is not in the stock.", game=g)


def _draw_position(rng: Random, seed: int, variant: str, r: int, *,
                      helps: bool, **options: Any) -> Any:
    """Round ``r``, you play first: your hand and the open card, which either
    completes a meld (``helps``) or is a high card that helps nothing."""
    rules = round_rules(variant, r, **options)
    size = r + 2
    g, players, pool = _table(rng, rules, variant, seed, **options)
    avoid = frozenset({size})
    if helps:
        you, open_card = pool.one_short(size, avoid=avoid)
    else:
        you = pool.loose(size, avoid=avoid)
        found = pool.high_card(you, 10, 200, avoid=avoid)
        open_card = found or next(c for c in sorted(pool.cards.elements(), key=lambda c: -c.index)
                                  if c.rank not in avoid and c.rank not in {x.rank for x in you})
        pool.take([open_card])
    others = [pool.loose(size, spread=False) for _ in range(players - 1)]
    g.arrange([you, *others], [open_card], round=r, dealer=players - 1)
    return g


#: how many points a weaker legal draw may cost on average and still be right
DRAW_MARGIN = 1.0


@generator("TT-5")
def _(rng: Random, seed: int) -> Drill:
    variant = pick_variant(rng, ("three_thirteen", "tre_tretton"))
    r = rng.randint(2, 6)
    g = _draw_position(rng, seed, variant, r, helps=rng.random() < 0.5)
    top = g.pile[-1]
    hand = tuple(g.hands[0])
    wild = f"Round {r}: {rank_name(r + 2, plural=True)} are wild."
    if seed % 3 == 0:  # the rule itself: a turn is draw, then discard, never throw-back
        from_pile = (seed // 3) % 2 == 0 if seed < 30 else rng.random() < 0.5
        h = g.copy()
        h.apply("draw discard" if from_pile else "draw stock", player=0)
        card = top if from_pile else h.drawn
        shown = tuple(h.hands[0])

        def may_throw() -> bool:
            return any(a.card == card and a.verb in ("discard", "go out")
                       for a in h.legal_actions(0))
        where = "the discard pile" if from_pile else "the stock"
        return Drill(
            kind="move", variant=variant,
            question=f"Your turn: you took the {card.symbol} from {where}. May you discard the "
                     f"{card.symbol} now, to end your turn?",
            facts=(wild,), rows=(Row("Your hand", shown),), solve=may_throw,
            look="Where did the card come from, and what would throwing it straight back amount to?",
            why="A turn is: draw from the stock or the discard pile, then discard; a card taken "
                "from the discard pile can't go back the same turn (it would be a pass), but a "
                "card drawn from the stock may be thrown.",
            answer_kind="yes/no", choices=("yes", "no"), mistake=not may_throw(),
            mistake_why=("A card taken from the discard pile can't be thrown back at once."
                         if from_pile else "A card drawn from the stock may be thrown at once."),
            game=h)
    shoe = Counter(deck(g.packs, g.jokers))
    shoe.subtract([*hand, top])

    def values() -> dict[str, tuple[float, str]]:
        stock, taken = draw_values(hand, top, shoe, g.rules)
        return {"stock": (stock, f"the stock leaves {stock:.1f} on average"),
                "discard pile": (float(taken), f"the {top.symbol} leaves {taken}")}
    return Drill(
        kind="move", variant=variant,
        question=f"Your turn. Do you draw from the stock or take the {top.symbol} from the "
                 "discard pile? Right is the choice that leaves your hand costing least after "
                 f"your discard (the stock on average over the cards you can't see), or one "
                 f"within {DRAW_MARGIN:g} point of it.",
        facts=(wild,),
        rows=(Row("Your hand", hand), Row("Discard pile", (top,))), solve=lambda: None,
        look=f"What does your hand cost now, and what would the {top.symbol} change after "
             "your discard?",
        why=f"The {top.symbol} can't be thrown back this turn, so it is worth taking only when it "
            "fits your melds; a stock card might.",
        answer_kind="choice", choices=("stock", "discard pile"), game=g,
        judges="play", values=values, margin=DRAW_MARGIN)


def _out_position(rng: Random, seed: int, variant: str, r: int, **options: Any) -> Any:
    """Round ``r``: you hold a complete hand less one card; the stock gives a card."""
    rules = round_rules(variant, r, **options)
    size = r + 2
    g, players, pool = _table(rng, rules, variant, seed, **options)
    full = pool.complete(size)
    extra = pool.loose(1, avoid=frozenset({size}))[0]
    drawn_i = rng.randrange(size)
    drawn = full.pop(drawn_i)
    you = full + [extra]
    others = [pool.loose(size, spread=False) for _ in range(players - 1)]
    up = pool.loose(1)
    g.arrange([you, *others], up, [drawn], round=r, dealer=players - 1)
    g.apply("draw stock")
    return g


def _go_outs(g: Any) -> list[Card]:
    """The cards whose discard goes out, for you (seat 0)."""
    return [a.card for a in g.legal_actions(0) if a.verb == "go out"]


def _not_out(g: Any, hand: Sequence[Card]) -> Card:
    """A card whose discard does not go out (a typical wrong answer)."""
    outs = set(_go_outs(g))
    return next((c for c in hand if c not in outs), next(c for c in deck(1) if c not in hand))


def _throw_to_go_out(g: Any, variant: str, r: int, *, question: str, look: str, why: str,
                     mistake_why: str, shown: tuple[Row, ...] = ()) -> Drill:
    """A move: you have drawn in round ``r``; which card do you throw to go out?
    ``mistake_why`` names the typical wrong card as ``{card}``."""
    hand = tuple(g.hands[0])
    wrong = _not_out(g, hand)
    return Drill(
        kind="move", variant=variant, question=question,
        facts=(f"Round {r}: {rank_name(r + 2, plural=True)} are wild. You drew {g.drawn.symbol}.",),
        rows=(*shown, Row("Your hand", hand, pick=True)), solve=lambda: cards_answer(_go_outs(g)),
        look=look, why=why, answer_kind="card", mistake=str(wrong),
        mistake_why=mistake_why.format(card=wrong.symbol), game=g)


@generator("TT-6")
def _(rng: Random, seed: int) -> Drill:
    variant = pick_variant(rng, ("three_thirteen", "tre_tretton"))
    r = rng.randint(1, 9)
    return _throw_to_go_out(
        _out_position(rng, seed, variant, r), variant, r,
        question="You drew a card. Which card do you throw to go out?",
        look="Which of your cards are already in melds, and which one is left over?",
        why="Go out by throwing the one card that is in no meld.",
        mistake_why="Without the {card} the other cards don't all meld.")


@generator("TT-7")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    r, rules = pick_round(rng, variant, 1, 8)
    size = r + 2
    g, _players, pool = _table(rng, rules, variant, seed)
    ana = pool.complete(size)
    full = pool.complete(size)
    drawn = full.pop(rng.randrange(size))
    extra = pool.loose(1, avoid=frozenset({size}))[0]
    ana_top = pool.loose(1, avoid=frozenset({size}))
    up = pool.loose(1)
    # Ana (seat 1) plays first: draws, goes out; you then draw the card you need
    g.arrange([full + [extra], ana], up, ana_top + [drawn], round=r, dealer=0)
    g.apply("draw stock", player=1)
    g.apply(f"go out {ana_top[0]}", player=1)
    g.apply("draw stock", player=0)
    return _throw_to_go_out(
        g, variant, r, shown=(Row("Ana's melds", tuple(ana)),),
        question="Ana went out. On your last turn you drew a card: which card do you throw to "
                 "complete your hand too?",
        look="Someone went out: is the round over for you, or can you still complete your hand?",
        why="Your last turn still counts: complete your hand and you score 0 too.",
        mistake_why="Throwing the {card} leaves cards out of your melds.")


@generator("TT-8")
def _(rng: Random, seed: int) -> Drill:
    variant = pick_variant(rng, ("three_thirteen", "tre_tretton"))
    r, rules = pick_round(rng, variant, 2, 6)
    size = r + 2
    g = new_game(variant, players=["Ana", "Ben"], seed=seed)
    pool = Pool(rng, rules)
    ana = pool.complete(size)
    ben = pool.one_meld(size)
    tops = pool.loose(3, avoid=frozenset({size}))
    up = pool.loose(1)
    g.arrange([ana, ben], up, tops, round=r, dealer=1)
    g.apply("draw stock")
    g.apply(f"go out {tops[0]}")
    before = len(g.round_scores)
    g.apply("draw stock")
    worst = max(g.hands[1], key=lambda c: (rules.penalty_of(c), c.index))
    acts = [a for a in g.legal_actions() if a.card == worst]
    g.apply(acts[0])
    assert len(g.round_scores) == before + 1
    last = dict((s, arr) for s, arr, _p in g.last_round)
    return what_it_scores(
        g, variant, "Ben", tuple(last[1].cards), rules, lambda: g.round_scores[-1][1],
        question="Ana went out; the round is over. What does Ben score?",
        facts=(f"Round {r}: {rank_name(size, plural=True)} are wild.",),
        look="Which of Ben's cards can he meld, and which are left over?",
        why="Ben is scored on his best arrangement: only the unmelded cards count.",
        mistake_why="Cards in melds cost nothing; and only the player who went out scores 0.")


@generator("TT-9")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    players = 3
    g = new_game(variant, players=["Ana", "Ben", "Cleo"], seed=seed)
    rules = round_rules(variant, 11)
    pool = Pool(rng, rules, g.packs)
    tie = rng.random() < 0.4
    hands = [pool.complete(13) if i == 0 or tie and i == 1
             else pool.one_meld(13, spread=False) for i in range(players)]
    tops = pool.loose(3, avoid=frozenset({13}))
    g.arrange(hands, pool.loose(1), tops, round=11, dealer=2)
    play_out(g)
    return who_wins(
        g, variant, question="Round 11 is over. Who wins the game?",
        look="Is a high total good or bad, and does anybody share the best total?",
        why="Penalty points add up: the lowest total wins, and a tie for lowest means nobody wins.")


@generator("TT-10")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    r = rng.randint(6, 11)
    g = new_game(variant, players=["You", "Ana"], seed=seed)
    _deal_loose(rng, g, r, round_rules(variant, r), dealer=1)
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
        return logged_count(h, r"shuffled into a new stock of (\d+) cards")
    who = "You" if g.current_player == 0 else g.players[g.current_player]
    verb = ("draw it and discard" if who == "You" else "draws it and discards")
    return Drill(
        kind="count", variant=variant,
        question=f"The stock holds {stock} card. {who} {verb}; then the discard pile "
                 f"holds {pile + 1} cards. How many cards form the new stock?",
        facts=(f"Round {r}.",), rows=(Row("Discard pile, top", (g.pile[-1],)),), solve=solve,
        look="Which card of the discard pile stays where it is?",
        why="The whole pile but its top card is shuffled into the new stock.",
        answer_kind="number", mistake=pile + 1,
        mistake_why="The top card stays face up: it starts the new discard pile.", game=g)


@generator("TT-11")
def _(rng: Random, seed: int) -> Drill:
    players = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12][seed % 11] if seed < 55 else 2 + seed % 11
    variant = "three_thirteen"
    return Drill(
        kind="count", variant=variant,
        question=f"How many packs does Three Thirteen use for {players} players?",
        facts=("In round 11 everyone holds 13 cards; one card starts the discard pile, and the "
               "stock must give each player at least one card.",), rows=(),
        solve=lambda: new_game(variant, players=players, seed=seed).packs,
        look=f"How many cards does round 11 need for {players} players?",
        why=f"{players} x 13 + 1 + {players} cards must fit.", answer_kind="number",
        mistake=1 if players > 2 else 2,
        mistake_why="Count the cards round 11 needs and divide by 52, rounding up.")


@generator("TT-12")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    g = new_game(variant, players=2, seed=seed)
    turns = rng.choice((120, 150, 180, 190, 195, 198, 199, 200, 201, 210, 250)) + seed % 7
    return Drill(
        kind="procedure", variant=variant,
        question=f"{turns} turns have been played this round (all players together) and nobody "
                 "has gone out. Is the round stopped and scored now?",
        facts=("A stall rule keeps a round from running forever.",), rows=(),
        solve=lambda: turns >= g.stall_turns,
        look="After how many turns does the stall rule end a round?",
        why="The cap is 200 turns for all players together.",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not (turns >= g.stall_turns),
        mistake_why="Compare with the 200-turn cap.")


def _aces_question(rng: Random, variant: str, shapes: Sequence[tuple[int, ...]], *, look: str,
                   why: dict[str, str]) -> Drill:
    """A judgement: is this run with an ace a meld, with the option ``aces`` one
    of ``why``'s keys (``why`` says, per option, why it is or is not)?"""
    aces = rng.choice(tuple(why))
    r = rng.randint(2, 9)
    s = rng.choice(SUITS)
    cs = [Card(x, s) for x in rng.choice(shapes)]
    return meld_question(variant, r, cs, round_rules(variant, r, aces=aces), look=look,
                         why=why[aces], facts=(f"The option aces is {aces!r}.",))


@generator("TS-1")
def _(rng: Random, seed: int) -> Drill:
    return _aces_question(
        rng, "three_thirteen", ((12, 13, 1), (1, 2, 3), (13, 1, 2), (11, 12, 13, 1)),
        look="Where may an ace sit with this option: low, high, or both?",
        why={"low": "With aces low an ace comes before the 2 only.",
             "low_or_high": "With low_or_high an ace may sit below the 2 or above the king, "
                            "never both at once."})


def _lone_wild(rng: Random, variant: str, **options: Any) -> tuple[int, MeldRules, list[Card]]:
    """Round ``r`` (random), its rules, and two naturals with a wild that make no meld."""
    r, rules = pick_round(rng, variant, 1, 11, **options)
    w = r + 2
    # two naturals of different suits and far ranks: no meld with a wild
    for _ in range(200):
        a, b = Card(rng.randint(1, 13), rng.choice(SUITS)), Card(rng.randint(1, 13), rng.choice(SUITS))
        if a.suit != b.suit and abs(a.rank - b.rank) > 2 and w not in (a.rank, b.rank):
            return r, rules, [a, b, Card(w, rng.choice(SUITS))]
    raise RuntimeError  # pragma: no cover


@generator("TS-2")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    r, rules, cs = _lone_wild(rng, variant)
    wild = cs[-1]
    return Drill(
        kind="count", variant=variant,
        question=f"Round {r}: the {wild.symbol} is wild and ends the round unmelded. "
                 "What does it cost?",
        facts=(f"Three Thirteen, round {r}: {rank_name(r + 2, plural=True)} are wild.",),
        rows=(Row("The wild", (wild,)),), solve=lambda: rules.penalty_of(wild),
        look="Does a wild cost more than its face value in this variant?",
        why="In Three Thirteen a wild left unmelded costs its face value.",
        answer_kind="number", mistake=15, mistake_why="15 is the jokers variant's price (TJ-5).")


@generator("TR-1")
def _(rng: Random, seed: int) -> Drill:
    n = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10][seed % 10]

    def solve() -> bool:
        try:
            new_game("tre_tretton", players=n, seed=seed)
        except (GameError, ValueError):
            return False
        return True
    return Drill(
        kind="judgement", variant="tre_tretton",
        question=f"Can {n} player{'s' if n != 1 else ''} play Tre-tretton?", facts=(), rows=(),
        solve=solve, look="How many players is the Swedish game written for?",
        why="Tre-tretton is for 2 to 4 players.", answer_kind="yes/no", choices=("yes", "no"),
        mistake=not (2 <= n <= 4), mistake_why="Tre-tretton is played by 2, 3 or 4.")


@generator("TR-2")
def _(rng: Random, seed: int) -> Drill:
    variant = "tre_tretton"
    r, rules = pick_round(rng, variant, 1, 11)
    w = r + 2
    nat = rng.choice([x for x in range(1, 14) if x != w])
    suits = rng.sample(SUITS, 3)
    k = rng.choice((0, 1, 2))
    cs = [Card(nat, suits[i]) for i in range(k)] + [Card(w, suits[i]) for i in range(k, 3)]
    if k == 0 and rng.random() < 0.5:
        cs = [Card(w, suits[0]), Card(w, suits[1]), Card(w, suits[1])]
    return meld_question(variant, r, cs, rules,
                         look="How many of these cards are natural (not wild)?",
                         why="A meld here needs at least one natural card.")


@generator("TR-3")
def _(rng: Random, seed: int) -> Drill:
    variant = "tre_tretton"
    r, rules, cs = _lone_wild(rng, variant)
    hand = tuple(cs)
    return Drill(
        kind="count", variant=variant,
        question="These cards end the round unmelded. What do they cost?",
        facts=(f"Tre-tretton, round {r}: {rank_name(r + 2, plural=True)} are wild.",),
        rows=(Row("Your cards", hand),), solve=lambda: penalty(hand, rules),
        look=f"What does the wild {cs[-1].symbol} cost when it is left over?",
        why="A wild left unmelded costs its face value here.",
        answer_kind="number", mistake=penalty(hand[:2], rules),
        mistake_why="A wild left over is not free: it costs its face value.")


@generator("TJ-1")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen_jokers"
    g = new_game(variant, seed=seed)
    r = 1 + seed % 11
    _deal_loose(rng, g, r, round_rules(variant, r), dealer=rng.randrange(4))
    where = (("on your left", 1), ("across the table from you", 2), ("on your right", 3))
    phrase, seat = where[seed % 3] if seed < 30 else rng.choice(where)
    return Drill(
        kind="procedure", variant=variant,
        question=f"Round {r}: you play against three AI players. Which of them sits {phrase}?",
        facts=("The AI players are named after their seats as seen from yours, at the bottom of "
               "the table.",), rows=(),
        solve=lambda: g.players[seat],
        look="Picture the table from your chair: which seat is nearest each side of you, and "
             "which one faces you?",
        why="Three AI players sit around you: left, top (across) and right.",
        answer_kind="choice", choices=tuple(g.players[1:]),
        mistake=g.players[4 - seat] if seat != 2 else None,
        mistake_why="Left and right are seen from your chair at the bottom of the table.", game=g)


@generator("TJ-2")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen_jokers"
    jokers = (0, 2, 4)[seed % 3]
    r = rng.randint(1, 11)
    g = new_game(variant, seed=seed, jokers=jokers)
    _deal_loose(rng, g, r, round_rules(variant, r, jokers=jokers))
    return Drill(
        kind="count", variant=variant,
        question=f"Option jokers = {jokers}, round {r}: how many cards are in the stock after the deal?",
        facts=(f"Four players, {r + 2} cards each, one card turned up.",), rows=(),
        solve=lambda: g.observe(0).stock_size,
        look="How many cards are in the shoe before anything is dealt?",
        why=f"104 cards plus {jokers} jokers, less the hands and the card turned up.",
        answer_kind="number", mistake=52 + jokers - 4 * (r + 2) - 1,
        mistake_why="This game uses two packs: 104 cards.", game=g)


@generator("TJ-3")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen_jokers"
    r, rules = pick_round(rng, variant, 1, 11, jokers=2)
    w = r + 2
    pool = Pool(rng, rules, 2, 2)
    k = r + 2
    hand = [JOKER, Card(w, rng.choice(SUITS))]
    pool.take(hand)
    hand += pool.loose(k - 2, avoid=frozenset({w}), spread=False)
    rng.shuffle(hand)
    hand_t = tuple(hand)
    return Drill(
        kind="judgement", variant=variant,
        question="Which of your cards are wild this round? Click or type them all.",
        facts=(f"Round {r}, 2 jokers in the game.",), rows=(Row("Your hand", hand_t, pick=True),),
        solve=lambda: " ".join(str(c) for c in hand_t if rules.is_wild(c)),
        look="Which rank is wild in this round, and what about jokers?",
        why=f"The {rank_name(w, plural=True)} of this round, and the joker in every round.",
        answer_kind="cards", mistake=" ".join(str(c) for c in hand_t if c.rank == w and c != JOKER),
        mistake_why="Jokers are wild in every round too.")


@generator("TJ-4")
def _(rng: Random, seed: int) -> Drill:
    return _aces_question(
        rng, "three_thirteen_jokers", ((12, 13, 1), (1, 2, 3), (13, 1, 2)),
        look="With this option, is the ace below the 2 or above the king?",
        why=dict.fromkeys(("low", "high"), "Aces are either low or high, never both at once."))


@generator("TJ-5")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen_jokers"
    r, rules, cs = _lone_wild(rng, variant, jokers=2)
    if rng.random() < 0.5:
        cs[-1] = JOKER
    hand = tuple(cs)
    face = sum(c.rank if c != JOKER else 0 for c in hand)
    return Drill(
        kind="count", variant=variant,
        question="These cards end the round unmelded. What do they cost?",
        facts=(f"Round {r}: {rank_name(r + 2, plural=True)} and jokers are wild.",),
        rows=(Row("Your cards", hand),), solve=lambda: penalty(hand, rules),
        look="What does a wild left over cost in this variant: its face value?",
        why="A wild of the round's rank costs 15, a joker 20.",
        answer_kind="number", mistake=min(face, 10 * 3) if face != penalty(hand, rules) else 0,
        mistake_why="Wilds cost more here: 15, and a joker 20.")


@generator("TJ-6")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen_jokers"
    r, rules = pick_round(rng, variant, 1, 11, jokers=4)
    w = r + 2
    pool = Pool(rng, rules, 2, 4)
    size = (2, 3, 3, 4)[seed % 4]
    j = rng.randint(0, min(size, 4))
    wilds = [c for c in pool.cards.elements() if c.rank == w and c != JOKER]
    cs = [JOKER] * j + rng.sample(wilds, size - j)  # dealt from the shoe: no card too often
    pool.take(cs)
    rng.shuffle(cs)
    return meld_question(variant, r, cs, rules,
                         facts=("4 jokers in the game.",),
                         look="How many cards does any meld need, and does this variant ask for "
                              "a natural card in one?",
                         why="Here wilds alone make a meld, as long as there are at least three.")


@generator("TJ-7")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen_jokers"
    r = rng.randint(1, 8)
    g = _out_position(rng, seed, variant, r)
    hand = tuple(g.hands[0])
    outs = set(_go_outs(g))
    # half the positions ask about a discard that goes out, half about one that doesn't
    pick = sorted(outs if seed % 2 == 0 else set(hand) - outs, key=lambda c: c.index)
    card = rng.choice(pick or sorted(hand, key=lambda c: c.index))

    def goes_out() -> bool:
        return any(a.card == card and a.verb == "go out" for a in g.legal_actions(0))
    return Drill(
        kind="move", variant=variant,
        question=f"You drew a card and discard the {card.symbol}. Does the round end with "
                 "your discard (you go out)?",
        facts=(f"Round {r}: {rank_name(r + 2, plural=True)} are wild. You drew {g.drawn.symbol}.",),
        rows=(Row("Your hand", hand),), solve=goes_out,
        look=f"Without the {card.symbol}, can every other card of yours be melded?",
        why=("A discard that leaves the whole hand melded goes out: here that is not optional, "
             "and the round ends." if goes_out() else
             f"Without the {card.symbol} your other cards are not all melded, so the round goes "
             "on; a discard that left them all melded would go out, and that is not optional."),
        answer_kind="yes/no", choices=("yes", "no"), mistake=not goes_out(),
        mistake_why=("Going out is not a choice here: this discard leaves every card melded."
                     if goes_out() else "Without that card your hand is not all melded."),
        game=g)
