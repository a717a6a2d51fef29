"""Where shared tables are kept: an embedded SQLite database.

Every applied move is one row of ``moves``, written in the same transaction
as the table's new bookkeeping (``tables.meta``: seats, token hashes,
deadlines, status, version) and committed (WAL, ``synchronous=FULL``)
before the service answers the request.  One writer thread commits what is
queued together (a group commit: one fsync for every move that arrived
meanwhile), in the order the moves were made.  After a restart each table is
rebuilt from its seed and its moves, in order.

The database lives in the kit's data folder: ``$RUMMY_DATA`` if set, else
``~/.local/share/rummy-kit`` (``$XDG_DATA_HOME/rummy-kit``), file
``tables.sqlite3``.

>>> import tempfile, os
>>> s = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite3"))
>>> s.create("ABCD", {"variant": "gin_three"})
>>> s.save_move("ABCD", 1, 0, "pass", {"variant": "gin_three", "version": 2})
>>> s.load()
[('ABCD', {'variant': 'gin_three', 'version': 2}, [(0, 'pass')])]
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Store", "data_dir", "default_path"]

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


@dataclass
class _Job:
    statements: list[tuple[str, tuple[Any, ...]]]
    done: Future[None]


def data_dir() -> Path:
    """The kit's data folder: ``$RUMMY_DATA``, else ``$XDG_DATA_HOME/rummy-kit``
    (``~/.local/share/rummy-kit``)."""
    env = os.environ.get("RUMMY_DATA")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "rummy-kit"


def default_path() -> Path:
    """The tables database in the data folder."""
    return data_dir() / "tables.sqlite3"


class Store:
    """The tables database: one row per table, one row per applied move."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        #: the error that stopped the writer, until :meth:`reset`
        self.failed: BaseException | None = None
        self._writer = threading.Thread(target=self._write_loop, name="rummy-store",
                                        daemon=True)
        self._writer.start()

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
        """Let the writer write again after a failure (the service reloaded)."""
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

    def create(self, code: str, meta: dict[str, Any]) -> None:
        """Keep a new table."""
        self._write(self.create_statements(code, meta))

    def save_meta(self, code: str, meta: dict[str, Any]) -> None:
        """Keep a table's new bookkeeping (a join, a status change ...)."""
        self._write(self.meta_statements(code, meta))

    def save_move(self, code: str, n: int, seat: int, action: str, meta: dict[str, Any]) -> None:
        """Keep move number ``n`` (1 = the first) and the table's bookkeeping
        after it, in one committed transaction."""
        self._write(self.move_statements(code, n, seat, action, meta))

    def load(self) -> list[tuple[str, dict[str, Any], list[tuple[int, str]]]]:
        """Every table with its bookkeeping and its moves in order."""
        with self._lock:
            rows = self._db.execute("SELECT code, meta FROM tables ORDER BY created").fetchall()
            out = []
            for code, meta in rows:
                moves = self._db.execute(
                    "SELECT seat, action FROM moves WHERE code = ? ORDER BY n", (code,)
                ).fetchall()
                out.append((code, json.loads(meta), [(int(s), str(a)) for s, a in moves]))
        return out

    def count_moves(self) -> int:
        """How many moves are kept, over every table."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
