"""One interface, two stores: the record of learning kept in SQLite (a server, JupyterLab)
and in the static site's JSON-lines log (Pyodide has no sqlite3) gives the same learners,
keys, events and FSRS schedule."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from rummy.progress import DAY, Event, ProgressError, Record, mastery
from rummy.progress_store import LogStore, SqliteStore


def _stores(tmp_path: Path) -> dict[str, Record]:
    return {"sqlite": Record(tmp_path / "a" / "progress.sqlite3", clock=lambda: 50.0,
                             store=SqliteStore(_made(tmp_path / "a") / "progress.sqlite3")),
            "log": Record(tmp_path / "b" / "progress.sqlite3", clock=lambda: 50.0,
                          store=LogStore(tmp_path / "b" / "progress.jsonl"))}


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _story(r: Record) -> dict[str, object]:
    """What a record answers after one learner's life: the same calls on either store."""
    who, key = r.enrol("Ana")
    with pytest.raises(ProgressError, match="already learns as 'ana'"):
        r.enrol("ana")
    hub = r.hub_user("alexandra.konstantinopoulou@x.org")
    hub2 = r.hub_user("alexandra.konstantinopoulos@x.org")
    r.add("Ana", "TT-5", "q1", "draw stock", True, source="drill", when=0.0)
    r.add("Ana", "TT-5", "q2", "draw stock", True, source="drill", when=2 * DAY, by="server")
    r.add("ana", "TT-6", "q3", "Kc", False, source="quiz", when=3 * DAY, judged="rule")
    again = Event("Ana", "TT-6", "q3", "Kc", False, source="quiz", when=3 * DAY)
    ids = [e.id for e in r.add_events([again, Event("Ana", "M-1", "q", "a", True,
                                                     when=4 * DAY)])]
    _, new = r.reset_key("ANA")
    r.add(hub, "G-4", "upcard", "pass", True, source="table", when=1.0)
    erased = r.erase(hub2)
    return {"who": who, "old key": r.learner_of(key), "new key": r.learner_of(new),
            "resolve": r.resolve("aNa"), "labels": (r.label(hub), r.label(hub2)),
            "ids": ids, "events": [(e.id, e.rule, e.asked, e.answered, e.right, e.when, e.by)
                                   for e in r.events("Ana")],
            "count": r.count(), "learners": r.learners(), "erased": erased,
            "schedule": {rule: (m.status, m.due_at, m.stability)
                         for rule, m in r.mastery("Ana").items() if m.attempts},
            "grid": r.grid(["Ana"], now=10 * DAY)}


def test_both_stores_keep_the_same_record(tmp_path: Path) -> None:
    told = {name: _story(r) for name, r in _stores(tmp_path).items()}
    assert told["log"] == told["sqlite"]
    events_told: Any = told["log"]["events"]
    grid: Any = told["log"]["grid"]
    assert [e[-1] for e in events_told] == ["self", "server", "self", "self"]
    assert sum(row["server_judged"] for row in grid) == 1
    # and the schedule is FSRS's own for those events (recomputed from the events alone)
    events = [Event("Ana", "TT-5", "q1", "draw stock", True, source="drill", when=0.0),
              Event("Ana", "TT-5", "q2", "draw stock", True, source="drill", when=2 * DAY)]
    assert told["log"]["schedule"]["TT-5"][1] == mastery(events)["TT-5"].due_at  # type: ignore[index]


def test_the_log_is_read_again_by_a_new_process_and_is_private(tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    r = Record(tmp_path / "progress.sqlite3", store=LogStore(path))
    _, key = r.enrol("Ben")
    r.add("Ben", "C-2", "What does a queen cost?", "10", True, source="quiz", when=7.0)
    again = Record(tmp_path / "progress.sqlite3", store=LogStore(path))
    assert again.learner_of(key) == "Ben"
    assert [(e.id, e.rule, e.when) for e in again.events("Ben")] == [(1, "C-2", 7.0)]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # a second writer's events are seen by the first (it reads what the file grew by)
    again.add("Ben", "C-3", "q", "a", False, source="quiz", when=8.0)
    assert [e.rule for e in r.events("Ben")] == ["C-2", "C-3"]


def test_a_refused_change_leaves_nothing_in_the_log(tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    r = Record(tmp_path / "progress.sqlite3", store=LogStore(path))
    r.enrol("Cleo")
    size = path.stat().st_size
    with pytest.raises(ProgressError):
        r.add_events([Event("Cleo", "M-1", "q", "a", True), Event("Cleo", "XX-9", "q", "a", True)])
    with pytest.raises(ProgressError):
        r.enrol("CLEO")
    assert path.stat().st_size == size and r.count() == 0


def test_without_sqlite3_the_record_is_the_log(tmp_path: Path) -> None:
    """Pyodide's Python has no sqlite3: rummy.progress keeps the record all the same,
    in progress.jsonl of the data folder, through the same calls."""
    code = textwrap.dedent("""
        import sys
        sys.modules["sqlite3"] = None  # as in the static site's Python
        from rummy import progress
        progress.set_clock(lambda: 1000.0)
        key = progress.enrol("Dana")
        progress.record("TT-5", "your move", "draw stock", True, source="drill")
        print(key)
    """)
    env = {**os.environ, "RUMMY_DATA": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    key = out.stdout.split()[-1]
    assert (tmp_path / "progress.jsonl").is_file()
    assert not (tmp_path / "progress.sqlite3").exists()
    reread = Record(tmp_path / "progress.sqlite3", store=LogStore(tmp_path / "progress.jsonl"))
    assert reread.learner_of(key) == "Dana"
    assert [(e.rule, e.answered, e.when) for e in reread.events("Dana")] == [
        ("TT-5", "draw stock", 1000.0)]


def test_a_record_opened_first_in_another_process_erases_for_everybody(tmp_path: Path) -> None:
    """SQLite's locks hold: a server's record opened before another process wrote (and
    closed) is seen to erase by a record opened after (opening and closing the
    database file again in the server would have dropped its locks)."""
    server = textwrap.dedent("""
        import sys
        from rummy import progress
        r = progress.default_record()
        print("ready", flush=True)
        sys.stdin.readline()
        print(r.erase("Ben"), flush=True)
        sys.stdin.readline()  # still running while the other process reads
    """)
    env = {**os.environ, "RUMMY_DATA": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-c", server], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == "ready"
        r = Record(tmp_path / "progress.sqlite3")
        r.enrol("Ana")
        r.enrol("Ben")
        r.add("Ana", "TT-5", "q", "a", True)
        r.add("Ben", "G-9", "q", "a", True)
        r.close()
        proc.stdin.write("go\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "1"
        after = Record(tmp_path / "progress.sqlite3")
        assert after.events("Ben") == [] and [e.rule for e in after.events("Ana")] == ["TT-5"]
    finally:
        proc.communicate("done\n", timeout=60)


class _Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize("kind", ["sqlite", "log"])
def test_a_quota_counts_what_was_kept_per_learner_and_keeps_nothing_past_it(
        tmp_path: Path, kind: str) -> None:
    """The hub's quota (per minute and per day), counted in the record by when each
    event was kept, not by the "when" a sender says: a record opened again counts the
    same; a refused batch keeps nothing; an event sent again is not counted twice."""
    from rummy.progress import QuotaError

    clock = _Clock(1_000_000.0)
    quota = [(60.0, 5), (DAY, 8)]

    def record() -> Record:
        store = (SqliteStore(_made(tmp_path) / "p.sqlite3") if kind == "sqlite"
                 else LogStore(tmp_path / "p.jsonl"))
        return Record(tmp_path / "p.sqlite3", clock=clock, store=store)

    def batch(n: int, start: int, who: str = "ana") -> list[Event]:
        # each event says it happened long ago: its "when" changes nothing
        return [Event(who, "M-1", "q", "a", True, when=float(start + i)) for i in range(n)]

    r = record()
    assert len(r.add_events(batch(4, 0), quota=quota)) == 4
    with pytest.raises(QuotaError, match="at most 5 events in 60 seconds") as no:
        r.add_events(batch(2, 100), quota=quota)
    assert no.value.retry_after == 60 and no.value.limit == 5 and r.count() == 4
    assert len(r.add_events(batch(4, 0) + batch(1, 200), quota=quota)) == 5  # 4 sent again
    assert len(r.add_events(batch(5, 0, "ben"), quota=quota)) == 5  # each learner his own
    clock.t += 30
    r.close()
    r = record()  # opened again (a restart): the count is the record's
    with pytest.raises(QuotaError) as no:
        r.add_events(batch(1, 300), quota=quota)
    assert no.value.retry_after == 30
    clock.t += 31
    assert len(r.add_events(batch(3, 400), quota=quota)) == 3  # 8 today
    clock.t += 3600
    with pytest.raises(QuotaError, match=f"at most 8 events in {DAY:g} seconds") as no:
        r.add_events(batch(1, 500), quota=quota)
    assert no.value.retry_after == DAY - 3600 - 31 - 30
    assert r.count() == 13 and len(r.add_events(batch(1, 500))) == 1  # no quota: kept
