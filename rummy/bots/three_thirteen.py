"""Strategies for the Three-Thirteen family (``greedy`` and ``expert``).

Both read only a :class:`rummy.three_thirteen.ThreeThirteenObservation` and
return a move with a sentence that explains it with numbers.

*Greedy* takes the lowest penalty now: it takes the top discard only when
that lowers its penalty, and throws the card that leaves the lowest penalty.

*Expert* scores a hand it could keep as ``penalty - weight * expected gain of
the next draw``, where the expected gain counts the *outs* among the cards
it has not seen (the shoe less its hand, the discard pile and the cards
opponents are known to hold), remembers what each opponent picked up, avoids
throwing what the next player is collecting, and goes out as soon as it can
(0 points can't be beaten by waiting).

>>> from rummy import new_game
>>> g = new_game("three_thirteen", players=2, seed=11)
>>> action, why = greedy(g.observe(g.current_player), None)
>>> str(action) in {"draw stock", "draw discard"}
True
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from rummy.cards import Card, deck, format_cards
from rummy.game import Action
from rummy.melds import Arrangement, MeldRules
from rummy.search import best_arrangement, best_discard, penalty
from rummy.three_thirteen import DRAW_DISCARD, DRAW_STOCK, ThreeThirteenObservation, format_meld

__all__ = ["greedy", "expert", "memory_key", "unseen_cards", "outs", "Weights", "WEIGHTS"]

# DRAW_STOCK, DRAW_DISCARD: the engine's own values, so that ``in obs.legal_actions``
# finds them by identity


def _arrangement(hand: Iterable[Card], rules: MeldRules) -> Arrangement:
    # the meld search keeps its answers: a hand asked about again costs a lookup
    return best_arrangement(tuple(hand), rules)


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------
# Greedy


def _greedy_discard(obs: ThreeThirteenObservation) -> tuple[Card, int]:
    """The allowed discard leaving the lowest penalty (ties: the costlier card)."""
    hand, rules = list(obs.hand), obs.rules
    allowed = [a.card for a in obs.legal_actions if a.verb == "discard" and a.card is not None]
    d = best_discard(hand, rules)
    if d.card in allowed:
        return d.card, d.penalty
    best: tuple[int, int, tuple[int, int]] | None = None
    choice = allowed[0]
    for c in allowed:
        key = (penalty(_without(hand, c), rules), -rules.penalty_of(c), c.sort_key())
        if best is None or key < best:
            best, choice = key, c
    assert best is not None
    return choice, best[0]


def _out_key(rules: MeldRules) -> Any:
    def key(a: Action) -> tuple[int, tuple[int, int]]:
        assert a.card is not None
        return rules.penalty_of(a.card), a.card.sort_key()

    return key


def greedy(obs: ThreeThirteenObservation, rng: Any) -> tuple[Action, str]:
    """The move leaving the lowest penalty now, and why.

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=11)
    >>> g.apply("draw stock")
    >>> act, why = greedy(g.observe(g.current_player), None)
    >>> act.verb in ("discard", "go out") and "points" in why
    True
    """
    rules, hand = obs.rules, list(obs.hand)
    if obs.phase == "draw":
        now = penalty(hand, rules)
        top = obs.discard_top
        if top is not None and DRAW_DISCARD in obs.legal_actions:
            d = best_discard(hand + [top], rules)
            if (d.card != top or obs.discard_return) and d.penalty < now:
                return DRAW_DISCARD, (
                    f"take {top}: then discarding {d.card} leaves {d.penalty} points "
                    f"instead of {now} now"
                )
            return DRAW_STOCK, f"draw from the stock: {top} would not lower my {now} points"
        return DRAW_STOCK, f"draw from the stock ({now} points now)"
    outs = [a for a in obs.legal_actions if a.verb == "go out"]
    if outs:
        act = max(outs, key=_out_key(rules))
        assert act.card is not None
        arr = _arrangement(_without(hand, act.card), rules)
        melds = " ".join(format_meld(m) for m in arr.melds)
        return act, f"go out discarding {act.card}: {melds} use every other card, so I score 0"
    card, left = _greedy_discard(obs)
    return Action("discard", card), (
        f"discard {card} ({rules.penalty_of(card)} points): it leaves {left} points, "
        "the lowest I can keep"
    )


# ---------------------------------------------------------------------------
# Expert: memory, unseen cards, outs


def memory_key(obs: ThreeThirteenObservation) -> tuple[Any, ...]:
    """One memory per game, seat and round (the expert forgets between rounds)."""
    return (obs.variant.name, obs.players, obs.player, obs.round, obs.packs, obs.jokers)


@functools.lru_cache(maxsize=16)
def _shoe(packs: int, jokers: int) -> Counter[Card]:
    return Counter(deck(packs, jokers))


def _update_memory(obs: ThreeThirteenObservation, memory: dict[str, Any]) -> None:
    """Follow the round's public events not yet seen: what is in the pile,
    which cards each opponent took from it and still holds.  ``memory["rest"]``
    counts the shoe less the pile by ``Card.index`` (kept up to date here)."""
    if "seen" not in memory:
        memory["seen"] = 0
        memory["pile"] = []
        memory["known"] = [Counter() for _ in obs.players]
        memory["took"] = [[] for _ in obs.players]
        memory["threw"] = [[] for _ in obs.players]
    pile: list[Card] = memory["pile"]
    rest: list[int] | None = memory.get("rest")
    if rest is None:
        rest = memory["rest"] = [obs.packs] * 52 + [obs.jokers]  # the shoe (rummy.cards.deck)
        for c in pile:
            rest[c.index] -= 1
    seen = memory["seen"]
    events = obs.events
    if seen == len(events):
        return
    known: list[Counter[Card]] = memory["known"]
    for ev in events[seen:]:
        card = ev.card
        if card is None or (ev.seat is None and ev.kind != "turn up"):
            if ev.kind == "reshuffle":
                for c in pile[:-1]:
                    rest[c.index] += 1
                del pile[:-1]
            continue
        kind = ev.kind
        if kind == "turn up":
            for c in pile:
                rest[c.index] += 1
            pile[:] = [card]
            rest[card.index] -= 1
        elif kind == "take":
            if pile:
                rest[pile.pop().index] += 1
            assert ev.seat is not None
            known[ev.seat][card] += 1
            memory["took"][ev.seat].append(card)
        elif kind in ("discard", "out"):
            pile.append(card)
            rest[card.index] -= 1
            assert ev.seat is not None
            if known[ev.seat].get(card, 0) > 0:
                known[ev.seat][card] -= 1
            memory["threw"][ev.seat].append(card)
    memory["seen"] = len(events)


def unseen_cards(obs: ThreeThirteenObservation, memory: dict[str, Any] | None = None) -> Counter[Card]:
    """Cards whose place this player can't know: the shoe less their own
    hand, the discard pile, and the cards opponents are known to hold (taken
    from the pile, or laid down when going out).

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=1)
    >>> sum(unseen_cards(g.observe(0)).values())   # 52 - 3 in hand - 1 turned up
    48
    """
    memory = {} if memory is None else memory
    counts = _unseen_counts(obs, memory)
    return Counter({c: counts[c.index] for c in _shoe(obs.packs, obs.jokers)
                    if counts[c.index] > 0})


def _unseen_counts(obs: ThreeThirteenObservation, memory: dict[str, Any]) -> list[int]:
    """:func:`unseen_cards` as a count per ``Card.index`` (0..52, 52 the joker)."""
    _update_memory(obs, memory)
    left = memory["rest"].copy()  # the shoe less the pile
    for c in obs.hand:
        left[c.index] -= 1
    player = obs.player
    for seat, k in enumerate(memory["known"]):
        if seat != player and k:
            for c, n in k.items():
                left[c.index] -= n
    for seat, melds in obs.shown:
        if seat != player:
            for m in melds:
                for c in m.cards:
                    left[c.index] -= 1
    if min(left) < 0:
        return [n if n > 0 else 0 for n in left]
    return left


def _run_pos(card: Card, rules: MeldRules) -> tuple[int, ...]:
    if card.rank == 1:
        return {"low": (1,), "high": (14,), "low_or_high": (1, 14)}[rules.aces]
    return (card.rank,)


_INDEX = operator.attrgetter("index")  # the order of Card.sort_key, faster
_CARD = {(c.rank, c.suit): c for c in deck()}  # the cards every deck shares


@functools.lru_cache(maxsize=64)
def _rule_tables(rules: MeldRules) -> tuple[list[int], list[bool], list[tuple[int, ...]],
                                            int, int, bool]:
    """By ``Card.index`` (52 is the joker): points, wildness and places in a
    run (:func:`_run_pos`); then the lowest and highest run place and
    whether sets of three are allowed."""
    every = [Card(r, s) for s in "cdhs" for r in range(1, 14)] + [Card(0, "")]
    return ([rules.penalty_of(c) for c in every], [rules.is_wild(c) for c in every],
            [_run_pos(c, rules) for c in every], _lowest(rules), _highest(rules),
            rules.max_set_size is None or rules.max_set_size >= 3)


#: (rules, its tables) of the last call: a round asks with the same rules all
#: along.  One tuple, replaced whole, so that threads never see a mixed pair.
_LAST_TABLES: tuple[Any, Any] = (None, None)


def _all_tables(rules: MeldRules) -> tuple[list[int], list[bool], list[tuple[int, ...]],
                                           int, int, bool]:
    global _LAST_TABLES
    last = _LAST_TABLES
    if last[0] is not rules:
        last = _LAST_TABLES = (rules, _rule_tables(rules))
    return last[1]  # type: ignore[no-any-return]


def _tables(rules: MeldRules) -> tuple[list[int], list[bool]]:
    """Points and wildness of every card by ``Card.index`` (52 is the joker)."""
    t = _all_tables(rules)
    return t[0], t[1]


def _card_at(suit: str, pos: int) -> Card | None:
    if pos == 14:
        return _CARD[1, suit]
    if 1 <= pos <= 13:
        return _CARD[pos, suit]
    return None


def outs(arr: Arrangement, rules: MeldRules) -> list[tuple[tuple[Card, ...], set[Card], bool]]:
    """The unfinished melds among the deadwood of ``arr``: pairs of one rank,
    two cards of a suit one or two apart, or a card next-but-one to a run.

    Each is ``(cards kept, natural cards completing it, a wild completes it)``.

    >>> from rummy import cards
    >>> arr = best_arrangement(cards("7h 9h Kc Ks 2d"), MeldRules())
    >>> [(format_cards(k), sorted(str(c) for c in c_), w) for k, c_, w in outs(arr, MeldRules())]
    [('Kc Ks', ['Kc', 'Kd', 'Kh', 'Ks'], True), ('7h 9h', ['8h'], True)]
    """
    _points, wild, run_pos, lowest, highest, sets_ok = _all_tables(rules)
    dead = [c for c in arr.deadwood if not wild[c.index]]
    found: list[tuple[tuple[Card, ...], set[Card], bool]] = []
    for i, a in enumerate(dead):
        a_rank, a_suit, a_pos = a.rank, a.suit, run_pos[a.index]
        for b in dead[i + 1:]:
            if a_rank == b.rank:
                comp = {_CARD[a_rank, s] for s in "cdhs"}
                if sets_ok:
                    found.append(((a, b), comp, True))
                continue
            if a_suit != b.suit:
                continue
            pair = (a, b) if a.index <= b.index else (b, a)  # sorted by index
            for pa in a_pos:
                for pb in run_pos[b.index]:
                    lo, hi = (pa, pb) if pa <= pb else (pb, pa)
                    if hi - lo == 1:
                        comp = set()
                        for q in (lo - 1, hi + 1):
                            c = _card_at(a_suit, q)
                            if c is not None and lowest <= q <= highest:
                                comp.add(c)
                        found.append((pair, comp, True))
                    elif hi - lo == 2:
                        mid = _card_at(a_suit, lo + 1)
                        if mid is not None:
                            found.append((pair, {mid}, True))
    for m in arr.melds:
        if m.kind != "run":
            continue
        suit = m.represents[0].suit
        ps = [p for r in m.represents for p in run_pos[r.index]]
        lo, hi = min(ps), max(ps)
        if lo == 1 and 14 in ps:  # a high-ace run read low; keep it simple
            continue
        for d in dead:
            if d.suit != suit:
                continue
            for pd in run_pos[d.index]:
                if pd == hi + 2 and hi + 1 <= highest:
                    gap = _card_at(suit, hi + 1)
                elif pd == lo - 2 and lo - 1 >= lowest:
                    gap = _card_at(suit, lo - 1)
                else:
                    continue
                if gap is not None:
                    found.append(((d,), {gap}, True))
    return found


def _lowest(rules: MeldRules) -> int:
    return 2 if rules.aces == "high" else 1


def _highest(rules: MeldRules) -> int:
    return 13 if rules.aces == "low" else 14


class Weights:
    """The expert's knobs (points are the unit)."""

    #: how many draws of expected gain a kept hand is credited with
    future = 1.0
    #: extra cost of feeding the next player a card of a rank they took
    feed_rank = 5.0
    #: ... a card next to (or one apart from) a card of the suit they took
    feed_run = 3.0
    #: extra cost of throwing a wild (it completes anybody's meld)
    feed_wild = 12.0
    #: cost of showing the table which card I collect (taking from the pile)
    reveal = 1.0
    #: candidate discards considered: within this many points of the lowest
    margin = 12


WEIGHTS = Weights()


#: an :func:`_unseen_summary`: (cards unseen, wilds among them, unseen
#: naturals by penalty points, a memo {worst points: swap gain} that
#: :func:`_gain` fills)
Summary = tuple[int, int, dict[int, int], dict[int, int]]


def _unseen_summary(unseen: Sequence[int], rules: MeldRules) -> Summary:
    """(cards unseen, wilds among them, unseen naturals by penalty points
    (zero counts included), an empty memo for :func:`_gain`); ``unseen``
    counts the cards by ``Card.index`` (:func:`_unseen_counts`)."""
    global _LAST_GROUPS
    last = _LAST_GROUPS
    if last[0] is not rules:
        last = _LAST_GROUPS = (rules, _summary_groups(rules))
    wilds, values, getters = last[1]
    hist = dict(zip(values, map(sum, map(operator.call, getters, itertools.repeat(unseen)))))
    return sum(unseen), sum(wilds(unseen)), hist, {}


#: (rules, their :func:`_summary_groups`) of the last call (one tuple, replaced whole)
_LAST_GROUPS: tuple[Any, Any] = (None, None)


@functools.lru_cache(maxsize=64)
def _summary_groups(rules: MeldRules) -> tuple[Any, list[int], list[Any]]:
    """For :func:`_unseen_summary`: a getter of the wild cards' counts, the
    penalty values of natural cards and per value a getter of the natural
    cards' counts with it."""
    points, wild = _tables(rules)
    groups: dict[int, list[int]] = {}
    for i in range(53):
        if not wild[i]:
            groups.setdefault(points[i], []).append(i)
    wild_at = [i for i in range(53) if wild[i]]
    return (_getter(wild_at), list(groups), [_getter(idx) for idx in groups.values()])


def _getter(indexes: list[int]) -> Any:
    """A function from a list to the tuple of its items at ``indexes``."""
    if not indexes:
        return lambda _counts: ()
    if len(indexes) == 1:
        i = indexes[0]
        return lambda counts: (counts[i],)
    return operator.itemgetter(*indexes)


#: An unfinished meld for :func:`_gain`: (cards kept, points saved when it is
#: completed, indexes of the natural cards completing it in index order,
#: those cards, whether a wild completes it)
_Partial = tuple[tuple[Card, ...], int, tuple[int, ...], tuple[Card, ...], bool]
#: :func:`_gain_table`: (the costliest deadwood card's points, a getter of
#: the completing cards' unseen counts, the points each unseen one saves net
#: of a swap, the most a wild saves, the unfinished melds)
_GainTable = tuple[int, Any, list[int], int, list[_Partial]]

#: per rules: {(deadwood indexes, runs' card indexes): _gain_table}
_GAIN_TABLES: dict[MeldRules, dict[Any, _GainTable]] = {}
_GAIN_TABLES_MAX = 1 << 14
#: (rules, their dict in _GAIN_TABLES) of the last call (one tuple, replaced whole)
_LAST_GAIN: tuple[Any, Any] = (None, None)


def _gain_table(arr: Arrangement, rules: MeldRules) -> _GainTable:
    """What :func:`_gain` needs from ``arr`` that does not depend on the
    unseen cards, kept per deadwood and run melds (all it reads of ``arr``)."""
    global _LAST_GAIN
    last = _LAST_GAIN
    if last[0] is not rules:
        kept = _GAIN_TABLES.get(rules)
        if kept is None:
            kept = _GAIN_TABLES[rules] = {}
        last = _LAST_GAIN = (rules, kept)
    memo: dict[Any, _GainTable] = last[1]
    key = (tuple(map(_INDEX, arr.deadwood)),
           tuple([tuple(map(_INDEX, m.represents)) for m in arr.melds if m.kind == "run"]))
    got = memo.get(key)
    if got is None:
        if len(memo) >= _GAIN_TABLES_MAX:
            memo.clear()
        got = memo[key] = _build_gain_table(arr, rules)
    return got


def _build_gain_table(arr: Arrangement, rules: MeldRules) -> _GainTable:
    """:func:`_gain_table` computed (from :func:`outs`)."""
    points = _all_tables(rules)[0]
    # the deadwood's points, costliest first (only the values matter below)
    dead_pts = sorted([points[c.index] for c in arr.deadwood], reverse=True)
    per_card: dict[int, int] = {}  # completing card's index -> points it saves
    partials: list[_Partial] = []
    best_partial = 0
    for kept, comp, wild_ok in outs(arr, rules):
        kept_pts = [points[c.index] for c in kept]
        # the costliest deadwood card left once ``kept`` is set aside
        skip = list(kept_pts)
        top = 0
        for v in dead_pts:
            if v in skip:
                skip.remove(v)
            else:
                top = v
                break
        saved = sum(kept_pts) + top
        completing = sorted(comp, key=_INDEX)
        at = tuple([c.index for c in completing])
        for i in at:
            if per_card.get(i, 0) < saved:
                per_card[i] = saved
        partials.append((kept, saved, at, tuple(completing), wild_ok))
        if wild_ok and saved > best_partial:
            best_partial = saved
    worst = dead_pts[0] if dead_pts else 0
    # a completing card is counted as an out, not also as a swap
    net = [v - (worst - points[i] if points[i] < worst else 0) for i, v in per_card.items()]
    return worst, _getter(list(per_card)), net, best_partial, partials


def _gain_value(arr: Arrangement, rules: MeldRules, unseen: Sequence[int],
                summary: Summary) -> float:
    """The expected gain of :func:`_gain` alone."""
    total, wild_left, hist, swaps = summary
    if total <= 0:
        return 0.0
    worst, completing, net, best_partial, _ = _gain_table(arr, rules)
    g = sum(map(operator.mul, completing(unseen), net)) + wild_left * best_partial
    if worst:
        swap = swaps.get(worst)
        if swap is None:
            swap = swaps[worst] = sum([n * (worst - p) for p, n in hist.items() if p < worst])
        g += swap
    return g / total


def _gain(arr: Arrangement, rules: MeldRules, unseen: Sequence[int], summary: Summary
          ) -> tuple[float, list[tuple[tuple[Card, ...], int, int, list[Card]]]]:
    """Expected points a kept hand saves with its next draw, and its unfinished
    melds as ``(cards, points saved, outs left, completing cards)``
    (``unseen``: counts by ``Card.index``, :func:`_unseen_counts`).

    A draw that completes an unfinished meld saves its cards' points and lets
    the costliest other unmelded card go; any other card cheaper than the
    costliest unmelded card saves the difference by a swap.
    """
    g = _gain_value(arr, rules, unseen, summary)
    if summary[0] <= 0:
        return g, []
    wild_left = summary[1]
    partials = []
    for kept, saved, at, cards_, wild_ok in _gain_table(arr, rules)[4]:
        n = 0
        completing = []
        for i, c in zip(at, cards_):
            k = unseen[i]
            if k:
                n += k
                completing.append(c)
        partials.append((kept, saved, n + (wild_left if wild_ok else 0), completing))
    return g, partials


def _danger(card: Card, obs: ThreeThirteenObservation, memory: dict[str, Any], w: Weights) -> float:
    """How much throwing ``card`` helps the player who plays next."""
    rules = obs.rules
    nxt = _next_to_play(obs)
    if nxt is None:
        return 0.0
    if rules.is_wild(card):
        return w.feed_wild
    cost = 0.0
    for y in memory["known"][nxt].elements():
        if rules.is_wild(y):
            continue
        if y.rank == card.rank:
            cost = max(cost, w.feed_rank)
        elif y.suit == card.suit and abs(y.rank - card.rank) <= 2:
            cost = max(cost, w.feed_run)
    return cost


def _next_to_play(obs: ThreeThirteenObservation) -> int | None:
    if obs.went_out is None:
        return (obs.player + 1) % len(obs.players)
    rest = [s for s in obs.final_turns if s != obs.player]
    return rest[0] if rest else None


def _describe_partials(partials: list[tuple[tuple[Card, ...], int, int, list[Card]]],
                       unseen: Sequence[int], wild_left: int) -> str:
    """The unfinished meld with the most outs, in words (``unseen``: counts
    by ``Card.index``; ``wild_left``: the unseen wilds)."""
    if not partials:
        return ""
    kept, _saved, n, comp = max(partials, key=lambda p: (p[2], p[1]))
    if n == 0:
        return ""
    names = [str(c) if unseen[c.index] == 1 else f"{unseen[c.index]}x {c}" for c in comp[:4]]
    if wild_left:
        names.append(_plural(wild_left, "wild") + " left")
    return f"keep {format_cards(kept)}: {_plural(n, 'unseen card')} ({', '.join(names)}) complete it"


def _discard_penalties(hand: list[Card], rules: MeldRules, allowed: list[Card]
                       ) -> tuple[Arrangement, dict[Card, int], int]:
    """(the whole hand's best arrangement, {discard: penalty left}, the lowest
    of those penalties) for the allowed discards that might leave the lowest
    penalty.  A deadwood card of the whole hand's best arrangement leaves
    exactly that penalty less its points, so the solver only runs for meld
    cards that might do better."""
    points = _all_tables(rules)[0]
    full = _arrangement(hand, rules)
    allowed_at = {c.index for c in allowed}
    out: dict[Card, int] = {}
    for d in sorted(set(full.deadwood), key=_INDEX):
        if d.index in allowed_at:
            out[d] = full.penalty - points[d.index]
    best = min(out.values(), default=None)
    done = {c.index for c in out}
    rest = sorted({c for c in allowed if c.index not in done},
                  key=lambda c: (-points[c.index], c.index))  # index order is sort_key order
    for c in rest:
        bound = full.penalty - points[c.index]
        if best is not None and bound >= best:
            continue  # breaking a meld can't beat the best unmelded discard
        p = penalty(_without(hand, c), rules)
        if best is None or p <= best:
            out[c] = p
            best = p
    assert best is not None
    return full, out, best


def _candidates(hand: list[Card], rules: MeldRules, allowed: list[Card], margin: int,
                penalties: tuple[Arrangement, dict[Card, int], int] | None = None
                ) -> list[tuple[Card, int, Arrangement]]:
    """(discard, penalty left, an optimal arrangement of what is left) for the
    allowed discards within ``margin`` points of the lowest
    (``penalties``: :func:`_discard_penalties` of the same hand, if known)."""
    full, out, best = penalties or _discard_penalties(hand, rules, allowed)
    dead_at = {c.index for c in full.deadwood}
    result = []
    for c, p in out.items():
        if p > best + margin:
            continue
        if c.index in dead_at:
            melds = full.melds
            dead = _without(full.deadwood, c)
            arr = Arrangement(melds, tuple(dead), p)
        else:
            arr = _arrangement(_without(hand, c), rules)
        result.append((c, p, arr))
    return result


def _choose_discard(obs: ThreeThirteenObservation, hand: list[Card], allowed: list[Card],
                    memory: dict[str, Any], unseen: Sequence[int], w: Weights,
                    summary: Summary | None = None,
                    explain: bool = True,
                    penalties: tuple[Arrangement, dict[Card, int], int] | None = None
                    ) -> tuple[float, Card, int, str]:
    """(score, discard, penalty left, why) of the best discard from ``hand``
    (``unseen``: counts by ``Card.index``; ``summary``: its
    :func:`_unseen_summary` and ``penalties``: :func:`_discard_penalties`,
    if known; ``why`` is "" unless ``explain``)."""
    rules = obs.rules
    points = _all_tables(rules)[0]
    if summary is None:
        summary = _unseen_summary(unseen, rules)
    last_turn = obs.went_out is not None and obs.went_out != obs.player
    future = 0.0 if last_turn else w.future
    best: tuple[tuple[float, int, int], Card, int, Arrangement, float, float] | None = None
    for c, p, arr in _candidates(hand, rules, allowed, w.margin, penalties):
        g = _gain_value(arr, rules, unseen, summary) if future else 0.0
        feed = _danger(c, obs, memory, w) if not last_turn else 0.0
        score = p - future * g + feed
        key = (score, -points[c.index], c.index)  # index order is sort_key order
        if best is None or key < best[0]:
            best = (key, c, p, arr, feed, g)
    assert best is not None
    (score, _, _), c, p, arr, feed, g = best
    if not explain:
        return score, c, p, ""
    partials = _gain(arr, rules, unseen, summary)[1] if future else []
    why_parts = []
    uses = "no meld uses it" if c in arr.deadwood or c not in _meld_cards(arr) else ""
    why_parts.append(
        f"discard {c}: {rules.penalty_of(c)} points" + (f", {uses}" if uses else "")
    )
    if feed:
        why_parts.append(f"(the next player may want it: +{feed:g})")
    keep = _describe_partials(partials, unseen, summary[1])
    if keep:
        why_parts.append(keep)
    why_parts.append(f"{p} points left")
    if future:
        why_parts.append(f"expected gain of the next draw {g:.1f}")
    return score, c, p, "; ".join(why_parts)


def _meld_cards(arr: Arrangement) -> set[Card]:
    return {c for m in arr.melds for c in m.cards}


def expert(obs: ThreeThirteenObservation, rng: Any, memory: dict[str, Any],
           weights: Weights | None = None) -> tuple[Action, str]:
    """The expert's move and its reasons, with numbers.

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=11)
    >>> act, why = expert(g.observe(g.current_player), None, {})
    >>> act in g.legal_actions()
    True
    """
    w = weights or WEIGHTS
    rules, hand = obs.rules, list(obs.hand)
    unseen = _unseen_counts(obs, memory)
    summary = _unseen_summary(unseen, rules)
    if obs.phase == "draw":
        arr_now = _arrangement(hand, rules)
        now = arr_now.penalty  # the best arrangement's penalty is the hand's (M-7)
        top = obs.discard_top
        last_turn = obs.went_out is not None
        g_now = _gain_value(arr_now, rules, unseen, summary)
        if top is None or DRAW_DISCARD not in obs.legal_actions:
            return DRAW_STOCK, f"draw from the stock: expected gain {g_now:.1f} points"
        with_top = hand + [top]
        allowed = sorted({c for c in with_top if c != top or obs.discard_return},
                         key=_INDEX)
        # the lowest penalty after taking the top card (never throwing it back)
        penalties = _discard_penalties(with_top, rules, allowed)
        _, left_by_card, best_p = penalties
        best_c = min(c for c, p in left_by_card.items() if p == best_p)  # by index
        if best_p == 0:
            return DRAW_DISCARD, (
                f"take {top}: with it every card but {best_c} is in melds, so I go out")
        if best_p >= now and not rules.is_wild(top):
            msg = f"draw from the stock: {top} would not lower my {now} points"
            partials = _gain(arr_now, rules, unseen, summary)[1]
            keep = _describe_partials(partials, unseen, summary[1])
            return DRAW_STOCK, msg + (f"; {keep}" if keep else "") + (
                f"; a stock card saves {g_now:.1f} points on average")
        score_take, card, left, _ = _choose_discard(obs, with_top, allowed, memory, unseen, w,
                                                    summary, explain=False, penalties=penalties)
        score_take += w.reveal
        future = 0.0 if last_turn else w.future
        score_stock = now - g_now - future * g_now
        if score_take < score_stock:
            return DRAW_DISCARD, (
                f"take {top}: then discarding {card} leaves {left} points (now {now}); "
                f"worth more than a stock card, which saves {g_now:.1f} on average"
            )
        return DRAW_STOCK, (
            f"draw from the stock: {top} would leave {left} points (now {now}), but a stock "
            f"card saves {g_now:.1f} on average and keeps my plan hidden"
        )
    # discard phase
    outs_ = [a for a in obs.legal_actions if a.verb == "go out"]
    if outs_:
        act = max(outs_, key=_out_key(rules))
        assert act.card is not None
        arr = _arrangement(_without(hand, act.card), rules)
        melds = " ".join(format_meld(m) for m in arr.melds)
        others = len(obs.players) - 1
        if obs.went_out is None:
            return act, (
                f"go out discarding {act.card}: {melds}; I score 0, which waiting can't "
                f"beat, and the {_plural(others, 'other player')} get only one more turn"
            )
        return act, f"meld every card ({melds}), discarding {act.card}: I score 0"
    allowed = [a.card for a in obs.legal_actions if a.verb == "discard" and a.card is not None]
    _, card, _left, why = _choose_discard(obs, hand, allowed, memory, unseen, w, summary)
    return Action("discard", card), why
