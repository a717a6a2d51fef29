"""The meld search (rummy.search): each path against the others and the brute force.

The fast path (rummy.search.onepack), the roomy search (rummy.search.roomy)
and the wild counting (rummy.search.wilds) are checked against the general
search (rummy.search.general) on many random hands, and against the
independent brute force of tests/brute.py where one exists, as are the
engines' questions that call them.  M-1..M-5 (what melds), M-7 (lowest
penalty), G-1 and G-8 (gin's melds and lay-offs), BT-4 (a complete hand).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rummy import (
    JOKER,
    Card,
    MeldRules,
    all_melded,
    best_arrangement,
    best_discard,
    best_discard_choice,
    cards,
    deck,
    is_meld,
    penalty,
)
from rummy.search import (
    GIN_RULES,
    best_layoffs_masks,
    clear_memo,
    covers_counts,
    go_out_discards,
    mask_penalty,
    min_wilds,
    min_wilds_counts,
)
from rummy.search.answers import arrange, discard_search, last_prepared, naturals_in_sets
from rummy.search.general import Solver
from rummy.search.onepack import fast_best, fast_ready, fast_total, meld_objects
from rummy.search.onewild import onewild_arrangement, onewild_penalty
from rummy.search.roomy import Roomy, meldless
from rummy.search.tables import encode, flip, split_hand, tables_of
from tests.brute import brute_min_after_discard, brute_min_penalty, group_is_meld


def _mask(cards_: list[Card]) -> int:
    return sum(1 << c.index for c in cards_)


def _general_penalty(hand: list[Card], rules: MeldRules) -> int:
    """The count-vector search alone, never the fast path."""
    naturals, wilds = split_hand(hand, rules)
    s = Solver(rules, wilds)
    return s.solve(s.encode(naturals), len(wilds), 0) // (1 << 13)


def test_G_1_gin_asks_the_one_search() -> None:
    # gin's engine and bots take deadwood and lay-offs from the search's
    # one-pack module, under its own names (no second search)
    import rummy.bots.gin as gin_bots
    import rummy.gin as gin
    import rummy.search as search
    import rummy.search.onepack as onepack

    assert onepack.mask_penalty is search.mask_penalty is gin.mask_penalty is gin_bots.mask_penalty
    assert onepack.best_layoffs_masks is search.best_layoffs_masks is gin.best_layoffs_masks
    assert gin_bots.best_layoffs_masks is search.best_layoffs_masks


def test_G_1_mask_penalty_agrees_with_the_general_search_and_brute_force() -> None:
    rng = random.Random(12)
    pack = deck(1)
    for i in range(1500):
        hand = rng.sample(pack, rng.randint(0, 11))
        want = _general_penalty(hand, GIN_RULES)
        assert mask_penalty(_mask(hand)) == want
        if i % 5 == 0 and len(hand) <= 9:
            assert brute_min_penalty(hand, max_set=4, jokers_wild=False) == want


def test_G_1_mask_penalty_by_hand() -> None:
    # 7h 8h 9h 9c 9d Kc 2s: the set 9c 9d 9h leaves 7 + 8 + 10 + 2 = 27,
    # the run 7h 8h 9h leaves 9 + 9 + 10 + 2 = 30, so 27
    from rummy.cards import cards

    assert mask_penalty(_mask(list(cards("7h 8h 9h 9c 9d Kc 2s")))) == 27
    # Qh Kh Ah: aces low (G-1), no run: 10 + 10 + 1
    assert mask_penalty(_mask(list(cards("Qh Kh Ah")))) == 21


def test_mask_penalty_refuses_wild_or_high_ace_rules() -> None:
    import pytest

    from rummy.melds import MeldError

    with pytest.raises(MeldError, match="without a wild rank"):
        mask_penalty(7, MeldRules(wild_rank=5))


def test_G_8_best_layoffs_agree_with_brute_force() -> None:
    # tests/brute.py lays every card onto every meld in every order
    from tests.brute import brute_best_layoffs

    rng = random.Random(13)
    pack = deck(1)
    checked = with_layoffs = 0
    for _ in range(800):
        cards_ = rng.sample(pack, 16)
        knocker, defender = cards_[:10], cards_[10:]
        melds = best_arrangement(knocker, GIN_RULES).melds
        if not melds:
            continue
        h = _mask(defender)
        dw, plan = best_layoffs_masks(h, tuple(_mask(list(m.cards)) for m in melds))
        assert (dw, len(plan)) == brute_best_layoffs(defender, [m.cards for m in melds])
        assert dw <= mask_penalty(h)
        checked += 1
        with_layoffs += bool(plan)
    assert checked > 250 and with_layoffs > 40  # the test does see lay-offs


def test_G_8_best_layoffs_by_hand() -> None:
    # 5h 4h Kc 2s onto 6h 7h 8h: 5h, then 4h onto 5h-8h; Kc + 2s = 12 left
    from rummy.cards import cards

    hand = _mask(list(cards("5h 4h Kc 2s")))
    dw, plan = best_layoffs_masks(hand, (_mask(list(cards("6h 7h 8h"))),))
    assert dw == 12
    assert [(Card(b % 13 + 1, "cdhs"[b // 13]), i) for b, i in plan] == [
        (Card.parse("5h"), 0), (Card.parse("4h"), 0)]
    # 9c 9d 9h Ts: keeping the set (10 left) beats laying off nothing else
    assert best_layoffs_masks(_mask(list(cards("9c 9d 9h Ts"))),
                              (_mask(list(cards("6h 7h 8h"))),))[0] == 10


def test_BT_4_all_melded_agrees_with_the_general_search_and_brute_force() -> None:
    rng = random.Random(14)
    shoe = deck(4)
    complete = 0
    for i in range(6000):
        h = rng.randint(1, 11)
        rules = MeldRules(wild_rank=h + 2)
        if i % 2:
            hand = rng.sample(shoe, h + 2)
        else:  # hands built from a run, a set and wilds, so many are complete
            r, s = rng.randint(1, 11), rng.choice("cdhs")
            hand = [Card(r, s), Card(r + 1, s), Card(r + 2, s)]
            hand += [Card(rng.randint(1, 13), t) for t in rng.sample("cdhs", 3)]
            hand += [Card(h + 2, "c")] * rng.randint(0, 2) + rng.sample(shoe, rng.randint(0, 4))
            hand = hand[:13]
        ours = all_melded(hand, rules)
        assert ours == (_general_penalty(hand, rules) == 0), (hand, rules)
        if i % 20 == 0 and len(hand) <= 9:
            assert ours == (brute_min_penalty(hand, wild_rank=rules.wild_rank) == 0), hand
        complete += ours
    assert complete > 150  # the test does see complete hands (183 with this seed)


def _brute_min_wilds(naturals: list[Card], rules: MeldRules) -> int:
    """Smallest w such that the naturals plus w jokers can be fully melded,
    jokers costing nothing when left over (brute force)."""
    for w in range(0, 2 * len(naturals) + 1):
        if brute_min_penalty(naturals + [Card.parse("Jk")] * w, aces=rules.aces,
                             max_set=rules.max_set_size, joker_penalty=0) == 0:
            return w
    raise AssertionError("two wilds per card always cover")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 103), max_size=6, unique=True),
       st.sampled_from(["low", "high", "low_or_high"]), st.sampled_from([None, 4]))
def test_min_wilds_agrees_with_brute_force(idx: list[int], aces: str, max_set: int | None) -> None:
    rules = MeldRules(aces=aces, max_set_size=max_set)  # type: ignore[arg-type]
    shoe = deck(2)
    naturals = [shoe[i] for i in idx]
    want = _brute_min_wilds(naturals, rules)
    assert min_wilds(naturals, rules) == want
    x = sum(1 << (4 * c.index) for c in naturals)
    assert min_wilds_counts(x, rules) == want
    assert covers_counts(x, want, rules) and (want == 0 or not covers_counts(x, want - 1, rules))


def test_min_wilds_by_hand() -> None:
    # 7h 8h Th: 9h missing (1); Kc Kd: a third king (1) -> 2
    assert min_wilds("7h 8h Th Kc Kd") == 2
    # Qh Kh Ah: a run with aces high (0), with aces low Qh Kh + a wild, Ah + 2 -> 3
    assert min_wilds("Qh Kh Ah", MeldRules(aces="high")) == 0
    assert min_wilds("Qh Kh Ah") == 3
    # the wilds of the hand are not counted: 5s is wild here
    assert min_wilds("7h 8h 5s", MeldRules(wild_rank=5)) == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=13, unique=True),
       st.sampled_from(["low", "high"]), st.sampled_from([None, 4]))
def test_fast_path_agrees_with_the_general_search(idx: list[int], aces: str,
                                                  max_set: int | None) -> None:
    rules = MeldRules(aces=aces, max_set_size=max_set)  # type: ignore[arg-type]
    hand = [deck(1)[i] for i in idx]
    assert fast_ready(hand, rules) is not None  # this is the fast path's case
    assert penalty(hand, rules) == _general_penalty(hand, rules)
    if hand:  # the discard: the general search's card and penalty, each way it is asked
        s, x, wilds, total = discard_search(hand, rules)
        arrangement, card = arrange(s, x, wilds, 1, total)
        d = best_discard(hand, rules)
        assert (d.card, d.penalty) == (card, arrangement.penalty)
        assert best_discard_choice(hand, rules) == (card, arrangement.penalty)
        assert all_melded(hand, rules, discard=True) == (arrangement.penalty == 0)


def test_clear_memo_changes_no_answer() -> None:
    rng = random.Random(15)
    shoe = deck(2, 4)
    rules = MeldRules(wild_rank=13)
    hands = [rng.sample(shoe, 12) for _ in range(200)]
    warm = [penalty(h, rules) for h in hands]
    cold = []
    for h in hands:
        clear_memo()
        cold.append(penalty(h, rules))
    assert warm == cold


@pytest.mark.parametrize("rules", [MeldRules(wild_rank=9, wild_penalty=15),
                                   MeldRules(wild_rank=5, wild_penalty=0, joker_penalty=0),
                                   MeldRules(wild_rank=13, max_set_size=4, aces="low_or_high")])
def test_kept_answers_are_the_answers_of_an_empty_memo(rules: MeldRules) -> None:
    # a hand that changes one card at a time, as in a game, asked every
    # question (the discard first: its answer also tells the kept hand's
    # penalty, whether that hand is all melded and whether this one can go
    # out); then each hand again with every memo emptied first.  A wild
    # worth 0 points makes penalty 0 with deadwood: all melded is not
    # "penalty 0" (the last lines, by hand)
    # (every other hand asks best_discard_choice first: its answer tells the
    # same, without an arrangement)
    rng = random.Random(16)
    shoe = deck(2, 2)
    hand = rng.sample(shoe, 11)
    seen = []
    clear_memo()
    for step in range(300):
        hand[rng.randrange(len(hand))] = rng.choice(shoe)
        if step % 2:
            card, left = best_discard_choice(hand, rules)
            rest = list(hand)
            rest.remove(card)
            told = (penalty(rest, rules), all_melded(rest, rules))
            out = all_melded(hand, rules, discard=True)
            d = best_discard(hand, rules)
            assert (d.card, d.penalty) == (card, left)
        else:
            d = best_discard(hand, rules)
            rest = list(hand)
            rest.remove(d.card)
            told = (penalty(rest, rules), all_melded(rest, rules))
            out = all_melded(hand, rules, discard=True)
        seen.append((list(hand), d, *told, best_arrangement(hand, rules), penalty(hand, rules),
                     all_melded(hand, rules), out))
    for h, d, p_rest, rest_whole, arr, p_hand, whole, out in seen[::3]:  # both kinds of step
        rest = list(h)
        rest.remove(d.card)
        clear_memo()
        assert best_discard(h, rules) == d
        clear_memo()
        assert best_discard_choice(h, rules) == (d.card, d.penalty)
        clear_memo()
        assert penalty(rest, rules) == p_rest
        clear_memo()
        assert all_melded(rest, rules) == rest_whole
        clear_memo()
        assert best_arrangement(h, rules) == arr
        clear_memo()
        assert penalty(h, rules) == p_hand
        clear_memo()
        assert all_melded(h, rules) == whole
        clear_memo()
        assert all_melded(h, rules, discard=True) == out
    if rules.wild_penalty == 0:  # by hand: two free wilds and no meld
        clear_memo()
        d = best_discard("5c Jk 9h", rules)
        assert (str(d.card), d.penalty, len(d.arrangement.deadwood)) == ("9h", 0, 2)
        assert penalty("5c Jk", rules) == 0
        assert not all_melded("5c Jk", rules)
        assert not all_melded("5c Jk 9h", rules, discard=True)


def test_a_tuple_asked_again_under_other_rules_gets_those_rules_answers() -> None:
    # the search answers the tuple of cards asked last again at once (the
    # engine and then the bot ask of one hand): asked under other rules, the
    # same tuple must get their answers, which brute force gives (a list,
    # equal but never the same object, is never answered from that shortcut)
    rng = random.Random(61)
    shoe = deck(2, 2)
    rule_sets = [None, MeldRules(), MeldRules(wild_rank=5), MeldRules(wild_rank=9, aces="high"),
                 MeldRules(wild_rank=13, max_set_size=4)]
    differ = 0
    for _ in range(150):
        hand = tuple(c for c in rng.sample(shoe, rng.randint(4, 10)) if not c.is_joker)
        answers = set()
        for rules in rng.sample(rule_sets, len(rule_sets)):
            r = rules or MeldRules()
            kw = dict(wild_rank=r.wild_rank, aces=r.aces, min_naturals=r.min_naturals,
                      wild_penalty=r.wild_penalty, joker_penalty=r.joker_penalty,
                      max_set=r.max_set_size)
            got = (penalty(hand, rules), best_discard_choice(hand, rules)[1],
                   best_arrangement(hand, rules).penalty, go_out_discards(hand, rules))
            want_out = []
            for c in sorted(set(hand), key=lambda c: c.index):
                rest = list(hand)
                rest.remove(c)
                if brute_min_penalty(rest, **kw) == 0:
                    want_out.append(c)
            assert got == (brute_min_penalty(list(hand), **kw),
                           brute_min_after_discard(list(hand), **kw),
                           brute_min_penalty(list(hand), **kw), want_out), (hand, rules)
            answers.add(got[:2])
            assert last_prepared[0] is hand  # (the shortcut is taken)
        differ += len(answers) > 1
    assert differ > 100  # the rules do change the answers of most hands


def test_TT_8_kept_answers_agree_with_a_fresh_search() -> None:
    # the search keeps its answers between calls: an answer it kept is the one a
    # fresh search (every memo emptied) gives, whatever order the cards come in
    from rummy import best_discard

    rng = random.Random(17)
    shoe = deck(2, 2)
    for i in range(600):
        rules = MeldRules(wild_rank=rng.randint(3, 13), wild_penalty=rng.choice([None, 15]))
        hand = rng.sample(shoe, rng.randint(3, 14))
        if i % 3 == 0:
            clear_memo()
        kept = penalty(hand, rules), best_discard(hand, rules)
        again = penalty(hand[::-1], rules), best_discard(hand[::-1], rules)
        clear_memo()
        assert kept == again == (penalty(hand[::-1], rules), best_discard(hand, rules))


def test_TT_6_a_wild_is_thrown_only_when_that_is_best() -> None:
    # 2c 7d Kh Jk, no wild rank but the joker: no two cards share a meld,
    # so throwing the joker (20) leaves 2 + 7 + 10 = 19, throwing Kh leaves
    # 2 + 7 + 20 = 29
    from rummy import best_discard

    d = best_discard("2c 7d Kh Jk")
    assert (str(d.card), d.penalty) == ("Jk", 19)
    # 7h 8h 9h 2c Jk: throw 2c, the joker joins the run: 0 (not the joker: 2)
    d = best_discard("7h 8h 9h 2c Jk")
    assert (str(d.card), d.penalty) == ("2c", 0)


def test_best_discard_with_long_runs_and_many_wilds_agrees_with_brute_force() -> None:
    # one suit crowded with wilds: long runs with little room for leftover
    # wilds, where throwing a wild may be the best discard
    from rummy import best_discard
    from tests.brute import brute_min_after_discard

    rng = random.Random(18)
    for _ in range(150):
        rules = MeldRules(wild_rank=rng.choice([None, 13]), aces=rng.choice(["low", "high"]),
                          min_naturals=rng.choice([0, 1]))
        suit = rng.choice("cdhs")
        hand = [Card(r, suit) for r in rng.sample(range(1, 13), rng.randint(5, 8))]
        hand += [Card.parse("Jk")] * rng.randint(1, 3) + rng.sample(deck(1), rng.randint(0, 1))
        kw = dict(wild_rank=rules.wild_rank, aces=rules.aces, min_naturals=rules.min_naturals)
        assert best_discard(hand, rules).penalty == brute_min_after_discard(hand, **kw), hand


# -- the table-driven one-pack deadwood (benchmarks/solver.py, set A) ---------


def _packing_penalty(hand: list[Card], rules: MeldRules) -> int:
    """The older one-pack search: every packing of disjoint melds."""
    got = fast_ready(hand, rules)
    assert got is not None
    m, ft = got
    return fast_total(m, ft[0]) - fast_best(m, ft)[0]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=16, unique=True),
       st.sampled_from(["low", "high"]), st.sampled_from([None, 3, 4]),
       st.sampled_from([None, 1, 11]), st.sampled_from([None, 2, 13]))
def test_M_7_onepack_table_agrees_with_packings_and_the_general_search(
        idx: list[int], aces: str, max_set: int | None, ace_penalty: int | None,
        wild_rank: int | None) -> None:
    # the per-suit run table plus a choice of sets per rank, against the
    # packing search it replaces in penalty and the count-vector search;
    # a wild rank in the rules with no wild in the hand still takes it
    rules = MeldRules(aces=aces, max_set_size=max_set, ace_penalty=ace_penalty,  # type: ignore[arg-type]
                      wild_rank=wild_rank)
    hand = [deck(1)[i] for i in idx if deck(1)[i].rank != wild_rank]
    want = _general_penalty(hand, rules)
    assert penalty(hand, rules) == want
    assert penalty(tuple(hand), rules) == want
    assert _packing_penalty(hand, rules) == want


def test_M_7_onepack_table_agrees_with_brute_force() -> None:
    rng = random.Random(151)
    pack = deck(1)
    for i in range(600):
        max_set = rng.choice([None, 3, 4])
        aces = rng.choice(["low", "high"])
        rules = MeldRules(aces=aces, max_set_size=max_set)  # type: ignore[arg-type]
        # crowd a few ranks so that sets compete with runs
        ranks = rng.sample(range(1, 14), rng.randint(2, 5))
        pool = [c for c in pack if c.rank in ranks] if i % 2 else pack
        hand = rng.sample(pool, min(len(pool), rng.randint(3, 9)))
        kw = dict(aces=aces, max_set=max_set)
        assert penalty(hand, rules) == brute_min_penalty(hand, **kw), (hand, rules)
        if aces == "low" and max_set == 4:
            assert mask_penalty(_mask(hand)) == brute_min_penalty(hand, **kw)


def test_M_1_M_2_onepack_sets_against_runs_by_hand() -> None:
    from rummy.cards import cards

    # 5c 5d 5h 5s 6s 7s: the set 5c 5d 5h and the run 5s 6s 7s meld all (0);
    # the set of four would leave 6 + 7 = 13
    assert penalty(cards("5c 5d 5h 5s 6s 7s")) == 0
    assert penalty(cards("5c 5d 5h 5s 6s 7s"), MeldRules(max_set_size=3)) == 0
    # 5c 5d 5h 5s 6s: sets of 4 allowed leave 6s (6); with sets of 3 at most
    # one five joins 6s as deadwood: 5 + 6 = 11
    assert penalty(cards("5c 5d 5h 5s 6s")) == 6
    assert penalty(cards("5c 5d 5h 5s 6s"), MeldRules(max_set_size=3)) == 11
    # three sets at once: 3s, 4s, 5s of c d h (or the runs 3-4-5), 9s left: 9
    assert penalty(cards("3c 3d 3h 4c 4d 4h 5c 5d 5h 9s")) == 9
    # Qh Kh Ah with aces high is a run (0); aces low: 10 + 10 + 1
    assert penalty(cards("Qh Kh Ah"), MeldRules(aces="high")) == 0
    assert penalty(cards("Qh Kh Ah")) == 21


def test_onepack_quick_path_leaves_other_hands_to_the_checked_way() -> None:
    import pytest

    from rummy.cards import cards
    from rummy.melds import MeldError

    # two identical cards (two packs) make a set with a third (M-1): not one pack
    assert penalty(cards("5h 5h 5s")) == 0
    assert penalty(list(cards("5h 5h 5s"))) == 0
    # a wild of the rules' rank (5s) fills the run: 0, not 5 + 7 + 8
    assert penalty(cards("7h 8h 5s"), MeldRules(wild_rank=5)) == 0
    # text, a list of text, a mixed list
    assert penalty("7h 8h 9h Kc") == 10
    assert penalty(["7h", "8h", "9h", "Kc"]) == 10
    assert penalty([Card.parse("7h"), "8h", "9h"]) == 0
    # a joker where jokers are not used, a bad rules object: the same errors
    with pytest.raises(MeldError, match="jokers are not used"):
        penalty(cards("7h 8h Jk"), GIN_RULES)
    with pytest.raises(MeldError, match="must be a MeldRules"):
        penalty(cards("7h 8h 9h"), "gin")  # type: ignore[arg-type]
    with pytest.raises(MeldError, match="at most 16 cards"):
        penalty(deck(1)[:17])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=1, max_size=12, unique=True), st.integers(0, 9),
       st.sampled_from(["low", "high"]), st.sampled_from([None, 3, 4]))
def test_TT_6_onepack_all_melded_agrees_with_the_general_search(
        idx: list[int], low: int, aces: str, max_set: int | None) -> None:
    # all_melded reads the table, all_melded(discard=True) the packings:
    # both against the count-vector search, with and without one discard
    # owed; cards from 4 ranks in a row (ranks low+1..low+4), so that many
    # hands are complete
    rules = MeldRules(aces=aces, max_set_size=max_set)  # type: ignore[arg-type]
    hand = [deck(1)[(i // 4) * 13 + low + i % 4] for i in idx]
    naturals, wilds = split_hand(hand, rules)
    s = Solver(rules, wilds)
    x = s.encode(naturals)
    assert all_melded(hand, rules) == (s.solve(x, 0, 0) // (1 << 13) == 0)
    s2 = Solver(rules, wilds)
    assert all_melded(hand, rules, discard=True) == (s2.solve(s2.encode(naturals), 0, 0, 1) // (1 << 13) == 0)


def test_M_1_M_2_one_pack_makes_329_melds() -> None:
    # runs: lengths 3..13 in a 13-card suit give 11 + 10 + ... + 1 = 66 per
    # suit; sets: per rank the four cards or any three of them, 5 per rank
    from rummy.melds import is_meld

    for high in (False, True):
        objs = meld_objects(high)
        assert len(objs) == 4 * 66 + 13 * 5 == 329
        rules = MeldRules(aces="high" if high else "low")
        assert all(is_meld(list(m.cards), rules) for m in objs.values())


# -- the roomy search (benchmarks/solver.py, sets C and D) ---------------------


def _search_with_room(hand: list[Card], rules: MeldRules, discard: bool = False):
    """The search that counts every meld's room for wilds (rummy.search.general.Solver
    alone, never the roomy search nor the fast path)."""
    naturals, wilds = split_hand(hand, rules)
    s = Solver(rules, wilds)
    return s.arrangement(s.encode(naturals), wilds, d=int(discard))


def _roomy_search(hand: list[Card], rules: MeldRules, discard: bool = False):
    """The roomy search (and its fallback to the search with room), never the
    fast path: rules without a set size cap."""
    naturals, wilds = split_hand(hand, rules)
    s = Roomy(rules, wilds)
    return arrange(s, s.encode(naturals), wilds, int(discard))


roomy_rules = st.builds(
    MeldRules,
    wild_rank=st.one_of(st.none(), st.integers(1, 13)),
    aces=st.sampled_from(["low", "high", "low_or_high"]),
    min_naturals=st.integers(0, 1),
    wild_penalty=st.one_of(st.none(), st.just(15)),
    ace_penalty=st.one_of(st.none(), st.just(11)),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 2 * 52 + 3), min_size=1, max_size=16, unique=True), roomy_rules)
# 9h Th Jh 6h 7h Jk Jk, a discard owed: Th thrown, then [6h 7h Jk 9h Jk Jh]
# or [6h 7h Jk] [9h Jk Jh], both 0; the search with room takes the run of
# six (runs that leave Th out, met in its order: the longer last)
@example(idx=[34, 35, 36, 83, 84, 104, 105], rules=MeldRules(aces="low"))
# 5h..9h Qh Qh Kh Jk, kings wild, a discard owed: a Qh thrown, then
# [5h..9h] [Qh Jk Kh] or [5h..9h Jk Kh Qh], both 0; the search with room
# takes the set of one queen (a set of p less the copy thrown, its last meld)
@example(idx=[32, 33, 37, 38, 82, 83, 86, 89, 104], rules=MeldRules(wild_rank=13, min_naturals=1))
def test_M_7_roomy_search_gives_the_answers_of_the_search_with_room(
        idx: list[int], rules: MeldRules) -> None:
    # rules without a set size cap take the roomy search (no room in its
    # state, runs chosen by their bottom card, sets that take every copy of
    # the lowest card); it must give the very arrangement and discard of the
    # search that counts room, ties included, and all_melded must agree
    # (the roomy search is asked directly: a hand without wilds or a card
    # twice takes the one-pack fast path, whose ties may be another
    # arrangement; the public functions must agree on penalty and discard)
    shoe = deck(2, 4)
    hand = [shoe[i] for i in idx]
    clear_memo()
    arrangement, _ = _search_with_room(hand, rules)
    assert _roomy_search(hand, rules)[0] == arrangement
    assert best_arrangement(hand, rules).penalty == arrangement.penalty
    assert penalty(hand, rules) == arrangement.penalty
    assert all_melded(hand, rules) == (arrangement.penalty == 0 and not arrangement.deadwood)
    kept, card = _search_with_room(hand, rules, discard=True)
    assert _roomy_search(hand, rules, discard=True) == (kept, card)
    d = best_discard(hand, rules)
    assert (d.card, d.penalty) == (card, kept.penalty)
    assert all_melded(hand, rules, discard=True) == (kept.penalty == 0 and not kept.deadwood)
    # the card and penalty alone: kept from best_discard, then searched anew
    assert best_discard_choice(hand, rules) == (card, kept.penalty)
    clear_memo()
    assert best_discard_choice(hand, rules) == (card, kept.penalty)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2 * 52 + 3), max_size=16, unique=True), roomy_rules)
def test_M_7_roomy_search_layout_is_the_other_layout_flipped(idx: list[int], rules: MeldRules) -> None:
    # the roomy search keeps position p in field 51 - p of its count vector
    # (its lowest card is the top field), the search with room in field p;
    # both are read off the cards here, the isolated ones left out
    shoe = deck(2, 4)
    naturals, wilds = split_hand([shoe[i] for i in idx], rules)
    x, iso = encode(rules, len(wilds), naturals)
    x_top, iso_top = encode(rules, len(wilds), naturals, top=True)
    assert iso_top == iso
    held = Counter(tables_of(rules)[0][c] for c in naturals)
    held.subtract(iso)
    assert x == sum(n << (p << 2) for p, n in held.items())
    assert x_top == sum(n << ((51 - p) << 2) for p, n in held.items())
    assert flip(x) == x_top and flip(x_top) == x
    s = Roomy(rules, wilds)
    assert s.encode(naturals) == x_top and s.iso == iso


def test_M_7_roomy_search_falls_back_when_leftover_wilds_lack_room() -> None:
    # Ah..Kh and a joker: the roomy search melds the 13 hearts as one run
    # and counts on the joker joining a meld, but a run of 13 has no room;
    # the answer is searched again with room: Ah 2h Jk=3h and 3h..Kh, 0
    # (the brute force agrees)
    from tests.brute import brute_min_after_discard

    hand = [Card(r, "h") for r in range(1, 14)] + [Card.parse("Jk")]
    for min_naturals in (0, 1):
        rules = MeldRules(min_naturals=min_naturals)
        naturals, wilds = split_hand(hand, rules)
        s = Roomy(rules, wilds)
        x = s.encode(naturals)
        s.rsolve(x, 1, 0)
        assert not s.holds(x, 1, 0)  # so the answer below is the fallback's
        kw = dict(wild_rank=None, aces="low", min_naturals=min_naturals)
        a = best_arrangement(hand, rules)
        assert a.penalty == 0 == brute_min_penalty(hand, **kw) and not a.deadwood
        assert sorted(c for m in a.melds for c in m.cards) == sorted(hand)
        assert penalty(hand, rules) == 0 and all_melded(hand, rules)
        assert best_discard(hand, rules).penalty == 0 == brute_min_after_discard(hand, **kw)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 8 * 52 - 1), min_size=1, max_size=16, unique=True),
       st.sampled_from(["low", "high", "low_or_high"]))
def test_M_1_M_2_cards_without_a_meld_of_naturals_are_the_brute_forces(idx: list[int], aces: str) -> None:
    # the roomy search settles at once, in a state without a wild, every
    # card that shares no meld of three naturals with the hand's others;
    # the brute force tries every two other cards with each (a card twice
    # or more: up to eight packs)
    shoe = deck(8, 0)
    hand = [shoe[i] for i in idx]
    rules = MeldRules(aces=aces)  # type: ignore[arg-type]
    pos = tables_of(rules)[0]
    x = sum(1 << ((51 - pos[c]) << 2) for c in hand)
    dead = meldless(x, aces == "low_or_high")
    for i, c in enumerate(hand):
        others = hand[:i] + hand[i + 1:]
        melds = any(group_is_meld([c, a, b], None, aces, 0)
                    for j, a in enumerate(others) for b in others[j + 1:])
        assert bool(dead >> ((51 - pos[c]) << 2) & 15) == (not melds), (c, hand)
    assert dead & ~sum(15 << (f << 2) for f in range(52)) == 0


def test_M_1_M_2_cards_without_a_meld_of_naturals_by_hand() -> None:
    # A 2 3 melds when an ace also plays low, Q K A when it plays high;
    # K A 2 never; three of a rank whatever their suits, a card twice too
    def dead(text: str, aces: str) -> list[str]:
        pos = tables_of(MeldRules(aces=aces))[0]  # type: ignore[arg-type]
        hand = cards(text)
        x = sum(1 << ((51 - pos[c]) << 2) for c in hand)
        d = meldless(x, aces == "low_or_high")
        return [str(c) for c in hand if d >> ((51 - pos[c]) << 2) & 15]

    assert dead("Ah 2h 3h", "low") == [] and dead("Ah 2h 3h", "low_or_high") == []
    assert dead("Ah 2h 3h", "high") == ["Ah", "2h", "3h"]
    assert dead("Qs Ks As", "high") == [] and dead("Qs Ks As", "low_or_high") == []
    assert dead("Qs Ks As", "low") == ["Qs", "Ks", "As"]
    assert dead("Kd Ad 2d", "low_or_high") == ["Kd", "Ad", "2d"]
    assert dead("7c 7c 7d 9h 9h", "low") == ["9h", "9h"]
    assert dead("5s 6s 8s 5d", "low") == ["5s", "6s", "8s", "5d"]


def test_M_7_deadwood_of_costly_ranks_is_summed_card_by_card() -> None:
    # a rank that costs 4096 points or more overflows the product that sums
    # the deadwood of the cards without a meld of naturals; those rules sum
    # it card by card, and both agree with the brute force
    rng = random.Random(15)
    shoe = deck(2, 0)
    costly = MeldRules(wild_rank=13, ace_penalty=5000)
    assert Roomy(costly, []).lane_pen == 0 and Roomy(MeldRules(wild_rank=13), []).lane_pen
    for _ in range(300):
        hand = rng.sample(shoe, rng.randint(3, 13))
        for rules in (costly, MeldRules(wild_rank=13)):
            clear_memo()
            want = brute_min_penalty(hand, wild_rank=13, ace_penalty=rules.ace_penalty)
            assert best_arrangement(hand, rules).penalty == want, hand


def test_M_7_a_lone_wild_with_no_meld_counts_its_points() -> None:
    # worked by hand: kings wild, 2c 9d Kh: no two cards share a meld, so
    # the king is deadwood too: 2 + 9 + 10 = 21 (a roomy answer of 11 would
    # take the king into a meld that does not exist)
    rules = MeldRules(wild_rank=13)
    assert penalty("2c 9d Kh", rules) == 21
    assert best_arrangement("2c 9d Kh", rules).penalty == 21
    # with a pair, the king makes a set: 9d 9s Kh and 2c left: 2
    assert penalty("2c 9d 9s Kh", rules) == 2
    # throw the king (10) or the 9d: 2 + 10 = 12 left after 9d, 2 + 9 = 11 after Kh
    assert best_discard("2c 9d Kh", rules).penalty == 11


def test_TT_6_costliest_isolated_card_is_thrown_by_hand() -> None:
    # worked by hand: kings wild; 2c 3c 4c, 7h 7d Kh=7, and Qs alone (no
    # other queen, no spade near it).  Arranged whole, the hand leaves only
    # Qs unmelded (10).  No discard lowers the penalty by more than its own
    # points, and Qs is worth the most: throwing it leaves 0, read off the
    # search without a discard owed (the discard's own search is not run)
    rules = MeldRules(wild_rank=13)
    hand = cards("2c 3c 4c 7h 7d Kh Qs")
    naturals, wilds = split_hand(hand, rules)
    s = Roomy(rules, wilds)
    x = s.encode(naturals)
    short = s._costliest_thrown(x, 1)
    assert short is not None and short[0] // (1 << 13) == 0
    assert s.rmemo[1] is None  # no state with a discard owed was searched
    d = best_discard(hand, rules)
    assert (str(d.card), d.penalty, d.arrangement.deadwood) == ("Qs", 0, ())
    # with a second queen the queens may share a set (with the king): Qs is
    # no longer isolated, and the discard is searched (7d or 7h, 7 points)
    hand = cards("2c 3c 4c 7h 7d Kh Qs Qd")
    naturals, wilds = split_hand(hand, rules)
    s = Roomy(rules, wilds)
    assert s._costliest_thrown(s.encode(naturals), 1) is None
    assert best_discard(hand, rules).penalty == 7 == brute_min_after_discard(hand, wild_rank=13)


@pytest.mark.parametrize("rules", [MeldRules(wild_rank=13), MeldRules(wild_rank=5, aces="high"),
                                   MeldRules(wild_rank=9, aces="low_or_high", min_naturals=1),
                                   MeldRules(wild_rank=13, wild_penalty=25)])
def test_TT_6_costliest_isolated_discard_is_the_search_with_rooms(rules: MeldRules) -> None:
    # whenever the discard is read off the search without one owed (the
    # costliest natural card isolated and left unmelded), it is the very
    # discard and arrangement of the search that counts room (ties
    # included) and its penalty is the brute force's; the case must come up
    # often enough to be tested (a wild worth 25 makes a thrown wild weigh)
    rng = random.Random(15)
    shoe = deck(2, 4)
    taken = 0
    for _ in range(250):
        hand = rng.sample(shoe, rng.randint(3, 12))
        clear_memo()  # a solver of this hand's own isolated cards, not one shared
        s, x, wilds, _total = discard_search(hand, rules)
        if type(s) is not Roomy or s._costliest_thrown(x, len(wilds)) is None:
            continue
        taken += 1
        clear_memo()
        kept, card = _search_with_room(hand, rules, discard=True)
        assert _roomy_search(hand, rules, discard=True) == (kept, card)
        kw = dict(wild_rank=rules.wild_rank, aces=rules.aces, min_naturals=rules.min_naturals,
                  wild_penalty=rules.wild_penalty)
        assert kept.penalty == brute_min_after_discard(hand, **kw)
        assert best_discard_choice(hand, rules) == (card, kept.penalty)
    assert taken >= 40


# --- the tie rule: naturals in sets first, wilds fill runs ----------------------------

def test_M_7_tie_rule_puts_the_natural_in_the_set_and_the_wild_in_the_run() -> None:
    # nines wild: J♣ J♥ + 9♥ with T♠ J♠ Q♠, or J♣ J♥ J♠ with T♠ 9♥ Q♠: both meld
    # all six cards (penalty 0 by hand); the second reads better
    rules = MeldRules(wild_rank=9)
    for text in ("Jc Jh 9h Ts Js Qs", "9h Qs Js Ts Jh Jc"):
        clear_memo()
        a = best_arrangement(cards(text), rules)
        assert a.penalty == 0
        assert sorted(" ".join(map(str, m.cards)) for m in a.melds) == ["Jc Jh Js", "Ts 9h Qs"]
        d = best_discard(cards(text + " 2c"), rules)
        assert d.card == Card.parse("2c")
        assert sorted(" ".join(map(str, m.cards)) for m in d.arrangement.melds) == [
            "Jc Jh Js", "Ts 9h Qs"]


def _wild_in_a_set_a_run_could_free(a, rules: MeldRules) -> bool:
    for s in a.melds:
        if s.kind != "set" or not any(s.wild):
            continue
        rank = next((c.rank for c, f in zip(s.cards, s.wild) if not f), None)
        if rank is None:
            continue
        for r in a.melds:
            flags = r.wild or (False,) * len(r.cards)
            nat = [c for c, f in zip(r.cards, flags) if not f]
            if r.kind == "run" and len(nat) >= 2 and any(c.rank == rank for c in nat):
                return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 2 * 52 + 1), min_size=3, max_size=11, unique=True),
       st.integers(1, 13), st.integers(0, 1), st.randoms(use_true_random=False))
def test_M_7_tie_rule_holds_and_keeps_the_brute_force_penalty(
        idx: list[int], wild: int, min_naturals: int, rnd: random.Random) -> None:
    shoe = deck(2, 2)
    hand = [shoe[i] for i in idx]
    rules = MeldRules(wild_rank=wild, min_naturals=min_naturals)
    clear_memo()
    a = best_arrangement(hand, rules)
    assert a.penalty == brute_min_penalty(hand, wild_rank=wild, min_naturals=min_naturals)
    for m in a.melds:
        assert is_meld(m.cards, rules)
    assert Counter(a.cards) == Counter(hand)
    assert not _wild_in_a_set_a_run_could_free(a, rules), a
    # the hand's card order, and what was asked before, change nothing
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    clear_memo()
    assert best_arrangement(shuffled, rules) == a


def test_M_7_expert_outs_do_not_depend_on_the_order_of_the_hand() -> None:
    from rummy.bots.three_thirteen import outs

    rules = MeldRules(wild_rank=9)
    rng = random.Random(35)
    hand = cards("Jc Jh 9h Ts Js Qs 4d 6d 2c")
    first = None
    for _ in range(6):
        order = list(hand)
        rng.shuffle(order)
        clear_memo()
        a = best_arrangement(order, rules)
        got = (a, [(k, sorted(c), w) for k, c, w in outs(a, rules)])
        first = first or got
        assert got == first
    assert sorted(" ".join(map(str, m.cards)) for m in first[0].melds) == ["Jc Jh Js", "Ts 9h Qs"]


# --- one wild and distinct naturals, or cards held twice: the search on a bit mask ---

mask_rules = st.builds(
    MeldRules,
    wild_rank=st.one_of(st.none(), st.integers(1, 13)),
    aces=st.sampled_from(["low", "high"]),
    min_naturals=st.integers(0, 1),
    wild_penalty=st.one_of(st.none(), st.just(15)),
    ace_penalty=st.one_of(st.none(), st.just(11)),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=12, unique=True), st.integers(0, 4),
       st.lists(st.integers(0, 14), max_size=3), mask_rules)
# K♣ K♦ with 7♥ 8♥ and one wild: the wild makes the set (17 left), not the run (22)
@example(nat=[12, 25, 32, 33, 1], wild=0, twice=[], rules=MeldRules(wild_rank=9))
# 5♦ 6♦ 7♦ 8♣ 8♦ 8♥ 8♠ and 2♣ twice, no wild: [8c 8d 8h 8s] [5d 6d 7d] or
# [8c 8h 8s] [5d 6d 7d 8d], both 4 (the 2s); the search with room takes the
# first (the one-pack fast path, without the second 2♣, the second)
@example(nat=[17, 18, 19, 7, 20, 33, 46, 1], wild=4, twice=[7], rules=MeldRules(wild_rank=3))
# no meld of three naturals, one wild: K♣ K♦ and the wild, or J♥ Q♥ and the
# wild, both 20 saved (the first card searched keeps its meld); K♥ with Q♥
# or with K♣, both 20 (the first card searched keeps its meld); Q♦ with T♦
# or with Q♥, both 20 (its set, met after its runs, wins); and a run of
# four beating every other meld
@example(nat=[12, 25, 37, 36], wild=0, twice=[], rules=MeldRules(wild_rank=9))
@example(nat=[38, 37, 12], wild=0, twice=[], rules=MeldRules(wild_rank=9))
@example(nat=[22, 24, 37], wild=2, twice=[], rules=MeldRules(wild_rank=13))
@example(nat=[38, 37, 12, 36, 40, 16], wild=4, twice=[], rules=MeldRules(wild_rank=9, aces="high"))
def test_M_7_the_mask_search_gives_the_roomy_searchs_arrangement(
        nat: list[int], wild: int, twice: list[int], rules: MeldRules) -> None:
    # a hand of naturals (some held twice) and at most one wild (a card of
    # the wild rank or a joker), under rules whose sets take any number of
    # wilds (aces low or high): the search on bit masks must give the roomy
    # search's very arrangement, ties included, and best_arrangement the
    # same once the tie rule has run
    shoe = deck(1, 0)
    hand = [shoe[i] for i in nat if not rules.is_wild(shoe[i])]
    hand += [hand[i % len(hand)] for i in twice if hand]  # some naturals twice (or three times)
    if rules.wild_rank is not None and wild < 4:
        hand.append(Card(rules.wild_rank, "cdhs"[wild]))
    elif wild == 4:
        hand.append(JOKER)
    if not hand:
        return
    key = tuple(sorted(c.index for c in hand))
    clear_memo()
    got = onewild_arrangement(key, rules)
    want = _roomy_search(hand, rules)[0]
    if got is None:  # a card three times, or the wild without a meld: the roomy search's to answer
        assert max(Counter(hand).values()) > 2 or not want.melds or not any(m.wild for m in want.melds)
        return
    assert got == want
    assert best_arrangement(hand, rules) == naturals_in_sets(want, rules)
    clear_memo()
    assert penalty(hand, rules) == want.penalty
    assert onewild_penalty(key, rules) == (want.penalty, not want.deadwood)
    if len(hand) <= 10:
        assert got.penalty == brute_min_penalty(hand, wild_rank=rules.wild_rank,
                                                min_naturals=rules.min_naturals, aces=rules.aces,
                                                wild_penalty=rules.wild_penalty,
                                                ace_penalty=rules.ace_penalty)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=12, unique=True),
       st.lists(st.integers(0, 4), min_size=2, max_size=3), st.lists(st.integers(0, 14), max_size=3),
       mask_rules)
# J♦ and two wilds: the two wilds rescue the lone J♦, the joker (20 points)
# handed out before the 7♠ (7 points)
@example(nat=[23], wilds=[3, 4], twice=[], rules=MeldRules(wild_rank=7, aces="high", min_naturals=1,
                                                            ace_penalty=11))
# K♣ Q♣ and two wilds, 5♥ alone: the run takes one wild and has room for the
# other, 5♥ is left (5), rather than rescued by both wilds (K♣ Q♣ left: 20)
@example(nat=[12, 11, 30], wilds=[4, 3], twice=[], rules=MeldRules(wild_rank=9))
# K♣ T♣ and two jokers: the run K♣ Q♣ J♣ T♣, both gaps filled (0 left)
@example(nat=[12, 9], wilds=[4, 4], twice=[], rules=MeldRules())
# 4♦ twice, 5♦, T♠ and Q♥ twice (queens wild): [T♠ Q♥ Q♥] and both 4♦ 5♦
# left (13), not [4♦ 5♦ Q♥ Q♥] (T♠ and a 4♦ left: 14)
@example(nat=[16, 17, 48], wilds=[2, 2], twice=[0], rules=MeldRules(wild_rank=12, wild_penalty=15))
# 9♥ 5♥ 6♥ 6♥, 8♣ and the joker (eights wild): the run 5♥ to 9♥ with both
# wilds and a 6♥ left, not the set of both 6♥ with both wilds
@example(nat=[34, 30, 31], wilds=[0, 4], twice=[2],
         rules=MeldRules(wild_rank=8, aces="high", wild_penalty=15, ace_penalty=11))
# three wilds alone (threes wild): a set of their own
@example(nat=[], wilds=[2, 1, 0], twice=[], rules=MeldRules(wild_rank=3, aces="high"))
# nine naturals and three wilds (tens wild): with three wilds a card is
# isolated only with no card of its suit within four ranks
@example(nat=[42, 24, 40, 27, 5, 51, 41, 47, 4], wilds=[0, 1, 2], twice=[],
         rules=MeldRules(wild_rank=10, aces="high", min_naturals=1, wild_penalty=15))
def test_M_7_the_mask_search_of_two_or_three_wilds_gives_the_roomy_searchs_arrangement(
        nat: list[int], wilds: list[int], twice: list[int], rules: MeldRules) -> None:
    # naturals (some held twice) and two or three wilds (cards of the wild
    # rank or jokers), under rules whose sets take any number of wilds
    # (aces low or high): the search on bit masks must give the roomy
    # search's very arrangement, ties included (the isolated card two
    # wilds rescue, the order the wilds are handed out in, three left over
    # as a set of their own), or leave the hand to the search with room
    # exactly when the roomy search's answer leaves a wild without room
    # (or a card is there three times); and the brute force's penalty
    shoe = deck(1, 0)
    hand = [shoe[i] for i in nat if not rules.is_wild(shoe[i])]
    hand += [hand[i % len(hand)] for i in twice if hand]  # some naturals twice (or three times)
    for wd in wilds:
        if rules.wild_rank is not None and wd < 4:
            hand.append(Card(rules.wild_rank, "cdhs"[wd]))
        elif wd == 4:
            hand.append(JOKER)
    naturals, in_hand = split_hand(hand, rules)
    if len(in_hand) < 2 or len(hand) > 16:  # (a hand holds 16 cards at most)
        return
    key = tuple(sorted(c.index for c in hand))
    clear_memo()
    got = onewild_arrangement(key, rules)
    s = Roomy(rules, in_hand)
    roomy = s.rarrangement(s.encode(naturals), in_hand, 0)
    if got is None:  # a wild without room, or a card three times: the search with room's to answer
        assert roomy is None or max(Counter(naturals).values()) > 2
        return
    want = _roomy_search(hand, rules)[0]
    assert roomy is not None and roomy[0] == want
    assert got == want
    assert best_arrangement(hand, rules) == naturals_in_sets(want, rules)
    clear_memo()
    assert penalty(hand, rules) == want.penalty
    assert onewild_penalty(key, rules) == (want.penalty, not want.deadwood)
    # once a solver is kept for these rules (a game's best discards), the
    # hand goes to it instead: the same answers
    clear_memo()
    best_discard(hand, rules)
    assert best_arrangement(hand, rules) == naturals_in_sets(want, rules)
    assert penalty(hand, rules) == want.penalty
    if len(hand) <= 10:
        assert got.penalty == brute_min_penalty(hand, wild_rank=rules.wild_rank,
                                                min_naturals=rules.min_naturals, aces=rules.aces,
                                                wild_penalty=rules.wild_penalty,
                                                ace_penalty=rules.ace_penalty)
