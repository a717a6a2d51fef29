"""Under the kit's server a lesson's quizzes, its exercises and the drills are
judged by the server: the kernel's quiz and the page hold the question only,
the answer goes to ``POST .../progress/answer`` and the verdict comes back;
the server keeps the event as judged by the server.  Without a server the
quiz is a self-check and says so (its events are the kernel's own)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy import progress
from rummy.progress import Record
from tests.servers import TableServer
from tests.table_play import widget_state
from widgets.view import esc

pytest.importorskip("ipywidgets")
pytestmark = pytest.mark.usefixtures("own_data")

ROOT = Path(__file__).resolve().parent.parent
BOOK = str(ROOT / "notebooks" / "quizzes" / "01_three_thirteen.json")


def under(server: TableServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """This kernel as the kit's server starts it: its API, its data folder."""
    monkeypatch.setenv("RUMMY_API", server.api)
    monkeypatch.setenv("RUMMY_DATA", str(server.data))


def events(server: TableServer, who: str) -> list[tuple[str, bool, bool, str, str]]:
    r = Record(server.data / "progress.sqlite3")
    try:
        return [(e.answered, e.right, e.first, e.source, e.by) for e in r.events(who)]
    finally:
        r.close()


def test_a_quiz_under_the_server_holds_no_answer_and_the_server_judges_it(
        server: TableServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.quiz import SERVER_CHECK, quiz_book

    under(server, monkeypatch)
    progress.enrol("Ana")
    quiz = quiz_book(BOOK)(1)  # round 7 deals 7 + 2 = 9 cards (TT-1)
    held = widget_state(quiz) + json.dumps({k: repr(v) for k, v in vars(quiz).items()})
    assert quiz.question is None and "round 7" in held and esc(SERVER_CHECK) in held
    # the answer in its spellings, its worked answer, a hint keyed by a wrong answer, a hash
    for secret in ("nine", "9 cards", "9.0", "round's number", "r + 2 cards", "salt",
                   "hashes", "sealed"):
        assert secret not in held, secret
    assert quiz.answer("7") is False and "round's number" in quiz.feedback
    assert quiz.answer("9 cards") is True and quiz.feedback.startswith("Right")
    assert events(server, "Ana") == [("7", False, True, "quiz", "server"),
                                     ("9 cards", True, False, "quiz", "server")]
    assert progress.pending() == []  # nothing the kernel judged itself


def test_exercises_and_drills_under_the_server(
        server: TableServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    from widgets.practice import Drill
    from widgets.quiz import exercise_book

    under(server, monkeypatch)
    progress.enrol("Ana")
    check = exercise_book(BOOK)
    assert check(1, 27) is False and "6♥" in capsys.readouterr().out  # its own hint
    assert check(1, "14 points") is True
    d = Drill("TT-1", seed=3)  # round 4 deals 4 + 2 = 6 cards
    assert d.answer("5") is False and d.answer("six") is True
    assert events(server, "Ana") == [("27", False, True, "exercise", "server"),
                                     ("14 points", True, False, "exercise", "server"),
                                     ("5", False, True, "drill", "server"),
                                     ("six", True, False, "drill", "server")]


def test_a_lessons_drill_dealt_from_its_variant_is_judged_on_the_same_deal(
        server: TableServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lesson 01's drill of C-2 deals from Three Thirteen: the server, which deals
    it again to judge it, deals it from Three Thirteen too (the default variant's
    position asks about other cards, and the right answer there would be wrong)."""
    from rummy import practice
    from widgets.practice import Drill

    under(server, monkeypatch)
    progress.enrol("Ana")
    for seed in range(3):
        want = practice.drill("C-2", seed, variant="three_thirteen").an_answer()
        d = Drill("C-2", seed=seed, variant="three_thirteen")
        assert d.answer(str(want)) is True, (seed, want)
    assert [(e[1], e[3], e[4]) for e in events(server, "Ana")] == [(True, "drill", "server")] * 3


def test_under_the_server_an_answer_before_a_name_is_judged_and_kept_once_named(
        server: TableServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.practice import Drill
    from widgets.progress import who_is_learning
    from widgets.quiz import quiz_book

    under(server, monkeypatch)
    quiz = quiz_book(BOOK)(1)
    assert quiz.answer("8") is False and "one off" in quiz.feedback  # judged at once
    assert quiz.answer("9") is True
    d = Drill("TT-1", seed=3)
    assert d.answer("6") is True
    box = who_is_learning()
    assert box.widget in quiz.widget.children and box.widget in d.widget.children
    assert "3 answers are waiting to be kept" in box.text.value
    assert events(server, "Ana") == [] and progress.pending() == []
    box.confirm("Ana")  # the answers waiting are kept now, in order, by the server
    assert events(server, "Ana") == [("8", False, True, "quiz", "server"),
                                     ("9", True, False, "quiz", "server"),
                                     ("6", True, True, "drill", "server")]
    assert box.waiting == [] and "Ana" in box.text.value


def test_without_a_server_the_quiz_is_a_self_check_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.quiz import SELF_CHECK, quiz_book

    monkeypatch.delenv("RUMMY_API", raising=False)
    progress.enrol("Ana")
    quiz = quiz_book(BOOK)(1)
    assert esc(SELF_CHECK) in widget_state(quiz)
    assert quiz.answer("9") is True
    assert [(e.right, e.by) for e in progress.default_record().events("Ana")] == [(True, "self")]
