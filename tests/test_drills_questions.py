"""The drills as questions: true feedback with the numbers, questions that say
what counts as right, each drill testing its own rule, first hints that don't
tell, no slips, and play judged apart from the rules (``Drill.judges`` and
``Feedback.judged``).  The figures by hand are the reviewer's independent
brute force (TT-5 seed 1: the stock leaves 51.4 on average, the 9♠ 54)."""

from __future__ import annotations

import re

import pytest

from rummy import practice
from rummy.rulebook import rules_in


def test_tt5_seed_1_says_the_numbers_and_makes_no_false_claim() -> None:
    d = practice.drill("TT-5", 1)
    assert [str(c) for c in d.rows[1].cards] == ["9s"]
    assert d.judges == "play" and "within 1 point" in d.question
    stock, pile = d.check("stock"), d.check("discard pile")
    for f in (stock, pile):
        assert "completes a meld" not in f.text and f.judged == "play"
        assert "51.4" in f.text and "54" in f.text, f.text
    assert stock.right and not pile.right and "better by 2.6" in pile.text
    assert pile.text.startswith("Legal, but not the best play")


@pytest.mark.parametrize("given", ["pile", "take it", "the pile", "draw from the discard pile"])
def test_tt5_takes_the_pile_in_a_learners_words(given: str) -> None:
    d = practice.drill("TT-5", 1)
    assert not d.check(given).right and d.check(given).counted  # read as the pile: weaker play
    assert d.check("draw from the stock").right


def test_g4_asks_who_may_take_the_upcard_and_claims_no_meld() -> None:
    seed15 = practice.drill("G-4", 15)  # the reviewer's seed: 9♦ helped nothing, said "completes"
    assert all("completes a meld" not in seed15.check(c).text for c in seed15.choices)
    for seed in range(24):
        d = practice.drill("G-4", seed)
        assert d.rule == "G-4" and "upcard" in d.question.lower()
        for name in d.choices:
            assert "completes a meld" not in d.check(name).text
    asked = {practice.drill("G-4", s).question for s in range(8)}
    assert any("Who may take it" in q for q in asked) and any("Who plays first" in q for q in asked)


def test_g5_any_legal_discard_within_the_margin_is_right_and_the_taken_card_breaks_the_rule() -> None:
    d = practice.drill("G-5", 1)
    assert d.judges == "play" and "within 2 points" in d.question
    vals = d.values()
    best = min(v for v, _ in vals.values())
    assert len(vals) == 10  # eleven cards less the one just taken
    for card, (v, _w) in vals.items():
        f = d.check(card)
        assert f.right is (v - best <= 2) and f.judged == "play", (card, f)
    taken = next(iter(d.illegal))
    f = d.check(taken)
    assert not f.right and f.judged == "rule" and "can't go straight back" in f.text


def test_g6_asks_whether_a_knock_is_allowed() -> None:
    answers = set()
    for seed in range(12):
        d = practice.drill("G-6", seed)
        assert "May you knock" in d.question and d.answer_kind == "yes/no"
        answers.add(d.expected())
    assert answers == {True, False}


def test_bt3_own_pile_breaks_the_rule_and_pool_or_pile_is_play() -> None:
    d = practice.drill("BT-3", 1)
    assert d.check("own pile").judged == "rule" and not d.check("own pile").right
    assert d.check("my own pile").judged == "rule"
    assert {d.check("pool").judged, d.check("right").judged} == {"play"}
    assert d.check("right").right and d.check("right pile").right  # the A♠: 16 against 21.6


@pytest.mark.parametrize("seed", [3, 5, 6])
def test_bt5_seeds_read_well_and_take_the_questions_own_words(seed: int) -> None:
    d = practice.drill("BT-5", seed)
    assert not re.search(r"\w: every hand|Ana, Ben, Cleo, Dev:", d.question), d.question
    assert d.hints()[2] in ("The answer: one more cycle.", "The answer: scored now.")
    if d.an_answer() == "one more cycle":
        assert d.check("one more draw and discard").right
    else:
        assert d.check("the hand is scored now").right


def test_tt5_also_asks_what_a_turn_is() -> None:
    rule_drills = [practice.drill("TT-5", s) for s in range(12) if practice.drill("TT-5", s).judges == "rule"]
    assert rule_drills and all("May you discard" in d.question for d in rule_drills)
    assert {d.expected() for d in rule_drills} == {True, False}


def test_tj1_asks_its_own_question_and_cites_its_own_rule() -> None:
    for seed in range(6):
        d = practice.drill("TJ-1", seed)
        assert "sits" in d.question and "Who plays first" not in d.question
        assert "TT-3" not in d.why and rules_in(d.check(d.an_answer()).text) == ["TJ-1"]


@pytest.mark.parametrize("rule,seeds", [("TT-3", range(10)), ("TJ-1", range(10))])
def test_seat_hints_dont_name_the_seat_to_look_at(rule: str, seeds: range) -> None:
    for seed in seeds:
        first = practice.drill(rule, seed).hints()[0]
        assert "'s left?" not in first and "you's" not in first


def test_first_hints_that_told_or_misled_are_gone() -> None:
    assert all("play for points" not in practice.drill("G-10", s).hints()[0] for s in range(6))
    for seed in range(40):  # M-4a's hint named the cards' rank, wrong for a run (4♣ 5♣ 6♣)
        assert not re.match(r"The cards are \w+", practice.drill("M-4a", seed).hints()[0])


def test_a_wrong_answer_says_why_not_the_second_hint_again() -> None:
    for rule in ("TT-1", "C-2", "TT-6", "G-2", "M-1"):
        d = practice.drill(rule, 2)
        wrong = next(x for x in ("1", "2c", "Ben", "no", "yes", "Ana", "0") if d.check(x).counted
                     and not d.check(x).right)
        f = d.check(wrong)
        assert d.hints()[1] not in f.text and not f.text.endswith(f"{d.hints()[1]}")
        assert "Look again:" not in f.text


def test_an_unreadable_drill_answer_is_not_counted() -> None:
    for rule in ("TT-1", "TT-6", "M-1", "TT-3", "TT-5"):
        f = practice.drill(rule, 1).check("zz")
        assert not f.counted and not f.right and f.text.startswith("Answer with")


def test_every_drill_says_what_it_judges() -> None:
    plays = {r for r in practice.generators() for s in range(5)
             if practice.drill(r, s).judges == "play"}
    assert plays == {"TT-5", "BT-3", "G-4", "G-5"}


def _brute_values(d: practice.Drill) -> dict[str, float]:
    """A play drill's figures recomputed by the independent brute force of tests/brute.py."""
    from collections import Counter

    from rummy.cards import deck
    from tests.brute import brute_min_after_discard, brute_min_penalty, brute_rules

    m = re.search(r"(?:Round|Hand) (\d+)", " ".join(d.facts))
    rules = brute_rules(d.variant, int(m.group(1)) if m else 1)
    hand = list(d.rows[0].cards)
    if d.rule == "G-5":
        return {str(c): float(brute_min_penalty([x for x in hand if x != c], **rules))
                for c in hand if str(c) not in d.illegal}
    top = d.rows[1].cards[0]
    seen = hand + [top] + (list(d.rows[2].cards) if len(d.rows) > 2 else [])
    unseen = Counter(deck({"TT-5": getattr(d.game, "packs", 1), "G-4": 1}.get(d.rule, 4)))
    unseen.subtract(seen)
    cards = list(unseen.elements())
    stock = sum(brute_min_after_discard(hand + [c], **rules) for c in cards) / len(cards)
    with_top = hand + [top]
    keep = range(len(with_top)) if d.rule == "BT-3" else range(len(hand))  # BT-3 may throw it back
    taken = min(brute_min_penalty(with_top[:i] + with_top[i + 1:], **rules) for i in keep)
    first, second = {"TT-5": ("stock", "discard pile"), "G-4": ("pass", "take upcard")}.get(
        d.rule, ("pool", "right pile"))
    return {first: stock, second: float(taken)}


@pytest.mark.parametrize("rule", ["TT-5", "BT-3", "G-4", "G-5"])
def test_the_figures_play_feedback_gives_agree_with_the_brute_force(rule: str) -> None:
    checked = 0
    for seed in range(20):
        d = practice.drill(rule, seed)
        if d.judges != "play":
            continue
        want = _brute_values(d)
        got = {k: v for k, (v, _w) in d.values().items()}
        assert got.keys() == want.keys()
        for k in want:
            assert abs(got[k] - want[k]) < 1e-9, (rule, seed, k, got[k], want[k])
        checked += 1
    assert checked >= 4
