"""The checker reads answers by meaning: units, decimal commas, number words,
yes/no in sentences, answers in parts, ordinal choices, every spelling of a
card and plural ranks; the teacher's and the student's (sealed) copy of every
quiz agree.  The examples are those a reviewer typed into the lessons."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rummy.teach import AnyOf, Question, Sealed, as_yes_no, same_answer, seal, unit_of
from widgets.quiz import question_from, unit_from

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import student_copy  # noqa: E402

QUIZ_FILES = sorted((ROOT / "notebooks" / "quizzes").glob("*.json"))


def entries() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in QUIZ_FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for part in ("quizzes", "exercises"):
            out += [(f"{path.stem}-{part[0]}{n}", e) for n, e in enumerate(data.get(part, []), 1)]
    return out


ENTRIES = dict(entries())


def both(key: str) -> list[Question]:
    """The teacher's question and the student copy's (its answer sealed)."""
    entry = ENTRIES[key]
    return [question_from(entry), question_from(student_copy.sealed_entry(entry))]


#: (quiz, answer as typed, right?) - the reviewer's examples, each in both copies
EXAMPLES = [
    # decimal commas, leading-dot decimals, fractions and numbers in words
    ("06_meld_odds-q1", "12,5%", True), ("06_meld_odds-q1", ".125", True),
    ("06_meld_odds-q1", "one eighth", True), ("06_meld_odds-q1", "0,125", True),
    ("06_meld_odds-q1", "12,6%", False),
    ("03_three_thirteen_jokers-q2", "a hundred and eight", True),
    ("03_three_thirteen_jokers-q2", "one hundred eight cards", True),
    ("04_big_table-q1", "two hundred and eight", True),
    # yes and no inside short sentences
    ("07_bots_and_strategy-q3", "No, it is not", True), ("07_bots_and_strategy-q3", "nope", True),
    ("07_bots_and_strategy-q3", "yes", False), ("07_bots_and_strategy-q3", "maybe not", False),
    ("02_tre_tretton-e1", "yup", True), ("02_tre_tretton-e1", "Yes, it is.", True),
    ("02_tre_tretton-e1", "no it isn't", False),
    # answers in two parts, in any order, with words between
    ("05_gin_three-e1", "defender gets 10", True), ("05_gin_three-e1", "10, defender", True),
    ("05_gin_three-e1", "10 points to the defender", True),
    ("05_gin_three-e1", "knocker gets 10", False), ("05_gin_three-e1", "defender gets 11", False),
    ("01_three_thirteen-e3", "11 and jacks", True), ("01_three_thirteen-e3", "jacks, 11", True),
    ("01_three_thirteen-e3", "11 cards and jacks are wild", True),
    ("01_three_thirteen-e3", "11 and queens", False), ("01_three_thirteen-e3", "12 and jacks", False),
    # either pile is right for "what must you do first?"
    ("01_three_thirteen-q7", "draw from the discard pile", True),
    ("01_three_thirteen-q7", "discard", False), ("01_three_thirteen-q7", "not draw", False),
    # ordinal choices
    ("02_tre_tretton-q4", "the first one", True), ("02_tre_tretton-q4", "the second", False),
    ("03_three_thirteen_jokers-q6", "the second", True),
    ("03_three_thirteen_jokers-q6", "the first one", False),
    ("03_three_thirteen_jokers-q7", "the first", True),
    ("03_three_thirteen_jokers-q7", "go out or wait", False),
    ("03_three_thirteen_jokers-q1", "left, not right", False),
    # every spelling of a card
    ("03_three_thirteen_jokers-q6", "QKA", True), ("03_three_thirteen_jokers-q6", "A23", False),
    ("05_gin_three-q5", "Q of ♥", True), ("05_gin_three-q5", "♥Q", True),
    ("05_gin_three-q5", "hearts queen", True), ("00_start_here-q3", "♣K", True),
    ("00_start_here-q3", "♠K", False),
    # plural ranks
    ("01_three_thirteen-q5", "Qs", True), ("01_three_thirteen-q5", "Q's", True),
    ("01_three_thirteen-q5", "queens are wild", True), ("01_three_thirteen-q5", "kings", False),
    # units: a bare number in the question's unit, another unit is wrong
    ("01_three_thirteen-q8", "10 cards", False), ("01_three_thirteen-q8", "10 points", True),
    ("01_three_thirteen-q8", "10", True),
    ("01_three_thirteen-q1", "9 points", False), ("01_three_thirteen-q1", "9 packs", False),
    ("01_three_thirteen-q1", "9 cards", True),
    ("01_three_thirteen-q11", "2 players", False), ("01_three_thirteen-q11", "two decks", True),
    ("00_start_here-e1", "19 cards", False), ("00_start_here-e1", "19 points", True),
    ("04_big_table-q5", "one more draw and discard", True), ("04_big_table-q5", "1 more cycle", True),
    ("04_big_table-q5", "1 point", False),
    ("05_gin_three-q10", "8 more points", True), ("05_gin_three-q10", "8 cards", False),
    ("06_meld_odds-q1", "12.5 points", False),
    # "none" for "who wins?" in both copies alike
    ("01_three_thirteen-q10", "none", True), ("01_three_thirteen-q10", "0", False),
]


@pytest.mark.parametrize("key,given,right", EXAMPLES, ids=[f"{k}:{g}" for k, g, _r in EXAMPLES])
def test_the_reviewers_examples_get_the_right_verdict_in_both_copies(key: str, given: str,
                                                                     right: bool) -> None:
    teacher, student = both(key)
    assert teacher.check(given)[0] is right, (given, teacher.check(given))
    assert student.check(given)[0] is right, (given, student.check(given))


def _unit_words(unit: str) -> str:
    return {"points": "points", "cards": "cards", "packs": "packs", "players": "players",
            "cycles": "cycles", "seconds": "seconds", "chance": "percent"}[unit]


def _wrong_unit(unit: str) -> str:
    return "packs" if unit in ("points", "cards") else "points"


NUMBER_KEYS = [k for k, e in ENTRIES.items()
               if e["answer"].split(" | ")[0].replace("/", "").isdigit()]


@pytest.mark.parametrize("key", list(ENTRIES))
def test_every_quiz_and_exercise_in_three_spellings_in_both_copies(key: str) -> None:
    entry = ENTRIES[key]
    spellings = [entry["answer"].split(" | ")[0], *entry["right"]]
    assert len(spellings) >= 3
    for q in both(key):
        for s in spellings:
            assert q.check(s)[0], (key, s)


@pytest.mark.parametrize("key", NUMBER_KEYS)
def test_every_number_answer_is_wrong_by_a_unit_and_right_in_its_own(key: str) -> None:
    entry = ENTRIES[key]
    unit = unit_from(entry)
    assert unit, f"{key}: the question says what the number counts"
    answer = entry["answer"].split(" | ")[0]
    if unit == "chance":
        top, bottom = answer.split("/")
        right, wrong = f"{100 * int(top) / int(bottom):.4g}%", f"{answer} points"
    else:
        right, wrong = f"{answer} {_unit_words(unit)}", f"{answer} {_wrong_unit(unit)}"
    for q in both(key):
        assert q.check(right)[0], (key, right)
        verdict = q.check(wrong)
        assert not verdict[0], (key, wrong)
        assert "The question asks for" in verdict[1]


def test_units_read_from_the_question() -> None:
    assert unit_of("How many penalty points does the deadwood Q♠ 5♦ A♣ cost?") == "points"
    assert unit_of("How many packs do 4 players use (TT-11)?") == "packs"
    assert unit_of("At most how many players can play tre-tretton (TR-1)?") == "players"
    assert unit_of("how many more draw/discard cycles does the caller call") == "cycles"
    assert unit_of("What is the chance that your next draw is an out?") == "chance"
    # a seal keeps the unit, so the student copy reads "10 cards" as the teacher's does
    sealed = Sealed.of(seal(10, salt="s", unit="points"))
    assert same_answer(sealed, "10 points") and not same_answer(sealed, "10 cards")


def test_yes_no_in_short_sentences_and_never_for_a_word() -> None:
    assert as_yes_no("No, it is not") is False and as_yes_no("yup") is True
    assert as_yes_no("it can't") is False and as_yes_no("it is") is True
    assert as_yes_no("yes and no") is None and as_yes_no("maybe not") is None
    assert not same_answer(AnyOf("right neighbour", "right"), "yup")


def test_plural_ranks_for_a_rank_and_a_card_for_a_card() -> None:
    sevens = AnyOf("sevens", "seven", "7")
    for given in ("7s", "7's", "sevens", "Sevens.", "7"):
        assert same_answer(sevens, given), given
        assert same_answer(Sealed.of(seal(sevens)), given), given
    assert not same_answer(sevens, "8s")
    assert same_answer("7s", "seven of spades") and not same_answer("7s", "sevens")


def test_an_unreadable_answer_is_not_counted_and_says_how_to_answer() -> None:
    q = Question("How many cards in round 7 (TT-1)?", 9, hint="Round 1 deals 3 (TT-1).")
    assert not q.readable("zz") and "can't read 'zz' as a number" in q.check("zz")[1]
    assert q.readable("8") and q.readable("8 points")
    assert not Question("Which card?", "Kc").readable("zz")
