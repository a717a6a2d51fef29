"""rummy.teach (answers compared by meaning) and widgets.Quiz."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rummy
from rummy.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, Card
from rummy.teach import AnyOf, Question, TeachError, as_card, same_answer, show_answer

RANK_WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king"]
cards_st = st.builds(Card, st.integers(1, 13), st.sampled_from("cdhs"))


def spellings(card: Card) -> list[str]:
    """Every notation of a card, written out here independently of rummy.teach."""
    rank_char = RANKS[card.rank]
    rank_number = "10" if card.rank == 10 else rank_char
    suit_name = SUIT_NAMES[card.suit]
    return [f"{rank_char}{card.suit}", f"{rank_char}{card.suit.upper()}", f"{rank_number}{card.suit}",
            f"{rank_char}{SUIT_SYMBOLS[card.suit]}", f"{RANK_WORDS[card.rank - 1]} of {suit_name}",
            f"{RANK_WORDS[card.rank - 1].title()} of {suit_name.title()}",
            f"{card.rank if card.rank <= 10 else rank_char} of {suit_name}", f"the {rank_char}{card.suit}."]


def test_exported_from_the_top_level() -> None:
    assert rummy.teach.same_answer is same_answer


@given(cards_st, st.data())
def test_any_notation_of_a_card_is_the_same_answer(card: Card, data: st.DataObject) -> None:
    expected = data.draw(st.sampled_from(spellings(card) + [card]))
    given_ = data.draw(st.sampled_from(spellings(card)))
    assert same_answer(expected, given_)


@given(cards_st, cards_st)
def test_different_cards_are_different_answers(a: Card, b: Card) -> None:
    if a != b:
        assert not any(same_answer(a, s) for s in spellings(b))


def test_cards_fractions_decimals_and_words_are_compared_by_meaning() -> None:
    for text in ("8h", "8♥", "eight of hearts", "8 of hearts", "8♥\ufe0f", "EIGHT OF HEARTS"):
        assert same_answer("8h", text), text
    assert same_answer("1/425", "52/22100")
    assert same_answer(Fraction(1, 425), "0.00235")   # 1/425 = 0.0023529..., shown to 5 places
    assert same_answer("1/425", "0.235%")
    assert not same_answer("1/425", "0.00236")         # 0.0023529 rounds to 0.00235, not 0.00236
    assert not same_answer("1/425", "0.002")           # one significant digit: too coarse
    assert not same_answer("1/425", "0")
    assert same_answer("yes", "YES") and same_answer(False, "No") and not same_answer(True, "no")
    assert same_answer("captain", "The Captain") and not same_answer("captain", "box")


@given(st.integers(1, 10_000), st.integers(1, 10_000), st.integers(1, 50))
def test_equal_fractions_are_the_same_answer(p: int, q: int, scale: int) -> None:
    assert same_answer(f"{p}/{q}", f"{p * scale}/{q * scale}")
    assert same_answer(Fraction(p, q), f"{p * scale} / {q * scale}")
    assert not same_answer(Fraction(p, q), f"{p + 1}/{q}")


@given(st.fractions(min_value=Fraction(1, 10**6), max_value=1), st.integers(3, 9))
def test_a_decimal_rounded_from_the_value_is_right(value: Fraction, places: int) -> None:
    shown = f"{float(value):.{places}f}"
    significant = len(shown.replace(".", "").lstrip("0"))
    if significant >= 2:
        assert same_answer(value, shown)
    # one more unit in the last place is outside the rounding (unless the value sits near it)
    step = Fraction(1, 10**places)
    wrong = Fraction(shown) + 2 * step
    assert not same_answer(value, f"{float(wrong):.{places}f}")


def test_cards_in_any_order_and_notation() -> None:
    assert same_answer("7h 8h 9h", "9♥, 8♥ and seven of hearts")
    assert not same_answer("7h 8h 9h", "7h 8h")
    assert not same_answer("7h 7h 9h", "7h 9h 9h")  # multisets: two packs can repeat a card


def test_any_of() -> None:
    assert same_answer(AnyOf("Kd", "Qs"), "king of diamonds")
    assert not same_answer(AnyOf("Kd", "Qs"), "Qd")
    assert show_answer(AnyOf("Kd", "Qs")) == "K♦ or Q♠"


def test_unreadable_expected_answer_is_refused() -> None:
    with pytest.raises(TeachError, match="not an answer a quiz can check"):
        Question("?", object())
    with pytest.raises(TeachError, match="can't be empty"):
        Question("?", "  ")


def test_question_hints_depend_on_the_wrong_answer() -> None:
    # 2 outs in 40 unseen, 5 draws: 1 - C(38,5)/C(40,5) = 1 - (35*34)/(40*39) = 1 - 1190/1560 = 37/156
    q = Question("Chance of an out within 5 draws?", "37/156",
                 hints={"1/20": "That is the chance for one draw, not five.",
                        "1/8": "You added 5 × 1/20, but the draws overlap."}, hint="Count the misses.")
    assert q.check("74/312") == (True, "Right: 37/156.")
    assert q.check("0.237")[0]
    assert q.check("2/40") == (False, "Not yet. That is the chance for one draw, not five.")
    assert q.check("0.125") == (False, "Not yet. You added 5 × 1/20, but the draws overlap.")
    assert q.check("1/3") == (False, "Not yet. Hint: Count the misses.")
    assert "can't read 'lots' as a number" in q.check("lots")[1]
    assert q.check("   ") == (False, "Write your answer first.")


def test_question_with_a_hint_function_and_choices() -> None:
    q = Question("Who deals?", "box", hints=lambda t: "The advisor sits out." if "advis" in t else None,
                 choices=("box", "captain", "advisor"))
    assert q.check("Box")[0]
    assert q.check("advisor") == (False, "Not yet. The advisor sits out.")
    assert q.check("dealer") == (False, "Not yet. Choose one of: box, captain, advisor.")
    assert q.check("captain") == (False, "Not yet. Try again.")


def test_as_card_rejects_non_cards() -> None:
    assert as_card("box") is None and as_card("14 of hearts") is None and as_card("8x") is None


# --- the widget ------------------------------------------------------------------------------

def test_quiz_widget_answers_and_shows_feedback() -> None:
    import widgets

    q = widgets.Quiz("Which card do you throw?", "Kd", hints={"Qs": "The queen is in your set."})
    assert not q.answer("queen of spades")
    assert q.feedback == "Not yet. The queen is in your set."
    assert "rummy-quiz-wrong" in q.feedback_view.value
    q.input.value = "K♦"
    q.check_button.click()
    assert q.solved and q.feedback == "Right: K♦."
    assert "rummy-quiz-right" in q.feedback_view.value and q.tries == 2


def test_quiz_widget_escapes_and_never_shows_a_traceback() -> None:
    import widgets

    q = widgets.Quiz("<b>x</b>?", 3)
    assert "&lt;b&gt;x&lt;/b&gt;" in q.text.value
    assert not q.answer("<script>")
    assert "<script>" not in q.feedback_view.value


def test_quiz_choice_buttons() -> None:
    import widgets

    q = widgets.Quiz("Which pile?", "discard pile", choices=["stock", "discard pile"])
    q.choice_buttons[0].click()
    assert not q.solved and q.input.value == "stock"
    q.choice_buttons[1].click()
    assert q.solved


# --- right answers as learners write them are taken, wrong ones and near misses refused ---------

from rummy.teach import Sealed, Verdict, check, seal  # noqa: E402

NOBODY = AnyOf("nobody", "no one", "none", "no winner", "tie", "a tie")
RIGHT_NEIGHBOUR = AnyOf("right neighbour", "right neighbour's pile", "right")
MATCH = AnyOf("match", "call match")
LEFT = AnyOf("left", "player on my left", "left neighbour")
BOX = AnyOf("box", "box player")

#: (expected, a right answer written as learners write it: with a unit, without accents,
#: in other words, cards and numbers spelled out, fractions unreduced)
RIGHT_AS_WRITTEN = [
    (10, "10 points"), (9, "9 cards"), (2, "2 packs"), ("Björn", "bjorn"), ("Björn", "BJORN"),
    (RIGHT_NEIGHBOUR, "right neighbor"), (RIGHT_NEIGHBOUR, "my right neighbour"),
    (MATCH, "call match"), (MATCH, "Match!"), (NOBODY, "no-one"), (NOBODY, "no winner"),
    (NOBODY, "it's a tie"), ("5s 6s", "5 and 6 of spades"), ("5s 6s", "five and six of spades"),
    ("9c", "9 clubs"), ("Kc", "K clubs"), ("Qh", "Q hearts"), ("Qh Kh Ah", "Q-K-A"),
    ("Qh Kh Ah", "Q♥-K♥-A♥"), (BOX, "the box player"), (LEFT, "the player on my left"),
    # exercises: cards, numbers in words, fractions and decimals
    ("8h", "8♥"), ("8h", "eight of hearts"), (19, "nineteen"), (4, "four"),
    ("1/425", "52/22100"), ("1/425", "0.00235"), ("17/45", "34/90"), (108, "one hundred and eight"),
    (0, "nothing"), (0, "zero"), ("1/4", "25%"), ("1/4", "0.25"), ("1/4", "1 in 4"),
]

#: (expected, a wrong answer that looks like a right one: a yes for a name, a number
#: for "nobody", a near miss)
WRONG_OR_NEAR_MISS = [
    (RIGHT_NEIGHBOUR, "yes"), (RIGHT_NEIGHBOUR, "y"), (RIGHT_NEIGHBOUR, "true"),
    (NOBODY, "0"), (NOBODY, "zero"), (NOBODY, "nothing"), (AnyOf("Ben"), "0"),
    ("9c", "9 spades"), ("Qh Kh Ah", "A-2-3"), ("Qh Kh Ah", "Q-K"), ("5s 6s", "5 and 6 of hearts"),
    ("5s 6s", "five of spades"), ("8h", "8"), (19, "eighteen"), (4, "4.5"), ("1/425", "0.00236"),
    ("1/425", "0.002"), ("17/45", "17/46"), (10, "10 jacks and a queen"), (True, "right"),
    ("Qh", "Q"), ("Björn", "Bjarne"), (MATCH, "no match"),
]


@pytest.mark.parametrize("expected,given", RIGHT_AS_WRITTEN, ids=[g for _e, g in RIGHT_AS_WRITTEN])
def test_right_answers_as_learners_write_them_are_taken(expected: object, given: str) -> None:
    assert same_answer(expected, given)
    assert check(expected, given).right
    # and a sealed copy of the answer takes them too
    assert same_answer(Sealed.of(seal(expected)), given)


@pytest.mark.parametrize("expected,given", WRONG_OR_NEAR_MISS, ids=[g for _e, g in WRONG_OR_NEAR_MISS])
def test_wrong_answers_and_near_misses_are_refused(expected: object, given: str) -> None:
    assert not same_answer(expected, given)
    assert not check(expected, given).right
    assert not same_answer(Sealed.of(seal(expected)), given)


def test_yes_no_words_only_for_a_yes_no_question() -> None:
    from rummy.teach import kind_of

    assert kind_of("right") == "choice" and kind_of("correct") == "choice"
    assert kind_of("yes") == kind_of(False) == "yes/no"
    assert same_answer("yes", "y") and same_answer("no", "nope") and not same_answer("yes", "right")


def test_a_person_is_never_a_number() -> None:
    v = check(AnyOf("nobody", "no one"), "0", hint="Equal lowest totals: no winner (TT-9).")
    assert v == Verdict(False, "Not yet. This question asks for a name or a word, not a number. "
                               "Hint: Equal lowest totals: no winner (TT-9).")


def test_the_rounding_the_question_states() -> None:
    # 1/425 = 0.0023529...: with digits=3 a two-digit decimal is too coarse
    assert same_answer("1/425", "0.0024") and not same_answer("1/425", "0.0024", digits=3)
    assert same_answer("1/425", "0.00235", digits=3) and same_answer("1/425", "0.235%", digits=3)
    sealed = Sealed.of(seal("1/425", digits=3))
    assert same_answer(sealed, "0.00235") and not same_answer(sealed, "0.0024")


def test_off_by_one_gets_its_own_hint() -> None:
    q = Question("How many cards in round 7 (TT-1)?", 9, hint="Round 1 deals 3 cards (TT-1).")
    assert q.check("10") == (False, "Not yet. You are one off: count once more. "
                                    "Hint: Round 1 deals 3 cards (TT-1).")
    assert q.check("12") == (False, "Not yet. Hint: Round 1 deals 3 cards (TT-1).")


def test_a_seal_holds_no_answer_in_any_form() -> None:
    import json

    for expected, words in [("1/425", ("1/425", "0.0023")), ("Björn", ("Björn", "bjorn")),
                            ("5s 6s", ("5s", "6s")), (AnyOf("nobody", "no one"), ("nobody",))]:
        text = json.dumps(seal(expected, salt="s")).lower()
        assert not any(w.lower() in text for w in words), expected
    # the salt makes equal answers of different questions look different
    assert seal(7, salt="a")["hashes"] != seal(7, salt="b")["hashes"]
    assert same_answer(Sealed.of(seal(True)), "yes") and not same_answer(Sealed.of(seal(True)), "no")
    assert Question("?", Sealed.of(seal("Kd"))).check("K♦") == (True, "Right!")
