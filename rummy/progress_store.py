"""Where the record of learning is kept: one interface, two stores.

:class:`rummy.progress.Record` keeps its learners and events through a :class:`Store`;
what it computes from them (identity, FSRS schedule, the class grid) is the same
whichever store holds them.

- :class:`SqliteStore`: SQLite (WAL, ``synchronous=FULL``, mode 0600), under a server
  or in JupyterLab: several kernels may write at once.
- :class:`LogStore`: a JSON-lines file, one line per change (a learner made, a key
  given, an event kept, a learner erased), replayed when it is opened; each line
  is flushed and synced before the write returns.  It is the static site's store:
  Pyodide's Python has no ``sqlite3``, and the file lives in a folder that the
  browser keeps in IndexedDB (:mod:`rummy.progress_browser`).

>>> import os, tempfile
>>> store = LogStore(os.path.join(tempfile.mkdtemp(), "p.jsonl"))
>>> store.write(lambda tx: tx.insert_learner("Ana", "Ana", "ana", "d1", 5.0))
>>> store.owner("ana", "ANA"), store.learner_by_digest("d1"), store.label_of("Ana")
('Ana', ('Ana', 'd1'), 'Ana')
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Store", "SqliteStore", "LogStore", "open_store", "StoredEvent", "on_write",
           "MARK_COLUMNS"]

#: An event as a store keeps it: (id, learner, rule, asked, answered, right, first,
#: source, when, judged, by).
Row = tuple[int, str, str, str, str, bool, bool, str, float, str, str]


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event's fields as stored (the record checks them before they get here)."""

    learner: str
    rule: str
    asked: str
    answered: str
    right: bool
    first: bool
    source: str
    when: float
    judged: str
    by: str = "self"
    #: when this store kept it (seconds since the epoch; None: not said, as in an older kit)
    kept: float | None = None

    def row(self, i: int) -> Row:
        return (i, self.learner, self.rule, self.asked, self.answered, self.right,
                self.first, self.source, self.when, self.judged, self.by)


class Store(Protocol):
    """What :class:`rummy.progress.Record` asks of where it keeps the record.  Reads
    see every write that returned; :meth:`write` runs its function as one change
    (all of it kept, or none)."""

    path: Path

    def write(self, fn: Callable[[Any], Any]) -> Any: ...
    def owner(self, folded: str, plain: str) -> str | None: ...
    def event_learners(self) -> list[str]: ...
    def learner_by_digest(self, digest: str) -> tuple[str, str] | None: ...
    def label_of(self, learner: str) -> str | None: ...
    def events(self, learner: str) -> list[Row]: ...
    def count(self) -> int: ...
    def kept_since(self, learner: str, since: float) -> list[float]: ...
    def imported(self) -> list[str]: ...
    def close(self) -> None: ...


#: Called with the store's path after each change is written (the browser's record
#: copies it to IndexedDB then).
_write_hooks: list[Callable[[Path], None]] = []


def on_write(fn: Callable[[Path], None]) -> None:
    """Call ``fn(path)`` after every change a :class:`LogStore` writes (once per ``fn``)."""
    if fn not in _write_hooks:
        _write_hooks.append(fn)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    learner TEXT NOT NULL,
    rule TEXT NOT NULL,
    asked TEXT NOT NULL,
    answered TEXT NOT NULL,
    right INTEGER NOT NULL,
    first INTEGER NOT NULL,
    source TEXT NOT NULL,
    t REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS events_learner ON events (learner, t);
CREATE TABLE IF NOT EXISTS learners (
    learner TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    fold TEXT NOT NULL UNIQUE,
    key_digest TEXT UNIQUE,
    made REAL NOT NULL
);
"""
_MARKS = """
CREATE TABLE IF NOT EXISTS marks (
    learner TEXT NOT NULL,
    rule TEXT NOT NULL,
    last_t REAL NOT NULL,
    last_id INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    right_first INTEGER NOT NULL,
    days INTEGER NOT NULL,
    stability REAL,
    last_review TEXT,
    status TEXT NOT NULL,
    due REAL,
    last_wrong TEXT NOT NULL,
    play_attempts INTEGER NOT NULL,
    play_right_first INTEGER NOT NULL,
    server_judged INTEGER NOT NULL,
    missed INTEGER NOT NULL,
    PRIMARY KEY (learner, rule)
);
CREATE TABLE IF NOT EXISTS missed (
    learner TEXT NOT NULL,
    rule TEXT NOT NULL,
    answered TEXT NOT NULL,
    times INTEGER NOT NULL,
    first_t REAL NOT NULL,
    first_id INTEGER NOT NULL,
    PRIMARY KEY (learner, rule, answered)
);
CREATE TABLE IF NOT EXISTS marks_made (version INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS events_rule ON events (learner, rule, asked);
"""
#: The version of the marks' layout: marks of another version are made again.
_MARKS_VERSION = 1
#: A mark's columns for the class grid (:meth:`SqliteStore.marks`).
MARK_COLUMNS = ("rule", "attempts", "right_first", "days", "stability", "last_review",
                "status", "due", "last_wrong", "play_attempts", "play_right_first",
                "server_judged")
_COLUMNS = "id, learner, rule, asked, answered, right, first, source, t, judged, judged_by"
_FIELDS = "learner, rule, asked, answered, right, first, source, t, judged, judged_by"


def _private(path: Path) -> None:
    """Only the account running the kit reads the record (a file of an older kit was 0644)."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for side in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if side.exists():
            os.chmod(side, 0o600)


class SqliteStore:
    """The record in SQLite (WAL, ``synchronous=FULL``): each change committed before
    :meth:`write` returns; several processes take turns."""

    def __init__(self, path: Path) -> None:
        import sqlite3  # here, not at import: the static site's Python has no sqlite3

        self.path = path
        _private(path)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                   timeout=60.0)
        self._db.execute("PRAGMA busy_timeout=60000")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        cols = [r[1] for r in self._db.execute("PRAGMA table_info(events)").fetchall()]
        if "judged" not in cols:  # a record of an older kit: every event judged a rule
            self._db.execute("ALTER TABLE events ADD COLUMN judged TEXT NOT NULL "
                             "DEFAULT 'rule'")
        if "judged_by" not in cols:  # an older kit judged every answer in the kernel
            self._db.execute("ALTER TABLE events ADD COLUMN judged_by TEXT NOT NULL "
                             "DEFAULT 'self'")
        if "kept" not in cols:  # when the event was kept here (an older kit: not said)
            self._db.execute("ALTER TABLE events ADD COLUMN kept REAL")
        self._db.execute("CREATE INDEX IF NOT EXISTS events_kept ON events (learner, kept)")
        self._db.executescript(_MARKS)
        if "imported" not in [r[1] for r in self._db.execute(
                "PRAGMA table_info(learners)").fetchall()]:  # a teacher imported their record
            self._db.execute("ALTER TABLE learners ADD COLUMN imported REAL")
        # the -wal and -shm files SQLite made (chmod only: opening and closing the
        # database file here would drop SQLite's locks on it in this process)
        for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
            if side.exists():
                os.chmod(side, 0o600)

    def close(self) -> None:
        self._db.close()

    def write(self, fn: Callable[[Any], Any]) -> Any:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            out = fn(self)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return out

    # -- reads --------------------------------------------------------------------
    def owner(self, folded: str, plain: str) -> str | None:
        row = self._db.execute("SELECT learner FROM learners WHERE fold = ? OR learner = ?",
                               (folded, plain)).fetchone()
        return None if row is None else str(row[0])

    def event_learners(self) -> list[str]:
        table = "marks" if self.marks_made() else "events"  # the marks: far fewer rows
        rows = self._db.execute(f"SELECT DISTINCT learner FROM {table} ORDER BY learner")
        return [str(r[0]) for r in rows.fetchall()]

    def learner_by_digest(self, digest: str) -> tuple[str, str] | None:
        row = self._db.execute("SELECT learner, key_digest FROM learners WHERE key_digest = ?",
                               (digest,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def label_of(self, learner: str) -> str | None:
        row = self._db.execute("SELECT label FROM learners WHERE learner = ?",
                               (learner,)).fetchone()
        return None if row is None else str(row[0])

    def events(self, learner: str) -> list[Row]:
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM events WHERE learner = ? "
                                "ORDER BY t, id", (learner,)).fetchall()
        return [(int(i), w, r, a, b, bool(ok), bool(f), s, float(t), j, by)
                for i, w, r, a, b, ok, f, s, t, j, by in rows]

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def imported(self) -> list[str]:
        rows = self._db.execute("SELECT learner FROM learners WHERE imported IS NOT NULL "
                                "ORDER BY imported, learner").fetchall()
        return [str(r[0]) for r in rows]

    def set_imported(self, learner: str, t: float) -> None:
        """(inside write) The teacher imported the learner's saved record at ``t``."""
        self._db.execute("UPDATE learners SET imported = COALESCE(imported, ?) WHERE learner = ?",
                         (t, learner))

    # -- the marks: each learner's standing per rule, kept with each event ---------------
    #: this store keeps marks (:class:`rummy.progress.Record` keeps them up to date)
    keeps_marks = True

    def marks_made(self) -> bool:
        """The marks are made (for every event kept) in this layout."""
        row = self._db.execute("SELECT version FROM marks_made").fetchone()
        return row is not None and int(row[0]) == _MARKS_VERSION

    def clear_marks(self) -> None:
        """(inside write) Forget every mark, to make them again."""
        self._db.execute("DELETE FROM marks")
        self._db.execute("DELETE FROM missed")
        self._db.execute("DELETE FROM marks_made")

    def set_marks_made(self) -> None:
        self._db.execute("INSERT INTO marks_made (version) VALUES (?)", (_MARKS_VERSION,))

    def pairs(self) -> list[tuple[str, str]]:
        rows = self._db.execute("SELECT DISTINCT learner, rule FROM events ORDER BY learner, rule")
        return [(str(a), str(b)) for a, b in rows.fetchall()]

    def mark_state(self, learner: str, rule: str) -> tuple[str, float, int] | None:
        row = self._db.execute("SELECT state, last_t, last_id FROM marks WHERE learner = ? AND "
                               "rule = ?", (learner, rule)).fetchone()
        return None if row is None else (str(row[0]), float(row[1]), int(row[2]))

    def put_mark(self, learner: str, last_t: float, last_id: int, state: str,
                 columns: tuple[Any, ...], missed: int) -> None:
        """(inside write) Keep a mark: its :data:`MARK_COLUMNS`, and how many of its
        answers judged by the rules were wrong."""
        self._db.execute("INSERT OR REPLACE INTO marks (learner, last_t, last_id, state, "
                         f"{', '.join(MARK_COLUMNS)}, missed) VALUES ({', '.join('?' * 17)})",
                         (learner, last_t, last_id, state, *columns, missed))

    def rule_events(self, learner: str, rule: str) -> list[Row]:
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM events WHERE learner = ? AND rule = ? "
                                "ORDER BY t, id", (learner, rule)).fetchall()
        return [(int(i), w, r, a, b, bool(ok), bool(f), s, float(t), j, by)
                for i, w, r, a, b, ok, f, s, t, j, by in rows]

    def right_before(self, learner: str, rule: str, asked: str, other_than: int) -> bool:
        """A right first answer judged by the rules to ``asked`` is kept already."""
        return self._db.execute(
            "SELECT 1 FROM events WHERE learner = ? AND rule = ? AND asked = ? AND right = 1 "
            "AND first = 1 AND judged = 'rule' AND id != ? LIMIT 1",
            (learner, rule, asked, other_than)).fetchone() is not None

    def add_missed(self, learner: str, rule: str, answered: str, t: float, i: int) -> None:
        self._db.execute(
            "INSERT INTO missed (learner, rule, answered, times, first_t, first_id) "
            "VALUES (?,?,?,1,?,?) ON CONFLICT (learner, rule, answered) DO UPDATE SET "
            "times = times + 1, "
            "first_id = CASE WHEN excluded.first_t < first_t OR (excluded.first_t = first_t "
            "AND excluded.first_id < first_id) THEN excluded.first_id ELSE first_id END, "
            "first_t = MIN(first_t, excluded.first_t)",
            (learner, rule, answered, t, i))

    def marks(self, learner: str) -> list[tuple[Any, ...]]:
        return self._db.execute(f"SELECT {', '.join(MARK_COLUMNS)} FROM marks WHERE "
                                "learner = ?", (learner,)).fetchall()

    def missed_totals(self, learners: list[str]) -> list[tuple[str, int, int]]:
        """(rule, wrong answers, learners who gave one) over ``learners``."""
        return self._db.execute(
            "SELECT rule, SUM(missed), SUM(missed > 0) FROM marks WHERE missed > 0 AND learner "
            "IN (SELECT value FROM json_each(?)) GROUP BY rule",
            (json.dumps(learners),)).fetchall()

    def missed_of(self, learners: list[str], rule: str
                  ) -> list[tuple[str, str, int, float, int]]:
        """(learner, answered, times, first_t, first_id) of ``rule`` over ``learners``."""
        return self._db.execute(
            "SELECT learner, answered, times, first_t, first_id FROM missed WHERE rule = ? AND "
            "learner IN (SELECT value FROM json_each(?))",
            (rule, json.dumps(learners))).fetchall()

    def missed(self, learner: str) -> list[tuple[str, str, int, float, int]]:
        """(rule, answered, times, first_t, first_id) of the learner's wrong answers."""
        return self._db.execute("SELECT rule, answered, times, first_t, first_id FROM missed "
                                "WHERE learner = ?", (learner,)).fetchall()

    def kept_since(self, learner: str, since: float) -> list[float]:
        rows = self._db.execute("SELECT kept FROM events WHERE learner = ? AND kept > ? "
                                "ORDER BY kept", (learner, since)).fetchall()
        return [float(r[0]) for r in rows]

    # -- inside write() -----------------------------------------------------------
    def has_learner(self, learner: str) -> bool:
        return self._db.execute("SELECT 1 FROM learners WHERE learner = ?",
                                (learner,)).fetchone() is not None

    def fold_taken(self, folded: str) -> bool:
        return self._db.execute("SELECT 1 FROM learners WHERE fold = ?",
                                (folded,)).fetchone() is not None

    def insert_learner(self, learner: str, label: str, folded: str, digest: str | None,
                       made: float) -> None:
        self._db.execute("INSERT INTO learners (learner, label, fold, key_digest, made) "
                         "VALUES (?,?,?,?,?)", (learner, label, folded, digest, made))

    def set_key(self, learner: str, digest: str) -> bool:
        got = self._db.execute("UPDATE learners SET key_digest = ? WHERE learner = ?",
                               (digest, learner))
        return bool(got.rowcount)

    def find_event(self, e: StoredEvent) -> int | None:
        row = self._db.execute(
            "SELECT id FROM events WHERE learner = ? AND rule = ? AND asked = ? AND "
            "answered = ? AND right = ? AND first = ? AND source = ? AND t = ? "
            "AND judged = ? LIMIT 1", self._values(e)[:-1]).fetchone()  # whoever judged it
        return None if row is None else int(row[0])

    def insert_event(self, e: StoredEvent) -> int:
        cur = self._db.execute(f"INSERT INTO events ({_FIELDS}, kept) "
                               "VALUES (?,?,?,?,?,?,?,?,?,?,?)", (*self._values(e), e.kept))
        return int(cur.lastrowid or 0)

    def erase(self, learner: str) -> int:
        self._db.execute("DELETE FROM learners WHERE learner = ?", (learner,))
        self._db.execute("DELETE FROM marks WHERE learner = ?", (learner,))
        self._db.execute("DELETE FROM missed WHERE learner = ?", (learner,))
        return int(self._db.execute("DELETE FROM events WHERE learner = ?",
                                    (learner,)).rowcount)

    @staticmethod
    def _values(e: StoredEvent) -> tuple[Any, ...]:
        return (e.learner, e.rule, e.asked, e.answered, int(e.right), int(e.first), e.source,
                e.when, e.judged, e.by)


class LogStore:
    """The record as a JSON-lines file of changes, replayed when opened (and again
    when another process grew the file).  :meth:`write` appends the change's lines,
    flushed and synced, before it returns; a change that fails leaves nothing."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        _private(self.path)
        self._read_at = -1
        self._reload()

    def close(self) -> None:
        pass

    def _reload(self) -> None:
        size = self.path.stat().st_size if self.path.exists() else 0
        if size == self._read_at:
            return
        self._learners: dict[str, dict[str, Any]] = {}
        self._events: dict[int, StoredEvent] = {}
        self._next = 1
        with self.path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    self._apply(json.loads(line))
        self._read_at = size

    def _apply(self, change: dict[str, Any]) -> Any:
        op = change["op"]
        if op == "learner":
            self._learners[change["learner"]] = {k: change[k] for k in (
                "label", "fold", "key_digest", "made")}
            return None
        if op == "key":
            self._learners[change["learner"]]["key_digest"] = change["key_digest"]
            return None
        if op == "imported":
            self._learners[change["learner"]].setdefault("imported", change["t"])
            return None
        if op == "event":
            i = int(change["id"])
            fields = {k: change[k] for k in ("learner", "rule", "asked", "answered", "right",
                                             "first", "source", "when", "judged")}
            # a log of an older kit: every answer judged in the kernel
            self._events[i] = StoredEvent(**fields, by=change.get("by", "self"),
                                          kept=change.get("kept"))
            self._next = max(self._next, i + 1)
            return i
        if op == "erase":
            self._learners.pop(change["learner"], None)
            gone = [i for i, e in self._events.items() if e.learner == change["learner"]]
            for i in gone:
                del self._events[i]
            return len(gone)
        raise ValueError(f"unknown change {op!r} in {self.path}")

    def write(self, fn: Callable[[Any], Any]) -> Any:
        with self._lock:
            self._reload()
            self._changes: list[dict[str, Any]] = []
            try:
                out = fn(self)
            except BaseException:
                self._read_at = -1  # undo what fn did in memory: read the file again
                self._reload()
                raise
            if self._changes:
                with self.path.open("a", encoding="utf-8") as f:
                    f.write("".join(json.dumps(c, ensure_ascii=False) + "\n"
                                    for c in self._changes))
                    f.flush()
                    os.fsync(f.fileno())
                self._read_at = self.path.stat().st_size
            changed, self._changes = bool(self._changes), []
        if changed:
            for hook in list(_write_hooks):
                hook(self.path)
        return out

    def _change(self, change: dict[str, Any]) -> Any:
        self._changes.append(change)
        return self._apply(change)

    # -- reads --------------------------------------------------------------------
    def owner(self, folded: str, plain: str) -> str | None:
        self._reload()
        for learner, row in self._learners.items():
            if row["fold"] == folded or learner == plain:
                return learner
        return None

    def event_learners(self) -> list[str]:
        self._reload()
        return sorted({e.learner for e in self._events.values()})

    def learner_by_digest(self, digest: str) -> tuple[str, str] | None:
        self._reload()
        for learner, row in self._learners.items():
            if row["key_digest"] == digest:
                return learner, str(row["key_digest"])
        return None

    def label_of(self, learner: str) -> str | None:
        self._reload()
        row = self._learners.get(learner)
        return None if row is None else str(row["label"])

    def events(self, learner: str) -> list[Row]:
        self._reload()
        rows = [e.row(i) for i, e in self._events.items() if e.learner == learner]
        return sorted(rows, key=lambda r: (r[8], r[0]))

    def count(self) -> int:
        self._reload()
        return len(self._events)

    def imported(self) -> list[str]:
        self._reload()
        return [who for who, row in sorted(self._learners.items(),
                                           key=lambda kv: (kv[1].get("imported") or 0, kv[0]))
                if row.get("imported") is not None]

    def set_imported(self, learner: str, t: float) -> None:
        if learner in self._learners and self._learners[learner].get("imported") is None:
            self._change({"op": "imported", "learner": learner, "t": t})

    def kept_since(self, learner: str, since: float) -> list[float]:
        self._reload()
        return sorted(e.kept for e in self._events.values()
                      if e.learner == learner and e.kept is not None and e.kept > since)

    # -- inside write() -----------------------------------------------------------
    def has_learner(self, learner: str) -> bool:
        return learner in self._learners

    def fold_taken(self, folded: str) -> bool:
        return any(row["fold"] == folded for row in self._learners.values())

    def insert_learner(self, learner: str, label: str, folded: str, digest: str | None,
                       made: float) -> None:
        if learner in self._learners or self.fold_taken(folded) or (
                digest is not None and self.learner_by_digest(digest)):
            raise ValueError(f"the learner {learner!r} is already kept")
        self._change({"op": "learner", "learner": learner, "label": label, "fold": folded,
                      "key_digest": digest, "made": made})

    def set_key(self, learner: str, digest: str) -> bool:
        if learner not in self._learners:
            return False
        self._change({"op": "key", "learner": learner, "key_digest": digest})
        return True

    def find_event(self, e: StoredEvent) -> int | None:
        for i, kept in self._events.items():
            if kept == dataclasses.replace(e, by=kept.by, kept=kept.kept):  # whoever judged it
                return i
        return None

    def insert_event(self, e: StoredEvent) -> int:
        return int(self._change({"op": "event", "id": self._next, "learner": e.learner,
                                 "rule": e.rule, "asked": e.asked, "answered": e.answered,
                                 "right": e.right, "first": e.first, "source": e.source,
                                 "when": e.when, "judged": e.judged, "by": e.by,
                                 "kept": e.kept}))

    def erase(self, learner: str) -> int:
        return int(self._change({"op": "erase", "learner": learner}))


def open_store(path: Path) -> SqliteStore | LogStore:
    """The store of the record at ``path`` (``progress.sqlite3``): SQLite where Python
    has it, else (the static site's Pyodide) the JSON-lines log beside it,
    ``progress.jsonl``."""
    try:
        import sqlite3  # noqa: F401
    except ImportError:
        return LogStore(path.with_suffix(".jsonl"))
    return SqliteStore(path)
