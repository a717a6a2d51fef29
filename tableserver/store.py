"""Where shared tables are kept: an embedded SQLite database.

Every applied move is one row of ``moves``, written in the same transaction
as the table's new bookkeeping (``tables.meta``: seats, token hashes,
deadlines, status, version) and committed (WAL, ``synchronous=FULL``)
before the service answers the request.  One writer thread commits what is
queued together (a group commit: one fsync for every move that arrived
meanwhile), in the order the moves were made.  At the end of each hand a
table's game is kept whole (``tables.snapshot``), so after a restart a table
is rebuilt from its last snapshot and the moves after it only.

The file is the server's alone (mode 0600: it holds the deals' seeds).  At
start it is checked (``PRAGMA integrity_check``); a damaged file is moved
aside (``tables.sqlite3.damaged-TIME``) and a fresh one started, with a
message in the log.  Before each commit the writer checks that the file it
opened is still the one at its path: a file deleted or replaced while the
server runs stops every write (:class:`StoreLost`) instead of acknowledging
moves into a file nobody will read again.

The database lives in the kit's data folder (:func:`rummy.progress.data_dir`:
``$RUMMY_DATA`` if set, else ``~/.local/share/rummy-kit``), file
``tables.sqlite3`` (:func:`tables_path`).

>>> import tempfile, os
>>> s = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite3"))
>>> s.create("ABCD", {"variant": "gin_three"})
>>> s.save_move("ABCD", 1, 0, "pass", {"variant": "gin_three", "version": 2})
>>> [(t.code, t.meta, t.moves) for t in s.load()]
[('ABCD', {'variant': 'gin_three', 'version': 2}, [(0, 'pass')])]
>>> oct(os.stat(s.path).st_mode & 0o777)
'0o600'
"""

from __future__ import annotations

import json
import logging
import os
import queue
import sqlite3
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from rummy.progress import data_dir

__all__ = ["Store", "StoreLost", "Saved", "tables_path", "TABLES_FILE"]

log = logging.getLogger("tableserver")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL REFERENCES tables(code),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    t REAL NOT NULL,
    PRIMARY KEY (code, n)
);
"""
_SNAPSHOT_COLUMNS = (("snapshot", "BLOB"), ("snapshot_moves", "INTEGER NOT NULL DEFAULT 0"))


class StoreLost(RuntimeError):
    """The database file was deleted or replaced while the server ran."""


class Saved(NamedTuple):
    """A table as the database keeps it."""

    code: str
    meta: dict[str, Any]
    moves: list[tuple[int, str]]  # (seat, action) after the snapshot, in order
    snapshot: bytes | None = None  # the pickled game after ``snapshot_moves`` moves
    snapshot_moves: int = 0


@dataclass
class _Job:
    statements: list[tuple[str, tuple[Any, ...]]]
    done: Future[None]


#: The tables database's file name, in the kit's data folder.
TABLES_FILE = "tables.sqlite3"


def tables_path() -> Path:
    """The tables database: ``tables.sqlite3`` in the kit's data folder
    (:func:`rummy.progress.data_dir`, beside the record of learning).

    >>> tables_path().name, tables_path().parent == data_dir()
    ('tables.sqlite3', True)
    """
    return data_dir() / TABLES_FILE


class Store:
    """The tables database: one row per table, one row per applied move."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else tables_path()
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock = threading.Lock()
        #: where a damaged file was moved at start (None: it was sound)
        self.moved_aside: Path | None = None
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as e:
            self.moved_aside = self._move_aside(str(e))
            self._db = self._open()
        self._identity = self._file_identity()
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        #: the error that stopped the writer, until :meth:`reset`
        self.failed: BaseException | None = None
        self._writer = threading.Thread(target=self._write_loop, name="rummy-store",
                                        daemon=True)
        self._writer.start()

    def _open(self) -> sqlite3.Connection:
        """Open (or make, mode 0600) the database and check it whole."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        os.chmod(self.path, 0o600)  # a file made by an older kit may be world-readable
        for extra in ("-wal", "-shm"):
            side = Path(f"{self.path}{extra}")
            if side.exists():
                os.chmod(side, 0o600)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            found = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
            if found != ["ok"]:
                raise sqlite3.DatabaseError("integrity check: " + "; ".join(map(str, found[:3])))
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(_SCHEMA)
            have = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
            for name, kind in _SNAPSHOT_COLUMNS:
                if name not in have:
                    db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
        except BaseException:
            db.close()
            raise
        return db

    def _move_aside(self, why: str) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        for extra in ("", "-wal", "-shm"):
            src = Path(f"{self.path}{extra}")
            if src.exists():
                os.replace(src, Path(f"{aside}{extra}"))
        log.error("The tables database %s is damaged (%s): it was moved aside to %s and the "
                  "server starts with no tables. Keep that file if you want to try to repair "
                  "it with the sqlite3 tool.", self.path, why, aside)
        return aside

    def _file_identity(self) -> tuple[int, int]:
        st = os.stat(self.path)
        return (st.st_dev, st.st_ino)

    def check_file(self) -> None:
        """:class:`StoreLost` if the file at the path is not the one opened."""
        try:
            now = self._file_identity()
        except FileNotFoundError:
            raise StoreLost(f"the database file {self.path} was deleted while the server "
                            "ran: no move can be saved; restart the server") from None
        if now != self._identity:
            raise StoreLost(f"the database file {self.path} was replaced while the server "
                            "ran: no move can be saved; restart the server")

    def close(self) -> None:
        """Write what is queued, then close the database (the service is stopping)."""
        self._queue.put(None)
        self._writer.join(30)
        with self._lock:
            self._db.close()

    def submit(self, statements: list[tuple[str, tuple[Any, ...]]]) -> Future[None]:
        """Queue ``statements`` for the writer; the future is done once they are
        committed (with any other writes queued meanwhile: one transaction, one
        fsync for all of them), or fails with the database's error.  Writes are
        committed in the order they were submitted."""
        job = _Job(statements, Future())
        if self.failed is not None:
            job.done.set_exception(self.failed)
        else:
            self._queue.put(job)
        return job.done

    def reset(self) -> None:
        """Let the writer write again after a failure (the service reloaded),
        unless the file itself is gone."""
        if not isinstance(self.failed, StoreLost):
            self.failed = None

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            error: BaseException | None = self.failed
            if error is None:
                try:
                    with self._lock:
                        self.check_file()
                        db = self._db
                        db.execute("BEGIN IMMEDIATE")
                        try:
                            for job in batch:
                                for sql, args in job.statements:
                                    db.execute(sql, args)
                        except BaseException:
                            db.execute("ROLLBACK")
                            raise
                        db.execute("COMMIT")
                except Exception as e:  # every write of the batch is refused
                    error = self.failed = e
            for job in batch:
                if error is None:
                    job.done.set_result(None)
                else:
                    job.done.set_exception(error)
            if stop:
                return

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        self.submit(statements).result()

    @staticmethod
    def create_statements(code: str, meta: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        return [("INSERT INTO tables (code, meta, created) VALUES (?, ?, ?)",
                 (code, json.dumps(meta), time.time()))]

    @staticmethod
    def meta_statements(code: str, meta: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        return [("UPDATE tables SET meta = ? WHERE code = ?", (json.dumps(meta), code))]

    @staticmethod
    def move_statements(code: str, n: int, seat: int, action: str, meta: dict[str, Any]
                        ) -> list[tuple[str, tuple[Any, ...]]]:
        return [("INSERT INTO moves (code, n, seat, action, t) VALUES (?, ?, ?, ?, ?)",
                 (code, n, seat, action, time.time())),
                ("UPDATE tables SET meta = ? WHERE code = ?", (json.dumps(meta), code))]

    @staticmethod
    def snapshot_statements(code: str, n: int, game: bytes) -> list[tuple[str, tuple[Any, ...]]]:
        """Keep the whole game after move ``n``: a restart replays only the
        moves after it (the moves stay kept, in order)."""
        return [("UPDATE tables SET snapshot = ?, snapshot_moves = ? WHERE code = ?",
                 (game, n, code))]

    @staticmethod
    def delete_statements(codes: list[str]) -> list[tuple[str, tuple[Any, ...]]]:
        """Forget tables ``codes`` and their moves."""
        out: list[tuple[str, tuple[Any, ...]]] = []
        for code in codes:
            out += [("DELETE FROM moves WHERE code = ?", (code,)),
                    ("DELETE FROM tables WHERE code = ?", (code,))]
        return out

    def create(self, code: str, meta: dict[str, Any]) -> None:
        """Keep a new table."""
        self._write(self.create_statements(code, meta))

    def save_move(self, code: str, n: int, seat: int, action: str, meta: dict[str, Any]) -> None:
        """Keep move number ``n`` (1 = the first) and the table's bookkeeping
        after it, in one committed transaction."""
        self._write(self.move_statements(code, n, seat, action, meta))

    def load(self) -> list[Saved]:
        """Every table with its bookkeeping, its last snapshot and the moves
        after it, in order."""
        with self._lock:
            rows = self._db.execute("SELECT code, meta, snapshot, snapshot_moves FROM tables "
                                    "ORDER BY created").fetchall()
            moves: dict[str, list[tuple[int, str]]] = {}
            for code, _meta, _snap, n in rows:  # each by the primary key: only after the snapshot
                moves[code] = [(int(seat), str(action)) for seat, action in self._db.execute(
                    "SELECT seat, action FROM moves WHERE code = ? AND n > ? ORDER BY n",
                    (code, int(n or 0)))]
        return [Saved(code, json.loads(meta), moves[code], snap, int(n or 0))
                for code, meta, snap, n in rows]

    def count_moves(self) -> int:
        """How many moves are kept, over every table."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
