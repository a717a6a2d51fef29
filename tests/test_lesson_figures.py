"""Every exact figure the lessons print, recomputed from first principles.

Nothing here calls the kit's solver or odds code: the figures come from
``math.comb``, fractions, and brute force (``tests/brute.py``, which arranges a
hand by trying every split, and the small counters below).  nbval checks that
the lessons still print these figures; this file checks that they are right.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path

import pytest

from rummy.cards import Card, cards, deck
from tests.brute import brute_min_penalty, group_is_meld

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def printed(stem: str) -> str:
    """Everything a lesson's code cells print (its saved outputs)."""
    nb = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        streams = ""  # a cell's printed text may come in several pieces ("41", " unseen ...")
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                streams += "".join(o.get("text", ""))
            else:
                out.append("".join(o.get("data", {}).get("text/plain", "")))
        out.append(streams)
    return "\n".join(out)


def shown(stem: str, value: Fraction) -> bool:
    """True if the lesson prints ``value`` as a/b or as Fraction(a, b)."""
    text = printed(stem)
    return f"{value.numerator}/{value.denominator}" in text or \
        f"Fraction({value.numerator}, {value.denominator})" in text


PACK = [Card(rank, suit) for suit in "cdhs" for rank in range(1, 14)]


# --- lesson 02 -------------------------------------------------------------------------------

def test_02_wilds_only_dealt() -> None:
    # 8 threes in two packs of 52: C(8, 3) of C(104, 3) three-card hands
    figure = Fraction(comb(8, 3), comb(104, 3))
    assert figure == Fraction(7, 22763) and shown("02_tre_tretton", figure)


def test_02_no_round_7_hand_is_wilds_only() -> None:
    # round 7 deals 9 cards, two packs hold 8 nines
    assert 7 + 2 > 2 * 4
    assert "(9, 8)" in printed("02_tre_tretton")


# --- lesson 06: dealt melds --------------------------------------------------------------------

def test_06_die() -> None:
    assert shown("06_meld_odds", Fraction(len([d for d in range(1, 7) if d % 2 == 0]), 6))


def test_06_three_cards_a_meld_no_wilds() -> None:
    melds = sum(group_is_meld(list(h), None, "low", 0) for h in itertools.combinations(PACK, 3))
    # by hand: 13 ranks x C(4, 3) sets + 4 suits x 11 runs (A-2-3 .. J-Q-K)
    assert melds == 13 * comb(4, 3) + 4 * 11
    figure = Fraction(melds, comb(52, 3))
    assert figure == Fraction(24, 5525) and shown("06_meld_odds", figure)


def test_06_round_1_complete_and_the_ratio() -> None:
    complete = sum(brute_min_penalty(h, wild_rank=3) == 0 for h in itertools.combinations(PACK, 3))
    figure = Fraction(complete, comb(52, 3))
    assert figure == Fraction(241, 5525) and shown("06_meld_odds", figure)
    assert shown("06_meld_odds", figure / Fraction(24, 5525))  # 241/24


def test_06_three_cards_a_set() -> None:
    sets = sum(len({c.rank for c in h}) == 1 for h in itertools.combinations(PACK, 3))
    assert Fraction(sets, comb(52, 3)) == Fraction(1, 425) and "1/425 1/425" in printed("06_meld_odds")


def gin_hands(size: int = 10) -> int:
    """How many ``size``-card hands of one pack are all melded, no wilds, aces low:
    a dynamic programme over the ranks A..K.  Its state is the set of possible
    open-run lengths per suit (0, 1, 2 or 3+); at each rank every subset of
    suits is present, and each present card goes into its suit's run or into a
    set of that rank (a set needs 3 or more)."""
    start = frozenset({(0, 0, 0, 0)})
    layer: Counter[tuple[frozenset, int]] = Counter({(start, 0): 1})
    for _rank in range(13):
        nxt: Counter[tuple[frozenset, int]] = Counter()
        for (states, count), ways in layer.items():
            for present in range(16):
                n = count + bin(present).count("1")
                if n > size:
                    continue
                reach = set()
                for runs in states:
                    reach |= _step(runs, present)
                if reach:
                    nxt[(frozenset(reach), n)] += ways
        layer = nxt
    return sum(ways for (states, count), ways in layer.items()
               if count == size and any(all(x in (0, 3) for x in runs) for runs in states))


@cache
def _step(runs: tuple[int, ...], present: int) -> frozenset[tuple[int, ...]]:
    out = set()
    suits = [s for s in range(4) if present >> s & 1]
    for to_set in itertools.product((False, True), repeat=len(suits)):
        in_set = sum(to_set)
        if in_set in (1, 2):
            continue
        new = []
        ok = True
        for s in range(4):
            length = runs[s]
            if s in suits and not to_set[suits.index(s)]:
                new.append(min(length + 1, 3))
            elif length in (1, 2):
                ok = False  # an open run of 1 or 2 cards breaks
                break
            else:
                new.append(0)
        if ok:
            out.add(tuple(new))
    return frozenset(out)


def test_gin_counter_on_small_hands() -> None:
    # the counter agrees with brute force on 3-card hands: 52 sets and 44 runs
    assert gin_hands(3) == 13 * comb(4, 3) + 4 * 11
    # and on 6-card hands, against the brute-force arranger over every hand
    # would take long: check 4-card hands instead (a set of 4 or nothing): 13
    assert gin_hands(4) == 13 + 4 * 10  # four of a kind, or a run of four


def test_06_dealt_gin() -> None:
    hands = gin_hands(10)
    figure = Fraction(hands, comb(52, 10))
    assert hands == 136694 and figure == Fraction(68347, 7910012110)
    assert shown("06_meld_odds", figure) and "136694/binomial(52, 10)" in printed("06_meld_odds")
    assert "115733" in printed("06_meld_odds") and round(1 / figure) == 115733


CAP = 5  # more wilds than a hand of one pack can hold


@cache
def _wild_step(runs: tuple[int, ...], present: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """One rank of :func:`complete_hands`: from the per-suit open-run lengths
    (0, 1, 2, 3+), the reachable lengths with the fewest wilds used.  A natural
    extends its suit's run or joins the set of its rank (a wild may then stand
    in the run at its place); a missing card closes a run (of 0 or 3+ cards) or
    a wild stands in for it; a set of s naturals needs 3 - s wilds."""
    per = []
    for s in range(4):
        length, here = runs[s], bool(present >> s & 1)
        options = []
        if here:
            options.append((min(length + 1, 3), 0, 0))
            if length in (0, 3):
                options.append((0, 0, 1))
            options.append((min(length + 1, 3), 1, 1))
        else:
            if length in (0, 3):
                options.append((0, 0, 0))
            options.append((min(length + 1, 3), 1, 0))
        per.append(options)
    out: dict[tuple[int, ...], int] = {}
    for combo in itertools.product(*per):
        in_set = sum(c[2] for c in combo)
        wilds = sum(c[1] for c in combo) + (max(0, 3 - in_set) if in_set else 0)
        new = tuple(c[0] for c in combo)
        if wilds < out.get(new, CAP):
            out[new] = wilds
    return tuple(sorted(out.items()))


def complete_hands(n: int, wild_rank: int) -> int:
    """How many n-card hands of one pack are all melded when ``wild_rank`` is wild
    (Three Thirteen: aces low, a meld may be all wilds, spare wilds join a meld).
    A dynamic programme over the ranks A..K, independent of the kit's solver:
    per choice of natural cards it keeps the fewest wilds that meld them all;
    the hand is complete when the k wild-rank cards it holds are enough."""
    layer: Counter = Counter({((((0, 0, 0, 0), 0),), 0): 1})
    for rank in range(1, 14):
        nxt: Counter = Counter()
        for (states, count), ways in layer.items():
            for present in (range(16) if rank != wild_rank else (0,)):
                now = count + bin(present).count("1")
                if now > n:
                    continue
                best: dict[tuple[int, ...], int] = {}
                for runs, used in states:
                    for new, w in _wild_step(runs, present):
                        # no more wilds than the hand can still hold
                        if used + w <= n - now and used + w < best.get(new, CAP):
                            best[new] = used + w
                if best:
                    nxt[(tuple(sorted(best.items())), now)] += ways
        layer = nxt
    total = 0
    for (states, count), ways in layer.items():
        k = n - count  # the wild-rank cards
        if 0 <= k <= 4:
            fewest = min((u for runs, u in states if all(x in (0, 3) for x in runs)), default=CAP)
            if (count == 0 and k >= 3) or (count > 0 and fewest <= k):
                total += ways * comb(4, k)
    return total


#: the exact rounds of the lesson's table (2 players, one pack): round, figure
DEALT = [(1, Fraction(241, 5525)), (2, Fraction(109, 15925)), (3, Fraction(158, 162435)),
         (4, Fraction(1069, 149695)),
         # 17-34 s each on two busy cores, past the suite's 60-s limit on a loaded one
         pytest.param(5, Fraction(3093, 1672307), marks=[pytest.mark.slow, pytest.mark.timeout(240)]),
         pytest.param(6, Fraction(57571, 125423025),
                      marks=[pytest.mark.slow, pytest.mark.timeout(240)])]


@pytest.mark.parametrize("round_,figure", DEALT)
def test_06_dealt_complete_every_exact_round(round_: int, figure: Fraction) -> None:
    n = round_ + 2  # TT-1; the wild rank is the number of cards dealt (TT-2)
    assert Fraction(complete_hands(n, n), comb(52, n)) == figure
    assert f"{figure.numerator}/{figure.denominator}" in printed("06_meld_odds")


# --- lesson 06: outs and draws -----------------------------------------------------------------

def at_least_one(outs: int, unseen: int, draws: int) -> Fraction:
    return 1 - Fraction(comb(unseen - outs, draws), comb(unseen, draws))


def test_06_outs_figures() -> None:
    assert at_least_one(6, 48, 3) == Fraction(727, 2162) and shown("06_meld_odds", Fraction(727, 2162))
    assert at_least_one(2, 40, 5) == Fraction(37, 156) and shown("06_meld_odds", Fraction(37, 156))
    assert at_least_one(2, 10, 2) == Fraction(17, 45) and shown("06_meld_odds", Fraction(17, 45))
    # the quizzes: one draw, 6 of 48; five draws, 2 of 40
    assert Fraction(6, 48) == Fraction(1, 8)


def test_06_outs_of_the_round_2_hand_and_the_seen_first_discard() -> None:
    # round 2 (fours wild), 7h 8h Kc 2d: the outs by brute force, with
    # the face-up first discard (Kd) unseen (48) or seen (47)
    hand = list(cards("7h 8h Kc 2d"))
    for seen, unseen in (([], 48), (list(cards("Kd")), 47)):
        pool = [c for c in PACK if c not in hand and c not in seen]
        assert len(pool) == unseen
        # an out makes a meld (3 or more cards) with cards of the hand, fours wild
        outs = [c for c in pool if any(group_is_meld(list(group) + [c], 4, "low", 0)
                                       for size in (2, 3, 4)
                                       for group in itertools.combinations(hand, size))]
        assert sorted(map(str, outs)) == ["4c", "4d", "4h", "4s", "6h", "9h"]
        assert f"6 outs among {unseen} unseen" in printed("06_meld_odds")


def opponent_first(outs: int, unseen: int, draws: int, opponents: int) -> Fraction:
    cycle = opponents + 1
    last = (draws - 1) * cycle
    good = total = 0
    for places in itertools.combinations(range(unseen), outs):
        total += 1
        if places[0] < last and places[0] % cycle:
            good += 1
    return Fraction(good, total)


def test_06_opponent_first() -> None:
    assert opponent_first(2, 40, 5, 3) == Fraction(31, 65) and shown("06_meld_odds", Fraction(31, 65))


def going_out(hand: list[Card], draws: int, throw_lower: bool, seen: tuple[Card, ...] = ()) -> Fraction:
    """Round 1 (threes wild), one pack: the chance to go out within ``draws``
    draws, every order of the unseen cards equally likely; after a miss the
    hand throws a discard leaving the lowest penalty, the lower or the higher
    card (by points, then rank) among equally good ones."""
    @cache
    def penalty(h: tuple[Card, ...]) -> int:
        return brute_min_penalty(h, wild_rank=3)

    def key(h: list[Card]) -> tuple[Card, ...]:
        return tuple(sorted(h, key=lambda c: (c.rank, c.suit)))

    @cache
    def chance(held: tuple[Card, ...], left: tuple[Card, ...], d: int) -> Fraction:
        total = Fraction(0)
        for card in set(left):
            p = Fraction(left.count(card), len(left))
            options = []
            four = list(held) + [card]
            for i, throw in enumerate(four):
                options.append((penalty(key(four[:i] + four[i + 1:])), throw, key(four[:i] + four[i + 1:])))
            best = min(o[0] for o in options)
            if best == 0:
                total += p
            elif d > 1:
                tied = [o for o in options if o[0] == best]
                order = sorted(tied, key=lambda o: (min(o[1].rank, 10), o[1].rank, o[1].suit))
                kept = (order[0] if throw_lower else order[-1])[2]
                rest = list(left)
                rest.remove(card)
                total += p * chance(kept, key(rest), d - 1)
        return total

    unseen = [c for c in deck(packs=1) if c not in hand and c not in seen]
    return chance(key(hand), key(unseen), draws)


def test_06_going_out_within_one_and_two_draws() -> None:
    hand = list(cards("7h 8h Kc"))
    one = going_out(hand, 1, True)
    assert one == Fraction(6, 49) and "6/49 = 0.122449 (exact)" in printed("06_meld_odds")
    # with the face-up first discard (Kd, no out) seen: 6 of 48
    seen = going_out(hand, 1, True, seen=tuple(cards("Kd")))
    assert seen == Fraction(1, 8) and "1/8 = 0.125 (exact)" in printed("06_meld_odds")
    two = going_out(hand, 2, True)
    assert two == Fraction(93, 392) and "93/392 = 0.237245 (exact)" in printed("06_meld_odds")
    assert Fraction(6, 49) + Fraction(43, 49) * Fraction(6, 48) == Fraction(13, 56)
    assert "\n13/56" in printed("06_meld_odds")


@pytest.mark.slow
def test_06_going_out_within_three_draws_depends_on_the_tie_break() -> None:
    # 2561/7896 holds with the lower card thrown among equal discards
    hand = list(cards("7h 8h Kc"))
    lower, higher = going_out(hand, 3, True), going_out(hand, 3, False)
    assert lower == Fraction(2561, 7896) and "2561/7896 = 0.324341 (exact)" in printed("06_meld_odds")
    assert higher == Fraction(17819, 55272) != lower
    text = (ROOT / "scripts" / "lessons" / "06_meld_odds.txt").read_text(encoding="utf-8")
    assert "17819/55272" in text and "tie-break" in text


# --- lesson 05 ----------------------------------------------------------------------------------

def gin_deadwood(hand: tuple[Card, ...]) -> int:
    return brute_min_penalty(hand)


def test_05_a_stock_card_on_average() -> None:
    # the captain of seed 5 holds these 10 cards and sees the upcard A♣
    # (read from the lesson's own printed line); all 41 unseen cards, each drawn once
    hand = list(cards("2c 4c 7c 8c 3d Td Qd 5h 3s 6s"))
    upcard = Card.parse("Ac")
    unseen = [c for c in PACK if c not in hand and c != upcard]
    assert len(unseen) == 41
    left = [min(gin_deadwood(h) for h in itertools.combinations(hand + [c], 10)) for c in unseen]
    average = Fraction(sum(left), 41)
    assert average == Fraction(2158, 41) and round(float(average), 2) == 52.63
    assert "41 unseen cards; a stock card leaves 2158/41 = 52.63 on average" in printed("05_gin_three")


def test_05_the_g8a_example_has_two_allowed_layouts() -> None:
    # with 6♥ the nine of hearts may sit in the run or the set (0 deadwood
    # either way); without it, the set layout leaves 7♥ 8♥ = 15 > 10, the knock limit
    def left(hand: str, melds: list[str]) -> int:
        rest = list(cards(hand))
        for meld in melds:
            assert group_is_meld(list(cards(meld)), None, "low", 0)
            for card in cards(meld):
                rest.remove(card)
        return sum(min(c.rank, 10) for c in rest)

    assert left("6h 7h 8h 9h 9c 9d 9s", ["6h 7h 8h 9h", "9c 9d 9s"]) == 0
    assert left("6h 7h 8h 9h 9c 9d 9s", ["6h 7h 8h", "9h 9c 9d 9s"]) == 0
    assert left("7h 8h 9h 9c 9d 9s", ["9h 9c 9d 9s"]) == 15 > 10
    out = printed("05_gin_three")
    assert "6h 7h 8h 9h 9c 9d 9s: 9♥ in the set leaves 0 points" in out
    assert "7h 8h 9h 9c 9d 9s: 9♥ in the set leaves 15 points" in out
    text = (ROOT / "scripts" / "lessons" / "05_gin_three.txt").read_text(encoding="utf-8")
    assert "With 7♥ 8♥ 9♥ 9♣ 9♦ 9♠, say, the nine of\nhearts can sit in the run or in the set" not in text
