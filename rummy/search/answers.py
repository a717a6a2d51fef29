"""The meld search's public questions: which search answers each, and the answers kept.

Each question (:func:`best_arrangement`, :func:`penalty`,
:func:`best_discard`, :func:`all_melded`, ...) checks its hand once
(:func:`rummy.search.tables.prepare`), then takes the fast path when the
hand is one pack's worth of distinct cards without wilds
(:mod:`rummy.search.onepack`), else a solver: the roomy search
(:mod:`rummy.search.roomy`) when sets take any number of wilds (its bit
mask form, :mod:`rummy.search.onewild`, for a hand with at most three
wilds and no card three times, when :func:`best_arrangement` and
:func:`penalty` ask), the general search (:mod:`rummy.search.general`)
otherwise.

What is kept between calls: the solvers (:func:`solver_for`: a search's
results depend only on the rules, the wilds' points and the isolated
cards, so hands that share them share one memo), and the answers, per
rules, question and hand (:data:`ANSWERS`: a bot weighing its turn, the
engine checking the same move and the next turn's hand ask again).
:func:`clear_memo` empties every memo the search package keeps (the
per-rule tables stay).

Among arrangements of equal penalty, naturals go in sets first and wilds
fill runs (:func:`naturals_in_sets`), then the search's order.

This module imports :mod:`rummy.cards`, :mod:`rummy.melds` and the other
modules of :mod:`rummy.search`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rummy.cards import JOKER, Card, as_cards, format_cards
from rummy.melds import (
    Arrangement,
    Discard,
    Meld,
    MeldError,
    MeldRules,
    make_arrangement,
    make_discard,
)
from rummy.search import onepack, roomy, wilds
from rummy.search.general import Solver
from rummy.search.onepack import (
    bits_of,
    fast_arrangement,
    fast_best,
    fast_discard,
    fast_discard_pick,
    fast_melds,
    fast_ready,
    fast_total,
    last_quick,
    onepack_deadwood,
    quick_mask,
    quick_tables,
    runs_arrangement,
)
from rummy.search.onewild import onewild_arrangement, onewild_penalty
from rummy.search.roomy import Roomy
from rummy.search.tables import (
    CARD_OF,
    DEFAULT_RULES,
    INDEX,
    PER_CARD,
    PER_POINT,
    UNIT_TOP,
    check_jokers,
    encode,
    latest,
    partners_by_index,
    prepare,
    rule_tables,
    split_hand,
    wild_costs,
)

# ---------------------------------------------------------------------------
# The solvers kept, and which search answers


#: the solvers kept, by (rules, wilds' points, isolated positions), the
#: oldest dropped first
SOLVERS: dict[tuple[Any, ...], Solver] = {}
#: the rules of the solvers made since the memos were last emptied: a hand
#: with two wilds or three under them goes to the kept solvers (whose memos
#: a game's hands share), not to the mask search (which keeps nothing: the
#: faster for a hand seen cold, the slower in a game, 1.7% more bytecodes
#: for the expert bots' Three-Thirteen)
_SOLVER_RULES: dict[MeldRules, bool] = {}
#: how many solvers are kept (a game's hands share most of their searches;
#: more keep memos alive that the garbage collector walks over and over, and
#: that crowd the CPU's caches: 512 cost a greedy game 2% more instructions
#: than 64, and 64 ran 2-4% slower than 16 beside another process's games)
SOLVERS_MAX = 16
_ISO_SEEN: dict[Any, bool] = {}  # (rules, wilds' points) whose hands had isolated cards


def solver_for(rules: MeldRules, naturals: list[Card], wilds: list[Card],
               encoded: tuple[int, list[int]] | None = None) -> tuple[Solver, int]:
    """A solver for this hand and its encoded naturals.

    A search's results depend only on the rules, the wilds' points and the
    isolated cards, so hands that share them (a player's hand from one turn
    to the next, a bot weighing each discard) share one memo: later calls
    start from the states earlier calls solved.  A game's hands keep
    changing their isolated cards, though: from the second set of isolated
    cards seen for the same rules and wilds' points (fewer than two wilds,
    which could rescue an isolated card), the hands share one solver that
    searches their isolated cards with the rest (the lone-card test of its
    search settles them as deadwood), not one solver per set (a greedy
    game: 141M -> 138M instructions; a single question, asked after
    :func:`clear_memo`, keeps the smaller search of its own solver)."""
    costs = wild_costs(rules, wilds)
    kind = solver_kind(rules)
    x, iso = encoded or encode(rules, len(costs), naturals, kind.top)
    key = (rules, costs, tuple(iso))
    kept = SOLVERS.get(key)
    if kept is None and iso and len(costs) < 2 and kind is Roomy:
        rc = (rules, costs)
        if rc in _ISO_SEEN:  # a second set of isolated cards: the shared solver
            for p in iso:
                x += UNIT_TOP[p]
            iso = []
            key = (rules, costs, ())
            kept = SOLVERS.get(key)
        else:
            if len(_ISO_SEEN) >= 4096:
                _ISO_SEEN.clear()
            _ISO_SEEN[rc] = True
    if kept is not None:
        kept.trim()
        return kept, x
    if len(SOLVERS) >= SOLVERS_MAX:
        del SOLVERS[next(iter(SOLVERS))]  # the oldest
    s = kind(rules, wilds, costs, iso)
    SOLVERS[key] = s
    if rules not in _SOLVER_RULES:
        if len(_SOLVER_RULES) >= 64:
            _SOLVER_RULES.clear()
        _SOLVER_RULES[rules] = True
    return s, x


def solver_kind(rules: MeldRules) -> type[Solver]:
    """The search for these rules: the roomy search when sets take any
    number of wilds, else the search with room (each with its layout of
    count vectors, ``top``)."""
    return Solver if rules.max_set_size is not None else Roomy


def arrange(s: Solver, x: int, wilds: list[Card], d: int,
            total: int | None = None) -> tuple[Arrangement, Card | None]:
    """The best arrangement (and discard, when ``d``): the roomy search's
    when it applies and its answer holds, else the search with room
    (``total``: every natural card's encoded deadwood cost, when the
    caller has it).  The answers shown are read by the tie rule
    (:func:`naturals_in_sets`)."""
    if type(s) is Roomy:
        got = s.rarrangement(x, wilds, d, total)
        if got is not None:
            return got
        s, x = s.general(x)
    return s.arrangement(x, wilds, d, total)


def naturals_in_sets(arr: Arrangement, rules: MeldRules) -> Arrangement:
    """The tie rule, among arrangements of equal penalty: naturals go in
    sets first and wilds fill runs, then the search's order.  A wild in a
    set whose rank a natural card of a run has trades places with that
    card (the run keeps a natural card, so it stays a meld in every
    variant); the melds, their order and the deadwood are otherwise the
    search's, so the penalty is unchanged.  It runs after the search, on
    the one arrangement chosen, and costs nothing for hands without wilds.

    >>> from rummy.cards import cards
    >>> print(best_arrangement(cards("Jc Jh 9h Ts Js Qs"), MeldRules(wild_rank=9)))
    [Jc Jh Js] | [Ts 9h=Js Qs]; deadwood: none; penalty 0
    """
    melds = list(arr.melds)
    changed = False
    for i in range(len(melds)):
        while True:
            s = melds[i]
            if s.kind != "set" or not s.wild:
                break
            nats = [c for c, f in zip(s.cards, s.wild) if not f]
            wl = [c for c, f in zip(s.cards, s.wild) if f]
            if not nats or not wl:
                break
            rank = nats[0].rank
            swap = None
            for j, r in enumerate(melds):
                if r.kind != "run":
                    continue
                flags = r.wild or (False,) * len(r.cards)
                rn = [c for c, f in zip(r.cards, flags) if not f]
                if len(rn) < 2:  # the run would be wilds only
                    continue
                hit = next((c for c in rn if c.rank == rank), None)
                if hit is not None:
                    swap = j, hit, rn, [c for c, f in zip(r.cards, flags) if f]
                    break
            if swap is None:
                break
            j, hit, rn, rw = swap
            wild = wl.pop()  # the cheapest of the set's wilds (most expensive first)
            rn.remove(hit)
            melds[i] = Meld.of((*nats, hit, *wl), rules)  # (rare: the plain constructor)
            melds[j] = Meld.of((*rn, wild, *rw), rules)
            changed = True
    if not changed:
        return arr
    return make_arrangement(tuple(melds), arr.deadwood, arr.penalty)


# ---------------------------------------------------------------------------
# The hand asked last and the answers kept


#: the tuple of cards asked last, its rules and :func:`_prepared`'s answer
#: (a tuple is asked again as it is: the engine asks of a hand, then the
#: bot that observes it; the tuple is held, so an equal id is the same tuple)
last_prepared: list[Any] = [None, None, None]


def _prepared(hand: Any, rules: MeldRules | None
              ) -> tuple[Any, MeldRules, tuple[int, tuple[Any, ...]] | None]:
    """(cards, rules, (mask, quick tables) or None): the hand checked, and
    the fast path's mask when it applies."""
    if hand is last_prepared[0] and rules is last_prepared[1]:
        return last_prepared[2]  # type: ignore[no-any-return]
    got: tuple[Any, MeldRules, tuple[int, tuple[Any, ...]] | None]
    quick = quick_mask(hand, DEFAULT_RULES if rules is None else rules)
    if quick is True:  # not a list of cards: the checked way
        cards_, checked = prepare(hand, rules)
        fast = fast_ready(cards_, checked)
        if fast is None:
            got = cards_, checked, None
        else:
            q = quick_tables(checked)
            assert q is not None
            got = cards_, checked, (fast[0], q)
    elif quick is False:  # cards and rules, checked by quick_mask, but not the fast path's
        checked = DEFAULT_RULES if rules is None else rules
        check_jokers(hand, checked)
        got = hand, checked, None
    else:
        got = hand, DEFAULT_RULES if rules is None else rules, quick
    if type(hand) is tuple:
        last_prepared[0], last_prepared[1], last_prepared[2] = hand, rules, got
    return got


#: the last hand split and encoded: (rules, its key, (naturals, wilds,
#: encoded)), one tuple replaced whole (threads never see a mixed one); the
#: engine's go-out check and the player's questions that follow ask of one
#: hand in turn
_last_split: tuple[Any, Any, Any] = (None, None, None)


def _split_encoded(cards_: Any, rules: MeldRules, key: tuple[int, ...]
                   ) -> tuple[list[Card], list[Card], tuple[int, list[int]]]:
    """(the naturals, the wilds, their encoding for these rules' search) of
    a hand (``key``: its :func:`_hand_key`); the lists are shared: never
    changed by a caller."""
    global _last_split
    last = _last_split
    if last[0] is rules and last[1] == key:
        return last[2]  # type: ignore[no-any-return]
    naturals, wilds = split_hand(cards_, rules)
    got = naturals, wilds, encode(rules, len(wilds), naturals, solver_kind(rules).top)
    _last_split = (rules, key, got)
    return got


#: answers kept per rules and question: a hand asked about again (a bot
#: weighing its turn, the engine checking the same move, the next turn's
#: hand after a discard) is answered without a search.  Keys: the hand's
#: sorted card indexes.  The fast path (one pack, no wilds) is not kept: it
#: costs little more than a lookup.
ANSWERS: dict[MeldRules, dict[str, dict[Any, Any]]] = {}
_ANSWERS_MAX = 1 << 15
# rule sets whose answers are kept, the ones asked longest ago dropped first
# (a Three-Thirteen game moves on to new rules each round, and seldom goes
# back: kept answers hold arrangements that the garbage collector walks at
# every full pass, and that crowd the CPU's caches)
_ANSWERS_RULES = 2
_last_answers: list[Any] = [None, None]  # the rules asked last and their questions' answers


def _kept(rules: MeldRules, kind: str) -> dict[Any, Any]:
    """The answers kept for these rules and this question (``kind``)."""
    if _last_answers[0] is rules:  # most calls in a row share one rule set
        kinds = _last_answers[1]
    else:
        kinds = latest(ANSWERS, rules, _ANSWERS_RULES, dict)
        _last_answers[0], _last_answers[1] = rules, kinds
    kept = kinds.get(kind)
    if kept is None:
        kept = kinds[kind] = {}
    elif len(kept) > _ANSWERS_MAX:
        kept.clear()
    return kept  # type: ignore[no-any-return]


_last_key: list[Any] = [None, None]  # the tuple of cards asked last and its key


def _hand_key(cards_: Any) -> tuple[int, ...]:
    """The card indexes of a hand, in order (the kept answers' key); the
    last tuple of cards asked is answered again at once (as in
    :func:`_prepared`)."""
    if cards_ is _last_key[0]:
        return _last_key[1]  # type: ignore[no-any-return]
    key = []
    for c in cards_:  # (a loop: no comprehension's frame)
        key.append(c.index)
    key.sort()
    got = tuple(key)
    if type(cards_) is tuple:
        _last_key[0], _last_key[1] = cards_, got
    return got


def clear_memo() -> None:
    """Forget every search result kept between calls (the per-rule tables
    stay).  Answers never change; only the time of the next calls does.

    >>> clear_memo(); penalty("7h 8h 9h Kc")
    10
    """
    global _last_split
    SOLVERS.clear()
    _SOLVER_RULES.clear()
    _ISO_SEEN.clear()
    ANSWERS.clear()
    _last_answers[0] = _last_answers[1] = None
    _last_split = (None, None, None)
    onepack.forget()
    roomy.forget()
    wilds.forget()
    last_prepared[0] = last_prepared[1] = last_prepared[2] = None
    _last_key[0] = _last_key[1] = None


# ---------------------------------------------------------------------------
# The questions


def best_arrangement(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Arrangement:
    """The arrangement of ``hand`` with the lowest penalty (M-7), exactly.

    >>> from rummy.cards import cards
    >>> a = best_arrangement(cards("Qh Kh Ah"))             # aces low: 10+10+1
    >>> a.penalty, best_arrangement(cards("Qh Kh Ah"), MeldRules(aces="high")).penalty
    (21, 0)
    >>> print(best_arrangement(cards("7h 9h Jk 4c 4d 5s"), MeldRules(wild_rank=5)))
    [4c 4d Jk=4h] | [7h 5s=8h 9h]; deadwood: none; penalty 0
    """
    if rules is last_quick[0] and type(hand) is tuple and len(hand) <= 16:
        # a tuple of cards under the rules asked last (a game's calls): one
        # pack without wilds, straight to the one-pack tables
        q = last_quick[1]
        if q is not None:
            bits = q[0]
            if rules.wild_rank is not None:  # most hands go to the search: read their key first
                try:
                    idx = []
                    for c in hand:  # (a loop: no comprehension's frame and list)
                        idx.append(c.index)
                    m = sum(map(bits.__getitem__, idx))
                except (AttributeError, TypeError):
                    m = -1  # not Card values only: the checked way, below
                if m > 0 and (m >> 52 or m.bit_count() != len(hand)):  # a wild, a joker or a card twice
                    check_jokers(hand, rules)
                    idx.sort()
                    _last_key[0], _last_key[1] = hand, tuple(idx)  # (what _hand_key reads)
                    return _general_arrangement(hand, rules)
            else:
                try:
                    m = 0
                    for c in hand:  # (a loop: no comprehension's frame and list)
                        m += bits[c.index]
                except (AttributeError, TypeError):
                    m = -1  # not Card values only: the checked way, below
            if m >= 0:
                if m >> 52 or m.bit_count() != len(hand):  # a wild, a joker or a card twice
                    check_jokers(hand, rules)
                    return _general_arrangement(hand, rules)
                got = runs_arrangement(m, q)
                if got is None:
                    ft = q[3]
                    pts, melds, chosen = fast_best(m, ft)
                    got = fast_arrangement(m, melds, chosen, ft, fast_total(m, ft[0]) - pts)
                return got
    r = DEFAULT_RULES if rules is None else rules
    if (hand is not last_prepared[0] or rules is not last_prepared[1]) and (
            type(hand) is tuple or type(hand) is list) and len(hand) <= 16 and type(r) is MeldRules:
        # Card values (the checks of quick_mask, inline: one pack without
        # wilds is gin's hot path)
        q = last_quick[1] if last_quick[0] is r else quick_tables(r)
        m = -1
        if q is not None:
            bits = q[0]
            try:  # (a string's index is a method: the mask is made of Card values only)
                m = 0
                for c in hand:  # (a loop: no comprehension's frame and list)
                    m += bits[c.index]
            except (AttributeError, TypeError):
                m = -1  # not Card values only: the checked way, below
        if m >= 0 and q is not None:
            if m >> 52 or m.bit_count() != len(hand):  # a wild, a joker or a card twice
                check_jokers(hand, r)
                return _general_arrangement(hand, r)
            got = runs_arrangement(m, q)
            if got is None:
                ft = q[3]
                pts, melds, chosen = fast_best(m, ft)
                got = fast_arrangement(m, melds, chosen, ft, fast_total(m, ft[0]) - pts)
            return got
    cards_, rules, fast = _prepared(hand, rules)
    if fast is None:
        return _general_arrangement(cards_, rules)
    m, q = fast
    got = runs_arrangement(m, q)
    if got is not None:
        return got
    ft = q[3]
    pts, melds, chosen = fast_best(m, ft)
    return fast_arrangement(m, melds, chosen, ft, fast_total(m, ft[0]) - pts)


def _general_arrangement(cards_: Any, rules: MeldRules) -> Arrangement:
    kept = _kept(rules, "a")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        # at most three wilds and no card three times (one when solvers are kept)
        got = onewild_arrangement(key, rules, 1 if rules in _SOLVER_RULES else 3)
        if got is None:
            naturals, wilds, encoded = _split_encoded(cards_, rules, key)
            s, x = solver_for(rules, naturals, wilds, encoded)
            got = arrange(s, x, wilds, 0)[0]
            if wilds and len(got.melds) > 1:
                got = naturals_in_sets(got, rules)
        elif len(got.melds) > 1:
            got = naturals_in_sets(got, rules)
        kept[key] = got
        _kept(rules, "p")[key] = got.penalty
        _kept(rules, "m")[key] = not got.deadwood
    return got  # type: ignore[no-any-return]


def penalty(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> int:
    """The lowest penalty of ``hand`` (the penalty of its best arrangement).

    >>> penalty("Qh Kh 3s 5c 5d 5s")
    23
    """
    # one pack, no wilds (the checks of quick_mask, inline: gin's hot path),
    # first for a tuple of cards under the rules asked last (a game's calls)
    if rules is last_quick[0] and type(hand) is tuple and len(hand) <= 16:
        q = last_quick[1]
        if q is not None:
            bits = q[0]
            try:
                m = 0
                for c in hand:  # (a loop: no comprehension's frame and list)
                    m += bits[c.index]
            except (AttributeError, TypeError):
                m = -1  # not Card values only: the checked way, below
            if m >= 0:
                if m >> 52 or m.bit_count() != len(hand):  # a wild, a joker or a card twice
                    check_jokers(hand, rules)
                    return _general_penalty(hand, rules)
                s0, s1, s2, s3 = m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39
                if (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3):  # some rank held 3+ times
                    return onepack_deadwood(m, q[1], q[2])
                dw = q[1]  # runs only
                return dw[s0] + dw[s1] + dw[s2] + dw[s3]
    r = DEFAULT_RULES if rules is None else rules
    if (type(hand) is tuple or type(hand) is list) and len(hand) <= 16 and type(r) is MeldRules:
        q = last_quick[1] if last_quick[0] is r else quick_tables(r)
        m = -1
        if q is not None:
            bits = q[0]
            try:  # (a string's index is a method: the mask is made of Card values only)
                m = 0
                for c in hand:  # (a loop: no comprehension's frame and list)
                    m += bits[c.index]
            except (AttributeError, TypeError):
                m = -1  # not Card values only: the checked way, below
        if m >= 0 and q is not None:
            if not m >> 52 and m.bit_count() == len(hand):
                s0, s1, s2, s3 = m & 0x1FFF, m >> 13 & 0x1FFF, m >> 26 & 0x1FFF, m >> 39
                if (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3):  # some rank held 3+ times
                    return onepack_deadwood(m, q[1], q[2])
                dw = q[1]  # runs only
                return dw[s0] + dw[s1] + dw[s2] + dw[s3]
            # cards, but a wild, a joker or a card twice: the general search
            cards_, rules = prepare(hand, r)
            return _general_penalty(cards_, rules)
    cards_, rules = prepare(hand, rules)
    fast = fast_ready(cards_, rules)
    if fast is not None:  # one pack, no wilds, given as text
        q = quick_tables(rules)
        assert q is not None
        return onepack_deadwood(fast[0], q[1], q[2])
    return _general_penalty(cards_, rules)


def _general_penalty(cards_: Any, rules: MeldRules) -> int:
    kept = _kept(rules, "p")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        # at most three wilds and no card three times (one when solvers are kept)
        quick = onewild_penalty(key, rules, 1 if rules in _SOLVER_RULES else 3)
        if quick is not None:
            got = kept[key] = quick[0]
            _kept(rules, "m")[key] = quick[1]
            return got
        naturals, wilds, encoded = _split_encoded(cards_, rules, key)
        s, x = solver_for(rules, naturals, wilds, encoded)
        if isinstance(s, Roomy):
            cost = s.rsolve(x, len(wilds), 0)
            if s.holds(x, len(wilds), 0):
                got = kept[key] = cost // PER_POINT
                _kept(rules, "m")[key] = cost < PER_CARD  # no deadwood card
                return got  # type: ignore[no-any-return]
        arrangement = arrange(s, x, wilds, 0)[0]
        got = kept[key] = arrangement.penalty
        _kept(rules, "m")[key] = not arrangement.deadwood
    return got  # type: ignore[no-any-return]


def penalty_less(hand: Iterable[Card | str] | str, rules: MeldRules | None = None
                 ) -> Callable[[Card | str], int]:
    """A function telling, card by card, the lowest penalty of ``hand``
    less one copy of that card: :func:`penalty` of each hand left, for
    less when several are asked (what a bot weighing its discards asks),
    because the hand is checked, split and encoded once.

    >>> less = penalty_less("Qh Kh 3s 5c 5d 5s")
    >>> less(Card.parse("Kh")), less("5c"), penalty("Qh Kh 3s 5d 5s")
    (13, 33, 33)
    >>> less(Card.parse("2c"))
    Traceback (most recent call last):
    ...
    rummy.melds.MeldError: 2c is not in the hand (Qh Kh 3s 5c 5d 5s)
    """
    cards_, rules, fast = _prepared(hand, rules)
    key = _hand_key(cards_)
    kept = _kept(rules, "p")
    tables = rule_tables(rules)
    wild_at, index_pos = tables[13], tables[7]
    state: list[Any] = []  # the roomy solver, the naturals' vector, the wilds, the isolated

    def less(card: Card | str) -> int:
        if not isinstance(card, Card):
            card = Card.parse(card)  # (its error says what a card looks like)
        i = card.index
        rest = list(key)
        try:
            rest.remove(i)
        except ValueError:
            raise MeldError(f"{card} is not in the hand ({format_cards(cards_)})") from None
        rest_key = tuple(rest)
        got = kept.get(rest_key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        if fast is None and not wild_at[i]:
            if not state:
                naturals, wilds = split_hand(cards_, rules)
                s, x = solver_for(rules, naturals, wilds)
                state[:] = (s if type(s) is Roomy else None, x, len(wilds),
                            set(s.iso) if type(s) is Roomy else ())
            s, x, w, iso = state
            pos = index_pos[i]
            if s is not None and pos not in iso:  # the same solver: one card fewer
                y = x - UNIT_TOP[pos]
                cost = s.rsolve(y, w, 0)
                if s.holds(y, w, 0):
                    got = kept[rest_key] = cost // PER_POINT
                    _kept(rules, "m")[rest_key] = cost < PER_CARD  # no deadwood card
                    return got  # type: ignore[no-any-return]
        left = list(cards_)
        left.remove(card)
        return penalty(left, rules)

    return less


def all_melded(hand: Iterable[Card | str] | str, rules: MeldRules | None = None, *,
               discard: bool = False) -> bool:
    """True when every card of ``hand`` fits in melds (penalty 0); with
    ``discard=True``, every card but one (the hand can go out).  Faster than
    asking :func:`penalty` or :func:`best_discard`, because the search stops
    at the first card that can't be melded.

    >>> from rummy.cards import cards
    >>> all_melded(cards("7h 8h 9h Kc")), all_melded(cards("7h 8h 9h Kc"), discard=True)
    (False, True)
    >>> all_melded(cards("7h 9h 4c 4d 5s"), MeldRules(wild_rank=5))     # one wild, two gaps
    False
    >>> all_melded(cards("7h 9h Jk 4c 4d 5s"), MeldRules(wild_rank=5))
    True
    """
    cards_, rules, fast = _prepared(hand, rules)
    if discard and not cards_:
        raise MeldError("all_melded(discard=True) needs at least one card to discard")
    if fast is not None:
        m, q = fast
        if discard:
            return fast_discard_pick(m, q[3])[1] == 0
        return onepack_deadwood(m, q[1], q[2]) == 0
    kept = _kept(rules, "d" if discard else "m")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        got = kept[key] = _melded(rules, discard, *split_hand(cards_, rules))
    return got  # type: ignore[no-any-return]


def _melded(rules: MeldRules, discard: bool, naturals: list[Card], wilds: list[Card],
            encoded: tuple[int, list[int]] | None = None) -> bool:
    """:func:`all_melded`'s search (the caller keeps its answer; ``encoded``:
    the naturals' count vector and isolated cards, when it has them)."""
    x, iso = encoded or encode(rules, len(wilds), naturals, solver_kind(rules).top)
    if len(iso) > discard + len(wilds) // 2:
        return False  # more cards without a partner than wilds to rescue them
    s, x = solver_for(rules, naturals, wilds, (x, iso))
    if type(s) is Roomy and len(naturals) + len(wilds) - discard < 14 and len(naturals) > discard:
        return s.rready(x, len(wilds), int(discard))
    g, x = s.general(x) if type(s) is Roomy else (s, x)
    return g.ready(x, len(wilds), 0, int(discard))


def go_out_discards(hand: Iterable[Card | str] | str, rules: MeldRules | None = None
                    ) -> list[Card]:
    """The cards of ``hand`` whose discard leaves every other card in
    melds (the ways to go out, TT-6), each once, in index order; empty
    when the hand can't go out.  One call asks :func:`all_melded` of every
    hand left, for less: the hand is checked and split once.

    >>> from rummy.cards import cards
    >>> go_out_discards(cards("6h 7h 8h 9h"))
    [Card.parse('6h'), Card.parse('9h')]
    >>> go_out_discards(cards("7h 9h Jk 4c 4d 5s Kc"), MeldRules(wild_rank=5))
    [Card.parse('Kc')]
    >>> go_out_discards(cards("2c 7d Kh 9s"))
    []
    """
    cards_, rules, fast = _prepared(hand, rules)
    if not cards_:
        raise MeldError("go_out_discards needs at least one card to discard")
    # A card in no meld of the hand is in none of a hand left: when two are,
    # nothing goes out; when one is, only it may be thrown
    if fast is not None:  # one pack, no wilds: each hand left by its mask
        m, q = fast
        ft = q[3]
        cover = 0
        for mm, _pts, _n in fast_melds(m, ft):
            cover |= mm
        loose = m & ~cover
        if loose & (loose - 1):
            return []
        card_at = ft[2]
        outs = [card_at[i] for i in (bits_of(loose) if loose else bits_of(m))
                if onepack_deadwood(m & ~(1 << i), q[1], q[2]) == 0]
        outs.sort(key=INDEX)
        return outs
    key = _hand_key(cards_)
    kept = _kept(rules, "d")
    can = kept.get(key)
    if can is False:
        return []
    naturals, wilds, encoded = _split_encoded(cards_, rules, key)
    if can is None:
        can = kept[key] = _melded(rules, True, naturals, wilds, encoded)
        if not can:
            return []
    tables = rule_tables(rules)
    wild_at = tables[13]
    # the isolated naturals (no partner, even with every wild) stay isolated
    # in every hand left; wilds rescue two each: one too many, and only an
    # isolated card may be thrown
    iso = encoded[1]
    candidates: Iterable[int] = key
    if len(iso) > len(wilds) // 2:
        idx_at = tables[12]
        candidates = sorted([idx_at[p] for p in iso])
    melded = _kept(rules, "m")
    # a natural that is not one of the solver's isolated cards is asked of
    # the hand's own solver, its count less that card (the hand left shares
    # the rules, the wilds and those isolated cards: see solver_for), when
    # _melded would ask it of the roomy search
    s: Roomy | None = None
    x = 0
    unit, pos = tables[15], tables[7]
    if len(key) < 15 and len(naturals) > 1:
        solver, x = solver_for(rules, naturals, wilds, encoded)
        if type(solver) is Roomy:
            s = solver
    outs = []
    last = -1
    for i in candidates:
        if i == last:
            continue
        last = i
        card = CARD_OF[i] if i < 52 else JOKER
        rest = list(key)
        rest.remove(i)
        rest_key = tuple(rest)
        got = melded.get(rest_key)
        if got is None:
            if s is not None and not wild_at[i] and pos[i] not in s.iso:
                got = s.rready(x - unit[i], len(wilds), 0)
            elif wild_at[i]:
                left = list(wilds)
                left.remove(card)
                got = _melded(rules, False, naturals, left)
            else:
                left = list(naturals)
                left.remove(card)
                got = _melded(rules, False, left, wilds)
            melded[rest_key] = got
        if got:
            outs.append(card)
    return outs


def best_discard(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> Discard:
    """For a hand of n+1 cards: the discard leaving the lowest penalty, exactly.

    One search decides the discard together with the melds, so every card is
    considered (not just "the highest deadwood card" of one arrangement,
    which is wrong on ties).  Ties: the fewest deadwood cards left, then a
    natural card before a wild, then the card worth more points, then
    suit-then-rank order.

    >>> from rummy.cards import cards
    >>> d = best_discard(cards("7h 8h 9h Kc"))
    >>> d.card, d.penalty
    (Card.parse('Kc'), 0)
    """
    cards_, rules, fast = _prepared(hand, rules)
    if not cards_:
        raise MeldError("best_discard needs at least one card to discard")
    if fast is not None:
        return fast_discard(fast[0], fast[1][3])
    kept = _kept(rules, "b")
    key = _hand_key(cards_)
    got = kept.get(key)
    if got is None:
        s, x, wilds, total = discard_search(cards_, rules)
        arrangement, card = arrange(s, x, wilds, 1, total)
        assert card is not None
        if wilds and len(arrangement.melds) > 1:
            arrangement = naturals_in_sets(arrangement, rules)
        got = kept[key] = make_discard(card, arrangement)
        _keep_discard(rules, key, card, arrangement.penalty, not arrangement.deadwood)
    return got  # type: ignore[no-any-return]


def best_discard_choice(hand: Iterable[Card | str] | str, rules: MeldRules | None = None
                        ) -> tuple[Card, int]:
    """The card :func:`best_discard` throws and the penalty it leaves: the
    same answer, without building the arrangement (what a bot weighing its
    moves needs, for less).

    >>> best_discard_choice("7h 8h 9h Kc")
    (Card.parse('Kc'), 0)
    >>> best_discard_choice("7h 9h Qc 4d 5s 2c", MeldRules(wild_rank=5))   # 5s fills 8h
    (Card.parse('Qc'), 6)
    """
    cards_, rules, fast = _prepared(hand, rules)
    if not cards_:
        raise MeldError("best_discard_choice needs at least one card to discard")
    if fast is not None:
        ft = fast[1][3]
        i, pen = fast_discard_pick(fast[0], ft)[:2]
        return ft[2][i], pen
    key = _hand_key(cards_)
    whole = _kept(rules, "b").get(key)
    if whole is not None:
        return whole.card, whole.penalty
    kept = _kept(rules, "c")
    got = kept.get(key)
    if got is None:
        naturals, wilds, encoded = _split_encoded(cards_, rules, key)
        lone = lone_discard(rules, naturals, wilds, encoded[1])
        if lone is not None:
            rest = list(cards_)
            rest.remove(lone)
            left = penalty(rest, rules)
            if left:  # (0: all melded or not, which the search tells)
                got = kept[key] = (lone, left)
                _keep_discard(rules, key, lone, left, False)
                return got
        s, x, wilds, total = discard_search(cards_, rules, naturals, wilds, encoded)
        light = s.rdiscard(x, wilds, total) if type(s) is Roomy else None
        if light is None:  # the search with room: its arrangement decides
            d = best_discard(cards_, rules)
            return d.card, d.penalty
        card, cost = light
        got = kept[key] = (card, cost // PER_POINT)
        _keep_discard(rules, key, card, cost // PER_POINT, cost % PER_POINT < PER_CARD)  # no deadwood card
    return got  # type: ignore[no-any-return]


def discard_search(cards_: Any, rules: MeldRules, naturals: list[Card] | None = None,
                   wilds: list[Card] | None = None,
                   encoded: tuple[int, list[int]] | None = None
                   ) -> tuple[Solver, int, list[Card], int | None]:
    """The solver and count vector of a hand that owes a discard, its wilds,
    and (when it has wilds) every natural's deadwood cost: may throwing a
    wild win?  (``naturals``, ``wilds``, ``encoded``: the hand split and
    encoded, when the caller has done it.)"""
    if naturals is None or wilds is None:
        naturals, wilds = split_hand(cards_, rules)
    s, x = solver_for(rules, naturals, wilds, encoded)
    total = None
    if wilds:
        pts = rule_tables(rules)[9]
        total = 0
        for c in naturals:  # (a loop: no comprehension's frame and list)
            total += pts[c.index]
        total = total * PER_POINT + len(naturals) * PER_CARD
    return s, x, wilds, total


def lone_discard(rules: MeldRules, naturals: list[Card], wilds: list[Card], iso: list[int]
                 ) -> Card | None:
    """The best discard of a hand, told without a search when it is a lone
    card: with at most one wild, an isolated natural (``iso``: the
    isolated positions, best discard first) that is the best discard on a
    tie of every natural (the most points, then the tie order) and worth no
    fewer points than the wild.  No meld holds it (it has no partner, and
    no two wilds), so throwing another card c leaves it unmelded: the rest
    costs at least the hand without it (c put back as deadwood arranges
    that hand), with at least as many deadwood cards on a tie, and then
    the lone card is the better discard.  None otherwise."""
    if len(wilds) > 1 or not iso:
        return None
    tables = rule_tables(rules)
    drank, index_pos, pts = tables[3], tables[7], tables[9]
    first = iso[0]
    best = drank[first]
    for c in naturals:
        if drank[index_pos[c.index]] < best:
            return None
    card: Card = tables[1][first]
    if wilds and pts[wilds[0].index] > pts[card.index]:
        return None
    return card


def _keep_discard(rules: MeldRules, key: tuple[int, ...], card: Card, penalty: int,
                  complete: bool) -> None:
    """What a best discard tells of other questions: the hand kept after it
    has this penalty (a player asks on the next turn) and is all melded when
    ``complete`` (its arrangement has the fewest deadwood cards of its
    penalty; not the arrangement itself, which on a tie may differ from
    best_arrangement's: a fixed search order); and this hand can go out
    when the kept hand has no deadwood (the engine asks)."""
    rest = list(key)
    rest.remove(card.index)
    rest_key = tuple(rest)
    _kept(rules, "p")[rest_key] = penalty
    _kept(rules, "m")[rest_key] = complete
    _kept(rules, "d")[key] = complete


# -- is the hand complete? ---------------------------------------------------

def may_go_out(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> bool:
    """A quick necessary condition for ``all_melded(hand, rules, discard=True)``
    (TT-6): with fewer than two wilds, at most one natural card may lack a
    partner that could share a meld with it.  False: the hand certainly
    can't go out; True: ask :func:`all_melded`.

    >>> may_go_out("2c 7d Kh 9s"), may_go_out("7h 8h 9h Kc")
    (False, True)
    """
    cards_, rules = prepare(hand, rules)
    naturals, wilds = split_hand(cards_, rules)
    if len(wilds) >= 2:
        return True
    return len(encode(rules, len(wilds), naturals)[1]) <= 1


def lone_cards(hand: Iterable[Card | str] | str, rules: MeldRules | None = None) -> list[Card]:
    """The natural cards of ``hand`` without a partner: each is the only
    copy of its card and no other natural card of the hand could share a
    meld with it, even with every wild of the hand filling gaps (in index
    order).  When the hand holds fewer than two wilds, no meld of its cards
    holds a lone card: it is deadwood in every arrangement (two wilds could
    make a set of it).

    >>> lone_cards("Kc 7h 8h 2d 2s 9c")
    [Card.parse('9c'), Card.parse('Kc')]
    >>> lone_cards("Kc 7h 9h Jk", MeldRules(wild_rank=None))   # the joker fills 8h
    [Card.parse('Kc')]
    """
    cards_, rules = prepare(hand, rules)
    naturals, wilds = split_hand(cards_, rules)
    iso = encode(rules, len(wilds), naturals)[1]
    card_at = rule_tables(rules)[1]
    return sorted([card_at[p] for p in iso], key=INDEX)


def is_lone(card: Card | str, hand: Iterable[Card | str] | str,
            rules: MeldRules | None = None) -> bool:
    """True when ``card`` is one of :func:`lone_cards` of ``hand``: a
    natural card held once that no other natural card of the hand could
    share a meld with, even with every wild of the hand filling gaps.
    Asked of one card, for less than listing them all.  A card not in the
    hand raises :class:`MeldError`.

    >>> is_lone("9c", "Kc 7h 8h 2d 2s 9c"), is_lone("8h", "Kc 7h 8h 2d 2s 9c")
    (True, False)
    >>> is_lone("Kc", "Kc 7h 9h Jk", MeldRules(wild_rank=None))
    True
    """
    cards_, rules = prepare(hand, rules)
    c = card if type(card) is Card else as_cards([card])[0]
    tables = rule_tables(rules)
    wild_at, unit = tables[13], tables[11]
    i = c.index
    if c not in cards_:
        raise MeldError(f"{c} is not in the hand ({format_cards(cards_)})")
    if wild_at[i]:
        return False
    x = 0
    big = 0
    for h in cards_:
        j = h.index
        if wild_at[j]:
            big += 1
        else:
            x += unit[j]
    return not x & partners_by_index(rules.aces, big + 1)[i]  # :func:`encode`'s test
