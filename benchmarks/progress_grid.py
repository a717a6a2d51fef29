"""How fast is the teacher's class grid on a big hub?  300 learners x 58 rules from a
million events, read from the marks kept with each event, against a replay of every
event (the grid as it was computed before the marks).

The database is made in a temporary folder: the learners (as a hub's service knows
them), then the events written in one transaction straight into SQLite, then the
record opened, which makes the marks of every learner and rule from the events (as it
does for a record of an older kit; a test checks that these marks are the ones kept
event by event, and that the grid from them equals the replay).

Printed (wall time, and the process's CPU time: on a shared machine the wall time
mostly measures the wait for a core): the time to make the marks once; the grid's median time *cold* (a record
opened afresh: SQLite's own cache empty; the files are in the system's cache) and
*warm* (the same record asked again); the replay's time (once: it is slow) and the
ratio; one event kept with its mark (median); ``os.getloadavg()`` before and after.

Run: ``.venv/bin/python benchmarks/progress_grid.py`` (``--learners 300 --events
1000000 --runs 5 --seed 1``; ``--no-replay`` skips the replay).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from rummy import progress, rulebook
from rummy.progress import DAY, Record


def build(path: Path, learners: int, events: int, seed: int) -> list[str]:
    """A record of ``learners`` hub users and ``events`` events; their names."""
    rng = random.Random(seed)
    start = 1_780_000_000.0
    rec = Record(path, clock=lambda: start)
    names = [rec.hub_user(f"learner-{n:03d}@school.example.org") for n in range(learners)]
    rec.close()
    rules = list(rulebook.RULE_IDS)
    answers = ["draw stock", "pass", "knock", "Kc", "yes", "no", "3 melds"]
    span = 60 * DAY
    rows = []
    for n in range(events):
        right = rng.random() < 0.7
        rows.append((rng.choice(names), rng.choice(rules), f"position {rng.randrange(20)}",
                     rng.choice(answers), int(right), int(rng.random() < 0.8),
                     rng.choice(progress.SOURCES), start + span * n / events,
                     "play" if rng.random() < 0.1 else "rule",
                     "server" if rng.random() < 0.2 else "self", start + span * n / events))
    db = sqlite3.connect(path)
    with db:
        db.executemany("INSERT INTO events (learner, rule, asked, answered, right, first, "
                       "source, t, judged, judged_by, kept) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                       rows)
        db.execute("DELETE FROM marks_made")  # the record makes the marks when opened
    db.close()
    return names


def replay(rec: Record, names: list[str], now: float) -> dict[str, object]:
    """The class grid by reading and folding every event again."""
    ids = list(dict.fromkeys(rec.resolve(n) or n for n in names))
    rows: list[dict[str, object]] = []
    everything: list[progress.Event] = []
    for who in ids:
        events = rec.events(who)
        everything += events
        rows += progress.grid_rows(rec.label(who), events, now)
    return {"learners": [rec.label(w) for w in ids], "rows": rows,
            "missed": progress.most_missed(everything)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", type=int, default=300)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-replay", action="store_true")
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "progress.sqlite3"
        t = time.perf_counter()
        names = build(path, args.learners, args.events, args.seed)
        print(f"{args.events} events of {args.learners} learners written in "
              f"{time.perf_counter() - t:.1f} s")
        now = 1_780_000_000.0 + 61 * DAY
        t = time.perf_counter()
        rec = Record(path, clock=lambda: now)
        print(f"marks made once from the events in {time.perf_counter() - t:.1f} s")
        rec.close()
        cold, cold_cpu = [], []
        for _ in range(args.runs):
            rec = Record(path, clock=lambda: now)
            t, c = time.perf_counter(), time.process_time()
            grid = rec.class_grid(names)
            cold.append(time.perf_counter() - t)
            cold_cpu.append(time.process_time() - c)
            rec.close()
        rec = Record(path, clock=lambda: now)
        warm, warm_cpu = [], []
        for _ in range(args.runs):
            t, c = time.perf_counter(), time.process_time()
            grid = rec.class_grid(names)
            warm.append(time.perf_counter() - t)
            warm_cpu.append(time.process_time() - c)
        print(f"grid of {len(grid['learners'])} learners, {len(grid['rows'])} rows: "
              f"cold median {statistics.median(cold) * 1000:.0f} ms "
              f"(runs {', '.join(f'{x * 1000:.0f}' for x in cold)}; CPU median "
              f"{statistics.median(cold_cpu) * 1000:.0f} ms), "
              f"warm median {statistics.median(warm) * 1000:.0f} ms "
              f"(runs {', '.join(f'{x * 1000:.0f}' for x in warm)}; CPU median "
              f"{statistics.median(warm_cpu) * 1000:.0f} ms)")
        keep = []
        for n in range(max(args.runs, 20)):
            t = time.perf_counter()
            rec.add(names[n % len(names)], "TT-5", "one more", "pass", n % 2 == 0,
                    source="drill", when=now - 60 + n)
            keep.append(time.perf_counter() - t)
        print(f"one event kept with its mark (committed): median "
              f"{statistics.median(keep) * 1000:.1f} ms")
        if not args.no_replay:
            t, c = time.perf_counter(), time.process_time()
            again = replay(rec, names, now)
            took, took_cpu = time.perf_counter() - t, time.process_time() - c
            grid = rec.class_grid(names)
            same = again == grid
            print(f"replay of every event: {took:.1f} s (CPU {took_cpu:.1f} s), "
                  f"{took / statistics.median(warm):.0f} times the warm grid "
                  f"({took / statistics.median(cold):.0f} times the cold one); "
                  f"the same grid: {same}")
        rec.close()
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
