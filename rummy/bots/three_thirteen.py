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
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rummy.action import Action
from rummy.cards import Card, deck, format_cards
from rummy.melds import Arrangement, Meld, MeldRules
from rummy.search import best_arrangement, best_discard_choice, is_lone, penalty, penalty_less
from rummy.three_thirteen import DRAW_DISCARD, DRAW_STOCK, ThreeThirteenObservation, format_meld

__all__ = ["greedy", "greedy_deferred", "expert", "memory_key", "unseen_cards", "outs", "Weights", "WEIGHTS"]

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


def _greedy_discard(obs: ThreeThirteenObservation) -> tuple[Action, int]:
    """The allowed discard leaving the lowest penalty (ties: the costlier
    card): the legal move itself, and the penalty it leaves."""
    hand, rules = obs.hand, obs.rules
    card, left = best_discard_choice(hand, rules)  # (the tuple the engine asked of)
    i = card.index
    for a in obs.legal_actions:
        c = a.card
        if c is not None and c.index == i and a.verb == "discard":  # (equal cards share an index)
            return a, left
    moves = [a for a in obs.legal_actions if a.verb == "discard" and a.card is not None]
    best: tuple[int, int, tuple[int, int]] | None = None
    choice = moves[0]
    for a in moves:
        c = a.card
        assert c is not None
        key = (penalty(_without(hand, c), rules), -rules.penalty_of(c), c.sort_key())
        if best is None or key < best:
            best, choice = key, a
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
    act, why = greedy_deferred(obs, rng)
    return act, why()


def greedy_deferred(obs: ThreeThirteenObservation, rng: Any) -> tuple[Action, Callable[[], str]]:
    """:func:`greedy`'s move, and its reason as a function that writes it:
    a bot asked only for its move writes no sentence (``GreedyBot.choose``;
    ``explain`` calls the function).

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=11)
    >>> act, why = greedy_deferred(g.observe(g.current_player), None)
    >>> (act, why()) == greedy(g.observe(g.current_player), None)
    True
    """
    rules, hand = obs.rules, obs.hand
    if obs.phase == "draw":
        top = obs.discard_top
        acts = obs.legal_actions  # (the engine's own DRAW_DISCARD comes last: found by identity)
        if top is not None and (acts[-1] is DRAW_DISCARD or DRAW_DISCARD in acts):
            card, left = best_discard_choice((*hand, top), rules)
            back = card.index == top.index  # the top card thrown back (equal cards share an index)
            # that leaves the hand as it is: its penalty now
            now = left if back else penalty(hand, rules)
            if (not back or obs.discard_return) and left < now:
                return DRAW_DISCARD, lambda: (
                    f"take {top}: then discarding {card} leaves {left} points "
                    f"instead of {now} now"
                )
            return DRAW_STOCK, lambda: f"draw from the stock: {top} would not lower my {now} points"
        return DRAW_STOCK, lambda: f"draw from the stock ({penalty(hand, rules)} points now)"
    outs = [a for a in obs.legal_actions if a.verb == "go out"]
    if outs:
        out = max(outs, key=_out_key(rules))
        thrown = out.card
        assert thrown is not None

        def went_out() -> str:
            arr = _arrangement(_without(hand, thrown), rules)
            melds = " ".join(format_meld(m) for m in arr.melds)
            return f"go out discarding {thrown}: {melds} use every other card, so I score 0"

        return out, went_out
    act, left = _greedy_discard(obs)
    kept_out = act.card
    assert kept_out is not None
    return act, lambda: (
        f"discard {kept_out} ({rules.penalty_of(kept_out)} points): it leaves {left} points, "
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
#: by rank: its four cards
_RANK_SET: list[frozenset[Card]] = [frozenset()] + [frozenset(_CARD[r, s] for s in "cdhs") for r in range(1, 14)]


#: :func:`_rule_tables`: points, wildness and run places by ``Card.index``,
#: the lowest and highest run place, sets of three allowed, run neighbours
Tables = tuple[list[int], list[bool], list[tuple[int, ...]], int, int, bool,
               list[tuple[tuple[int, tuple[int, ...]], ...]]]


@functools.lru_cache(maxsize=64)
def _rule_tables(rules: MeldRules) -> Tables:
    """By ``Card.index`` (52 is the joker): points, wildness and places in a
    run (:func:`_run_pos`); then the lowest and highest run place, whether
    sets of three are allowed, and :func:`_run_neighbours`."""
    every = [Card(r, s) for s in "cdhs" for r in range(1, 14)] + [Card(0, "")]
    run_pos = [_run_pos(c, rules) for c in every]
    lowest, highest = _lowest(rules), _highest(rules)
    return ([rules.penalty_of(c) for c in every], [rules.is_wild(c) for c in every],
            run_pos, lowest, highest, rules.max_set_size is None or rules.max_set_size >= 3,
            _run_neighbours(run_pos, lowest, highest))


def _run_neighbours(run_pos: list[tuple[int, ...]], lowest: int, highest: int
                    ) -> list[tuple[tuple[int, tuple[int, ...]], ...]]:
    """By ``Card.index`` of a natural card a: each card b of its suit one or
    two places above it in a run, with the cards that would make a run of
    the two (the ends of a pair side by side, the middle of a pair with a
    gap), as :func:`_gain_of` looks for them."""
    out = []
    for a in range(52):
        base = _BASE_AT[a]
        near = []
        for pa in run_pos[a]:
            for pb in (pa + 1, pa + 2):
                if pb > highest:
                    break
                if pb == pa + 1:
                    ends = []
                    if pa - 1 >= lowest:
                        ends.append(base + _POS_OFFSET[pa - 1])
                    if pb + 1 <= highest:
                        ends.append(base + _POS_OFFSET[pb + 1])
                    near.append((base + _POS_OFFSET[pb], tuple(ends)))
                else:
                    near.append((base + _POS_OFFSET[pb], (base + _POS_OFFSET[pa + 1],)))
        out.append(tuple(near))
    return out + [()]  # the joker: in no run unless wild


#: (rules, its tables) of the last call: a round asks with the same rules all
#: along.  One tuple, replaced whole, so that threads never see a mixed pair.
_LAST_TABLES: tuple[Any, Any] = (None, None)


def _all_tables(rules: MeldRules) -> Tables:
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
    _points, wild, run_pos, lowest, highest, sets_ok, _near = _all_tables(rules)
    dead = [c for c in arr.deadwood if not wild[c.index]]
    found: list[tuple[tuple[Card, ...], set[Card], bool]] = []
    for i, a in enumerate(dead):
        a_rank, a_suit, a_pos = a.rank, a.suit, run_pos[a.index]
        for b in dead[i + 1:]:
            if a_rank == b.rank:
                comp = set(_RANK_SET[a_rank])  # (copied with their hashes)
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


#: an :func:`_unseen_summary`: (cards unseen, wilds among them, (penalty
#: points, cards unseen) per rank of natural cards (and the joker when it is
#: not wild), a memo {worst points: swap gain} that :func:`_swap_gain` fills)
Summary = tuple[int, int, list[tuple[int, int]], dict[int, int]]


def _unseen_summary(unseen: Sequence[int], rules: MeldRules) -> Summary:
    """(cards unseen, wilds among them, (points, unseen naturals) per rank,
    an empty memo for :func:`_swap_gain`); ``unseen`` counts the cards by
    ``Card.index`` (:func:`_unseen_counts`).  Wildness and points go by rank."""
    global _LAST_GROUPS
    last = _LAST_GROUPS
    if last[0] is not rules:
        last = _LAST_GROUPS = (rules, _summary_groups(rules))
    wild_rank, natural, joker_points = last[1]
    by_rank = [a + b + c + d for a, b, c, d
               in zip(unseen[0:13], unseen[13:26], unseen[26:39], unseen[39:52])]
    hist = [(p, by_rank[r]) for r, p in natural]
    jokers = unseen[52]
    wild_left = by_rank[wild_rank - 1] if wild_rank else 0
    if joker_points is None:
        wild_left += jokers
    else:
        hist.append((joker_points, jokers))
    return sum(by_rank) + jokers, wild_left, hist, {}


#: (rules, their :func:`_summary_groups`) of the last call (one tuple, replaced whole)
_LAST_GROUPS: tuple[Any, Any] = (None, None)


@functools.lru_cache(maxsize=64)
def _summary_groups(rules: MeldRules) -> tuple[int | None, list[tuple[int, int]], int | None]:
    """For :func:`_unseen_summary`: the wild rank, (rank - 1, points) of
    every rank of natural cards, and the points of a joker that is not
    wild (None when jokers are wild)."""
    points, wild = _tables(rules)
    natural = [(r, points[r]) for r in range(13) if not wild[r]]
    for r in range(13):  # wildness and points go by rank (MeldRules.is_wild, penalty_of)
        assert all(points[s * 13 + r] == points[r] and wild[s * 13 + r] == wild[r]
                   for s in range(4))
    wild_rank = rules.wild_rank
    assert wild_rank is None or wild[wild_rank - 1]
    return wild_rank, natural, None if wild[52] else points[52]


def _swap_gain(summary: Summary, worst: int) -> int:
    """What the unseen natural cards cheaper than ``worst`` save in all by
    replacing a card of ``worst`` points (kept in the summary's memo)."""
    swaps = summary[3]
    swap = swaps.get(worst)
    if swap is None:
        swap = swaps[worst] = sum([n * (worst - p) for p, n in summary[2] if p < worst])
    return swap


#: by ``Card.index`` (52 the joker, rank 0): rank, and the index of the
#: suit's first card (the ace)
_RANK_AT = [i % 13 + 1 for i in range(52)] + [0]
_BASE_AT = [i // 13 * 13 for i in range(52)] + [52]
#: by rank: the indexes of its four cards, in index order
_RANK_CARDS = [()] + [tuple(s * 13 + r - 1 for s in range(4)) for r in range(1, 14)]
#: by place in a run (1..14, 14 the high ace): the card's offset in its suit
_POS_OFFSET = [-1] + list(range(13)) + [0]


def _gain_value(arr: Arrangement, rules: MeldRules, unseen: Sequence[int],
                summary: Summary) -> float:
    """The expected gain of :func:`_gain` alone."""
    return _gain_of(arr.deadwood, arr.melds, rules, unseen, summary)


def _gain_of(deadwood: Sequence[Card], melds: Sequence[Meld], rules: MeldRules,
             unseen: Sequence[int], summary: Summary) -> float:
    """:func:`_gain_value` of the arrangement with these melds and deadwood,
    computed on card indexes.

    Only the best saving per completing card and the best saving of all
    count, so the unfinished melds of :func:`outs` are visited in any order
    and two equal cards' melds once: the pairs of one rank once per rank,
    the run pairs and run ends once per distinct card."""
    total, wild_left = summary[0], summary[1]
    if total <= 0:
        return 0.0
    last = _LAST_TABLES
    points, wild, run_pos, lowest, highest, sets_ok, neighbours = (
        last[1] if last[0] is rules else _all_tables(rules))
    dead_pts = []
    nat = []  # the natural deadwood cards' indexes
    for c in deadwood:
        i = c.index
        dead_pts.append(points[i])
        if not wild[i]:
            nat.append(i)
    if 52 in nat:  # a joker that is not wild: the plain way
        return _gain(Arrangement(tuple(melds), tuple(deadwood), 0), rules, unseen, summary)[0]
    # the deadwood's three costliest points: what is left costliest once
    # the kept cards are set aside
    dead_pts.sort(reverse=True)
    worst = dead_pts[0] if dead_pts else 0
    d0, d1, d2 = (dead_pts + [0, 0, 0])[:3]
    # (points saved, completing cards' indexes) of the unfinished melds
    found: list[tuple[int, Sequence[int]]] = []
    present = set(nat)
    if len(nat) > 1:
        ranks: set[int] = set()
        for i in nat:
            r = _RANK_AT[i]
            if r in ranks:
                if sets_ok:  # a pair of rank r
                    x = points[i]
                    if d0 == x:
                        top = d2 if d1 == x else d1
                    else:
                        top = d0
                    found.append((x + x + top, _RANK_CARDS[r]))
                    ranks.discard(r)
                    ranks.add(-r)  # one pair per rank
            elif -r not in ranks:
                ranks.add(r)
        for a in present:  # run pairs: a and a card one or two places above it
            for b, completing in neighbours[a]:
                if b in present:
                    x, y = points[a], points[b]
                    if d0 == x:
                        top = d2 if d1 == y else d1
                    elif d0 == y:
                        top = d2 if d1 == x else d1
                    else:
                        top = d0
                    found.append((x + y + top, completing))
    if nat:
        for m in melds:
            if m.kind != "run":
                continue
            rep = m.represents
            base = _BASE_AT[rep[0].index]
            ps = [p for r in rep for p in run_pos[r.index]]
            lo, hi = min(ps), max(ps)
            if lo == 1 and 14 in ps:  # a high-ace run read low; keep it simple
                continue
            for d in present:
                if _BASE_AT[d] != base:
                    continue
                for pd in run_pos[d]:
                    if pd == hi + 2 and hi + 1 <= highest:
                        i = base + _POS_OFFSET[hi + 1]
                    elif pd == lo - 2 and lo - 1 >= lowest:
                        i = base + _POS_OFFSET[lo - 1]
                    else:
                        continue
                    x = points[d]
                    found.append((x + (d1 if d0 == x else d0), (i,)))
    g = 0
    if found:
        per_card: dict[int, int] = {}  # completing card's index -> points it saves
        best_partial = 0
        for saved, completing in found:
            if saved > best_partial:
                best_partial = saved
            for i in completing:
                if unseen[i] and per_card.get(i, 0) < saved:
                    per_card[i] = saved
        g = wild_left * best_partial
        for i, v in per_card.items():  # counted as outs, not as swaps
            p = points[i]
            g += unseen[i] * (v - worst + p if p < worst else v)
    if worst:
        g += _swap_gain(summary, worst)
    return g / total


def _gain(arr: Arrangement, rules: MeldRules, unseen: Sequence[int],
          summary: Summary) -> tuple[float, list[tuple[tuple[Card, ...], int, int, list[Card]]]]:
    """Expected points a kept hand saves with its next draw, and its unfinished
    melds as ``(cards, points saved, outs left, completing cards)``
    (``unseen``: counts by ``Card.index``, :func:`_unseen_counts`).

    A draw that completes an unfinished meld saves its cards' points and lets
    the costliest other unmelded card go; any other card cheaper than the
    costliest unmelded card saves the difference by a swap.
    """
    total, wild_left = summary[0], summary[1]
    if total <= 0:
        return 0.0, []
    points = _all_tables(rules)[0]
    unfinished = _unfinished(arr, rules, unseen, wild_left)
    per_card: dict[int, int] = {}  # completing card's index -> points it saves
    best_partial = 0
    for _kept, saved, _n, completing, wild_ok in unfinished:
        for c in completing:
            if per_card.get(c.index, 0) < saved:
                per_card[c.index] = saved
        if wild_ok and saved > best_partial:
            best_partial = saved
    g = sum(unseen[i] * v for i, v in per_card.items()) + wild_left * best_partial
    worst = max([points[c.index] for c in arr.deadwood], default=0)
    if worst:
        g += _swap_gain(summary, worst)
        for i in per_card:  # counted above as outs, not as swaps
            p = points[i]
            if p < worst:
                g -= unseen[i] * (worst - p)
    return g / total, [(kept, saved, n, completing) for kept, saved, n, completing, _ in unfinished]


def _unfinished(arr: Arrangement, rules: MeldRules, unseen: Sequence[int], wild_left: int
                ) -> list[tuple[tuple[Card, ...], int, int, list[Card], bool]]:
    """The unfinished melds of ``arr`` (:func:`outs`) as ``(cards, points
    saved, outs left, completing cards still unseen, a wild completes it)``:
    a meld completed saves its cards' points and lets the costliest other
    deadwood card go."""
    points = _all_tables(rules)[0]
    # the deadwood's points, costliest first (only the values matter below)
    dead_pts = sorted([points[c.index] for c in arr.deadwood], reverse=True)
    found = []
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
        n = 0
        completing = []
        for c in comp:
            k = unseen[c.index]
            if k:
                n += k
                completing.append(c)
        if len(completing) > 1:
            completing.sort(key=_INDEX)
        found.append((kept, sum(kept_pts) + top, n + (wild_left if wild_ok else 0), completing,
                      wild_ok))
    return found


def _partials(arr: Arrangement, rules: MeldRules, unseen: Sequence[int], summary: Summary
              ) -> list[tuple[tuple[Card, ...], int, int, list[Card]]]:
    """The unfinished melds of :func:`_gain` alone (its second value), to
    explain a move."""
    total, wild_left = summary[0], summary[1]
    if total <= 0:
        return []
    return [(kept, saved, n, completing)
            for kept, saved, n, completing, _ in _unfinished(arr, rules, unseen, wild_left)]


def _feed(card: Card, is_wild: bool, held: Sequence[Card], w: Weights) -> float:
    """How much throwing ``card`` (a wild when ``is_wild``) helps a player
    known to hold the natural cards ``held``: a wild always; a natural card
    that makes a pair with one of them, or a run within two ranks."""
    if is_wild:
        return w.feed_wild
    cost = 0.0
    for y in held:
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


#: the cards by ``Card.index`` (52 the joker), the ones every deck shares
_BY_INDEX = deck(1, 1)


def _discard_penalties(hand: list[Card], rules: MeldRules, allowed: list[Card]
                       ) -> tuple[Arrangement, dict[int, int], int]:
    """(the whole hand's best arrangement, {discard's ``Card.index``: penalty
    left}, the lowest of those penalties) for the allowed discards that might
    leave the lowest penalty.  A deadwood card of the whole hand's best
    arrangement leaves exactly that penalty less its points, so the solver
    only runs for meld cards that might do better."""
    last = _LAST_TABLES
    points = last[1][0] if last[0] is rules else _all_tables(rules)[0]
    full = _arrangement(hand, rules)
    fp = full.penalty
    allowed_at = set(map(_INDEX, allowed))
    out: dict[int, int] = {}
    for i in sorted(set(map(_INDEX, full.deadwood))):
        if i in allowed_at:
            out[i] = fp - points[i]
    best = min(out.values(), default=None)
    # the others, costliest first (index order is sort_key order)
    rest = sorted([(-points[i], i) for i in allowed_at if i not in out])
    less = None
    for minus_points, i in rest:
        if best is not None and fp + minus_points >= best:
            continue  # breaking a meld can't beat the best unmelded discard
        if less is None:
            less = penalty_less(hand, rules)  # the hand encoded once for every card asked
        p = less(_BY_INDEX[i])
        if best is None or p <= best:
            out[i] = p
            best = p
    assert best is not None
    return full, out, best


def _candidates(hand: list[Card], rules: MeldRules, allowed: list[Card], margin: int,
                penalties: tuple[Arrangement, dict[int, int], int] | None = None
                ) -> list[tuple[int, int, tuple[Meld, ...], Sequence[Card], Arrangement | None]]:
    """(discard's ``Card.index``, penalty left, the melds and the deadwood of
    an optimal arrangement of what is left, that arrangement if it was made)
    for the allowed discards within ``margin`` points of the lowest
    (``penalties``: :func:`_discard_penalties` of the same hand, if known)."""
    full, out, best = penalties or _discard_penalties(hand, rules, allowed)
    dead_at = list(map(_INDEX, full.deadwood))
    result: list[tuple[int, int, tuple[Meld, ...], Sequence[Card], Arrangement | None]] = []
    for i, p in out.items():
        if p > best + margin:
            continue
        if i in dead_at:  # the same melds, the deadwood less the discard
            dead = list(full.deadwood)
            del dead[dead_at.index(i)]
            result.append((i, p, full.melds, dead, None))
        else:
            kept = list(hand)
            del kept[list(map(_INDEX, kept)).index(i)]
            arr = _arrangement(kept, rules)
            result.append((i, p, arr.melds, arr.deadwood, arr))
    return result


def _feeds(obs: ThreeThirteenObservation, memory: dict[str, Any]
           ) -> tuple[int | None, list[Card]]:
    """For :func:`_choose_discard`: the player who plays next (None when
    nobody does) and the natural cards they are known to hold (what
    :func:`_feed` weighs)."""
    nxt = _next_to_play(obs)
    if nxt is None:
        return None, []
    wild = _tables(obs.rules)[1]
    return nxt, [y for y in memory["known"][nxt].elements() if not wild[y.index]]


def _choose_discard(obs: ThreeThirteenObservation, hand: list[Card], allowed: list[Card],
                    memory: dict[str, Any], unseen: Sequence[int], w: Weights,
                    summary: Summary | None = None,
                    explain: bool = True,
                    penalties: tuple[Arrangement, dict[int, int], int] | None = None
                    ) -> tuple[float, Card, int, str]:
    """(score, discard, penalty left, why) of the best discard from ``hand``
    (``unseen``: counts by ``Card.index``; ``summary``: its
    :func:`_unseen_summary` and ``penalties``: :func:`_discard_penalties`,
    if known; ``why`` is "" unless ``explain``)."""
    rules = obs.rules
    points, wild = _tables(rules)
    if summary is None:
        summary = _unseen_summary(unseen, rules)
    last_turn = obs.went_out is not None and obs.went_out != obs.player
    future = 0.0 if last_turn else w.future
    # what throwing a card gives the next player (_feed)
    nxt, held = (None, []) if last_turn else _feeds(obs, memory)
    best: tuple[tuple[float, int, int], int, int, tuple[Meld, ...], Sequence[Card],
                Arrangement | None, float, float] | None = None
    for i, p, melds, dead, arr in _candidates(hand, rules, allowed, w.margin, penalties):
        g = _gain_of(dead, melds, rules, unseen, summary) if future else 0.0
        feed = 0.0 if nxt is None else _feed(_BY_INDEX[i], wild[i], held, w)
        score = p - future * g + feed
        key = (score, -points[i], i)  # index order is sort_key order
        if best is None or key < best[0]:
            best = (key, i, p, melds, dead, arr, feed, g)
    assert best is not None
    (score, _, _), i, p, melds, dead, arr, feed, g = best
    c = _BY_INDEX[i]
    if not explain:
        return score, c, p, ""
    if arr is None:
        arr = Arrangement(melds, tuple(dead), p)
    partials = _partials(arr, rules, unseen, summary) if future else []
    why_parts = []
    # a meld uses the discard's twin (a second pack) only if it is not unmelded too
    used = i not in map(_INDEX, arr.deadwood) and any(
        i in map(_INDEX, m.cards) for m in arr.melds)
    uses = "" if used else "no meld uses it"
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


def _cannot_help(top: Card, hand: list[Card], with_top: list[Card], rules: MeldRules) -> bool:
    """True when taking ``top`` certainly leaves no lower penalty than
    ``hand`` has now, told without arranging ``hand`` plus ``top``: a
    natural card worth at least as much as every card held, that no meld
    can hold (a lone card, and fewer than two wilds).  Throwing a card c
    then keeps ``top`` as deadwood, and the rest of the hand costs at
    least the penalty now less c's points (c put back as deadwood arranges
    the hand), so the total is at least the penalty now."""
    points, wild = _tables(rules)
    t = top.index
    if wild[t] or points[t] <= 0:
        return False
    wilds = 0
    for c in hand:
        i = c.index
        if points[i] > points[t]:
            return False
        wilds += wild[i]
    return wilds < 2 and is_lone(top, with_top, rules)


def _not_lowered(top: Card, now: int, arr_now: Arrangement, rules: MeldRules,
                 unseen: Sequence[int], summary: Summary, g_now: float) -> str:
    """Why the expert draws from the stock when ``top`` would not lower
    its ``now`` points (``arr_now``: its hand's arrangement)."""
    msg = f"draw from the stock: {top} would not lower my {now} points"
    partials = _partials(arr_now, rules, unseen, summary)
    keep = _describe_partials(partials, unseen, summary[1])
    return msg + (f"; {keep}" if keep else "") + (
        f"; a stock card saves {g_now:.1f} points on average")


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
        if _cannot_help(top, hand, with_top, rules):
            return DRAW_STOCK, _not_lowered(top, now, arr_now, rules, unseen, summary, g_now)
        # the distinct cards but the top one (unless it may go back), in index order
        skip = -1 if obs.discard_return else top.index
        allowed = [_BY_INDEX[i] for i in sorted(set(map(_INDEX, with_top))) if i != skip]
        # the lowest penalty after taking the top card (never throwing it back)
        penalties = _discard_penalties(with_top, rules, allowed)
        _, left_by_card, best_p = penalties
        best_c = _BY_INDEX[min(i for i, p in left_by_card.items() if p == best_p)]
        if best_p == 0:
            return DRAW_DISCARD, (
                f"take {top}: with it every card but {best_c} is in melds, so I go out")
        if best_p >= now and not rules.is_wild(top):
            return DRAW_STOCK, _not_lowered(top, now, arr_now, rules, unseen, summary, g_now)
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
