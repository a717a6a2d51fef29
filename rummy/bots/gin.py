"""Gin strategies for ``gin_three`` (the ``gin`` family): greedy and expert.

Both read only a :class:`rummy.gin.GinObservation`.  ``greedy`` takes the
lowest deadwood now and knocks as soon as it may.  ``expert`` remembers what
the opponent picked up and passed by, keeps cards that still have live
outs, avoids feeding the opponent, and knocks only when a simulation of the
opponent's likely hands says the knock wins (it avoids undercuts).

A bot in the captain's seat weighs the advisor's suggestion
(``obs.advice``): it takes it unless its own judgment says the suggestion is
clearly worse, and says which and why.

>>> from rummy import new_game
>>> import random
>>> g = new_game("gin_three", seed=2)
>>> obs = g.observe(g.current_player)
>>> action, why = greedy(obs, random.Random(0))
>>> action in obs.legal_actions, "deadwood" in why
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rummy.action import Action
from rummy.cards import Card
from rummy.errors import GameError
from rummy.search import best_arrangement
from rummy.search.onepack import (
    CARDS,
    VALUES,
    best_layoffs_masks,
    bit,
    cards_of,
    mask_of,
    mask_penalty,
)

if TYPE_CHECKING:  # the engine is not imported at run time: no import circle
    from rummy.gin import Advice, GinGame, GinObservation

__all__ = ["greedy", "expert", "memory_key", "unseen_cards"]

#: Points of deadwood by which a captain bot lets the advisor's suggestion be
#: worse than its own choice and still takes it (the advisor may know better).
ADVICE_TOLERANCE = 2.0
#: Opponent hands sampled to judge a knock.
KNOCK_SAMPLES = 40
#: Knock when the estimated chance of being undercut is at most this.
UNDERCUT_RISK = 0.2


def memory_key(obs: GinObservation) -> tuple[Any, ...]:
    """Expert memory is per player and per hand."""
    return (obs.variant.name, obs.players, obs.player, obs.hand_number)


def _after_take(hand: Sequence[Card], card: Card) -> tuple[int, Card]:
    """Best deadwood after taking ``card`` and discarding another card."""
    m = mask_of(hand) | 1 << bit(card)
    keep = bit(card)
    best: tuple[int, int, Card] | None = None
    for c in cards_of(m):
        b = bit(c)
        if b == keep:
            continue
        v = mask_penalty(m ^ (1 << b))
        key = (v, -VALUES[b], c)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return best[0], best[2]


def _discard_values(obs: GinObservation) -> dict[Card, int]:
    m = mask_of(obs.hand)
    keep = None if obs.just_taken is None else bit(obs.just_taken)
    return {c: mask_penalty(m ^ (1 << bit(c))) for c in obs.hand if bit(c) != keep}


def _layoff_move(obs: GinObservation) -> tuple[Action, str]:
    offs = [a for a in obs.legal_actions if a.verb == "lay off"]
    if offs:
        a = offs[0]
        return a, f"{a.card} lays off on the knocker's {_run_text(a.onto)}. {obs.layoff_hint}"
    return Action("lay out"), "nothing more lays off usefully; I lay out my melds"


def _run_text(cards_: Sequence[Card]) -> str:
    return "-".join(str(c) for c in sorted(cards_, key=lambda c: (c.rank, c.suit)))


def _take_verb(obs: GinObservation) -> tuple[Action, Action]:
    if obs.phase == "upcard":
        return Action("take upcard"), Action("pass")
    return Action("draw discard"), Action("draw stock")


# ---------------------------------------------------------------------------
# Greedy


def _greedy_choice(obs: GinObservation) -> tuple[Action, str]:
    if obs.phase == "lay off":
        return _layoff_move(obs)
    legal = obs.legal_actions
    if obs.phase in ("upcard", "draw"):
        take, leave = _take_verb(obs)
        top = obs.upcard
        now = mask_penalty(mask_of(obs.hand))
        if take in legal and top is not None:
            after, out = _after_take(obs.hand, top)
            if after < now:
                return take, (f"taking {top} lowers my deadwood from {now} to {after} "
                              f"(then I discard {out})")
            return leave, f"{top} would not lower my deadwood ({now}); " + (
                "I pass" if leave.verb == "pass" else "I draw from the stock")
        return legal[0], f"I must {legal[0]}; my deadwood is {now}"
    values = _discard_values(obs)
    best = min(values.values())
    cands = sorted((c for c in values if values[c] == best), key=lambda c: (-VALUES[bit(c)], c))
    card = cands[0]
    if best == 0:
        return Action("gin", card), f"discarding {card} leaves no deadwood: gin!"
    if best <= obs.knock_limit:
        return Action("knock", card), (f"discarding {card} leaves {best} points of deadwood, "
                                       f"at most {obs.knock_limit}: I knock")
    return Action("discard", card), (f"discarding {card} leaves the lowest deadwood, {best} "
                                     "points")


def _greedy_value(obs: GinObservation, a: Action) -> float:
    """Lower is better: the deadwood the move leaves (knocks and gin first)."""
    if a.verb in ("take upcard", "draw discard") and obs.upcard is not None:
        return _after_take(obs.hand, obs.upcard)[0]
    if a.verb in ("pass", "draw stock"):
        return mask_penalty(mask_of(obs.hand))
    if a.card is not None and a.verb in ("discard", "knock", "gin"):
        v = mask_penalty(mask_of(obs.hand) ^ (1 << bit(a.card)))
        return v - (1000 if a.verb == "gin" else 500 if a.verb == "knock" else 0)
    return 0.0


def greedy(obs: GinObservation, rng: random.Random) -> tuple[Action, str]:
    """The move leaving the lowest deadwood now; knocks as soon as it may.

    As captain it weighs the advisor's advice (``obs.advice``).
    """
    own = _greedy_choice(obs)
    return _weigh(obs, own, lambda a: _greedy_value(obs, a))


# ---------------------------------------------------------------------------
# Advice


def _weigh(obs: GinObservation, own: tuple[Action, str], value: Any) -> tuple[Action, str]:
    adv = obs.advice
    if adv is None or obs.player != obs.captain or obs.phase == "lay off":
        return own
    action, why = own
    if adv.action not in obs.legal_actions:
        return action, f"I ignore the advice ({adv.action}: not a legal move now). {why}"
    if adv.action == action:
        return action, f"I take the advice ({adv.action}): it is my choice too. {why}"
    mine, theirs = value(action), value(adv.action)
    if theirs <= mine + ADVICE_TOLERANCE:
        return adv.action, (f"I take the advice ({adv.action}): by my count it is about as "
                            f"good as my own idea, {action} ({_fmt(theirs)} against "
                            f"{_fmt(mine)}).")
    return action, (f"I ignore the advice ({adv.action}): by my count it is worse "
                    f"({_fmt(theirs)} against {_fmt(mine)} for {action}). {why}")


def _fmt(v: float) -> str:
    if v <= -400:
        return "a knock" if v > -900 else "gin"
    return f"{v:.1f} deadwood" if v != int(v) else f"{int(v)} deadwood"


# ---------------------------------------------------------------------------
# Expert


def unseen_cards(obs: GinObservation) -> list[Card]:
    """Cards this player can't place: not in view (own or partner's hand,
    discard pile) and not known to be in the opponent's hand."""
    opp = obs.opponent if obs.opponent is not None else obs.box
    known = set(obs.hand) | set(obs.partner_hand) | set(obs.discard_pile) | set(obs.taken[opp])
    return [c for c in CARDS if c not in known]


def _opponent_known(obs: GinObservation) -> list[Card]:
    """Cards the opponent took from the discard pile and still holds, once each:
    a card taken twice (taken, thrown, taken again) counts once, and one that
    has since reached the pile or our side is no longer theirs."""
    opp = obs.opponent if obs.opponent is not None else obs.box
    gone = set(obs.discard_pile) | set(obs.hand) | set(obs.partner_hand)
    return [c for c in dict.fromkeys(obs.taken[opp]) if c not in gone]


def _track(obs: GinObservation, memory: dict[str, Any]) -> None:
    """Note what the opponent passed by: my last discard, if they drew from
    the stock instead, and an upcard they passed."""
    declined: set[Card] = memory.setdefault("declined", set())
    opp = obs.opponent
    if opp is None:
        return
    last = memory.get("my_discard")
    if last is not None and obs.phase == "draw" and last not in obs.taken[opp]:
        declined.add(last)
        memory["my_discard"] = None
    if obs.phase == "upcard" and obs.player == obs.box and obs.upcard is not None:
        declined.add(obs.upcard)  # the captain passed it


def _danger(card: Card, opp_cards: Sequence[Card], declined: set[Card]) -> float:
    """How likely ``card`` helps the opponent: same rank or a near card in
    suit as cards they took; less if they passed cards like it."""
    d = 0.0
    for o in opp_cards:
        if o.rank == card.rank:
            d += 1.0
        elif o.suit == card.suit and abs(o.rank - card.rank) <= 2:
            d += 1.0 if abs(o.rank - card.rank) == 1 else 0.5
    for o in declined:
        if o.rank == card.rank or o.suit == card.suit and abs(o.rank - card.rank) == 1:
            d -= 0.3
    return max(d, 0.0)


def _outs(hand_mask: int, unseen: set[int]) -> int:
    """Live cards that would make a new meld with two unmelded cards of the hand."""
    n = 0
    for b in unseen:
        m = hand_mask | 1 << b
        # a card "counts" if adding it lowers deadwood by more than its own value
        if mask_penalty(m) < mask_penalty(hand_mask):
            n += 1
    return n


def _knock_judgment(obs: GinObservation, card: Card, rng: random.Random) -> tuple[float, float, int]:
    """(chance of being undercut, expected points, my deadwood) if I knock
    discarding ``card``, by sampling the opponent's likely hands."""
    rest = [c for c in obs.hand if c != card]
    arr = best_arrangement(rest, obs.variant.meld_rules())
    mine = arr.penalty
    melds = tuple(mask_of(m.cards) for m in arr.melds)
    known = _opponent_known(obs)
    pool = [c for c in unseen_cards(obs) if c != card]
    need = 10 - len(known)
    # the opponent has been improving: keep the best 10 of a few extra cards
    extra = min(obs.turns // 4, 4)
    under = 0
    total = 0.0
    undercut_bonus = obs.options.get("undercut_bonus", 10)
    memo: dict[Any, Any] = {}
    for _ in range(KNOCK_SAMPLES):
        draw = rng.sample(pool, min(len(pool), need + extra))
        m = mask_of(known + draw)
        for _k in range(extra):
            best_b, best_v = -1, 10**9
            for c in cards_of(m):
                b = bit(c)
                v = mask_penalty(m ^ (1 << b))
                if v < best_v:
                    best_b, best_v = b, v
            m ^= 1 << best_b
        theirs = best_layoffs_masks(m, melds, memo)[0]
        if theirs <= mine:
            under += 1
            total -= undercut_bonus + mine - theirs
        else:
            total += theirs - mine
    return under / KNOCK_SAMPLES, total / KNOCK_SAMPLES, mine


def _stock_value(obs: GinObservation, rng: random.Random) -> float:
    """Expected best deadwood after drawing an unseen card from the stock."""
    unseen = unseen_cards(obs)
    if obs.upcard in unseen:
        unseen.remove(obs.upcard)
    sample = unseen if len(unseen) <= 16 else rng.sample(unseen, 16)
    if not sample:
        return float(mask_penalty(mask_of(obs.hand)))
    return sum(_after_take(obs.hand, c)[0] for c in sample) / len(sample)


def _expert_choice(obs: GinObservation, rng: random.Random,
                   memory: dict[str, Any]) -> tuple[Action, str, Any]:
    """Returns (action, reason, value function for weighing advice)."""
    legal = obs.legal_actions
    if obs.phase == "lay off":
        a, why = _layoff_move(obs)
        return a, why, None
    if obs.phase in ("upcard", "draw"):
        take, leave = _take_verb(obs)
        top = obs.upcard
        stock = _stock_value(obs, rng)
        if take in legal and top is not None:
            after, out = _after_take(obs.hand, top)

            def draw_value(a: Action) -> float:
                return after if a == take else stock

            if after < stock - 0.5:
                return take, (f"taking {top} leaves {after} deadwood (discarding {out}); a "
                              f"stock card would leave {stock:.1f} on average"), draw_value
            return leave, (f"{top} leaves {after} deadwood, no better than a stock card "
                           f"({stock:.1f} on average): " + (
                               "I pass" if leave.verb == "pass" else "I draw from the stock")
                           ), draw_value
        return legal[0], f"I must {legal[0]}", lambda a: stock
    # discard phase
    values = _discard_values(obs)
    declined: set[Card] = memory.get("declined", set())
    opp_known = _opponent_known(obs)
    unseen = {bit(c) for c in unseen_cards(obs)}
    m = mask_of(obs.hand)
    best = min(values.values())
    gins = [c for c, v in values.items() if v == 0]
    if gins:
        c = max(gins, key=lambda c: (VALUES[bit(c)], c))
        return Action("gin", c), f"discarding {c} leaves no deadwood: gin!", \
            lambda a: -1000 if a.verb == "gin" else values.get(a.card, 99)  # type: ignore[arg-type]

    def score(c: Card) -> float:
        rest = m ^ (1 << bit(c))
        return values[c] + 1.5 * _danger(c, opp_known, declined) - 0.3 * _outs(rest, unseen)

    scored = {c: score(c) for c in values}
    plain = min(scored, key=lambda c: (scored[c], -VALUES[bit(c)], c))
    knock_reason = ""
    knock_choice = None
    if best <= obs.knock_limit:
        cands = [c for c, v in values.items() if v == best]
        c = max(cands, key=lambda c: (VALUES[bit(c)], c))
        risk, ev, mine = _knock_judgment(obs, c, rng)
        late = obs.stock_size <= 8
        if risk <= UNDERCUT_RISK or (late and ev > 0):
            knock_choice = c
            knock_reason = (f"discarding {c} leaves {mine} deadwood; I estimate a "
                            f"{risk:.0%} chance of an undercut and {ev:+.1f} points on "
                            "average: I knock")
        else:
            knock_reason = (f" I could knock with {mine}, but I estimate a {risk:.0%} "
                            f"chance of an undercut ({ev:+.1f} points on average), so I wait")

    def value(a: Action) -> float:
        if a.verb == "gin":
            return -1000
        if a.verb == "knock":
            return -500 if knock_choice is not None else values.get(a.card, 99) + 5  # type: ignore[arg-type]
        return scored.get(a.card, 99)  # type: ignore[arg-type]

    if knock_choice is not None:
        return Action("knock", knock_choice), knock_reason, value
    memory["my_discard"] = plain
    why = (f"discarding {plain} leaves {values[plain]} deadwood"
           + (", keeps my live combinations" if values[plain] > best else "")
           + (f" and is safe against what the opponent took ({_cards(opp_known)})"
              if opp_known and _danger(plain, opp_known, declined) == 0 else "")
           + "." + knock_reason)
    return Action("discard", plain), why, value


def _cards(cs: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cs)


def expert(obs: GinObservation, rng: random.Random, memory: dict[str, Any]) -> tuple[Action, str]:
    """Tracks the opponent's pick-ups and passes, discards safely, knocks
    when the odds favour it; as captain it weighs the advisor's advice."""
    _track(obs, memory)
    action, why, value = _expert_choice(obs, rng, memory)
    if value is None:
        return action, why
    out = _weigh(obs, (action, why), value)
    if out[0].verb == "discard":
        memory["my_discard"] = out[0].card
    return out


def advice(game: GinGame, bot: str = "expert", seed: int | None = None) -> Advice:
    """A bot advisor's suggestion, with its reason, for the captain's
    decision now, recorded as if the advisor had given it
    (``GinGame.advice`` calls this).

    The bot sees what the advisor may see: the captain's hand and the public
    table.

    >>> from rummy import new_game
    >>> g = new_game("gin_three", seed=12)
    >>> a = advice(g, "greedy")
    >>> a.seat == g.advisor and a.action in g.legal_actions()
    True
    """
    if game.is_over or game.turn != game.captain:
        who = "nobody" if game.is_over else f"{game.players[game.turn]} (box)"
        raise GameError(f"the advisor advises the captain, but now {who} is to act")
    obs = replace(game.observe(game.captain), advice=None)
    rng = random.Random(seed)
    if bot == "expert":
        key = (game.hand_number,)
        memory = game.advisor_memory
        if memory.get("_key") != key:
            memory.clear()
            memory["_key"] = key
        action, why = expert(obs, rng, memory)
    elif bot == "greedy":
        action, why = greedy(obs, rng)
    else:
        raise GameError(f"the advisor bot is 'greedy' or 'expert', not {bot!r}")
    return game.advise(action, player=game.advisor, reason=why)
