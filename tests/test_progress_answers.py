"""Answers judged where the learner can't read them: ``POST
.../progress/answer`` judges a quiz's, an exercise's or a drill's answer on
the server with the one checker and keeps the event as judged by the server;
the class grid counts those (``server_judged``).  Each with bad input, no
key, a wrong key, another learner's key, a cross-site request and a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rummy.progress import KEY_HEADER, Record, new_key
from tableserver.errors import BadRequest
from tableserver.progress_api import hub_events
from tests.servers import KEY, TableServer, new_table

TEACHER = {"X-Rummy-Teacher-Key": KEY}
JSON = {"Content-Type": "application/json"}
#: Lesson 01's first quiz: "How many cards does each player get in round 7 (TT-1)?"
#: Round r deals r + 2 cards (RULES.md TT-1): 9.
ROUND_7 = {"book": "01_three_thirteen", "part": "quizzes", "number": 1}


def enrol(data: Path, *names: str) -> dict[str, str]:
    r = Record(data / "progress.sqlite3")
    try:
        return {name: r.enrol(name)[1] for name in names}
    finally:
        r.close()


def kept(data: Path, who: str) -> list[tuple[str, str, bool, bool, str, str]]:
    r = Record(data / "progress.sqlite3")
    try:
        return [(e.rule, e.answered, e.right, e.first, e.source, e.by) for e in r.events(who)]
    finally:
        r.close()


def answer(server: TableServer, body: dict[str, Any], key: str | None,
           **headers: str) -> tuple[int, Any]:
    sent = {**JSON, **headers, **({KEY_HEADER: key} if key is not None else {})}
    return server.call("POST", "/progress/answer", body, headers=sent)


def test_the_server_judges_a_quiz_answer_and_keeps_it_as_server_judged(
        server: TableServer) -> None:
    keys = enrol(server.data, "Ana")
    status, got = answer(server, {**ROUND_7, "answer": "7"}, keys["Ana"])
    assert status == 200, got
    assert got["right"] is False and got["first"] is True and got["kept"] is True
    assert "round's number" in got["feedback"] and "9" not in got["feedback"]
    status, got = answer(server, {**ROUND_7, "answer": "nine"}, keys["Ana"])
    assert status == 200 and got["right"] is True and got["first"] is False
    # an answer that can't be read is judged, not kept
    status, got = answer(server, {**ROUND_7, "answer": "zz"}, keys["Ana"])
    assert status == 200 and got["counted"] is False and got["kept"] is False
    assert kept(server.data, "Ana") == [("TT-1", "7", False, True, "quiz", "server"),
                                        ("TT-1", "nine", True, False, "quiz", "server")]
    # the learner's own record says who judged each answer, and what it judged
    status, mine = server.call("GET", "/progress/me", headers={KEY_HEADER: keys["Ana"]})
    assert status == 200
    assert [(e["by"], e["judged"]) for e in mine["events"]] == [("server", "rule")] * 2
    assert [r["server_judged"] for r in mine["rows"]] == [2]


def test_a_hint_makes_the_answer_a_later_try_and_exercises_and_drills_are_judged(
        server: TableServer) -> None:
    keys = enrol(server.data, "Ana")
    # lesson 01's exercise 1: the 6♥ is wild; the rest costs 14 points (worked in the lesson)
    status, got = answer(server, {"book": "01_three_thirteen", "part": "exercises",
                                  "number": 1, "answer": "14", "hinted": True}, keys["Ana"])
    assert status == 200 and got["right"] is True and got["first"] is False, got
    # a drill: dealt again from its seed on the server; TT-1 seed 3 asks about round 4:
    # 4 + 2 = 6 cards
    status, got = answer(server, {"drill": "TT-1", "seed": 3, "answer": "6"}, keys["Ana"])
    assert status == 200 and got["right"] is True and got["first"] is True, got
    assert [k[4:] for k in kept(server.data, "Ana")] == [("exercise", "server"),
                                                        ("drill", "server")]


def test_a_drill_a_lesson_dealt_from_its_variant_is_judged_on_that_deal(
        server: TableServer) -> None:
    """Lesson 01 deals C-2 from Three Thirteen (``widgets.Drill("C-2",
    variant="three_thirteen")``): the server deals the same position again, not the
    default variant's, and the kernel's own check agrees with its verdict."""
    from rummy import practice

    keys = enrol(server.data, "Ana")
    for seed in range(4):
        mine = practice.drill("C-2", seed, variant="three_thirteen")
        status, got = answer(server, {"drill": "C-2", "seed": seed, "variant": "three_thirteen",
                                      "answer": str(mine.an_answer())}, keys["Ana"])
        assert status == 200 and got["right"] is True, (seed, got)


BAD = [
    ({}, '"book"'),
    ({**ROUND_7}, '"book"'),
    ({**ROUND_7, "answer": "9", "learner": "Ana"}, '"book"'),
    ({**ROUND_7, "answer": 9}, "must be a text"),
    ({**ROUND_7, "answer": "9" * 201}, "at most 200"),
    ({**ROUND_7, "answer": "9", "hinted": "no"}, "true or false"),
    ({**ROUND_7, "book": "../../etc/passwd", "answer": "9"}, "unknown book"),
    ({**ROUND_7, "book": "99_nothing", "answer": "9"}, "unknown book"),
    ({**ROUND_7, "part": "answers", "answer": "9"}, "unknown part"),
    ({**ROUND_7, "number": 0, "answer": "9"}, "quizzes 1 to"),
    ({**ROUND_7, "number": True, "answer": "9"}, "quizzes 1 to"),
    ({"drill": "Z-9", "seed": 1, "answer": "9"}, "no drill"),
    ({"drill": "TT-1", "seed": -1, "answer": "9"}, "whole number"),
    ({"drill": "TT-1", "seed": 2**60, "answer": "9"}, "whole number"),
    ({"drill": "TT-1", "seed": 1.5, "answer": "9"}, "whole number"),
    ({"drill": "TT-1", "seed": 1, "answer": "9", "variant": 3}, "a variant's name"),
    ({"drill": "TT-1", "seed": 1, "answer": "9", "variant": "canasta"}, "unknown variant"),
    ({"drill": "G-9", "seed": 1, "answer": "9", "variant": "three_thirteen"}, "deals from Gin"),
    ({**ROUND_7, "answer": "9", "variant": "three_thirteen"}, '"book"'),
]


def test_bad_input_says_what_is_allowed_and_keeps_nothing(server: TableServer) -> None:
    keys = enrol(server.data, "Ana")
    for body, words in BAD:
        status, got = answer(server, body, keys["Ana"])
        assert status == 400 and words in got["error"], (body, got)
        assert "Round r deals" not in str(got)
    status, got = server.call("POST", "/progress/answer", raw=b"[not json",
                              headers={**JSON, KEY_HEADER: keys["Ana"]})
    assert status == 400
    status, got = answer(server, {**ROUND_7, "answer": "9"}, keys["Ana"])
    assert status == 200  # the same answer, well formed, is judged
    status, got = server.call("POST", f"/progress/answer?learner_key={keys['Ana']}",
                              {**ROUND_7, "answer": "9"}, headers=JSON)
    assert status == 400 and keys["Ana"] not in str(got)
    assert len(kept(server.data, "Ana")) == 1


def test_only_the_key_says_whose_answer_it_is(server: TableServer) -> None:
    keys = enrol(server.data, "Ana", "Ben")
    for key in (new_key(), "Ana", "ana", KEY):
        status, got = answer(server, {**ROUND_7, "answer": "9"}, key)
        assert status == 403 and "right" not in got, key
    for key in (None, ""):  # nobody named yet: judged, kept for nobody
        status, got = answer(server, {**ROUND_7, "answer": "9"}, key)
        assert status == 200 and got["right"] is True and got["kept"] is False, key
    status, got = answer(server, {**ROUND_7, "answer": "9"}, keys["Ana"],
                         Origin="http://evil.example")
    assert status == 403
    status, got = answer(server, {**ROUND_7, "answer": "9"}, keys["Ben"])
    assert status == 200 and got["right"] is True
    assert kept(server.data, "Ana") == []
    assert [k[0] for k in kept(server.data, "Ben")] == ["TT-1"]


def test_the_grid_counts_server_judged_answers_and_a_restart_keeps_them(
        server: TableServer) -> None:
    keys = enrol(server.data, "Ana", "Ben")
    new_table(server, seats=["human", "human", "greedy"], names=("Ana", "Ben"), speed=10)
    answer(server, {**ROUND_7, "answer": "10"}, keys["Ana"])
    answer(server, {**ROUND_7, "answer": "9"}, keys["Ana"])
    r = Record(server.data / "progress.sqlite3")
    r.add("Ben", "TT-1", "How many?", "9", True, source="quiz")  # a self-check of Ben's kernel
    r.close()
    restarted = server.restart()
    try:
        status, grid = restarted.call("GET", "/progress", headers=TEACHER)
        assert status == 200 and "server_judged" in grid["columns"]
        rows = {(r["learner"], r["rule"]): r for r in grid["rows"]}
        assert rows[("Ana", "TT-1")]["server_judged"] == 2
        assert rows[("Ben", "TT-1")]["server_judged"] == 0
        status, got = answer(restarted, {**ROUND_7, "answer": "9"}, keys["Ben"])
        assert status == 200 and got["right"] is True and got["first"] is True
    finally:
        restarted.stop()


def test_a_hub_learner_s_server_can_t_send_an_event_as_server_judged() -> None:
    one = {"rule": "M-1", "asked": "q", "answered": "a", "right": True, "first": True,
           "source": "quiz", "when": 10.0}
    assert hub_events("ana", {"events": [one]}, 20.0)[0].by == "self"
    for extra in ({"by": "server"}, {"judged_by": "server"}):
        with pytest.raises(BadRequest, match="unknown keys"):
            hub_events("ana", {"events": [{**one, **extra}]}, 20.0)


def test_the_teachers_grid_says_how_many_answers_the_server_judged() -> None:
    pytest.importorskip("ipywidgets")
    from widgets.class_grid import grid_html

    row = {"learner": "Ana", "rule": "TT-1", "attempts": 2, "right_first": 0, "days": 1,
           "recall": 0.5, "status": "practising", "play_attempts": 1, "play_right_first": 1,
           "server_judged": 2}
    page = grid_html(["Ana"], [row])
    assert "rule: 0 of 2 right first, 1 day, recall 50%; play: 1 of 1 best; " \
           "2 of 3 judged by the server" in page
    assert "server judged" in page and "judged by the server" not in grid_html(
        ["Ana"], [{**row, "server_judged": 0}]).split("</caption>")[1]
