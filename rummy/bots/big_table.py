"""Big Table strategies for the greedy and expert bots (BT-1..BT-8).

``rummy.bots.GreedyBot`` and ``ExpertBot`` call :func:`greedy` and
:func:`expert` when ``obs.variant.family == "big_table"``.  Both read only a
:class:`rummy.big_table.BigTableObservation` and return an action with one
sentence, with numbers, saying why.

- **greedy** calls match as soon as it can, takes the right neighbour's top
  card only when that lowers its best penalty, and discards the card that
  leaves the lowest penalty (``best_discard``).
- **expert** also calls match at once.  To draw it compares the right
  neighbour's top card with the average of a few cards it has not seen (the
  pool).  To discard it weighs the penalty left against two things the
  table shows: what its **left** neighbour takes from its own pile (that
  neighbour's only pile source is the expert's pile, so every card in
  ``obs.taken[obs.left]`` came from it) and what its **right** neighbour keeps
  throwing onto the pile the expert draws from.  In the final cycle, or once
  someone has matched, only the points count.

>>> import random
>>> from rummy.game import new_game
>>> g = new_game("big_table", players=3, seed=2)
>>> seat = g.to_act()[0]
>>> action, why = greedy(g.observe(seat), random.Random(0))
>>> action in g.legal_actions(seat), why.endswith(".")
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from rummy.action import Action
from rummy.big_table import BigTableObservation
from rummy.cards import Card, deck, format_cards
from rummy.melds import MeldRules
from rummy.search import best_arrangement, best_discard, best_discard_choice, penalty

__all__ = ["greedy", "expert", "discard_penalties"]

_CALL = Action("call match")
_PLAY_ON = Action("play on")
_POOL = Action("draw pool")
#: how many unseen cards the expert tries when it weighs a pool draw
POOL_SAMPLE = 6


def _key(hand: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=Card.sort_key))


# the meld search (rummy.search) keeps its answers per hand: no cache here
_best_discard = best_discard
_discard_choice = best_discard_choice
_penalty = penalty


@lru_cache(maxsize=4096)
def _after_each(hand: tuple[Card, ...], rules: MeldRules) -> tuple[tuple[Card, int], ...]:
    out = []
    for c in sorted(set(hand), key=Card.sort_key):
        rest = list(hand)
        rest.remove(c)
        out.append((c, _penalty(tuple(rest), rules)))
    return tuple(out)


def discard_penalties(hand: tuple[Card, ...] | list[Card], rules: MeldRules) -> dict[Card, int]:
    """For each distinct card of ``hand``: the penalty left after discarding it.

    >>> from rummy.cards import cards
    >>> d = discard_penalties(cards("7h 8h 9h Kc"), MeldRules(wild_rank=4))
    >>> d[Card.parse("Kc")], d[Card.parse("7h")]
    (0, 27)
    """
    return dict(_after_each(_key(hand), rules))


def _match(obs: BigTableObservation) -> tuple[Action, str]:
    arr = best_arrangement(obs.hand, obs.rules)
    melds = " ".join(f"[{m}]" for m in arr.melds)
    return _CALL, (f"All {len(obs.hand)} of my cards are melded ({melds}), so I call match "
                   "and score 0.")


def _no_move(obs: BigTableObservation) -> tuple[Action, str]:
    raise ValueError(
        f"{obs.players[obs.player]} has nothing to do in phase {obs.phase!r}"
        + (" (already chose)" if obs.choice else "")
    )


def greedy(obs: BigTableObservation, rng: random.Random) -> tuple[Action, str]:
    """The greedy move: call match at once, take the pile card only when it
    lowers the best penalty, discard the card that leaves the least."""
    legal = obs.legal_actions
    if not legal:
        return _no_move(obs)
    if _CALL in legal:
        return _match(obs)
    verbs = {a.verb for a in legal}
    right = obs.players[obs.right]
    if "draw pool" in verbs:
        now = _penalty(_key(obs.hand), obs.rules)
        take = next((a for a in legal if a.verb == "draw pile"), None)
        if take is not None and take.card is not None:
            card, left = _discard_choice(_key(obs.hand + (take.card,)), obs.rules)
            if left < now:
                return take, (f"Taking {take.card} from {right}'s pile and discarding {card} "
                              f"cuts my penalty from {now} to {left} points.")
            return _POOL, (f"{take.card} from {right}'s pile would leave {left} points at "
                           f"best, no better than my {now} now, so I draw from the pool.")
        return _POOL, f"{right}'s pile is empty, so I draw from the pool (penalty {now} now)."
    d = _best_discard(_key(obs.hand), obs.rules)
    return Action("discard", d.card), (
        f"Discarding {d.card} leaves {d.penalty} points of deadwood "
        f"({len(d.arrangement.deadwood)} unmelded cards)."
    )


# ---------------------------------------------------------------------------
# expert


def _unseen(obs: BigTableObservation) -> Counter[Card]:
    """Cards the player has not seen: the shoe less their hand, every pile
    and every laid-down meld (others' hands and the pool are in here)."""
    left = Counter(deck(obs.packs))
    left.subtract(obs.hand)
    for pile in obs.piles:
        left.subtract(pile)
    for _seat, arr in obs.open_melds:
        left.subtract(arr.cards)
    return +left


def _near(a: Card, b: Card) -> bool:
    """Could a and b sit in one meld of naturals (same rank, or same suit
    within two ranks)?"""
    return a.rank == b.rank or (a.suit == b.suit and abs(a.rank - b.rank) <= 2)


def _pool_estimate(obs: BigTableObservation, rng: random.Random) -> tuple[float, int]:
    unseen = _unseen(obs)
    kinds = sorted(unseen, key=Card.sort_key)
    if not kinds:
        return float("inf"), 0
    weights = [unseen[c] for c in kinds]
    sample = rng.choices(kinds, weights=weights, k=POOL_SAMPLE)
    vals = [_discard_choice(_key(obs.hand + (c,)), obs.rules)[1] for c in sample]
    return sum(vals) / len(vals), len(vals)


def expert(obs: BigTableObservation, rng: random.Random,
           memory: dict[str, Any]) -> tuple[Action, str]:
    """The expert move (see the module text): match at once; draw by
    comparing the pile card with sampled pool cards; discard weighing the
    points left against feeding the left neighbour and what flows in from
    the right neighbour."""
    legal = obs.legal_actions
    if not legal:
        return _no_move(obs)
    if _CALL in legal:
        return _match(obs)
    memory["decisions"] = memory.get("decisions", 0) + 1
    rules = obs.rules
    right = obs.players[obs.right]
    left = obs.players[obs.left]
    verbs = {a.verb for a in legal}
    if "draw pool" in verbs:
        take = next((a for a in legal if a.verb == "draw pile"), None)
        if take is None or take.card is None:
            return _POOL, f"{right}'s pile is empty, so I draw from the pool."
        top = take.card
        with_top = _discard_choice(_key(obs.hand + (top,)), rules)[1]
        if rules.is_wild(top):
            now = _penalty(_key(obs.hand), rules)
            return take, (f"{top} on {right}'s pile is wild, so I take it (my penalty goes "
                          f"from {now} to {with_top} after my best discard).")
        expect, k = _pool_estimate(obs, rng)
        if with_top <= expect:
            return take, (f"{top} from {right}'s pile leaves {with_top} points after my best "
                          f"discard; a pool card leaves about {expect:.1f} ({k} cards tried).")
        return _POOL, (f"{top} from {right}'s pile would leave {with_top} points; a pool card "
                       f"leaves about {expect:.1f} on average ({k} cards tried), so I draw "
                       "from the pool.")
    # choose a discard
    after = discard_penalties(obs.hand, rules)
    best = min(after.values())
    endgame = obs.final_cycle or bool(obs.matched)
    fed = obs.taken[obs.left]          # every card the left neighbour took came from my pile
    dumped = obs.discarded[obs.left]   # and what they throw away they do not collect
    flow = obs.discarded[obs.right]    # what reaches my source pile
    # more players: matches come sooner, so points weigh more (the seed's advice)
    slack = 0 if endgame else (3 if len(obs.players) <= 4 else 2 if len(obs.players) <= 8 else 1)

    def score(c: Card) -> tuple[float, int, int]:
        risk = 0.0
        if not endgame:
            if rules.is_wild(c):
                risk += 10
            risk += 2.5 * sum(1 for t in fed if _near(c, t) and not rules.is_wild(t))
            risk -= 1.0 * sum(1 for d in dumped if d.rank == c.rank)
            risk += 0.5 * sum(1 for f in flow if _near(c, f) and f != c)
        return (after[c] + risk, -rules.penalty_of(c), _SORT[c])

    candidates = [c for c, p in after.items() if p <= best + slack]
    choice = min(candidates, key=score)
    reason = f"Discarding {choice} leaves {after[choice]} points"
    if after[choice] > best:
        lowest = min((c for c in after if after[c] == best), key=lambda c: _SORT[c])
        reason += (f" (discarding {lowest} would leave {best}, but {left} has taken "
                   f"{format_cards(fed) or 'nothing'} from my pile and {right} keeps "
                   f"sending {format_cards(flow[-3:]) or 'nothing'})")
    elif endgame:
        reason += ": someone has matched, so only points count now"
    return Action("discard", choice), reason + "."


_SORT = {c: i for i, c in enumerate(sorted(set(deck(1, 1)), key=Card.sort_key))}
