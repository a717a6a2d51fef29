"""Drills of the rules every variant shares: cards and points (C-1 to C-4) and
melds (M-1 to M-7)."""

from __future__ import annotations

from collections import Counter
from random import Random

from rummy.cards import JOKER, SUITS, Card, deck, rank_name
from rummy.game import new_game
from rummy.melds import MeldRules
from rummy.practice.deal import (
    NAMES,
    Pool,
    meld_question,
    pick_round,
    run_and_set,
)
from rummy.practice.registry import Drill, Row, asked_variant, generator, pick_variant
from rummy.search import best_arrangement, penalty
from rummy.teach import as_number
from rummy.variants import find_variant


@generator("C-1")
def _(rng: Random, seed: int) -> Drill:
    packs_wanted = (1, 2, 3, 4)[seed % 4]
    players = {1: 2, 2: rng.randint(3, 7), 3: rng.randint(8, 11), 4: 12}[packs_wanted]
    variant = "three_thirteen"
    g = new_game(variant, players=list(NAMES[:players]), seed=seed)
    card = Card(rng.randint(1, 13), rng.choice(SUITS))
    r, rules = pick_round(rng, variant, 2, 11)
    pool = Pool(rng, rules, g.packs)
    twice = min(g.packs, 2)
    pool.take([card] * twice)
    hand = [card] * twice + pool.loose(r + 2 - twice, avoid=frozenset({card.rank}))
    rng.shuffle(hand)
    packs = g.packs
    return Drill(
        kind="count", variant=variant,
        question=f"{players} players share this shoe. How many {card.symbol} does it hold?",
        facts=(f"Three Thirteen for {players} players, round {r}.",
               f"Your hand holds {card.symbol} {'twice' if twice == 2 else 'once'}."),
        rows=(Row("Your hand", tuple(hand)),),
        solve=lambda: Counter(deck(g.packs, g.jokers))[card],
        look=f"How many packs are mixed for {players} players, and how often is each card in a pack?",
        why=f"{players} players play with {packs} pack{'s' if packs > 1 else ''}, and each pack "
            "holds every card once.",
        answer_kind="number", mistake=twice if twice != packs else packs + 1,
        mistake_why="The cards in your hand are only some of the shoe: count the packs mixed.")


@generator("C-2")
def _(rng: Random, seed: int) -> Drill:
    # gin (nothing wild, aces low), or the Three-Thirteen game a lesson asks for: a
    # round of it, with no card of its wild rank among the cards
    variant = asked_variant(("three_thirteen", "tre_tretton")) or "gin_three"
    rules, facts = MeldRules(), ("Nothing is wild, aces are low.",)
    if variant != "gin_three":
        r, rules = pick_round(rng, variant, 1, 11)
        wild = rank_name(rules.wild_rank, plural=True) if rules.wild_rank else "no cards"
        facts = (f"{find_variant(variant).title}, round {r}: {wild} are wild, and none is here.",)
    pool = Pool(rng, rules)
    k = rng.randint(3, 5)
    hand = pool.loose(k)
    faces = sum(c.rank for c in hand)
    return Drill(
        kind="count", variant=variant,
        question="None of these cards is in a meld. How many penalty points are they worth?",
        facts=facts, rows=(Row("Deadwood", tuple(hand)),),
        solve=lambda: penalty(hand, rules),
        look="Which of these cards are pictures (J, Q, K), and what is an ace worth?",
        why="Add the points card by card.", answer_kind="number",
        mistake=faces if faces != penalty(hand, rules) else penalty(hand, rules) + 1,
        mistake_why="J, Q and K are worth 10 each, not 11, 12 and 13.")


@generator("C-3")
def _(rng: Random, seed: int) -> Drill:
    s = rng.choice(SUITS)
    shapes = ((1, 2, 3), (12, 13, 1), (13, 1, 2), (12, 13, 1, 2), (1, 2, 3, 4), (11, 12, 13, 1),
              (1, 2, 3, 4, 5))
    ranks = shapes[seed % len(shapes)]
    cs = [Card(r, s) for r in ranks]
    rules = MeldRules()
    return meld_question("gin_three", 1, cs, rules,
                         look="Where does the ace sit: below the 2, or above the king?",
                         why="With aces low the ace comes before the 2 only.")


@generator("C-4")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen_jokers"
    r, rules = pick_round(rng, variant, 1, 11, jokers=2)
    avoid = frozenset({r + 2})
    ranks = [x for x in range(1, 14) if x not in avoid]
    shape = ("set", "run", "far", "mixed")[seed % 4] if seed < 20 else rng.choice(
        ("set", "run", "far", "mixed"))
    s = rng.choice(SUITS)
    cs: list[Card] = []
    for _ in range(200):
        rank = rng.choice(ranks)
        if shape == "set":
            cs = [Card(rank, t) for t in rng.sample(SUITS, 2)] + [JOKER]
        elif shape == "run":
            start = rng.randint(1, 11)
            cs = [Card(start, s), JOKER, Card(start + 2, s)]
        elif shape == "far":  # one suit, but too far apart for one joker to bridge
            start = rng.randint(1, 9)
            cs = [Card(start, s), JOKER, Card(start + rng.randint(3, 4), s)]
        else:  # two ranks of two suits: no set and no run
            other = rng.choice([x for x in ranks if abs(x - rank) > 2])
            t = rng.choice([x for x in SUITS if x != s])
            cs = [Card(rank, s), JOKER, Card(other, t)]
        if not any(c.rank in avoid for c in cs if c != JOKER):
            break
    rng.shuffle(cs)
    return meld_question(variant, r, cs, rules,
                         look="What card could the joker stand for here, if any?",
                         why="A joker is wild in every round: it stands for any one card, but "
                             "only one.")


@generator("M-1")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    r, rules = pick_round(rng, variant, 1, 11)
    rank = rng.choice([x for x in range(1, 14) if x != rules.wild_rank])
    shape = rng.choice(("set", "twin", "mixed", "pair"))
    suits = rng.sample(SUITS, 3)
    if shape == "set":
        cs = [Card(rank, s) for s in suits]
    elif shape == "twin":
        cs = [Card(rank, suits[0]), Card(rank, suits[0]), Card(rank, suits[1])]
    elif shape == "mixed":
        other = rng.choice([x for x in range(1, 14) if x not in (rank, rules.wild_rank)])
        cs = [Card(rank, suits[0]), Card(rank, suits[1]), Card(other, suits[2])]
    else:
        cs = [Card(rank, suits[0]), Card(rank, suits[1])]
    return meld_question(variant, r, cs, rules,
                         facts=("Three players: two packs are mixed.",),
                         look="Are all the cards of one rank, and are there at least three?",
                         why="Suits don't matter in a set; identical cards from two packs are fine.")


@generator("M-2")
def _(rng: Random, seed: int) -> Drill:
    rules = MeldRules()
    s = rng.choice(SUITS)
    start = rng.randint(2, 9)
    shape = rng.choice(("run", "gap", "suits", "twice", "long"))
    if shape == "run":
        cs = [Card(start + i, s) for i in range(3)]
    elif shape == "long":
        cs = [Card(start + i, s) for i in range(5)]
    elif shape == "gap":
        cs = [Card(start, s), Card(start + 1, s), Card(start + 3, s)]
    elif shape == "suits":
        t = rng.choice([x for x in SUITS if x != s])
        cs = [Card(start, s), Card(start + 1, t), Card(start + 2, s)]
    else:  # a rank twice (of another suit: one pack holds each card once)
        t = rng.choice([x for x in SUITS if x != s])
        cs = [Card(start, s), Card(start + 1, s), Card(start + 1, t), Card(start + 2, s)]
    return meld_question("gin_three", 1, cs, rules,
                         look="One suit? Ranks one after the other, none twice?",
                         why="A run needs one suit, consecutive ranks and no rank twice.")


@generator("M-3")
def _(rng: Random, seed: int) -> Drill:
    rules = MeldRules()
    run, same = run_and_set(rng, 10)
    # two of the same rank: the run's top card is needed in the set too; three: enough for both
    hand = tuple(run + (same[:2] if rng.random() < 0.6 else same))
    return Drill(
        kind="judgement", variant="gin_three",
        question="Can every one of these cards be in a meld at the same time?",
        facts=("Nothing is wild, aces are low.",), rows=(Row("Your cards", hand),),
        solve=lambda: best_arrangement(hand, rules).penalty == 0,
        look=f"Which meld would the {run[-1].symbol} go in?",
        why="Count the cards each meld needs; a card can't be in two of them.",
        answer_kind="yes/no", choices=("yes", "no"),
        mistake=best_arrangement(hand, rules).penalty != 0,
        mistake_why="A card used in one meld can't be used again in another.")


@generator("M-4")
def _(rng: Random, seed: int) -> Drill:
    variant = pick_variant(rng, ("three_thirteen", "tre_tretton"))
    r, rules = pick_round(rng, variant, 1, 11)
    w = r + 2
    suits = list(SUITS)
    rng.shuffle(suits)
    shape = rng.choice(("one", "two", "none", "apart"))
    nat_rank = rng.choice([x for x in range(1, 14) if x != w])
    if shape == "apart":  # two naturals too far apart for one wild to join
        far = rng.choice([x for x in range(1, 14) if x != w and abs(x - nat_rank) > 2])
        cs = [Card(nat_rank, suits[0]), Card(far, suits[1]), Card(w, suits[2])]
    elif shape == "one":
        cs = [Card(nat_rank, suits[0]), Card(nat_rank, suits[1]), Card(w, suits[2])]
    elif shape == "two":
        cs = [Card(nat_rank, suits[0]), Card(w, suits[1]), Card(w, suits[2])]
    else:
        cs = [Card(w, suits[0]), Card(w, suits[1]), Card(w, suits[2])]
    return meld_question(variant, r, cs, rules,
                         look="Which of these cards are wild this round, and what can each stand for?",
                         why=("In Tre-tretton a meld needs a natural card." if variant == "tre_tretton"
                              else "In Three Thirteen even wilds alone make a meld."))


@generator("M-4a")
def _(rng: Random, seed: int) -> Drill:
    variant = "tre_tretton"
    r, rules = pick_round(rng, variant, 1, 11)
    w = r + 2
    k = rng.choice((3, 3, 4))
    if rng.random() < 0.7:
        cs = [Card(w, s) for s in rng.sample(SUITS, k)]
    elif w >= 2 and w <= 12:
        s = rng.choice(SUITS)
        cs = [Card(w - 1, s), Card(w, s), Card(w + 1, s)]
    else:
        cs = [Card(w, s) for s in rng.sample(SUITS, k)]
    return meld_question(variant, r, cs, rules,
                         look="Which of these cards are of this round's wild rank, and which "
                              "are natural?",
                         why="A card of the wild rank is wild even in a set of its own rank.")


@generator("M-5")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    r, rules = pick_round(rng, variant, 1, 11)
    w = r + 2
    s = rng.choice(SUITS)
    ws = rng.choice(SUITS)
    for _ in range(100):
        a = rng.randint(1, 13)
        gap = rng.choice((1, 2, 3, 4))
        b = a + gap
        if b <= 13 and w not in (a, b):
            break
    cs = [Card(a, s), Card(b, s), Card(w, ws)]
    rng.shuffle(cs)
    return meld_question(variant, r, cs, rules,
                         look="Put the two naturals in order: which place is left for the wild?",
                         why="The wild takes the place the naturals leave, anywhere in the run.")


@generator("M-6")
def _(rng: Random, seed: int) -> Drill:
    variant = "three_thirteen"
    r, rules = pick_round(rng, variant, 1, 6)
    size = r + 2
    pool = Pool(rng, rules)
    ana = pool.complete(size)
    # some of your cards would fit Ana's melds, if lay-offs were allowed
    fits = [c for c in pool.cards.elements() if not rules.is_wild(c) and any(
        all(x.rank == c.rank for x in m.cards) or all(x.suit == c.suit for x in m.cards)
        and c.rank in (min(x.rank for x in m.cards) - 1, max(x.rank for x in m.cards) + 1)
        for m in best_arrangement(ana, rules).melds)]
    k = rng.randint(1, min(2, len(set(fits)))) if fits else 0
    chosen = rng.sample(sorted(set(fits), key=lambda c: c.index), k)
    pool.take(chosen)
    you = chosen + pool.loose(size - k, avoid=frozenset({c.rank for c in chosen}))
    rng.shuffle(you)
    ben = pool.loose(size, spread=False)
    up = pool.loose(1, spread=False)
    top = pool.loose(1, spread=False)
    g = new_game(variant, players=list(NAMES[:3]), seed=seed)
    g.arrange([you, ana, ben], up, top, round=r, dealer=0)
    g.apply("draw stock")  # Ana
    g.apply(f"go out {top[0]}")
    g.apply("draw stock")  # Ben
    g.apply(str(g.legal_actions()[0]))
    g.apply("draw stock")  # you, last turn
    shown = dict(g.observe(0).shown).get(1, ())
    melds = [c for m in shown for c in m.cards]
    hand = tuple(g.observe(0).hand)
    throw = max(hand, key=lambda c: (rules.penalty_of(c), c.index))

    def solve() -> int:
        h = g.copy()
        h.apply(f"discard {throw}")
        return int(h.round_scores[-1][0])
    return Drill(
        kind="count", variant=variant,
        question=f"Ana went out and her melds lie open. On your last turn you throw the "
                 f"{throw.symbol}. How many points do your other cards cost?",
        facts=(f"Round {r}: {rank_name(size, plural=True)} are wild.",),
        rows=(Row("Ana's melds", tuple(melds)), Row("Your hand", hand)),
        solve=solve,
        look="Your cards that would fit Ana's melds: where may they go in this family?",
        why="Nobody adds cards to another player's melds here; only your own melds "
            "count, so every card outside them costs its points. Lay-offs belong to Gin.",
        answer_kind="number", mistake=None, game=g,
        explain=lambda given: _m6_why(given, solve()))


def _m6_why(given: object, right: int) -> str | None:
    """Why an M-6 count is wrong: too low, as if cards went onto Ana's melds."""
    n = as_number(given)
    if n is not None and n < right:
        return (f"{given} is too low: every card outside your own melds counts, even one that "
                "would fit Ana's melds, since you can't add cards to them.")
    return None


@generator("M-7")
def _(rng: Random, seed: int) -> Drill:
    rules = MeldRules()
    # a run and two more of the run's top rank: the top card goes where it saves most
    run, same = run_and_set(rng, 8)
    hand = run + same[:2]
    pool = Pool(rng, rules)
    pool.take(hand)
    start, end = run[0].rank, run[-1].rank
    hand += pool.loose(rng.randint(1, 2), avoid=frozenset(range(start - 2, end + 3)))
    hand_t = tuple(hand)
    naive = sum(min(c.rank, 10) for c in hand[3:])
    return Drill(
        kind="count", variant="gin_three",
        question="What do these cards score, arranged as well as they can be?",
        facts=("Nothing is wild, aces are low.",), rows=(Row("Your hand", hand_t),),
        solve=lambda: best_arrangement(hand_t, rules).penalty,
        look=f"The {run[-1].symbol} fits two melds: which choice leaves fewer points?",
        why="Try each way to arrange the hand and keep the lowest.",
        answer_kind="number",
        mistake=naive if naive != best_arrangement(hand_t, rules).penalty else naive + 1,
        mistake_why="That is the run laid first; another arrangement leaves fewer points.")
