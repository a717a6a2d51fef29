"""The bots at shared tables: who plays each seat a learner does not, and
the worker thread in which they move.

Every seat of a playing table has a bot (:func:`make_bots`): a bot seat's
own, a learner's seat the table's stand-in, which plays only when the
learner is away or out of time (:class:`tableserver.presence.Presence`
says when a move is due).  :class:`BotTurns` makes the due moves: a bot
chooses outside the service's lock, so other tables and requests go on
meanwhile, and its move is made only if the table has not changed since.
:class:`BotWorker` runs that in a thread of its own, never on a server's
event loop.

>>> w = BotWorker(lambda: 0)
>>> w.start(0.01); w.running
True
>>> w.stop(); w.running
False
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from rummy.action import Action
from rummy.bots import make_bot
from tableserver.presence import Presence
from tableserver.tables import Table

__all__ = ["BOT_PACE", "BOT_MOVES_PER_STEP", "make_bots", "BotTurns", "BotWorker"]

log = logging.getLogger("tableserver")

#: Seconds between two moves at a table with no learner's seat, whatever its speed.
BOT_PACE = 0.5
#: Bot moves per table in one step of the bots' worker.
BOT_MOVES_PER_STEP = 1


def make_bots(table: Table) -> None:
    """Give each seat its bot: a bot seat its own kind, a learner's seat the
    table's stand-in (seeded from the table's seed and the seat)."""
    table.bots = [
        make_bot(s.kind if not s.human else table.settings["stand_in"],
                 seed=table.seed * 31 + i)
        for i, s in enumerate(table.seats)
    ]


class BotTurns:
    """The due bot and stand-in moves at the ``tables`` a service holds
    under ``lock``; ``commit`` saves a move made (the service's bookkeeping)
    and ``changed`` tells the pages of a table's change."""

    def __init__(self, *, lock: Any, tables: dict[str, Table], clock: Callable[[], float],
                 presence: Presence, commit: Callable[[Table, int, Action], None],
                 changed: Callable[[str], None], moves_per_step: int = BOT_MOVES_PER_STEP
                 ) -> None:
        self.lock = lock
        self.tables = tables
        self.clock = clock
        self.presence = presence
        self.commit = commit
        self.changed = changed
        self.moves_per_step = max(1, int(moves_per_step))

    def step(self) -> tuple[int, list[Table]]:
        """At each playing table, at most ``moves_per_step`` due moves;
        answers how many were made and the tables that changed (in order)."""
        made = 0
        changed: list[Table] = []
        for table in list(self.tables.values()):
            for _ in range(self.moves_per_step):
                if not self.move(table):
                    break
                made += 1
                if not changed or changed[-1] is not table:
                    changed.append(table)
        return made, changed

    def move(self, table: Table) -> bool:
        """The first due bot or stand-in move at ``table``, if any (answers
        whether one was made)."""
        with self.lock:
            if table.status != "playing" or self.tables.get(table.code) is not table:
                return False
            now = self.clock()
            bots_only = not any(s.human for s in table.seats)
            if bots_only and now < table.paced_until:
                return False
            due = [p for p in table.game.to_act() if self.presence.due(table, p, now)]
            if not due:
                return False
            seat, version = due[0], table.version
            bot = table.bots[seat]
            assert bot is not None
            obs = table.game.observe(seat)
        action = bot.choose(obs)  # the long part, outside the lock
        with self.lock:
            if table.version != version or table.status != "playing":
                return False  # the table moved on: the next step chooses afresh
            table.game.apply(action, player=seat)
            if bots_only:
                table.paced_until = now + self.presence.bot_pace
            s = table.seats[seat]
            if s.human:
                s.missed += 1  # the page tells the learner a helper played for them
                # where calls keep a pace, a learner too slow once still gets the
                # next call's whole wait; one who let NOT_PLAYING calls pass is away,
                # as is one whose page went away
                away = (table.settings.get("pace") is None or s.not_playing
                        or s.left or self.presence.absent(table, s, now))
                if away and not s.away:
                    s.away = True
                    log.info("table %s: a stand-in bot plays for seat %d", table.code, seat)
            self.commit(table, seat, action)
        self.changed(table.code)  # a page waits for the write before it sees the move
        return True


class BotWorker:
    """A daemon thread that calls ``work`` (answers how many moves it made)
    whenever it is woken (:meth:`wake`: something changed) or every
    ``interval`` seconds, and at once again after a step that moved.  A
    failure of ``work`` is logged; the thread goes on."""

    def __init__(self, work: Callable[[], int]) -> None:
        self.work = work
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Whether the thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        """Something changed: work now rather than at the end of the interval."""
        self._wake.set()

    def start(self, interval: float = 0.05) -> None:
        """Start the thread (once: a running worker goes on as it is)."""
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(interval,), name="rummy-bots",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (the server is stopping)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def _run(self, interval: float) -> None:
        while not self._stop.is_set():
            try:
                moved = self.work()
            except Exception:  # a bot's failure is logged; the server goes on
                log.exception("the bots' step failed")
                moved = 0
            if not moved:
                self._wake.wait(interval)
                self._wake.clear()
            else:
                time.sleep(0.001)  # let the server's requests in between steps
