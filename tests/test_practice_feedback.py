"""Feedback that teaches, in the practice and quiz views: a right answer stays
shown, an answer that can't be read is not counted (nor kept in the record)
and says how to answer, a wrong one says why it is wrong."""

from __future__ import annotations

import pytest

from rummy import progress

pytestmark = pytest.mark.usefixtures("own_data")


def test_check_after_tapping_a_right_choice_keeps_right_shown() -> None:
    from widgets.practice import Practice

    p = Practice("TT-5", seed=1)  # the stock is right (51.4 on average against 54)
    button = next(b for b in p.choices.children if b.description == "stock")
    button.click()
    assert p.feedback.startswith("Right") and p.typed.value == "stock"
    p.check_button.click()
    assert p.feedback.startswith("Right"), p.feedback
    assert "Answer with" not in p.feedback


def test_nonsense_is_not_a_try_and_is_not_recorded() -> None:
    from widgets.practice import Practice

    progress.use_learner("Eve")
    p = Practice("TT-1", seed=3)
    assert not p.answer("zz")
    assert p.tries == 0 and "Answer with a number" in p.feedback
    assert progress.default_record().events("Eve") == []
    p.answer(p.drill.expected())
    got = [(e.rule, e.right, e.first) for e in progress.default_record().events("Eve")]
    assert got == [("TT-1", True, True)]


def test_a_wrong_drill_answer_says_why_and_not_the_second_hint() -> None:
    from widgets.practice import Practice

    p = Practice("TT-1", seed=3)
    want = int(p.drill.expected())
    p.answer(str(want + 5))
    assert "too high" in p.feedback and p.drill.hints()[1] not in p.feedback


def test_quiz_nonsense_is_not_counted_and_right_stays() -> None:
    import widgets

    progress.use_learner("Finn")
    q = widgets.Quiz("How many cards in round 7 (TT-1)?", 9)
    assert not q.answer("zz") and q.tries == 0 and "can't read" in q.feedback
    assert progress.default_record().events("Finn") == []
    assert q.answer("nine cards") and q.tries == 1
    assert q.answer("") and q.feedback.startswith("Right")


def test_an_exercise_answer_that_cant_be_read_is_not_recorded(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from widgets.quiz import exercise_book

    progress.use_learner("Gus")
    book = Path(__file__).resolve().parent.parent / "notebooks" / "quizzes" / "00_start_here.json"
    check = exercise_book(str(book))
    assert not check(1, "zz") and "can't read 'zz'" in capsys.readouterr().out
    assert progress.default_record().events("Gus") == []
    assert not check(1, "19 cards")  # a number of points asked: another unit is wrong
    assert "asks for a number of points" in capsys.readouterr().out
    assert [e.right for e in progress.default_record().events("Gus")] == [False]


def test_a_right_answer_after_a_wrong_one_shows_right_again() -> None:
    """Right, then wrong, then right again: the quiz says "Right" (it kept the
    wrong answer's words before)."""
    import widgets

    q = widgets.Quiz("At most how many players can play tre-tretton (TR-1)?", 4)
    assert q.answer("four") and q.feedback.startswith("Right")
    assert not q.answer("12") and q.feedback.startswith("Not yet")
    assert q.answer("4") and q.feedback.startswith("Right")
    assert "rummy-quiz-right" in q.feedback_view.value
