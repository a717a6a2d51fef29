"""The solver against an independent brute force, and its properties.

tests/brute.py tries every way to cut a hand into groups and checks each
group by trying every set rank and run placement; it shares no code with
rummy.melds.  Here the two must agree on 20,000 random hands of 3-11 cards
from 1, 2 and 4 packs, random wild ranks, 0/2/4 jokers, every aces option
and min_naturals 0/1 -- for best_arrangement and for best_discard.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy import (
    Card,
    Meld,
    MeldError,
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
    answers,
    clear_memo,
    go_out_discards,
    is_lone,
    lone_cards,
    penalty_less,
    roomy,
)
from rummy.search.answers import SOLVERS, lone_discard, solver_for, solver_kind
from rummy.search.general import Solver
from rummy.search.tables import encode, split_hand
from tests.brute import brute_min_after_discard, brute_min_penalty

ACES = ("low", "high", "low_or_high")


def random_case(rng: random.Random) -> tuple[list[Card], MeldRules]:
    packs = rng.choice([1, 2, 4])
    jokers = rng.choice([0, 2, 4])
    n = rng.randint(3, 11)
    rules = MeldRules(
        wild_rank=rng.choice([None, *range(1, 14)]),
        aces=rng.choice(ACES),
        min_naturals=rng.choice([0, 1]),
        wild_penalty=rng.choice([None, 15]),
        joker_penalty=rng.choice([20, 25]),
    )
    return rng.sample(deck(packs, jokers), n), rules


def brute_kwargs(rules: MeldRules) -> dict:
    return dict(wild_rank=rules.wild_rank, aces=rules.aces, min_naturals=rules.min_naturals,
                wild_penalty=rules.wild_penalty, joker_penalty=rules.joker_penalty)


def each_hand_left(hand: list[Card]) -> Iterator[tuple[Card, list[Card]]]:
    """(card, the hand less one copy of it) for each distinct card of ``hand``,
    in index order."""
    for c in sorted(set(hand), key=lambda c: c.index):
        rest = list(hand)
        rest.remove(c)
        yield c, rest


def check_partition(hand: list[Card], arrangement, rules: MeldRules) -> None:
    placed = [c for m in arrangement.melds for c in m.cards] + list(arrangement.deadwood)
    assert Counter(placed) == Counter(hand)  # every card in exactly one place
    for m in arrangement.melds:
        assert is_meld(m.cards, rules), m
        # what each card stands for is what the meld checker reads in them
        assert m == Meld.of(m.cards, rules), (m, Meld.of(m.cards, rules))
    assert arrangement.penalty == sum(rules.penalty_of(c) for c in arrangement.deadwood)


@pytest.mark.timeout(180)  # 20,000 brute forces: 12 to 15 s alone, 60 s beside other groups
def test_solver_agrees_with_brute_force_on_20000_random_hands() -> None:
    rng = random.Random(20_000)
    wrong = []
    for i in range(20_000):
        hand, rules = random_case(rng)
        kw = brute_kwargs(rules)
        arrangement = best_arrangement(hand, rules)
        check_partition(hand, arrangement, rules)
        if arrangement.penalty != brute_min_penalty(hand, **kw):
            wrong.append((i, hand, rules, "arrangement"))
        d = best_discard(hand, rules)
        rest = list(hand)
        rest.remove(d.card)
        check_partition(rest, d.arrangement, rules)
        if d.penalty != brute_min_after_discard(hand, **kw):
            wrong.append((i, hand, rules, "discard"))
        if all_melded(hand, rules) != (arrangement.penalty == 0 and not arrangement.deadwood):
            wrong.append((i, hand, rules, "all_melded"))
        if all_melded(hand, rules, discard=True) != (d.penalty == 0 and not d.arrangement.deadwood):
            wrong.append((i, hand, rules, "all_melded discard"))
    assert wrong == []


def near_complete_case(rng: random.Random, fewest_strays: int = 0
                       ) -> tuple[list[Card], MeldRules]:
    """A hand built from one to three sets or runs of 2-5 cards (one card
    short, or complete), then a few random cards (wilds among them), and
    random rules: random hands rarely go out; these often do."""
    _, rules = random_case(rng)
    packs = rng.choice([1, 2])
    shoe = deck(packs, rng.choice([0, 2]))
    hand: list[Card] = []
    for _ in range(rng.randint(1, 3)):
        r, s = rng.randint(1, 13), rng.choice("cdhs")
        if rng.random() < 0.5:
            group = [Card(r, t) for t in rng.sample("cdhs", rng.randint(2, 4))]
        else:
            group = [Card((r + k - 1) % 13 + 1, s) for k in range(rng.randint(2, 5))]
        hand += [c for c in group if hand.count(c) < packs]
    hand += rng.sample(shoe, rng.randint(fewest_strays, 3))
    return [c for c in hand if c.rank != 0 or rules.jokers_wild][:12], rules


def test_all_melded_agrees_with_brute_force_on_hands_near_complete() -> None:
    rng = random.Random(31)
    wrong, complete = [], 0
    for i in range(4000):
        hand, rules = near_complete_case(rng)
        kw = brute_kwargs(rules)
        zero = brute_min_penalty(hand, **kw) == 0
        complete += zero
        if all_melded(hand, rules) != zero:
            wrong.append((i, hand, rules, "whole"))
        if hand and all_melded(hand, rules, discard=True) != (brute_min_after_discard(hand, **kw) == 0):
            wrong.append((i, hand, rules, "discard"))
    assert wrong == []
    assert complete > 400  # the test does see complete hands


def test_TT_6_go_out_discards_agree_with_brute_force() -> None:
    # the ways to go out: each distinct card whose discard leaves a hand the
    # brute force melds completely
    rng = random.Random(47)
    wrong, ways = [], 0
    for i in range(800):
        hand, rules = near_complete_case(rng, fewest_strays=1)
        if not hand:
            continue
        kw = brute_kwargs(rules)
        expected = [c for c, rest in each_hand_left(hand) if brute_min_penalty(rest, **kw) == 0]
        ways += bool(expected)
        if go_out_discards(hand, rules) != expected:
            wrong.append((i, hand, rules, expected))
    assert wrong == []
    assert ways > 100  # the test does see hands that go out


def test_a_lone_costly_card_is_thrown_as_the_search_throws_it() -> None:
    # best_discard_choice tells without a search the discard of a hand whose
    # best discard on a tie is a lone card (no partner, at most one wild,
    # worth no less than the wild): it must be best_discard's card (which
    # searches) and leave the brute force's least penalty after a discard
    # (with two wilds the card is not lone: they would make a set of it)
    rng = random.Random(53)
    wrong, lone = [], 0
    for i in range(1500):
        hand, rules = near_complete_case(rng)
        if i % 3 == 0 and rules.wild_rank is not None:  # few cards, and wilds to spare
            hand = [Card(rules.wild_rank, s) for s in rng.sample("cdhs", 2)]
            hand += rng.sample(deck(1), rng.randint(1, 4))
        wild = [c for c in hand if c.is_joker or c.rank == rules.wild_rank]
        # at most one or two wilds (a copy of a wild kept goes too: it is equal)
        hand = [c for c in hand if c not in wild[rng.choice([1, 2]):]]
        hand.append(Card(rng.choice([1, 10, 11, 12, 13]), rng.choice("cdhs")))  # often lone
        if hand.count(hand[-1]) > 2:
            continue
        clear_memo()
        naturals, wilds = split_hand(hand, rules)
        iso = encode(rules, len(wilds), naturals, solver_kind(rules).top)[1]
        lone += lone_discard(rules, naturals, wilds, iso) is not None
        got = best_discard_choice(hand, rules)
        clear_memo()
        d = best_discard(hand, rules)
        if got != (d.card, d.penalty) or got[1] != brute_min_after_discard(hand, **brute_kwargs(rules)):
            wrong.append((i, hand, rules, got, d))
    assert wrong == []
    assert lone > 300  # the test does see lone cards


def test_penalty_less_is_the_penalty_of_each_hand_left() -> None:
    # penalty_less answers for each card from the whole hand's encoding (the
    # same solver when the card has a partner); each answer must be the brute
    # force's least penalty of the hand less that card.  Random hands, hands
    # near complete (the last card removed often breaks a meld), and sets
    # capped at 4 cards (the search with room); half the hands with the
    # memo emptied first, half after the hand's own questions were asked
    rng = random.Random(59)
    wrong, checked = [], 0
    for i in range(1200):
        hand, rules = (random_case if i % 2 else near_complete_case)(rng)
        if i % 5 == 0:
            rules = MeldRules(wild_rank=rules.wild_rank, aces=rules.aces, max_set_size=4)
            hand = [c for c in hand if not c.is_joker]
        if not hand:
            continue
        kw = brute_kwargs(rules)
        if rules.max_set_size is not None:
            kw["max_set"] = rules.max_set_size
        if i % 4 < 2:
            clear_memo()
        else:
            penalty(hand, rules)
        less = penalty_less(hand, rules)
        for c, rest in each_hand_left(hand):
            checked += 1
            if less(c) != brute_min_penalty(rest, **kw):
                wrong.append((i, hand, rules, c))
    assert wrong == []
    assert checked > 6000


def test_penalty_less_refuses_a_card_not_in_the_hand_and_keeps_nothing() -> None:
    clear_memo()
    less = penalty_less("Qh Kh 3s 5c 5d 5s", MeldRules(wild_rank=5))
    with pytest.raises(MeldError, match=r"2c is not in the hand \(Qh Kh 3s 5c 5d 5s\)"):
        less(Card.parse("2c"))
    assert not any(answers.ANSWERS.get(MeldRules(wild_rank=5), {}).values())
    # Qh 5c 5d is a set of queens with two wilds, 5s can rescue nothing alone: 3s left
    assert less(Card.parse("Kh")) == penalty("Qh 3s 5c 5d 5s", MeldRules(wild_rank=5)) == 3



def test_is_lone_asks_lone_cards_of_one_card() -> None:
    # every card of random hands (2 packs and jokers, each aces option):
    # lone exactly when lone_cards lists it
    rng = random.Random(23)
    shoe = deck(2, 4)
    for _ in range(1500):
        rules = MeldRules(wild_rank=rng.choice([None, 2, 9, 13]), aces=rng.choice(ACES))
        hand = rng.sample(shoe, rng.randint(1, 14))
        lone = lone_cards(hand, rules)
        for c in set(hand):
            assert is_lone(c, hand, rules) == (c in lone)
    assert is_lone("Kc", "Kc 7h 8h", MeldRules()) and not is_lone("Kc", "Kc Kc 7h", MeldRules())
    with pytest.raises(MeldError, match=r"2c is not in the hand \(7h 8h\)"):
        is_lone("2c", "7h 8h")

def test_fast_path_agrees_with_the_general_search() -> None:
    # one pack, no wilds: the bitmask fast path and the count-vector search
    rng = random.Random(7)
    for _ in range(3000):
        rules = MeldRules(aces=rng.choice(["low", "high"]), max_set_size=rng.choice([None, 4]))
        hand = rng.sample(deck(1), rng.randint(0, 14))
        naturals, wilds = split_hand(hand, rules)
        s = Solver(rules, wilds)
        general = s.solve(s.encode(naturals), 0, 0) // (1 << 13)
        assert penalty(hand, rules) == general
        if hand:
            s2 = Solver(rules, wilds)
            general_d = s2.solve(s2.encode(naturals), 0, 0, 1) // (1 << 13)
            assert best_discard(hand, rules).penalty == general_d


# -- properties ---------------------------------------------------------------

rules_st = st.builds(
    MeldRules,
    wild_rank=st.one_of(st.none(), st.integers(1, 13)),
    aces=st.sampled_from(ACES),
    min_naturals=st.integers(0, 1),
    wild_penalty=st.one_of(st.none(), st.just(15)),
)


@st.composite
def hands(draw: st.DrawFn, max_size: int = 16) -> list[Card]:
    packs = draw(st.sampled_from([1, 2, 4, 8]))
    jokers = draw(st.sampled_from([0, 2, 4, 8]))
    shoe = deck(packs, jokers)
    idx = draw(st.lists(st.integers(0, len(shoe) - 1), max_size=max_size, unique=True))
    return [shoe[i] for i in idx]


@settings(max_examples=300, deadline=None)
@given(hands(), rules_st, st.randoms(use_true_random=False))
def test_card_order_does_not_matter(hand: list[Card], rules: MeldRules, rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert best_arrangement(hand, rules) == best_arrangement(shuffled, rules)
    if hand:
        assert best_discard(hand, rules) == best_discard(shuffled, rules)


@settings(max_examples=300, deadline=None)
@given(hands(), rules_st)
def test_penalty_is_at_most_the_hand_total_and_cards_are_all_placed(
    hand: list[Card], rules: MeldRules
) -> None:
    a = best_arrangement(hand, rules)
    assert 0 <= a.penalty <= sum(rules.penalty_of(c) for c in hand)
    check_partition(hand, a, rules)
    assert penalty(hand, rules) == a.penalty


@settings(max_examples=200, deadline=None)
@given(hands(max_size=15), rules_st)
def test_best_discard_is_no_worse_than_any_single_discard(hand: list[Card], rules: MeldRules) -> None:
    if not hand:
        return
    d = best_discard(hand, rules)
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        assert d.penalty <= penalty(rest, rules)


def test_kept_solvers_answer_as_fresh_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    # hands under the same rules share a solver's memo (rummy.search.answers.solver_for);
    # the answers must be those of a solver that starts empty
    SOLVERS.clear()
    monkeypatch.setattr(answers, "SOLVERS_MAX", 10_000)  # every solver made stays: counted below
    rng = random.Random(5)
    shoe = deck(2, 2)
    rules = MeldRules(wild_rank=7, wild_penalty=15, joker_penalty=20)
    hand = rng.sample(shoe, 10)
    for _ in range(1500):
        # a hand that changes one card at a time, as in a game
        hand[rng.randrange(len(hand))] = rng.choice(shoe)
        naturals, wilds = split_hand(hand, rules)
        # (the answers shown are the search's, read by the tie rule: naturals in sets)
        fresh = Solver(rules, wilds)
        arr, _ = fresh.arrangement(fresh.encode(naturals), wilds)
        assert best_arrangement(hand, rules) == answers.naturals_in_sets(arr, rules)
        fresh = Solver(rules, wilds)
        arr, card = fresh.arrangement(fresh.encode(naturals), wilds, d=1)
        assert best_discard(hand, rules).arrangement == answers.naturals_in_sets(arr, rules)
        assert best_discard(hand, rules).card == card
    assert 1 < len(SOLVERS) < 1500  # solvers were shared
    # hands with isolated cards and fewer than two wilds shared one solver
    # that searches their isolated cards too (its key: no isolated card)
    shared = [k for k, s in SOLVERS.items() if len(k[1]) < 2 and not k[2]]
    assert shared and all(not s.iso for k, s in SOLVERS.items() if k in shared)


def test_answers_are_kept_for_the_two_rule_sets_asked_last() -> None:
    # a game moves on to new rules (each Three-Thirteen round has its wild
    # rank): the answers of the rule set asked longest ago are dropped
    clear_memo()
    hand = "7h 8h Jk Kc Qd"  # 7h 8h and the joker make a run: Kc Qd are left, 20 points
    rules = [MeldRules(wild_rank=r) for r in range(1, 4)]
    for r in rules[:2]:
        assert penalty(hand, r) == 20
    assert penalty(hand, rules[0]) == 20  # asked again: now the latest
    assert list(answers.ANSWERS) == [rules[1], rules[0]]
    assert penalty(hand, rules[2]) == 20  # a third: rules[1] goes
    assert list(answers.ANSWERS) == [rules[0], rules[2]]
    assert penalty(hand, rules[1]) == 20  # searched again, the same answer
    assert list(answers.ANSWERS) == [rules[2], rules[1]]


def test_meld_lists_are_kept_for_the_sixteen_rule_sets_and_wild_counts_asked_last() -> None:
    # the roomy search's meld lists, per (rules, number of wilds): those
    # asked longest ago are dropped (a game moves on to new rules each round)
    clear_memo()
    keys = [(MeldRules(wild_rank=r), w) for r in range(1, 10) for w in (0, 1)]  # 18
    for rules, w in keys[:16]:
        roomy.meld_lists(rules, w)
    roomy.meld_lists(*keys[0])  # asked again: now the latest
    for rules, w in keys[16:]:
        roomy.meld_lists(rules, w)
    assert list(roomy.MELD_LISTS) == keys[3:16] + [keys[0]] + keys[16:]
    # the answers stay the brute force's while lists are dropped and made again
    hand = list(cards("7h 8h Jk Kc Qd 9c 9d 2s"))
    for rules, _ in keys + keys:
        assert penalty(hand, rules) == brute_min_penalty(hand, **brute_kwargs(rules))


def test_hands_of_few_wilds_share_one_solver_from_their_second_set_of_isolated_cards() -> None:
    # a game's hands keep changing their isolated cards: the first set gets
    # a solver of its own (a single question's smaller search), later ones
    # share one solver that searches the isolated cards with the rest
    clear_memo()
    rules = MeldRules(wild_rank=13)

    def solver_of(text: str) -> Solver:
        naturals, wilds = split_hand(cards(text), rules)
        return solver_for(rules, naturals, wilds)[0]

    first = solver_of("7h 8h 9h 2c")  # 2c has no partner
    assert first.iso
    second, third = solver_of("7h 8h 9h 4d"), solver_of("7h 8h 9h Js 5c")
    assert second is third and not second.iso
    assert solver_of("7h 8h 9h 2c") is first  # the first keeps its own
    # two wilds might rescue an isolated card: each set keeps its own solver
    assert solver_of("7h 8h 9h 2c Kd Ks").iso and solver_of("7h 8h 9h 4d Kd Ks").iso
    for text, expected in (("7h 8h 9h 4d", 4), ("7h 8h 9h Js 5c", 15), ("7h 8h 9h 5c 5d Kd", 0)):
        assert penalty(text, rules) == expected
