"""Melds and scoring rules (RULES.md C-2..C-4, M-1..M-7, TS-*, TR-*, TJ-4, TJ-5).

Every expected value here is worked by hand in the comment beside it.
"""

from __future__ import annotations

import pytest

from rummy import (
    Card,
    Meld,
    MeldError,
    MeldRules,
    best_arrangement,
    best_discard,
    cards,
    find_variant,
    is_meld,
    new_game,
    penalty,
    why_not,
)

LOW = MeldRules()
HIGH = MeldRules(aces="high")
BOTH = MeldRules(aces="low_or_high")


def test_C_2_penalty_points_of_unmelded_cards() -> None:
    # A=1, 7=7, T=10, J/Q/K=10: 1 + 7 + 10 + 10 + 10 + 10 = 48
    assert penalty("As 7d Tc Jh Qs Kd") == 48
    assert [LOW.penalty_of(c) for c in cards("As 2s 9s Ts Js Qs Ks")] == [1, 2, 9, 10, 10, 10, 10]


def test_C_3_aces_low_and_runs_never_wrap() -> None:
    assert is_meld("Ah 2h 3h")
    assert not is_meld("Qh Kh Ah")
    for rules in (LOW, HIGH, BOTH):
        assert not is_meld("Kh Ah 2h", rules)  # K-A-2 never
    assert "never" in (why_not("Kh Ah 2h", BOTH) or "")


def test_C_4_a_joker_is_always_wild() -> None:
    assert is_meld("7h Jk 9h")  # Jk plays 8h
    assert is_meld("Qs Qd Jk")
    m = Meld.of("7h Jk 9h")
    assert dict(m.wild_roles) == {Card.parse("Jk"): Card.parse("8h")}


def test_M_1_a_set_may_hold_identical_cards() -> None:
    assert is_meld("7h 7h 7s")
    assert is_meld("7h 7s 7d 7c 7c")  # several packs: more than four
    assert not is_meld("7h 7s")
    assert Meld.of("7h 7h 7s").kind == "set"


def test_M_2_a_run_never_holds_a_rank_twice() -> None:
    assert is_meld("7h 8h 9h Th")
    assert not is_meld("7h 8h 8h 9h")
    assert "twice" in (why_not("7h 8h 8h 9h") or "")
    assert not is_meld("7h 8h 9s")  # suits differ


def test_M_3_a_card_belongs_to_one_meld() -> None:
    # 7c 7d 7h 8h 9h: 7h can't serve the set and the run at once.
    # run 7h-8h-9h leaves 7c 7d = 14; set 7c-7d-7h leaves 8h 9h = 17 -> 14
    a = best_arrangement("7c 7d 7h 8h 9h")
    assert a.penalty == 14
    used = [c for m in a.melds for c in m.cards]
    assert sorted(used + list(a.deadwood)) == sorted(cards("7c 7d 7h 8h 9h"))


def test_M_4_several_wilds_and_wild_only_melds() -> None:
    threes = MeldRules(wild_rank=3)
    assert is_meld("3c 3d 9h", threes)  # two wilds in one meld
    assert is_meld("3c 3d 3s", threes)  # wilds only: allowed with min_naturals 0
    assert best_arrangement("3c 3d 3s", threes).penalty == 0
    strict = MeldRules(wild_rank=3, min_naturals=1)
    assert not is_meld("3c 3d Jk", strict)
    # tre_tretton: three wilds can't meld; they cost face value 3+3+3 = 9
    assert best_arrangement("3c 3d 3s", strict).penalty == 9


def test_M_4a_a_card_of_the_wild_rank_is_always_wild() -> None:
    strict = MeldRules(wild_rank=3, min_naturals=1)
    # 3c 3d 3s is not a meld in tre_tretton: all three are wild, none natural
    assert not is_meld("3c 3d 3s", strict)
    assert "natural" in (why_not("3c 3d 3s", strict) or "")
    # 3h in 2h 3h 4h still counts as a wild (2h and 4h are the naturals)
    m = Meld.of("2h 3h 4h", strict)
    assert m.kind == "run" and Card.parse("3h") in dict(m.wild_roles)


def test_M_5_wilds_take_whatever_places_the_naturals_leave() -> None:
    # Qh Kh + wild with aces low: the wild must be Jh (A above K is not allowed)
    m = Meld.of("Qh Kh Jk")
    assert m.kind == "run" and dict(m.wild_roles)[Card.parse("Jk")] == Card.parse("Jh")
    # a run is at most 13 cards: A..K of hearts plus a joker can't be one meld
    thirteen = " ".join(f"{r}h" for r in "A23456789TJQK")
    assert is_meld(thirteen)
    assert not is_meld(thirteen + " Jk")
    # ... but the joker still melds: A-2-Jk=3 then 3..K, or similar: penalty 0
    assert best_arrangement(thirteen + " Jk").penalty == 0


def test_M_7_the_lowest_penalty_is_computed() -> None:
    # 6h 7h 8h 9h 7c 7d: taking the set 7c 7d 7h first leaves 6h 8h 9h = 23;
    # the run 6h-9h leaves 7c 7d = 14: the solver must find 14
    assert penalty("6h 7h 8h 9h 7c 7d") == 14
    # Qh Kh 3s 5c 5d 5s: set of fives, deadwood 10 + 10 + 3 = 23
    a = best_arrangement("Qh Kh 3s 5c 5d 5s")
    assert a.penalty == 23 and [str(c) for c in a.melds[0].cards] == ["5c", "5d", "5s"]


def test_TS_1_aces_low_or_high() -> None:
    # Qh Kh Ah: 10 + 10 + 1 = 21 with aces low; a run (0) with aces high
    assert penalty("Qh Kh Ah", LOW) == 21
    assert penalty("Qh Kh Ah", HIGH) == 0
    both = find_variant("three_thirteen").meld_rules(round=1, aces="low_or_high")
    assert is_meld("Ah 2h 3d", both)  # 3d is wild in round 1: A-2-3
    assert is_meld("Qh Kh Ah", both)
    # an unmelded ace costs 15 when aces are low or high
    assert penalty("As 9c", both) == 15 + 9


def test_TS_2_TR_3_unmelded_wilds_cost_face_value() -> None:
    for name in ("three_thirteen", "tre_tretton"):
        rules = find_variant(name).meld_rules(round=5)  # sevens wild
        # 7c alone: face value 7; Kd: 10 -> 17
        assert penalty("7c Kd", rules) == 17


def test_TR_2_tre_tretton_needs_a_natural_card() -> None:
    rules = find_variant("tre_tretton").meld_rules(round=1)  # threes wild
    assert not is_meld("3c 3d 3h", rules)
    assert is_meld("3c 3d 9h", rules)


def test_TJ_4_aces_high_in_the_jokers_variant() -> None:
    rules = find_variant("three_thirteen_jokers").meld_rules(round=2, aces="high")
    assert is_meld("Qh Kh Ah", rules)
    assert not is_meld("Ah 2h 3h", rules)
    assert rules.penalty_of(Card.parse("Ac")) == 15
    with pytest.raises(ValueError, match="aces"):
        find_variant("three_thirteen_jokers").meld_rules(round=2, aces="low_or_high")


def test_TJ_5_unmelded_wild_15_and_joker_20() -> None:
    rules = find_variant("three_thirteen_jokers").meld_rules(round=1, jokers=2)  # threes wild
    # 3c unmelded: 15; Jk unmelded: 20.  Hand 3c Jk 9s Kd: the two wilds make
    # a set with Kd (leaving 9s = 9) or with 9s (leaving Kd = 10): 9
    assert penalty("3c Jk 9s Kd", rules) == 9
    # alone they can't meld (two cards): 15 + 20 = 35
    assert penalty("3c Jk", rules) == 35
    assert penalty("3c", rules) == 15 and penalty("Jk", rules) == 20


def test_TJ_6_a_meld_of_wilds_only_is_allowed() -> None:
    rules = find_variant("three_thirteen_jokers").meld_rules(round=1, jokers=4)
    assert is_meld("3c Jk Jk", rules)
    assert best_arrangement("3c 3d Jk Kd", rules).penalty == 0  # 3c 3d Jk Kd: Kd + 3 wilds


def test_why_not_speaks_plainly() -> None:
    assert why_not("8h Th Jh") == "not a run: 9h is missing; a wild or 9h would complete it"
    assert why_not("7h 8c") == "a meld needs at least 3 cards; this is 2 cards"
    assert "ranks differ" in (why_not("7h 8c 9h") or "")
    assert "aces are low" in (why_not("Qh Kh Ah") or "")
    assert why_not("7h 7h 7s") is None


def test_each_meld_knows_what_its_wilds_stand_for() -> None:
    rules = MeldRules(wild_rank=2)
    a = best_arrangement("5s 7s 2d Kc Kh 2c", rules)
    # 5s 2=6s 7s and Kc Kh 2=K: all melded
    assert a.penalty == 0
    roles = {str(r) for m in a.melds for _, r in m.wild_roles}
    assert "6s" in roles and any(r.startswith("K") for r in roles)
    assert "=6s" in str(a)


def test_best_discard_is_exact_and_documents_ties() -> None:
    d = best_discard("7h 8h 9h Kc")
    assert str(d.card) == "Kc" and d.penalty == 0
    # 5c 5d 5h 5s 9d: throwing any five keeps a set of three; throwing 9d keeps four.
    # both leave 0 -> the natural worth more points (9d) goes first
    d = best_discard("5c 5d 5h 5s 9d")
    assert d.penalty == 0 and str(d.card) == "9d"
    # Ks Kd Qs Qd 2c: no meld possible; throw a 10-point card and keep
    # 10 + 10 + 10 + 2 = 32; ties by suit then rank: Qd comes before Kd, Qs, Ks
    d = best_discard("Ks Kd Qs Qd 2c")
    assert d.penalty == 32 and str(d.card) == "Qd"


def test_order_of_cards_does_not_matter_for_known_hand() -> None:
    a = best_arrangement("Qh Kh 3s 5c 5d 5s")
    b = best_arrangement("5s 3s Kh 5d Qh 5c")
    assert a == b


@pytest.mark.parametrize("kwargs,word", [
    ({"aces": "sideways"}, "aces"),
    ({"wild_rank": 14}, "wild_rank"),
    ({"min_naturals": 2}, "min_naturals"),
    ({"wild_penalty": -1}, "wild_penalty"),
    ({"max_set_size": 2}, "max_set_size"),
])
def test_bad_meld_rules_say_what_is_allowed(kwargs: dict, word: str) -> None:
    with pytest.raises(MeldError, match=word):
        MeldRules(**kwargs)


def test_bad_hands_raise_clear_errors() -> None:
    with pytest.raises(MeldError, match="at most 16"):
        best_arrangement(["7h"] * 17)
    with pytest.raises(MeldError, match="8 times"):
        best_arrangement(["7h"] * 9)
    with pytest.raises(ValueError, match="'1x'"):
        best_arrangement("7h 1x")
    with pytest.raises(MeldError, match="MeldRules"):
        best_arrangement("7h", rules="low")  # type: ignore[arg-type]
    with pytest.raises(MeldError, match="not a meld"):
        Meld.of("7h 9c Kd")
    with pytest.raises(MeldError, match="joker"):
        best_arrangement("7h Jk", MeldRules(jokers_wild=False))
    with pytest.raises(MeldError, match="at least one card"):
        best_discard("")


def test_zero_and_sixteen_card_hands() -> None:
    assert best_arrangement("").penalty == 0
    hand = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ac Ad As"
    assert best_arrangement(hand).penalty == 0  # A-K run with Ah? no: Ah in the aces set


def test_a_variant_gives_one_rules_value_per_rule_set() -> None:
    # Variant.meld_rules hands out the first value it made for equal rules
    # (the search finds it at once among its kept tables), and a new one for
    # other rules; each equals the MeldRules written out by hand
    tt, jk = find_variant("three_thirteen"), find_variant("three_thirteen_jokers")
    for r in range(1, 12):
        rules = tt.meld_rules(round=r)
        assert rules == MeldRules(wild_rank=r + 2, jokers_wild=True)
        assert tt.meld_rules(round=r) is rules
        assert new_game("three_thirteen", players=2, seed=r)._rules is tt.meld_rules(round=1)
    both = tt.meld_rules(round=1, aces="low_or_high")
    assert both is not tt.meld_rules(round=1) and both is tt.meld_rules(1, aces="low_or_high")
    assert both == MeldRules(wild_rank=3, aces="low_or_high")
    high = jk.meld_rules(round=2, aces="high")
    assert high is jk.meld_rules(2, aces="high") and high.wild_penalty == 15
