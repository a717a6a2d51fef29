"""Drills of Gin for three (G-1 to G-13)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from rummy.action import Action
from rummy.cards import SUITS, Card, deck
from rummy.errors import GameError
from rummy.game import new_game
from rummy.melds import MeldRules
from rummy.practice.deal import (
    Pool,
    cards_text,
    draw_values,
    meld_question,
    run_and_set,
)
from rummy.practice.registry import Drill, Row, generator
from rummy.search import best_arrangement, penalty
from rummy.teach import same_answer

_GIN = MeldRules(max_set_size=4)


def _gin(seed: int, box: Sequence[Card], captain: Sequence[Card], up: Card,
         stock_top: Sequence[Card] = (), roles: Sequence[int] = (0, 1, 2), **options: Any) -> Any:
    """A game of Ana, Ben and Cleo arranged with these hands, upcard, top of
    the stock and roles (by default Ana is the box, Ben the captain)."""
    g = new_game("gin_three", players=["Ana", "Ben", "Cleo"], seed=seed, **options)
    g.arrange(list(box), list(captain), up, list(stock_top), roles=list(roles))
    return g


def _any_hand(rng: Random, seed: int) -> tuple[Any, list[int]]:
    """A hand of loose cards with roles shuffled (and the roles)."""
    roles = list(range(3))
    rng.shuffle(roles)
    pool = Pool(rng, _GIN)
    box = pool.loose(10, spread=False)
    cap = pool.loose(10, spread=False)
    return _gin(seed, box, cap, pool.loose(1)[0], roles=roles), roles


def _captain_draws(g: Any, throw: Card | None = None) -> None:
    """Both pass the upcard and the captain draws from the stock; with
    ``throw``, the captain then discards it and the box draws."""
    g.apply("pass")          # the captain
    g.apply("pass")          # the box
    g.apply("draw stock")    # the captain
    if throw is not None:
        g.apply(f"discard {throw}")
        g.apply("draw stock")  # the box


def _gin_knock_game(rng: Random, seed: int, *, undercut: bool | None = None,
                    layoff: bool = False) -> Any:
    """The box (Ana) knocks on its first turn with a low card of deadwood; the
    captain (Ben) defends: with a card that lays off (``layoff``), with a hand
    that undercuts (``undercut``), or with loose cards."""
    for k in range(300):
        pool = Pool(rng, _GIN)
        box = pool.complete(9)
        last = pool.loose(1, avoid=frozenset(range(4, 14)))
        if undercut:
            cap = pool.complete(9)
            cap += pool.loose(1, avoid=frozenset(range(last[0].rank + 1, 14)))
        elif layoff:
            targets = []
            for m in best_arrangement(box, _GIN).melds:
                ranks = sorted(c.rank for c in m.cards)
                if len(set(ranks)) == 1 and len(m.cards) == 3:
                    targets += [Card(ranks[0], x) for x in SUITS if Card(ranks[0], x) not in m.cards]
                elif len(set(ranks)) == len(ranks):
                    suit = m.cards[0].suit
                    targets += [Card(x, suit) for x in (ranks[0] - 1, ranks[-1] + 1) if 1 <= x <= 13]
            targets = [c for c in targets if pool.cards[c]]
            if not targets:
                continue
            t = rng.choice(targets)
            pool.take([t])
            cap = [t] + pool.loose(9, spread=False)
        else:
            cap = pool.loose(10, spread=False)
        up = pool.loose(1, avoid=frozenset(range(1, 9)))[0]
        cap_draw = pool.loose(1)
        box_draw = pool.loose(1, avoid=frozenset(range(1, 9)))
        g = _gin(seed + k, box + last, cap, up, cap_draw + box_draw)
        _captain_draws(g, cap_draw[0])
        acts = [a for a in g.legal_actions() if a.verb == "knock"]
        if not acts:
            continue
        g.apply(min(acts, key=lambda a: penalty([c for c in g.hands[0] if c != a.card], _GIN)))
        if undercut is not None:
            probe = copy.deepcopy(g)
            _finish_layoffs(probe)
            if (probe.results[-1].kind == "undercut") != undercut:
                continue
        if layoff and not any(a.verb == "lay off" for a in g.legal_actions()):
            continue
        return g
    raise RuntimeError("no knock position found")  # pragma: no cover


def _finish_layoffs(g: Any) -> None:
    """The defender lays off as the engine's plan says, then lays out."""
    seat = g.to_act()[0]
    for _ in range(20):
        if g.phase != "lay off":
            return
        plan = g.observe(seat).layoff_plan
        if plan:
            g.apply(plan[0], player=seat)
        else:
            g.apply("lay out", player=seat)


def _gin_game(rng: Random, seed: int, **options: Any) -> Any:
    """The box (Ana) goes gin on its first turn: 10 melded cards and a card drawn."""
    for _ in range(200):
        pool = Pool(rng, _GIN)
        box = pool.complete(10)
        cap = pool.loose(10, spread=False)
        up = pool.loose(1)[0]
        cap_draw = pool.loose(1)
        drawn = pool.loose(1)
        g = _gin(seed, box, cap, up, cap_draw + drawn, **options)
        _captain_draws(g, cap_draw[0])
        gins = [a for a in g.legal_actions() if a.verb == "gin"]
        if gins:
            g.apply(gins[0])
            return g
    raise RuntimeError("no gin position found")  # pragma: no cover


def _upcard_position(rng: Random, seed: int, helps: bool) -> Any:
    """The first turn: the captain (Ben) and an upcard that completes a meld
    of theirs (``helps``) or is a high card that helps nothing."""
    pool = Pool(rng, _GIN)
    if helps:
        cap, up = pool.one_short(10)
    else:
        cap = pool.loose(10, spread=False)
        found = pool.high_card(cap, 9, 400)
        if found is None:
            return _upcard_position(rng, seed + 1000, helps)
        up = found
        pool.take([up])
    box = pool.loose(10, spread=False)
    return _gin(seed, box, cap, up)


def _is_card(text: str) -> bool:
    """Whether ``text`` is a card written in two letters (``Kh``)."""
    try:
        Card.parse(text)
    except ValueError:
        return False
    return len(text) == 2


@generator("G-1")
def _(rng: Random, seed: int) -> Drill:
    s = rng.choice(SUITS)
    shape = rng.choice(("qka", "a23", "ka2", "five", "set", "two"))
    if shape == "qka":
        cs = [Card(12, s), Card(13, s), Card(1, s)]
    elif shape == "a23":
        cs = [Card(1, s), Card(2, s), Card(3, s)]
    elif shape == "ka2":
        cs = [Card(13, s), Card(1, s), Card(2, s)]
    elif shape == "five":
        r = rng.randint(1, 13)
        cs = [Card(r, x) for x in SUITS] + [Card(r, s)]
    elif shape == "set":
        r = rng.randint(1, 13)
        cs = [Card(r, x) for x in rng.sample(SUITS, rng.choice((3, 4)))]
    else:
        r = rng.randint(3, 10)
        cs = [Card(r, s), Card(r + 1, s), Card(2, s)]
    if shape == "five":  # a set of five can't be made from one pack: four of a kind
        cs = cs[:4]
    return meld_question("gin_three", 1, cs, _GIN,
                         look="Aces are low in Gin, and nothing is wild: does each card fit?",
                         why="Gin melds: sets of 3 or 4, runs of 3 or more, aces low, no wilds.")


@generator("G-2")
def _(rng: Random, seed: int) -> Drill:
    g = new_game("gin_three", players=["Ana", "Ben", "Cleo"], seed=seed)
    pool = Pool(rng, _GIN)
    g.arrange(pool.loose(10, spread=False), pool.loose(10, spread=False), pool.loose(1)[0])
    draw = next(line for line in g.log if line.startswith("Role draw") and "draw again" not in line)
    cards_drawn = draw.split(":", 1)[1].split(".")[0].strip()
    cards_drawn = " ".join(Card.parse(t).symbol if _is_card(t.rstrip(",")) and not t.endswith(",")
                           else (Card.parse(t[:-1]).symbol + "," if _is_card(t.rstrip(",")) else t)
                           for t in cards_drawn.split())
    role = rng.choice(("box", "captain", "advisor"))
    lowest = {"box": "the lowest card", "captain": "the highest card", "advisor": "the highest card"}
    return Drill(
        kind="procedure", variant="gin_three",
        question=f"The role draw: {cards_drawn}. Who is the {role}?",
        facts=("Aces are low.",), rows=(),
        solve=lambda: g.players[g.roles.index(role)],
        look="Who drew the highest card, who the middle one, who the lowest?",
        why="Highest is the box, middle the captain, lowest the advisor.",
        answer_kind="choice", choices=tuple(g.players),
        mistake=g.players[g.roles.index({"box": "advisor", "captain": "box", "advisor": "box"}[role])],
        mistake_why=f"That is the player with {lowest[role]}.", game=g)


@generator("G-3")
def _(rng: Random, seed: int) -> Drill:
    g, roles = _any_hand(rng, seed)
    up = g.discards[-1]
    ask = rng.choice(("deals", "stock"))
    names = g.players
    facts = (f"{names[roles[0]]} is in the box, {names[roles[1]]} is captain, "
             f"{names[roles[2]]} advises.",)
    if ask == "deals":
        return Drill(
            kind="procedure", variant="gin_three",
            question="Who deals this hand?", facts=facts, rows=(Row("Upcard", (up,)),),
            solve=lambda: g.players[g.box], look="Which role deals every hand?",
            why="The box deals every hand.", answer_kind="choice", choices=tuple(names),
            mistake=names[roles[1]], mistake_why="The captain plays first but never deals.",
            game=g)
    return Drill(
        kind="count", variant="gin_three",
        question="After the deal, how many cards form the stock?", facts=facts,
        rows=(Row("Upcard", (up,)),), solve=lambda: g.observe(0).stock_size,
        look="Which cards leave the pack: the two hands only?",
        why="10 cards to the box, 10 to the captain and the upcard leave 31.",
        answer_kind="number", mistake=32, mistake_why="The upcard is not in the stock.", game=g)


#: the moments of the first turn G-4 asks about: (what happened, what is asked)
_UPCARD_STEPS = (
    ((), "The upcard is turned. Who may take it first?"),
    (("pass",), "The captain declines the upcard. Who may take it now?"),
    (("pass", "pass"), "The captain and the box both decline the upcard. Who plays first, "
                       "drawing from the stock?"),
    (("take upcard", "discard"), "The captain takes the upcard and discards. Who takes the "
                                 "next turn?"),
)


#: how many points a weaker legal first-turn choice may cost on average and still be right
UPCARD_MARGIN = 1.0


def _upcard_play(rng: Random, seed: int) -> Drill:
    """G-4 as play: take the upcard or pass, weighed by the deadwood each leaves
    (passing: the stock card you then draw, on average over the unseen cards)."""
    g = _upcard_position(rng, seed, helps=rng.random() < 0.5)
    hand = tuple(g.hands[g.captain])
    up = g.discards[-1]
    unseen = Counter(deck(1))
    unseen.subtract([*hand, up])

    def values() -> dict[str, tuple[float, str]]:
        stock, taken = draw_values(hand, up, unseen, _GIN)
        return {"take upcard": (float(taken), f"the {up.symbol} leaves {taken}"),
                "pass": (stock, f"passing and drawing from the stock leaves {stock:.1f} on "
                                "average")}
    return Drill(
        kind="move", variant="gin_three",
        question=f"You are the captain and speak first. Do you take the upcard {up.symbol} or "
                 "pass? Both are legal; right is the choice that leaves your deadwood lowest "
                 "after your discard (passing: the stock card you then draw, on average over the "
                 f"cards you can't see), or one within {UPCARD_MARGIN:g} point of it.",
        facts=("If you pass, the box may take it; if the box passes too, you draw from the "
               "stock.",),
        rows=(Row("Your hand", hand), Row("Upcard", (up,))), solve=lambda: None,
        look=f"What does your deadwood come to now, and what would the {up.symbol} change after "
             "your discard?",
        why="The captain may take the upcard first (then discards, not that card); passing "
            "leaves it to the box, and then the captain draws from the stock.",
        answer_kind="choice", choices=("take upcard", "pass"), game=g, judges="play",
        values=values, margin=UPCARD_MARGIN)


@generator("G-4")
def _(rng: Random, seed: int) -> Drill:
    if seed % 5 == 4:
        return _upcard_play(rng, seed)
    roles = [0, 1, 2]
    rng.shuffle(roles)
    pool = Pool(rng, _GIN)
    box, cap = pool.loose(10, spread=False), pool.loose(10, spread=False)
    g = _gin(seed, box, cap, pool.loose(1)[0], roles=roles)
    steps, question = _UPCARD_STEPS[seed % 4] if seed < 20 else rng.choice(_UPCARD_STEPS)
    h = copy.deepcopy(g)
    for step in steps:
        h.apply(step if step != "discard" else str(next(
            a for a in h.legal_actions() if a.verb == "discard")))
    up = g.discards[-1]
    names = g.players
    facts = (f"{names[g.box]} is in the box (dealt), {names[g.captain]} is captain, "
             f"{names[g.advisor]} advises. The upcard is the {up.symbol}.",)
    return Drill(
        kind="move", variant="gin_three", question=question, facts=facts,
        rows=(Row("Upcard", (up,)),), solve=lambda: names[h.to_act()[0]],
        look="Which of the two playing roles speaks first about the upcard, and what does the "
             "other one do then?",
        why="The captain (the non-dealer) may take the upcard first; if the captain declines, "
            "the box may; whoever takes it discards and the other takes a normal turn; if both "
            "decline, the captain starts by drawing from the stock. The advisor never plays.",
        answer_kind="choice", choices=tuple(names), mistake=names[g.advisor],
        mistake_why="The advisor only advises: the captain and the box play the hand.", game=h,
        explain=lambda given: _role_of(given, names, g))


def _role_of(given: object, names: Sequence[str], g: Any) -> str | None:
    """Why a name is the wrong answer to G-4: the role that player has."""
    role = {names[g.box]: "the box", names[g.captain]: "the captain"}
    for name, what in role.items():
        if same_answer(name, given):
            return f"{name} is {what} here: follow the order captain, then box, once more."
    return None


#: how many points of deadwood a weaker legal discard may leave and still be right
DISCARD_MARGIN = 2


@generator("G-5")
def _(rng: Random, seed: int) -> Drill:
    g = _upcard_position(rng, seed, helps=rng.random() < 0.5)
    g.apply("take upcard")
    hand = tuple(g.hands[g.captain])
    taken = g.just_taken

    def values() -> dict[str, tuple[float, str]]:
        legal = [a.card for a in g.legal_actions() if a.verb == "discard"]
        return {str(c): (float(p := penalty([x for x in hand if x != c], _GIN)),
                         f"the {c.symbol} leaves {p}") for c in legal}
    return Drill(
        kind="move", variant="gin_three",
        question=f"You took the {taken.symbol}. Which card do you discard? Any card but the one "
                 "you took is legal; right is a discard that leaves your deadwood lowest, or "
                 f"within {DISCARD_MARGIN} points of it.",
        facts=("You are the captain.",), rows=(Row("Your hand", hand, pick=True),),
        solve=lambda: None,
        look="Which card can't you throw this turn, and which of the rest is left out of melds?",
        why="A turn is draw (or take the discard), then discard; the card taken can't go "
            "straight back, and the best discard leaves the least deadwood.",
        answer_kind="card", game=g, judges="play", values=values, margin=DISCARD_MARGIN,
        illegal={str(taken): f"the {taken.symbol} was just taken from the discard pile and "
                             "can't go straight back."})


@generator("G-6")
def _(rng: Random, seed: int) -> Drill:
    can = rng.random() < 0.5
    for k in range(100):
        pool = Pool(rng, _GIN)
        cap = pool.complete(rng.choice((6, 7)))
        # deadwood of low cards (a knock) or of high ones (no knock)
        avoid = frozenset(range(5, 14)) if can else frozenset(range(1, 6))
        cap += pool.loose(10 - len(cap), avoid=avoid)
        up = pool.loose(1)[0]
        drawn = pool.loose(1, avoid=frozenset(range(1, 9)))
        box = pool.loose(10, spread=False)
        g = _gin(seed + k, box, cap, up, drawn)
        _captain_draws(g)
        knocks = any(a.verb in ("knock", "gin") for a in g.legal_actions())
        if knocks == can:
            break
    hand = tuple(g.hands[g.captain])
    return Drill(
        kind="move", variant="gin_three",
        question=f"You drew the {drawn[0].symbol}. May you knock now (is it allowed)?",
        facts=("You are the captain; the knock limit is 10.",), rows=(Row("Your hand", hand),),
        solve=lambda: any(a.verb in ("knock", "gin") for a in g.legal_actions()),
        look="Meld what you can and throw your worst card: how much deadwood is left?",
        why="A player may knock when, less one discard, the hand melds leaving at most 10 points "
            "of deadwood; knocking is never required.",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not can,
        mistake_why="Count the deadwood left after your best discard.", game=g)


@generator("G-7")
def _(rng: Random, seed: int) -> Drill:
    g = _gin_game(rng, seed)
    res = g.results[-1]
    return Drill(
        kind="count", variant="gin_three",
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


@generator("G-8")
def _(rng: Random, seed: int) -> Drill:
    g = _gin_knock_game(rng, seed, layoff=True)
    seat = g.to_act()[0]
    hand = tuple(g.hands[seat])
    melds = tuple(c for m in g.observe(seat).knock.melds for c in m)
    fits = {a.card for a in g.legal_actions(seat) if a.verb == "lay off"}
    wrong = next((c for c in hand if c not in fits), hand[0])

    def solve() -> Any:
        plan = g.observe(seat).layoff_plan
        return " ".join(str(a.card) for a in plan) if len(plan) > 1 else (
            str(plan[0].card) if plan else "none")
    return Drill(
        kind="move", variant="gin_three",
        question="Ana knocked. Which cards of your deadwood (left after your own melds) can go "
                 "onto her melds? Name them all.",
        facts=("You are the captain (Ben).",),
        rows=(Row("Ana's melds", melds), Row("Your hand", hand, pick=True)), solve=solve,
        look="Which of your cards would make one of Ana's melds longer?",
        why="Lay off the deadwood that extends a run or completes a set of four.",
        answer_kind="cards" if len(g.observe(seat).layoff_plan) > 1 else "card",
        mistake=str(wrong), mistake_why=f"The {wrong.symbol} fits none of Ana's melds.", game=g)


@generator("G-8a")
def _(rng: Random, seed: int) -> Drill:
    # a run and a set share a card: two ways to lay out
    for k in range(100):
        pool = Pool(rng, _GIN)
        run, same = run_and_set(rng, 9)
        core = run + same[:2]
        if not pool.take(core):
            continue
        more = pool.meld(3, avoid=frozenset(range(run[0].rank - 1, run[-1].rank + 2)))
        if more is None:
            continue
        low = pool.loose(2, avoid=frozenset(range(6, 14)) | {c.rank for c in core + more})
        cap = core + more + low
        box = pool.loose(10, spread=False)
        up = pool.loose(1)[0]
        drawn = pool.loose(1, avoid=frozenset(range(1, 9)))
        g = _gin(seed + k, box, cap, up, drawn)
        _captain_draws(g)
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
        k = copy.deepcopy(g)
        try:
            k.apply(named)
        except GameError:
            return False
        return True
    lowest = min(o.deadwood_points for o in opts)
    return Drill(
        kind="move", variant="gin_three",
        question=f"You knock, throwing the {card.symbol}. May you lay out {laid} and keep "
                 f"{cards_text(dead)} as deadwood?",
        facts=(f"The lowest deadwood you could leave is {lowest}.",),
        rows=(Row("Your hand", hand),), solve=solve,
        look="Is the deadwood of this arrangement within the knock limit of 10?",
        why="Any arrangement within the knock limit may be laid out, not only the lowest; "
            "your choice decides what the defender can lay off.",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not solve(),
        mistake_why="The lowest arrangement is not the only one allowed; the limit is what counts.",
        game=g)


@generator("G-9")
def _(rng: Random, seed: int) -> Drill:
    under = rng.random() < 0.5
    try:
        g = _gin_knock_game(rng, seed, undercut=under)
    except RuntimeError:
        g = _gin_knock_game(rng, seed)
    _finish_layoffs(g)
    res = g.results[-1]
    return Drill(
        kind="count", variant="gin_three",
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


def _after_a_hand(rng: Random, seed: int) -> Any:
    """A hand played to its end: a gin, or a knock (undercut or not)."""
    if rng.random() < 0.5:
        return _gin_game(rng, seed)
    g = _gin_knock_game(rng, seed, undercut=rng.random() < 0.5)
    _finish_layoffs(g)
    return g


@generator("G-10")
def _(rng: Random, seed: int) -> Drill:
    g = _after_a_hand(rng, seed)
    res = g.results[-1]
    adv = res.advisor
    loser = next(s for s in range(3) if s not in (adv, res.winner))
    who = (adv, res.winner, res.winner, loser, adv, res.winner)[seed % 6]
    name = g.players[who]
    return Drill(
        kind="count", variant="gin_three",
        question=f"{g.players[adv]} advised this hand and {g.players[res.winner]} won it. How "
                 f"many points does {name} score for this hand?",
        facts=tuple(res.sentences), rows=(),
        solve=lambda: g.hand_scores[-1][who],
        look=f"Which role did {name} have this hand, and which roles can score?",
        why="The advisor never scores; the winner of the hand scores its points, kept in their "
            "own total, and the loser scores nothing.",
        answer_kind="number", mistake=res.points if who != res.winner else 0,
        mistake_why=("The advisor helps the captain but shares nothing." if who == adv else
                     "Only the winner of the hand scores; the other player's total stays."
                     if who != res.winner else "The winner's points go to the winner's own "
                     "total."), game=g)


@generator("G-11")
def _(rng: Random, seed: int) -> Drill:
    g = _after_a_hand(rng, seed)
    res = g.results[-1]
    names = g.players
    ask = rng.choice(("box", "captain"))
    before = f"{names[res.box]} was in the box, {names[res.captain]} captain, {names[res.advisor]} advisor."
    wrong = names[res.box] if ask == "box" and res.winner != res.box else names[res.captain]
    return Drill(
        kind="procedure", variant="gin_three",
        question=f"{names[res.winner]} won the hand. Who is the {ask} next hand?",
        facts=(before, *res.sentences), rows=(),
        solve=lambda: g.players[g.box if ask == "box" else g.captain],
        look="Did the box win or lose?",
        why="A winning box stays and the others swap; a losing box sits out, the captain "
            "moves into the box and the advisor becomes captain.",
        answer_kind="choice", choices=tuple(names), mistake=wrong,
        mistake_why="Check whether the box won or lost first.", game=g)


@generator("G-12")
def _(rng: Random, seed: int) -> Drill:
    g, _roles = _any_hand(rng, seed)
    g.apply("pass")
    g.apply("pass")
    while g.number == 1 and g.observe(0).stock_size > 3:
        g.apply("draw stock")
        g.apply(_plain_discard(g))
    names = g.players
    box_name = names[g.box]
    return Drill(
        kind="procedure", variant="gin_three",
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
    """Who is in the box once the next player draws and discards."""
    k = copy.deepcopy(g)
    k.apply("draw stock")
    k.apply(_plain_discard(k))
    return k.players[k.box]


@generator("G-13")
def _(rng: Random, seed: int) -> Drill:
    target = rng.choice((50, 100))
    g = _gin_game(rng, seed, target=target)
    totals = ", ".join(f"{p} {s}" for p, s in zip(g.players, g.scores))
    over = g.is_over
    return Drill(
        kind="procedure", variant="gin_three",
        question=f"The game is played to {target}. After this hand the totals are {totals}. "
                 "Is the game over?",
        facts=(), rows=(),
        solve=lambda: g.is_over,
        look=f"Has anybody reached {target}?",
        why=f"Hands go on until a total reaches the target ({target} here; 100 by default).",
        answer_kind="yes/no", choices=("yes", "no"), mistake=not over,
        mistake_why="Compare each total with the target.", game=g)
