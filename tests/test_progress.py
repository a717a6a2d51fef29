"""The record of learning (rummy.progress): the old Leitner boxes worked by
hand (FSRS's schedule: test_progress_fsrs.py), the SQLite record (two processes at once, erase, listing), the
learner of a kernel and the events that wait for a name."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rummy
from rummy import progress
from rummy.progress import DAY, Event, ProgressError, Record, mastery, step
from rummy.rulebook import RULE_IDS

pytestmark = pytest.mark.usefixtures("own_data")


def ev(rule: str, right: bool, day: float, first: bool = True, who: str = "Ana") -> Event:
    return Event(who, rule, "asked", "answered", right, first, "quiz", day * DAY)


def test_leitner_steps_by_hand():
    # five right answers at the first try: 0 -> 1 -> 2 -> 3 -> 4 -> 4 (the top box)
    boxes, box = [], 0
    for _ in range(5):
        box = step(box, True)
        boxes.append(box)
    assert boxes == [1, 2, 3, 4, 4]
    assert step(4, False) == 1  # a wrong answer in box 4 goes back to box 1
    assert step(0, False) == 1
    assert step(3, True, first=False) == 3  # right after a wrong try: stays


def test_the_old_leitner_box_is_still_worked_out_for_comparison():
    # days 0, 1, 4, 11: right at the first try -> box 4 on day 11
    events = [ev("TT-7", True, d) for d in (0, 1, 4, 11)]
    m = mastery(events)["TT-7"]
    assert (m.box, m.attempts, m.right_first) == (4, 4, 4)
    # day 20: wrong -> box 1; then right at a second try the same day: box 1
    events += [ev("TT-7", False, 20), ev("TT-7", True, 20.5, first=False)]
    m = mastery(events)["TT-7"]
    assert (m.box, m.status, m.attempts, m.right_first) == (1, "practising", 6, 4)
    assert m.last_seen == 20.5 * DAY


def test_a_rule_seen_only_at_a_later_try_is_due_at_once_and_unseen_rules_are_not_due():
    m = mastery([ev("C-3", True, 2, first=False)])
    assert m["C-3"].status == "practising" and m["C-3"].is_due(2 * DAY)
    assert m["C-1"].status == "not seen" and not m["C-1"].is_due(10**12)


def test_events_are_taken_in_time_order():
    # wrong on day 5, right on day 1 (recorded later): the wrong one is last: box 1
    assert mastery([ev("G-9", False, 5), ev("G-9", True, 1)])["G-9"].box == 1


def test_record_keeps_lists_and_injected_clock(tmp_path):
    now = [1000.0]
    r = Record(tmp_path / "p.sqlite3", clock=lambda: now[0])
    r.add("Ana", "TT-7", "Who plays after going out?", "everybody once", True, source="quiz")
    now[0] += DAY
    r.add("Ana", "TT-5", "discard first", "discard 5c", False, source="table")
    r.add("Ben", "G-9", "q", "a", True, source="drill")
    got = r.events("Ana")
    assert [(e.rule, e.right, e.source, e.when) for e in got] == [
        ("TT-7", True, "quiz", 1000.0), ("TT-5", False, "table", 1000.0 + DAY)]
    assert got[0].asked == "Who plays after going out?" and got[0].answered == "everybody once"
    assert r.learners() == ["Ana", "Ben"]
    r.close()
    again = Record(tmp_path / "p.sqlite3")  # a new process reads the same
    assert [e.rule for e in again.events("Ana")] == ["TT-7", "TT-5"]


def test_erase_removes_every_event_of_that_learner_and_nothing_else(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    for i in range(30):
        r.add("Ana", RULE_IDS[i], f"q{i}", "a", i % 2 == 0, source="quiz")
    for i in range(7):
        r.add("Ben", "M-1", f"b{i}", "a", True, source="drill")
    r.add("Ana Lima", "M-1", "q", "a", True, source="drill")  # another learner
    assert r.erase("Ana") == 30
    assert r.events("Ana") == []
    assert len(r.events("Ben")) == 7 and len(r.events("Ana Lima")) == 1
    assert r.count() == 8
    assert r.erase("Nobody") == 0 and r.count() == 8


def test_bad_input_says_what_is_allowed(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    with pytest.raises(ProgressError, match="unknown rule id 'TT-99'.*RULES.md"):
        r.add("Ana", "TT-99", "q", "a", True)
    with pytest.raises(ProgressError, match="unknown source 'chat'.*quiz, exercise, drill"):
        r.add("Ana", "TT-7", "q", "a", True, source="chat")
    with pytest.raises(ProgressError, match="non-empty"):
        r.add("  ", "TT-7", "q", "a", True)
    with pytest.raises(ProgressError, match="at most 255"):
        r.add("x" * 256, "TT-7", "q", "a", True)
    assert r.count() == 0


WRITER = textwrap.dedent("""
    import sys
    from rummy.progress import Record
    from rummy.rulebook import RULE_IDS
    r = Record(sys.argv[1])
    who = sys.argv[2]
    for i in range(1000):
        r.add(who, RULE_IDS[i % 58], f"q{i}", f"a{i}", i % 3 != 0, source="drill")
""")


def test_two_processes_writing_1000_events_each_keep_all_2000(tmp_path):
    path = tmp_path / "p.sqlite3"
    Record(path).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), who])
             for who in ("Ana", "Ben")]
    assert [p.wait(300) for p in procs] == [0, 0]
    r = Record(path)
    assert r.count() == 2000
    for who in ("Ana", "Ben"):
        got = r.events(who)
        assert sorted(int(e.asked[1:]) for e in got) == list(range(1000))


def test_record_waits_for_a_name_then_keeps_the_events():
    assert progress.learner() is None
    assert progress.record("TT-7", "q", "a", True, source="quiz") is None
    assert len(progress.pending()) == 1
    assert progress.summary_line() == "0 of 58 rules mastered, 0 due"  # box 1: due tomorrow
    progress.use_learner(" Ana ")
    assert progress.learner() == "Ana" and progress.pending() == []
    kept = progress.record("TT-5", "q", "b", False, source="guided")
    assert kept is not None and kept.learner == "Ana"
    assert [e.rule for e in progress.default_record().events("Ana")] == ["TT-7", "TT-5"]
    assert (Path(progress.data_dir()) / "progress.sqlite3").exists()


def test_a_name_in_the_page_address_or_the_environment_names_nobody(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "seed=3&learner=Ben%20Ko")
    monkeypatch.setenv("RUMMY_LEARNER", "Cleo")
    assert progress.learner() is None
    progress.use_learner("Dev")  # named by the kit itself (after a key)
    assert progress.learner() == "Dev"


def test_on_a_hub_the_learner_is_the_servers_hub_user_by_their_whole_name(monkeypatch):
    long = "alexandra.konstantinopoulou@school.example.org"
    monkeypatch.setenv("JUPYTERHUB_USER", long)
    monkeypatch.setenv("RUMMY_LEARNER", "Cleo")  # a name given to the kit names nobody
    assert progress.learner() == long


def test_listeners_hear_each_event_once_it_is_written_and_never_break_it():
    heard: list[tuple[str, str, int, int]] = []

    def listen(e: Event) -> None:  # what is on disk when the listener hears of it
        heard.append((e.learner, e.rule, e.id, progress.default_record().count()))

    def broken(e: Event) -> None:
        raise RuntimeError("the hub is down")

    progress.on_event(broken)
    progress.on_event(listen)
    progress.on_event(listen)  # added once
    assert progress.record("M-1", "q", "a", True, source="drill") is None  # nobody named
    assert heard == []  # an event that waits for a name is not kept yet: nothing to tell
    progress.use_learner("Ana")
    kept = progress.record("TT-7", "q", "a", False, source="table")
    assert kept is not None and kept.id == 2
    assert heard == [("Ana", "M-1", 1, 1), ("Ana", "TT-7", 2, 2)]
    with pytest.raises(ProgressError):
        progress.record("Z-1", "q", "a", True, source="quiz")
    assert len(heard) == 2


def test_add_events_keeps_all_or_none_and_an_event_sent_again_once(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    a = Event("ana", "M-1", "q", "a", True, True, "drill", 10.0)
    b = Event("ana", "M-1", "q", "a", True, True, "drill", 11.0)  # same answer, later
    assert [e.id for e in r.add_events([a, b])] == [1, 2]
    with pytest.raises(ProgressError, match="unknown rule id"):
        r.add_events([Event("ana", "G-9", "q", "a", True, when=12.0),
                      Event("ana", "Z-1", "q", "a", True, when=13.0)])
    assert r.count() == 2
    # the sender did not hear the answer and sends a and b again, with a new one
    c = Event("ana", "G-9", "q", "a", False, True, "table", 12.0)
    assert [e.id for e in r.add_events([a, b, c])] == [1, 2, 3]
    assert [(e.rule, e.when) for e in r.events("ana")] == [("M-1", 10.0), ("M-1", 11.0),
                                                            ("G-9", 12.0)]


def test_record_with_a_bad_rule_raises_and_keeps_nothing():
    progress.use_learner("Ana")
    with pytest.raises(ProgressError):
        progress.record("Z-1", "q", "a", True, source="quiz")
    assert progress.default_record().count() == 0


def test_grid_rows_per_learner_and_rule(tmp_path):
    r = Record(tmp_path / "p.sqlite3", clock=lambda: 0.0)
    r.add("Ana", "TT-7", "q", "a", True, source="quiz", by="server")
    r.add("Ana", "TT-7", "q", "wrong one", False, source="quiz")
    r.add("Ana", "TT-5", "q", "pool", False, source="drill", judged="play")
    r.add("Ben", "G-9", "q", "a", True, source="table")
    rows = r.grid(["Ana", "Ben", "Cleo"], now=DAY)
    assert [{k: v for k, v in row.items() if k not in ("recall", "due")} for row in rows] == [
        {"learner": "Ana", "rule": "TT-5", "attempts": 0, "right_first": 0, "days": 0,
         "status": "not seen", "last_wrong": "", "play_attempts": 1, "play_right_first": 0,
         "server_judged": 0},
        {"learner": "Ana", "rule": "TT-7", "attempts": 2, "right_first": 1, "days": 1,
         "status": "practising", "last_wrong": "wrong one", "play_attempts": 0,
         "play_right_first": 0, "server_judged": 1},
        {"learner": "Ben", "rule": "G-9", "attempts": 1, "right_first": 1, "days": 1,
         "status": "practising", "last_wrong": "", "play_attempts": 0, "play_right_first": 0,
         "server_judged": 0}]
    assert [list(row) for row in rows][0] == list(progress.GRID_COLUMNS)
    assert rows[0]["recall"] is None and 0 < rows[1]["recall"] < 1


def test_who_judged_an_event_is_kept_and_only_self_or_server(tmp_path):
    r = Record(tmp_path / "p.sqlite3", clock=lambda: 0.0)
    r.add("Ana", "TT-7", "q", "a", True, source="quiz", by="server")
    r.add("Ana", "TT-7", "q2", "a", True, source="quiz")
    with pytest.raises(ProgressError, match="judged by self or server"):
        r.add("Ana", "TT-7", "q", "a", True, source="quiz", by="teacher")
    r.close()
    again = Record(tmp_path / "p.sqlite3")
    assert [e.by for e in again.events("Ana")] == ["server", "self"]
    again.close()


def test_an_older_record_s_events_were_self_checks(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, learner TEXT "
                     "NOT NULL, rule TEXT NOT NULL, asked TEXT NOT NULL, answered TEXT NOT NULL, "
                     "right INTEGER NOT NULL, first INTEGER NOT NULL, source TEXT NOT NULL, "
                     "t REAL NOT NULL);"
                     "INSERT INTO events VALUES (1, 'Ana', 'C-2', 'q', '10', 1, 1, 'quiz', 5.0);")
    db.commit()
    db.close()
    r = Record(path)
    assert [(e.judged, e.by) for e in r.events("Ana")] == [("rule", "self")]
    r.close()


def test_the_engine_module_imports_no_jupyter_package():
    code = ("import sys, rummy.progress; bad = [m for m in sys.modules if m.split('.')[0] in "
            "('ipywidgets', 'IPython', 'ipykernel', 'traitlets', 'pandas')]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert rummy.progress is progress


def test_exercise_answers_are_kept_and_worked_answers_are_not(capsys, tmp_path):
    import json

    from widgets.quiz import exercise_book

    book = tmp_path / "quiz.json"
    book.write_text(json.dumps({"quizzes": [], "exercises": [
        {"question": "Penalty of 7h 8h Kc?", "answer": "14", "hint": "add the cards up (M-7)"},
        {"question": "Which card goes out?", "answer": "8h", "hint": "a run of three (TT-6)"}]}))
    check = exercise_book(str(book))
    progress.use_learner("Ana")
    assert check(1, None) is False
    check(1, 27)
    check(1, "fourteen")
    check(2, "8♥")
    check(2, "8h", worked=True)  # a worked answer's cell: not the learner's
    assert capsys.readouterr().out.splitlines()[0] == "Exercise 1: no answer yet. Hint: add the cards up (M-7)"
    got = [(e.rule, e.asked, e.answered, e.right, e.first, e.source)
           for e in progress.default_record().events("Ana")]
    assert got == [("M-7", "Exercise 1", "27", False, True, "exercise"),
                   ("M-7", "Exercise 1", "fourteen", True, False, "exercise"),
                   ("TT-6", "Exercise 2", "8♥", True, True, "exercise")]


def test_a_drill_answer_is_kept_under_its_rule_first_try_only_once():
    from widgets.practice import Practice

    progress.use_learner("Dora")
    p = Practice("TT-1", seed=3)
    p.answer("zero cards")  # TT-1 asks how many cards are dealt: never none
    p.answer(p.drill.expected())
    got = [(e.rule, e.right, e.first, e.source) for e in progress.default_record().events("Dora")]
    assert got == [("TT-1", False, True, "drill"), ("TT-1", True, False, "drill")]
