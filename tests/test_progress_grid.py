"""The teacher's class grid read from each learner's marks (kept per rule in the same
transaction as each event) answers exactly what replaying every event answers.

The reference is the grid as it was computed before the marks: every event of every
learner read again and folded (:func:`rummy.progress.grid_rows`,
:func:`rummy.progress.most_missed`).  Random records: several learners (a key's, a hub
user's, a name with events and no key), events sent out of time order, sent twice, in
batches, an erased learner, a record opened again and one of an older kit (no marks
yet)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from rummy import progress
from rummy.progress import DAY, Event, Record

RULES = ["TT-5", "TT-7", "M-1", "G-9", "BT-3"]
ANSWERS = ["draw stock", "pass", "Kc", "yes", "no"]


def replay_grid(rec: Record, names: list[str], now: float) -> dict[str, Any]:
    """The class grid by replaying every event (the grid as it was computed before)."""
    ids = list(dict.fromkeys(rec.resolve(n) or n for n in names))
    rows: list[dict[str, Any]] = []
    everything: list[Event] = []
    for who in ids:
        events = rec.events(who)
        everything += events
        rows += progress.grid_rows(rec.label(who), events, now)
    return {"learners": [rec.label(w) for w in ids], "rows": rows,
            "missed": progress.most_missed(everything)}


def random_record(rec: Record, rng: random.Random) -> list[str]:
    """Fill ``rec`` with a random class; the names to ask the grid for."""
    rec.enrol("Ana")
    rec.enrol("Ben")
    hub = rec.hub_user("alexandra.konstantinopoulou@school.example.org")
    names = ["Ana", "Ben", hub, "Old Cleo", "Dora"]  # Old Cleo: events, no key; Dora: none

    def event(who: str) -> Event:
        return Event(who, rng.choice(RULES), f"q{rng.randrange(4)}", rng.choice(ANSWERS),
                     rng.random() < 0.6, rng.random() < 0.7, rng.choice(progress.SOURCES),
                     float(rng.randrange(0, 40)) * DAY / 3 + rng.choice([0.0, 0.5, 1e-3]),
                     judged="play" if rng.random() < 0.2 else "rule",
                     by="server" if rng.random() < 0.3 else "self")

    sent: list[Event] = []
    for _ in range(rng.randrange(30, 90)):
        who = rng.choice(names[:4])
        roll = rng.random()
        if roll < 0.5:
            e = event(who)
            rec.add(e.learner, e.rule, e.asked, e.answered, e.right, first=e.first,
                    source=e.source, when=e.when, judged=e.judged, by=e.by)
            sent.append(e)
        elif roll < 0.9:
            batch = [event(who) for _ in range(rng.randrange(1, 6))]
            if sent and rng.random() < 0.5:
                batch.append(rng.choice(sent))  # sent again: kept once
            rec.add_events(batch)
            sent += batch
        elif roll < 0.93:
            rec.erase(rng.choice(["Ben", "ben"]))
        else:
            rec.add("ana", rng.choice(RULES), "q9", "same time", False, when=5 * DAY)
    return names


@pytest.mark.parametrize("seed", range(12))
def test_the_grid_from_marks_is_the_grid_of_every_event(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / "progress.sqlite3"
    rec = Record(path, clock=lambda: 30 * DAY)
    names = random_record(rec, rng)
    for now in (0.0, 3.5 * DAY, 14 * DAY, 90 * DAY):
        asked = rng.sample(names, k=rng.randrange(1, len(names) + 1))
        want = replay_grid(rec, asked, now)
        got = rec.class_grid(asked, now)
        assert got["learners"] == want["learners"]
        assert len(got["rows"]) == len(want["rows"])
        for mine, theirs in zip(got["rows"], want["rows"], strict=True):
            assert mine == theirs
        assert got["missed"] == want["missed"]
        assert rec.grid(asked, now) == want["rows"]
    rec.close()
    again = Record(path, clock=lambda: 30 * DAY)  # opened again: the marks were kept
    assert again.class_grid(names, 20 * DAY) == replay_grid(again, names, 20 * DAY)
    again.close()


def test_a_record_of_an_older_kit_gets_its_marks_when_opened(tmp_path: Path) -> None:
    rng = random.Random(99)
    path = tmp_path / "progress.sqlite3"
    rec = Record(path, clock=lambda: 30 * DAY)
    names = random_record(rec, rng)
    want = replay_grid(rec, names, 21 * DAY)
    rec.close()
    db = sqlite3.connect(path)  # as an older kit left it: no marks
    db.executescript("DROP TABLE marks; DROP TABLE missed; DROP TABLE marks_made;")
    db.close()
    again = Record(path, clock=lambda: 30 * DAY)
    assert again.class_grid(names, 21 * DAY) == want
    again.add("Ana", "TT-5", "q1", "pass", False, when=2 * DAY)  # and they are kept up
    assert again.class_grid(names, 21 * DAY) == replay_grid(again, names, 21 * DAY)
    again.close()


def test_the_browsers_log_answers_the_same_grid(tmp_path: Path) -> None:
    from rummy.progress_store import LogStore

    rng = random.Random(7)
    rec = Record(tmp_path / "p.sqlite3", clock=lambda: 30 * DAY,
                 store=LogStore(tmp_path / "p.jsonl"))
    names = random_record(rec, rng)
    assert rec.class_grid(names, 9 * DAY) == replay_grid(rec, names, 9 * DAY)
