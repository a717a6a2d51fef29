"""The core of the table service: the tables it holds, under one lock,
and the one way each of its parts is wired in.

:class:`ServiceCore` builds the parts (presence and pace, the bots and
their worker, the database) and holds what every request shares: the
tables by code, the lock, the clock, the teacher key, the listeners told of
each change.  The service's API (:class:`tableserver.service.TableService`)
is built on it: what a learner does (:mod:`tableserver.learners`) and what
the teacher does (:mod:`tableserver.teacher`).  Each change of a table
goes one way (:meth:`ServiceCore.changing`): under the lock, saved before
anybody hears of it, then every listener told.
"""

from __future__ import annotations

import logging
import pickle
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

import rummy
from rummy.action import Action
from tableserver.bots import BOT_MOVES_PER_STEP, BOT_PACE, BotTurns, BotWorker, make_bots
from tableserver.checks import Quota, check_key_strength
from tableserver.deals import deal_by_hands, deal_key
from tableserver.errors import Forbidden, Gone, NotFound, NotSaved, without_paths
from tableserver.persistence import Persistence
from tableserver.presence import LEFT_AFTER, QUIET_AFTER, Presence
from tableserver.store import Store
from tableserver.tables import (
    SEED_BITS,
    Table,
    normal_code,
    token_digest,
    token_matches,
)

__all__ = ["ServiceCore", "EXPIRE_AFTER", "CREATE_QUOTA"]

log = logging.getLogger("tableserver")

#: Finished, closed and idle tables are forgotten after this many seconds.
EXPIRE_AFTER = 24 * 3600.0
#: Tables one client may make per hour.
CREATE_QUOTA = 60


class ServiceCore:
    """The tables of a service, kept in ``store`` (see :class:`TableService
    <tableserver.service.TableService>` for every option)."""

    def __init__(self, store: Store | None = None, *, clock: Callable[[], float] = time.time,
                 max_tables: int = 500, wait_for_disk: bool = True,
                 teacher_key: str | None = None, expire_after: float = EXPIRE_AFTER,
                 create_quota: int = CREATE_QUOTA, bot_pace: float = BOT_PACE,
                 moves_per_step: int = BOT_MOVES_PER_STEP,
                 seeds: Callable[[], int] | None = None,
                 left_after: float = LEFT_AFTER, quiet_after: float = QUIET_AFTER) -> None:
        self.store = store if store is not None else Store()
        #: where a new table's deal comes from: 128 bits from ``secrets`` (a test
        #: passes a seeded source, so that its deals are the same on every run)
        self.seeds = seeds if seeds is not None else (lambda: secrets.randbits(SEED_BITS))
        #: the server's own deals: each hand from this key (tableserver.deals), kept beside
        #: the database, never in it (a test's seeded source deals as it always did)
        self.deal_key = deal_key(self.store.path.parent) if seeds is None else None
        self.clock = clock
        self.wait_for_disk = wait_for_disk
        self.max_tables = max_tables
        self.expire_after = float(expire_after)
        #: how many tables one client may make in an hour
        self.quota = Quota(create_quota)
        if teacher_key is not None:
            if not isinstance(teacher_key, str):
                raise ValueError("the teacher key must be a text (a fresh one is made when "
                                 "none is given)")
            check_key_strength(teacher_key.strip())
        #: the teacher's key: it makes tables and runs them (shown once, at start)
        self.teacher_key = teacher_key.strip() if teacher_key else secrets.token_urlsafe(16)
        #: whether the key was made here (then the server prints it; a given one it does not)
        self.teacher_key_made = not teacher_key
        self._teacher = token_digest(self.teacher_key)
        self.tables: dict[str, Table] = {}
        #: recent joins by (table, request id): (when, answer), kept in memory only
        self.joins: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}
        #: called with whether a teacher key given was right, at each check (the web
        #: layer slows down a client that guesses)
        self.key_listeners: list[Callable[[bool], None]] = []
        #: called with a table's code after every change (the web layer wakes long polls)
        self.listeners: list[Callable[[str], None]] = []
        #: held by every read and change of a table (the bots' worker and requests share it)
        self.tables_lock = threading.RLock()
        self._expired_at = 0.0
        self._presence = Presence(float(bot_pace), float(left_after), float(quiet_after))
        self._worker = BotWorker(self._chores)
        self._bots = BotTurns(lock=self.tables_lock, tables=self.tables, clock=clock,
                              presence=self._presence, commit=self.commit_move,
                              changed=self.notify, moves_per_step=moves_per_step)
        self._disk = Persistence(self.store, clock=clock, presence=self._presence,
                                 wake=self._worker.wake, deal_key=self.deal_key)
        self.tables.update(self._disk.load())

    # -- settings kept by the parts -----------------------------------------------------
    @property
    def create_quota(self) -> int:
        """Tables one client may make per hour."""
        return self.quota.per_hour

    @property
    def bot_pace(self) -> float:
        """Seconds between two moves at a table without a learner's seat."""
        return self._presence.bot_pace

    @property
    def left_after(self) -> float:
        """Seconds after a page cut its long poll off that its seat counts as left."""
        return self._presence.left_after

    @property
    def quiet_after(self) -> float:
        """Seconds after a page's long poll was answered that its seat counts as left."""
        return self._presence.quiet_after

    @property
    def moves_per_step(self) -> int:
        """Bot moves per table in one step at most."""
        return self._bots.moves_per_step

    # -- finding a table and who asks ---------------------------------------------------
    def table(self, code: Any, allow_closed: bool = False) -> Table:
        """The table of ``code`` (its finished game unpickled if it was kept
        frozen); :class:`NotFound`, or :class:`Gone` for a table that could not
        be restored or (unless ``allow_closed``) that the teacher closed."""
        key = normal_code(code)
        table = self.tables.get(key)
        if table is None:
            raise NotFound(f"there is no table {key}: check the code the teacher gave")
        if table.broken is not None:
            raise Gone(f"table {key} could not be restored after a restart: "
                       f"{without_paths(table.broken)}")
        if table.status == "closed" and not allow_closed:
            raise Gone(f"the teacher closed table {key}")
        if table.frozen is not None:  # a finished table, restored at its first visitor
            table.game, table.frozen = pickle.loads(table.frozen), None
        return table

    def who(self, table: Table, token: Any, *, allow_teacher: bool = False) -> int | str:
        """Who holds ``token`` at ``table``: a seat number, ``"spectator"`` or
        (with ``allow_teacher``) ``"teacher"``; else :class:`Forbidden`."""
        return table.holder(token, self._teacher if allow_teacher else None)

    def check_teacher(self, key: Any) -> None:
        """Raise :class:`Forbidden` unless ``key`` is the teacher key: the one
        check of every teacher action (SHA-256 digests compared in constant time)."""
        right = token_matches(key, self._teacher)
        if isinstance(key, str) and key:  # no key given is no guess
            for listener in list(self.key_listeners):
                listener(right)
        if not right:
            raise Forbidden("only the teacher may do this: give the teacher key the server "
                            "printed when it started")

    # -- changing a table ---------------------------------------------------------------
    @contextmanager
    def changing(self, code: Any) -> Iterator[Table]:
        """The open table ``code``, under the lock, for a change (a method of
        the service's API changes it in the ``with`` block); then, unless the
        change raised, its write is awaited and everybody is told."""
        with self.tables_lock:
            table = self.table(code)
            yield table
        self.settle(table)
        self.notify(table.code)

    def start_game(self, table: Table) -> None:
        """Deal the table's game: its seats' names, bots and deadlines; it plays."""
        names = [s.name for s in table.seats]
        table.game = rummy.new_game(table.variant, players=names, seed=table.seed,
                                    **table.options)
        if table.keyed and self.deal_key is not None:
            deal_by_hands(table.game, self.deal_key, table.code)
        table.names = names
        table.status = "playing"
        table.version += 1
        table.hand = table.game.number
        make_bots(table)
        self._presence.set_deadlines(table, self.clock())
        log.info("table %s: the game starts", table.code)

    def save_new(self, table: Table) -> None:
        """Keep a new table (the database's write is queued)."""
        self._disk.created(table)

    def save(self, table: Table) -> None:
        """Keep the table's new bookkeeping (the database's write is queued)."""
        self._disk.save(table)

    def play_on(self, table: Table) -> None:
        """A paused table plays its next hand."""
        table.status = "playing"
        table.version += 1
        self._presence.set_deadlines(table, self.clock())

    def commit_move(self, table: Table, seat: int, action: Action) -> None:
        """After ``game.apply``: new version, status and deadlines, then the
        move and the bookkeeping are saved (before anybody hears of it)."""
        ended = table.after_move(seat)
        self._presence.set_deadlines(table, self.clock())
        table.touched = self.clock()
        self._disk.save_move(table, seat, action, ended)
        log.info("table %s: seat %d moved (%s), version %d", table.code, seat, action.verb,
                 table.version)

    def settle(self, table: Table) -> None:
        """Wait until the table's last write is on disk (unless the web layer
        awaits it itself: ``wait_for_disk`` false)."""
        if self.wait_for_disk and table.pending is not None:
            self.saved(table.pending)

    def notify(self, code: str) -> None:
        """Tell every listener that table ``code`` changed."""
        for listener in list(self.listeners):
            try:
                listener(code)
            except Exception:  # a listener's failure must not undo a saved move
                log.exception("a table listener failed")

    # -- the bots and presence ----------------------------------------------------------
    def step(self, *, settle: bool = True) -> int:
        """One step of the bots: at each playing table, at most
        ``moves_per_step`` due bot or stand-in moves.  A bot chooses outside
        the service's lock (other tables and requests go on meanwhile); its
        move is made if the table has not changed since.  Answers how many
        moves were made."""
        made, changed = self._bots.step()
        if settle:
            for table in changed:
                self.settle(table)
        return made

    def tick(self, limit: int = 10_000) -> int:
        """Steps until no bot or stand-in move is due (tests call it; a
        server runs :meth:`start_bots` instead); answers how many moves."""
        made = 0
        self.presence()
        while made < limit:
            n = self.step(settle=False)
            if not n:
                break
            made += n
        for table in list(self.tables.values()):
            self.settle(table)
        return made

    def start_bots(self, interval: float = 0.05) -> None:
        """Run the bots in a worker thread (never on a server's event loop):
        a step whenever something changed or every ``interval`` seconds, and
        the expiry of old tables once a minute."""
        self._worker.start(interval)

    def stop_bots(self) -> None:
        """Stop the bots' worker (the server is stopping)."""
        self._worker.stop()

    def _chores(self) -> int:
        """One round of the bots' worker: a step (pages wait for the disk
        themselves), presence, and the expiry once a minute."""
        moved = self.step(settle=False)
        self.presence()
        if self.clock() - self._expired_at > 60:
            with self.tables_lock:
                self.expire()
        return moved

    def presence(self, now: float | None = None) -> list[str]:
        """Mark the seats whose page went away as left, and tell everybody
        (the teacher's page lists them within seconds); answers the codes of
        the tables that changed.  The bots' worker calls it every step."""
        now = self.clock() if now is None else now
        with self.tables_lock:
            changed = self._presence.mark_left(self.tables.values(), now)
        for code in changed:
            self.notify(code)
        return changed

    def ended_pages(self, grace: float, now: float | None = None) -> list[str]:
        """The kernels of learners' pages whose browser stopped beating
        ``grace`` seconds after their seat went away, each once: the web
        layer ends them (:func:`tableserver.web.end_dead_pages`)."""
        now = self.clock() if now is None else now
        with self.tables_lock:
            return self._presence.pages_ended(self.tables.values(), now, grace)

    def expire(self, now: float | None = None) -> list[str]:
        """Forget every table that finished, was closed, could not be restored
        or did not change for ``expire_after`` seconds (also in the
        database); answers their codes."""
        now = self.clock() if now is None else now
        with self.tables_lock:
            self._expired_at = now
            old = [c for c, t in self.tables.items() if now - t.touched >= self.expire_after]
            for code in old:
                del self.tables[code]
            if old:
                self._disk.forget(old)
                log.info("%d tables expired", len(old))
        return old

    # -- the disk -----------------------------------------------------------------------
    def pending(self, code: str) -> Future[None] | None:
        """The write a view of table ``code`` must wait for before anybody
        sees it (None: everything is on disk)."""
        return self._disk.pending(self.tables.get(code))

    def saved(self, fut: Future[None]) -> None:
        """Wait for a write; if the database refused it, reload every table
        from the database (what was not saved never happened) and raise
        :class:`NotSaved`."""
        try:
            fut.result()
        except Exception as e:
            self.recover()
            raise NotSaved(f"the move could not be saved ({without_paths(str(e))}); the table "
                           "is as it was "
                           "before it") from None

    def recover(self) -> None:
        """Reload every table from the database after a refused write."""
        with self.tables_lock:
            if self.store.failed is None:
                return
            log.error("a write failed (%s): every table is reloaded from the database",
                      self.store.failed)
            self.store.reset()
            self.tables.clear()
            self.tables.update(self._disk.load())
