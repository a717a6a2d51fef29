"""Mastery with spacing (rummy.progress on FSRS): the schedule is FSRS-6 with
fuzzing off, so a learner's state is a function of their events alone (it is
recomputed here from the events with the fsrs package directly); "mastered"
needs right answers on three different days, the last a week or more after the
first, on different positions.  Four right answers in four minutes never reach
it; eight over 60 days on new positions do.  A fake clock throughout."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy import progress
from rummy.progress import DAY, Event, mastery, summary

pytestmark = pytest.mark.usefixtures("own_data")


def ev(rule: str, right: bool, t: float, asked: str = "asked", first: bool = True,
       judged: str = "rule") -> Event:
    return Event("Ana", rule, asked, "answered", right, first, "drill", t, judged=judged)


def by_hand(events: list[Event]) -> tuple[float, float, float]:
    """FSRS straight from the fsrs package: each first try judged by the rules is a
    review (right: Good, wrong: Again), no learning steps, no fuzz."""
    from fsrs import Card, Rating, Scheduler

    s = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    card = Card(card_id=7)
    for e in sorted(events, key=lambda e: e.when):
        if e.first and e.judged == "rule":
            card, _ = s.review_card(card, Rating.Good if e.right else Rating.Again,
                                    review_datetime=dt.datetime.fromtimestamp(e.when, dt.UTC))
    return card.stability, card.difficulty, card.due.timestamp()


def test_the_state_is_recomputed_from_the_events_alone():
    t0 = 1_700_000_000.0
    events = [ev("G-9", True, t0), ev("G-9", False, t0 + 2 * DAY),
              ev("G-9", True, t0 + 2 * DAY + 60, first=False),
              ev("G-9", True, t0 + 5 * DAY, judged="play"),  # play: no review
              ev("G-9", True, t0 + 9 * DAY), ev("G-9", True, t0 + 30 * DAY)]
    m = mastery(events)["G-9"]
    assert (m.stability, m.difficulty, m.due_at) == pytest.approx(by_hand(events))
    again = mastery(list(reversed(events)))["G-9"]  # the same events, in any order
    assert (again.stability, again.due_at) == (m.stability, m.due_at)


def test_four_right_answers_in_four_minutes_never_reach_mastered():
    now = [1_700_000_000.0]
    progress.set_clock(lambda: now[0])
    progress.use_learner("Ana")
    for i in range(4):
        progress.record("G-9", f"position {i}", "knock", True, source="drill")
        now[0] += 60
    m = progress.default_record().mastery("Ana")["G-9"]
    assert m.right_first == 4 and m.status == "practising"
    assert summary(progress.default_record().events("Ana"), now[0]).mastered == 0


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=DAY * 0.99), min_size=1, max_size=12))
def test_any_number_of_right_answers_on_one_day_is_not_mastered(offsets):
    t0 = 1000 * DAY
    events = [ev("M-1", True, t0 + o, asked=f"p{i}") for i, o in enumerate(offsets)]
    assert mastery(events)["M-1"].status == "practising"


def test_eight_right_answers_over_60_days_on_new_positions_are_mastered():
    now = [1_700_000_000.0]
    progress.set_clock(lambda: now[0])
    progress.use_learner("Ana")
    for i in range(8):
        progress.record("G-9", f"position {i}", "knock", True, source="drill")
        now[0] += 60 * DAY / 7
    m = progress.default_record().mastery("Ana")["G-9"]
    assert m.status == "mastered" and len(m.right_days) == 8 and m.positions == 8


def test_the_same_position_again_and_again_is_not_mastered():
    events = [ev("G-9", True, d * DAY, asked="the same hand") for d in range(0, 64, 8)]
    assert mastery(events)["G-9"].status == "practising"


def test_three_days_within_a_week_are_not_mastered_and_a_wrong_last_answer_undoes_it():
    inside = [ev("G-9", True, d * DAY, asked=f"p{d}") for d in (0, 2, 6)]
    assert mastery(inside)["G-9"].status == "practising"
    spaced = [ev("G-9", True, d * DAY, asked=f"p{d}") for d in (0, 4, 12, 30, 60)]
    assert mastery(spaced)["G-9"].status == "mastered"
    assert mastery([*spaced, ev("G-9", False, 61 * DAY)])["G-9"].status == "practising"


def test_the_most_overdue_rule_comes_first_and_the_map_says_when_the_rest_is_due():
    events = [ev("M-1", True, 0.0), ev("M-2", True, 1 * DAY), ev("C-2", True, 9 * DAY)]
    now = 5 * DAY
    order = progress.due_first(events, now, ["C-2", "C-1", "M-2", "M-1"])
    assert order == ["M-1", "M-2", "C-1", "C-2"]  # due: M-1 (day 2), M-2 (day 3); unseen; later
    s = summary(events, now)
    assert s.due_rules == ("M-1", "M-2")
    assert s.next_due == mastery(events)["C-2"].due_at and s.next_due > now


def test_predicted_recall_falls_with_time():
    m = mastery([ev("M-1", True, 0.0)])["M-1"]
    r1, r30 = m.recall(1 * DAY), m.recall(30 * DAY)
    assert r1 is not None and r30 is not None and 1.0 > r1 > r30 > 0.0
    assert mastery([])["M-1"].recall(DAY) is None


def test_play_events_are_kept_apart_from_the_rule():
    events = [ev("TT-5", False, 0.0, judged="play"), ev("TT-5", True, DAY, judged="play")]
    m = mastery(events)["TT-5"]
    assert (m.attempts, m.play_attempts, m.play_right_first, m.status) == (0, 2, 1, "not seen")
    with pytest.raises(progress.ProgressError, match="rule or play"):
        ev("TT-5", True, 0.0, judged="style").checked()


def test_a_record_of_an_older_kit_opens_with_every_event_judging_a_rule(tmp_path):
    import sqlite3

    path = tmp_path / "p.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT,
        learner TEXT NOT NULL, rule TEXT NOT NULL, asked TEXT NOT NULL, answered TEXT NOT NULL,
        right INTEGER NOT NULL, first INTEGER NOT NULL, source TEXT NOT NULL, t REAL NOT NULL);
        INSERT INTO events (learner, rule, asked, answered, right, first, source, t)
        VALUES ('Ana', 'M-1', 'q', 'a', 1, 1, 'quiz', 5.0);""")
    db.commit()
    db.close()
    r = progress.Record(path)
    (e,) = r.events("Ana")
    assert e.judged == "rule" and e.rule == "M-1"
    assert r.add("Ana", "TT-5", "q", "stock", True, judged="play").judged == "play"
    assert [x.judged for x in r.events("ana")] == ["rule", "play"]


def test_practice_serves_the_most_overdue_rule_first_each_on_a_new_position():
    from widgets.practice import Practice

    now = [200 * DAY]
    progress.set_clock(lambda: now[0])
    progress.use_learner("Ana")
    rec = progress.default_record()
    rec.add("Ana", "C-2", "q", "a", True, source="drill", when=100 * DAY)  # due long ago
    rec.add("Ana", "C-3", "q", "a", True, source="drill", when=190 * DAY)  # due later
    rec.add("Ana", "C-1", "q", "a", True, source="drill", when=199.9 * DAY)  # not due
    p = Practice("gin_three", seed=1)
    assert p.drill.rule == "C-2"  # the most overdue
    p.answer(p.drill.expected())  # right at the first try: C-2 is not due now
    p.next()
    assert p.drill.rule == "C-3"  # the next most overdue
    first = p.drill.question
    p.answer(p.drill.expected())
    p.next()
    # then the rules never seen, in the variant's order (C-1 is not due yet)
    seen = {"C-1", "C-2", "C-3"}
    assert p.drill.rule not in seen
    assert p.drill.question != first


def test_each_answer_is_kept_as_what_judged_it():
    """G-5 weighs a legal discard as play; the card just taken breaks the rule."""
    from widgets.practice import Practice

    progress.use_learner("Ana")
    p = Practice("G-5", seed=0)
    assert p.drill.judges == "play"
    taken = p.drill.question.split("You took the ")[1].split(".")[0]
    assert not p.answer(taken)
    p.answer(p.drill.an_answer())
    first, second = progress.default_record().events("Ana")
    assert (first.judged, first.right, first.rule) == ("rule", False, "G-5")
    assert (second.judged, second.right) == ("play", True)
