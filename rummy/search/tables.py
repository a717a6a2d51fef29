"""The count vectors of the general and the roomy search, and their per-rule tables.

A hand's natural (non-wild) cards are a vector of counts, one 4-bit field
per card (identical cards from several packs are one count), each card at
its *position*: rank-major from the top rank down (the ace first when it
may play high, last when it plays low), so that a card's set partners sit
next to it and the costly cards come first.  The general search
(:mod:`rummy.search.general`) keeps position p in field p; the roomy
search (:mod:`rummy.search.roomy`) in field 51 - p (``TOP``).  A search's
cost is one integer: penalty * ``PER_POINT`` + deadwood cards *
``PER_CARD`` + the discard's preference.

This module holds what both searches share: that encoding, the tables
each rule set gives (:func:`tables_of`, and per rules and wilds' points
:func:`solver_tables`, the roomy search's included), and a hand on its way
in: checked against its rules (:func:`prepare`), split into naturals and
wilds (:func:`split_hand`) and encoded with its isolated cards set apart
(:func:`encode`).  It imports only :mod:`rummy.cards` and :mod:`rummy.melds`.

>>> from rummy.cards import cards
>>> x, iso = encode(MeldRules(), 0, cards("7h 8h 9h Kc"))
>>> [str(tables_of(MeldRules())[1][p]) for p in iso]     # Kc shares a meld with no other card
['Kc']
"""

from __future__ import annotations

import contextlib
import functools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rummy.cards import SUITS, Card, as_cards
from rummy.melds import MeldError, MeldRules

#: the cost encoding: penalty * PER_POINT + deadwood cards * PER_CARD + the
#: discard's preference (below PER_CARD)
PER_POINT = 1 << 13
PER_CARD = 1 << 7
#: a cost no answer reaches (no card to discard)
INF = 1 << 62
#: the discard preference of a wild (naturals rank 0..51, lower preferred)
WILD_DISCARD = 100
#: the roomy search's count vectors hold position p in field 51 - p (the
#: field at shift 204 - 4p): the lowest position, searched first, is the
#: top field, found by ``bit_length`` alone, and read off by one shift
TOP = 204
#: the room of a set in the roomy search: more than any number of wilds
SET_ROOM = 64
UNIT = [1 << (p << 2) for p in range(52)]  # one card at each position, as a count vector
UNIT_TOP = [1 << (TOP - (p << 2)) for p in range(52)]  # the same in the roomy search's layout
FIELD_TOP = [15 << (TOP - (p << 2)) for p in range(52)]  # each position's field in that layout



@functools.lru_cache(maxsize=512)
def tables_of(rules: MeldRules) -> tuple[Any, ...]:
    """Per-position tables for one rule set.

    A natural card's position is q * 4 + suit, rank-major from the top
    rank down (the ace first when it may play high, last when it plays
    low), so that the search meets the costly cards first: the lowest
    position's set partners are the next positions, its run partners every
    fourth (runs are built downwards).  Returns the position of each card,
    the card at each position, the encoded deadwood cost, the discard
    preference (0 = the card best thrown on a tie: most points first), the
    run positions after each (next lower ranks of its suit), the positions
    of an ace's low runs (2, 3, ...) when it plays low or high, the
    same-rank positions after it, Card.index -> position, the part of a
    count vector the melds of a lowest card depend on, each card's points
    by Card.index, the positions after each that are better discards,
    each Card.index's unit in a count vector, the Card.index at each
    position, whether each Card.index (the joker's, 52, included) is a
    wild, the positions in discard preference order (best first), and
    each Card.index's unit in the roomy search's count vectors (``TOP``).
    """
    pos_of: dict[Card, int] = {}
    card_at: list[Card] = []
    pen: list[int] = []
    ranks = list(range(13, 1, -1))
    ranks = ranks + [1] if rules.aces == "low" else [1] + ranks
    for r in ranks:
        for s in SUITS:
            c = Card(r, s)
            pos_of[c] = len(card_at)
            card_at.append(c)
            pen.append(rules.penalty_of(c) * PER_POINT + PER_CARD)
    order = sorted(range(52), key=lambda i: (-rules.penalty_of(card_at[i]), card_at[i].sort_key()))
    drank = [0] * 52
    for i, pos in enumerate(order):
        drank[pos] = i
    up = [tuple(range(p + 4, 52, 4)) for p in range(52)]
    down: list[tuple[int, ...]] = [()] * 52
    if rules.aces == "low_or_high":
        for si in range(4):
            down[si] = tuple(range(48 + si, si, -4))  # 2, 3, ... K above an ace played as 1
    same = [tuple(range(p + 1, p - p % 4 + 4)) for p in range(52)]
    index_pos = [pos_of[c] for c in (Card(r, s) for s in SUITS for r in range(1, 14))]
    # the part of a count vector that the melds of its lowest card p depend
    # on: p and the cards above it in its suit, and p's rank in higher suits
    local = [0] * 52
    for p in range(52):
        m = 0
        for t in (p, *up[p], *same[p]):
            m |= 15 << (t << 2)
        local[p] = m
    pts = [rules.penalty_of(Card(r, s)) for s in SUITS for r in range(1, 14)] + [rules.joker_penalty]
    better = [0] * 52
    for p in range(52):
        for t in range(p + 1, 52):
            if drank[t] < drank[p]:
                better[p] |= 15 << (t << 2)
    unit = [1 << (index_pos[i] << 2) for i in range(52)]
    idx_at = [c.index for c in card_at]
    wild_at = [i % 13 + 1 == rules.wild_rank for i in range(52)] + [True]
    unit_top = [1 << (TOP - (index_pos[i] << 2)) for i in range(52)]
    return (pos_of, card_at, pen, drank, up, down, same, index_pos, local, pts, better, unit, idx_at,
            wild_at, order, unit_top)


_last_tables: list[Any] = [None, None]


def rule_tables(rules: MeldRules) -> tuple[Any, ...]:
    """``tables_of(rules)``, with the last rule set kept at hand (most calls
    in a row share one)."""
    if _last_tables[0] is not rules:
        _last_tables[0], _last_tables[1] = rules, tables_of(rules)
    return _last_tables[1]  # type: ignore[no-any-return]


def wild_costs(rules: MeldRules, wilds: Iterable[Card]) -> tuple[int, ...]:
    """The wilds' points, most expensive first: the cheapest are the ones
    left over (and a discarded wild is the most expensive one, which leaves
    the cheapest-u sums unchanged for every u < number of wilds)."""
    pts = rule_tables(rules)[9]
    if type(wilds) is list and len(wilds) < 2:  # most hands (no comprehension's frame)
        return (pts[wilds[0].index],) if wilds else ()
    return tuple(sorted([pts[c.index] for c in wilds], reverse=True))


# ---------------------------------------------------------------------------
# A hand on its way in: checked, split into naturals and wilds


#: every natural card by Card.index
CARD_OF = [Card(r, s) for s in SUITS for r in range(1, 14)]
#: a card's index (the order of Card.sort_key), read in C
INDEX = operator.attrgetter("index")
#: the types of a hand given as Card values only
ONLY_CARDS = {Card}
#: the rules a question asked without rules is answered under
DEFAULT_RULES = MeldRules()


def prepare(hand: Any, rules: MeldRules | None) -> tuple[Any, MeldRules]:
    """(the cards, the rules) of a question: the hand read as cards (a
    list or tuple of Card values is taken as it is), the rules checked
    (None: :data:`DEFAULT_RULES`); :class:`MeldError` for more than 16
    cards or a joker the rules don't use.

    >>> cards_, rules = prepare("7h 8h", None)
    >>> cards_, rules is DEFAULT_RULES
    ((Card.parse('7h'), Card.parse('8h')), True)
    """
    if rules is None:
        rules = DEFAULT_RULES
    elif type(rules) is not MeldRules:
        raise MeldError(f"rules must be a MeldRules, not {type(rules).__name__}")
    cards_ = hand
    if type(hand) is tuple or type(hand) is list:
        if hand and set(map(type, hand)) != ONLY_CARDS:  # (the check runs in C)
            cards_ = as_cards(hand)
    else:
        cards_ = as_cards(hand)
    if len(cards_) > 16:
        raise MeldError(f"a hand has at most 16 cards here; this one has {len(cards_)}")
    check_jokers(cards_, rules)
    return cards_, rules


def check_jokers(cards_: Any, rules: MeldRules) -> None:
    """Raise :class:`MeldError` when the cards hold a joker and the rules
    use none (``jokers_wild=False``)."""
    if not rules.jokers_wild and 52 in map(INDEX, cards_):
        raise MeldError("jokers are not used with these rules (jokers_wild=False); "
                        "remove the joker or use rules where jokers are wild")


def split_hand(cards_: Any, rules: MeldRules) -> tuple[list[Card], list[Card]]:
    """(the naturals, the wilds) of a hand, each in hand order."""
    wild_at = rule_tables(rules)[13]
    naturals: list[Card] = []
    wilds: list[Card] = []
    for c in cards_:  # (a loop: no comprehension's frame)
        if wild_at[c.index]:
            wilds.append(c)
        else:
            naturals.append(c)
    return naturals, wilds


# ---------------------------------------------------------------------------
# Count vectors


@functools.lru_cache(maxsize=64)
def _partners_of(both: bool, reach: int) -> list[int]:
    """For each position, the positions (as count-vector fields) whose cards
    could share a meld with it: its rank in the other suits, and its suit
    within ``reach`` ranks (an ace that plays low or high reaches both the
    king's side and the two's side, ``both``).  Built once per ace layout
    and reach, whatever the other rules (a game's rounds share them)."""
    out = [0] * 52
    for p in range(52):
        q, s = p >> 2, p & 3
        m = 0
        for t in range(q * 4, q * 4 + 4):
            if t != p:
                m |= 15 << (t << 2)
        for j in range(13):
            if j == q:
                continue
            dist = abs(j - q)
            if both and (j == 0 or q == 0):  # the ace is first: K next to it, 2 last
                i = q or j
                dist = min(i, 13 - i)
            if dist <= reach:
                m |= 15 << ((j * 4 + s) << 2)
        out[p] = m
    return out


@functools.lru_cache(maxsize=64)
def partners_by_index(aces: str, reach: int, top: bool = False) -> list[int]:
    """By ``Card.index`` (0..51), what :func:`encode` reads to find the
    isolated cards: the fields of a count vector that keep a card from
    being isolated: those of :func:`_partners_of`, and the card's own field
    counting two or more (``top``: in the roomy search's layout, ``TOP``).
    A card of a count vector x is isolated when ``x & partners[index]`` is 0."""
    index_pos = tables_of(MeldRules(aces=aces))[7]  # type: ignore[arg-type]
    partners = _partners_of(aces == "low_or_high", reach)
    if top:
        return [flip(partners[p]) | 14 << (TOP - (p << 2)) for p in index_pos]
    return [partners[p] | 14 << (p << 2) for p in index_pos]


def flip(x: int) -> int:
    """A count vector in the other layout: position p's count moves from
    field p to field 51 - p, or back (``TOP``).

    >>> flip(3) == 3 << TOP, flip(flip(0x1203)) == 0x1203
    (True, True)
    """
    out = 0
    while x:
        i = (x.bit_length() - 1) >> 2
        n = x >> (i << 2)
        x -= n << (i << 2)
        out |= n << (TOP - (i << 2))
    return out


_EIGHTS = sum(8 << (4 * p) for p in range(52))  # a count of 8 or more in some field


def encode(rules: MeldRules, big: int, naturals: Sequence[Card],
           top: bool = False) -> tuple[int, list[int]]:
    """The count vector of the naturals less the isolated ones, and the
    isolated positions, best discard first.  A natural is isolated when no
    other natural could share a meld with it, given ``big`` wilds.  (``top``:
    in the roomy search's layout, see ``TOP``.)"""
    tables = rule_tables(rules)
    drank, index_pos, unit = tables[3], tables[7], tables[15 if top else 11]
    x = 0
    for c in naturals:  # (a loop: no comprehension's frame and list)
        x += unit[c.index]
    if len(naturals) > 8 and (x & _EIGHTS or len(naturals) == 16) and max(Counter(map(INDEX, naturals)).values()) > 8:
        raise MeldError("no card can appear more than 8 times (at most 8 packs)")
    partners = partners_by_index(rules.aces, big + 1, top)
    iso: list[int] = []
    for c in naturals:
        i = c.index
        if not x & partners[i]:  # held once, without a partner (most cards have one)
            iso.append(index_pos[i])
    if iso:
        units = UNIT_TOP if top else UNIT
        for p in iso:
            x -= units[p]
        iso.sort(key=drank.__getitem__)
    return x, iso


# ---------------------------------------------------------------------------
# What a solver holds per rules and wilds' points


#: what a solver holds that depends on its rules and its wilds' points
#: alone, per (rules, wilds' points); the last asked kept at hand
_STATICS: dict[tuple[MeldRules, tuple[int, ...]], tuple[Any, ...]] = {}
_last_static: list[Any] = [None, None, None]


def solver_tables(rules: MeldRules, costs: tuple[int, ...]) -> tuple[Any, ...]:
    """For a solver of these rules and wilds' points (``costs``, most
    expensive first): the rules and their tables, the set size cap, whether
    melds may be all wilds, the number of wilds, the cost of the cheapest
    ``left`` wilds left over, the room of a set, and the roomy search's run
    tables (:func:`_run_reach`).  Made once per rules and points (a game's
    hands share them)."""
    if _last_static[0] is rules and _last_static[1] == costs:
        return _last_static[2]  # type: ignore[no-any-return]
    key = (rules, costs)
    got = _STATICS.get(key)
    if got is None:
        (pos_of, card_at, pen, drank, up, down, same, index_pos, local, _pts, better, _unit,
         idx_at, _wild_at, by_drank, _unit_top) = rule_tables(rules)
        big = len(costs)
        wild_cost = [0] * (big + 1)
        for left in range(1, big + 1):
            wild_cost[left] = sum(costs[big - left:]) * PER_POINT + left * PER_CARD
        max_set = rules.max_set_size
        set_room = big if max_set is None else max_set - 3
        got = (rules, pos_of, card_at, pen, drank, up, down, same, index_pos, local, better, idx_at,
               by_drank, max_set, rules.min_naturals == 0, big, wild_cost, set_room,
               _run_reach(rules, big + 1))
        if len(_STATICS) >= 4096:
            _STATICS.clear()
        _STATICS[key] = got
    _last_static[0], _last_static[1], _last_static[2] = rules, costs, got
    return got


@functools.lru_cache(maxsize=512)
def _run_reach(rules: MeldRules, reach: int) -> tuple[Any, ...]:
    """The roomy search's tables (its layout, ``TOP``): those of
    :func:`_run_reach_of` for the rules' ace layout, those of
    :func:`_run_discards`, :func:`_lone_tests` by the number of wilds
    left (0 to ``reach`` - 1; None from two on), the Card.index and the
    deadwood cost of the card in each field, and the ranks' costs for
    summing deadwood in one product (one lookup for a new solver)."""
    t = tables_of(rules)
    # the deadwood cost of each rank (a 16-bit lane, the top rank highest),
    # in units of PER_CARD, in the lanes in reverse: a vector of the count of each
    # rank times it holds the dot product (the cards' deadwood cost) in its
    # lane 12, when no lane of the product can overflow (at most 16 cards
    # of a cost under 2**12 units); else 0 (the cost is summed card by card)
    costs = [t[2][51 - 4 * i] // PER_CARD for i in range(13)]  # lane i: the cost of a card of that rank
    lane_pen = sum(c << (16 * (12 - i)) for i, c in enumerate(costs)) if max(costs) < 1 << 12 else 0
    # the lone-card tests by the number of wilds left (None from two on)
    lone = (*_lone_tests(rules.aces), *[None] * (reach - 2))
    return (*_run_reach_of(rules.aces, reach), *_run_discards(rules), lone,
            t[12][::-1], t[2][::-1], lane_pen)


@functools.lru_cache(maxsize=512)
def _run_discards(rules: MeldRules) -> tuple[list[int], list[int]]:
    """For each position, the cards of its suit a run from it passes that
    are better discards (which such a run may leave out, see
    ``Roomy._rextra_of``), and all the later positions that are better
    discards (``better`` of :func:`tables_of`), in the roomy search's layout."""
    t = tables_of(rules)
    up, down, better = t[4], t[5], t[10]
    better_top = [flip(m) for m in better]
    xcand = [0] * 52
    for p in range(52):
        m = 0
        for q in (*up[p], *down[p]):
            m |= FIELD_TOP[q]
        xcand[p] = m & better_top[p]
    return xcand, better_top


@functools.lru_cache(maxsize=64)
def _run_reach_of(aces: str, reach: int) -> tuple[list[int], list[tuple[tuple[tuple[int, ...], ...], ...]],
                                                  list[tuple[tuple[int, int, int], ...]]]:
    """Static tables of the roomy search (its layout, ``TOP``), per ace
    layout and reach (the wilds in hand plus one), whatever the other
    rules: for each position, the part of a count vector its melds as the
    lowest card depend on (its ``local`` part and the reach of each card of
    its rank); its run sequences (down its suit, and up from an ace that
    also plays low), each card as (its field's mask and unit in a count
    vector, the room of a run that ends there, 1 for the first card, its
    position); and for each later card of its rank, (its
    field's shift within the rank's 16 bits, its unit in a count vector,
    the cards of its suit a run from it could reach first)."""
    t = tables_of(MeldRules(aces=aces))  # type: ignore[arg-type]
    up, down, same, local = t[4], t[5], t[6], t[8]
    reach_of = [0] * 52
    for p in range(52):
        m = 0
        for q in (*up[p][:reach], *down[p][:reach]):
            m |= FIELD_TOP[q]
        reach_of[p] = m
    rlocal = [0] * 52
    seqs: list[tuple[tuple[tuple[int, ...], ...], ...]] = []
    sames: list[tuple[tuple[int, int, int], ...]] = []
    for p in range(52):
        m = flip(local[p])
        for q in same[p]:
            m |= reach_of[q]
        rlocal[p] = m
        # (the room of the run that ends there: 13 less its span; whether
        # it is the first card, which a run of two naturals meets with one wild)
        seqs.append(tuple(tuple((FIELD_TOP[q], UNIT_TOP[q], 11 - i, int(i == 0), q)
                                for i, q in enumerate(seq))
                          for seq in (up[p], down[p]) if seq))
        sames.append(tuple((((51 - q) & 3) << 2, UNIT_TOP[q], reach_of[q]) for q in same[p]))
    return rlocal, seqs, sames


@functools.lru_cache(maxsize=8)
def _lone_tests(aces: str) -> tuple[list[tuple[int, int, frozenset[int], int, int, int, int]],
                                    list[tuple[int, int]]]:
    """For each position p, what tells whether p, as the lowest card (the
    top field of a count vector in the roomy search's layout, ``TOP``),
    has a meld with no wild, and with one (the roomy search asks before it
    looks up p's meld lists).  With one wild, p has a meld when its rank
    holds another card or one of the first two cards of a run is there (a
    gap takes the wild): (the bound below which p is alone in its rank,
    the fields of the first two cards of each of its runs).  With none,
    when its rank holds three cards or a run's first two cards are both
    there: (the shift of p's rank, p's shift within it, the values of the
    rank's fields with at most two cards, the fields of the first and the
    second card of its first run, likewise of its second run, 0 when there
    is none).

    >>> lone0, lone1 = _lone_tests("low")
    >>> base, o, few, a, b, a2, b2 = lone0[0]  # the king of clubs, the first position
    >>> base, o, a == FIELD_TOP[4], b == FIELD_TOP[8], a2 == b2 == 0
    (192, 12, True, True, True)
    >>> sorted(hex(v) for v in few)  # itself once or twice, or with one card of a later suit
    ['0x1000', '0x1001', '0x1010', '0x1100', '0x2000']
    """
    t = tables_of(MeldRules(aces=aces))  # type: ignore[arg-type]
    up, down = t[4], t[5]
    lone0 = []
    lone1 = []
    for p in range(52):
        pairs = [(FIELD_TOP[seq[0]], FIELD_TOP[seq[1]] if len(seq) > 1 else 0)
                 for seq in (up[p], down[p]) if seq]
        pairs += [(0, 0)] * (2 - len(pairs))
        (a, b), (a2, b2) = pairs
        f = 51 - p
        o = (f & 3) << 2
        base = (f << 2) - o
        few = frozenset({1 << o, 2 << o, *((1 << o) | (1 << o2) for o2 in range(0, o, 4))})
        lone0.append((base, o, few, a, b, a2, b2))
        lone1.append((UNIT_TOP[p] + (1 << base), a | b | a2 | b2))
    return lone0, lone1


def latest(kept: dict[Any, Any], key: Any, limit: int, make: Callable[[], Any]) -> Any:
    """``kept[key]`` (``make()`` when missing), moved last: a dict kept in
    the order its keys were last asked, that drops the one asked longest
    ago to stay within ``limit`` keys (a game moves on to new rules each
    round, and what the old rounds kept would only burden the memory and
    the garbage collector)."""
    got = kept.pop(key, None)
    if got is None:
        got = make()
        if len(kept) >= limit:
            # games searched in threads share the dict: another may drop the same
            # key first, or change the dict while its first key is read
            with contextlib.suppress(RuntimeError, StopIteration):
                kept.pop(next(iter(kept)), None)
    kept[key] = got
    return got
