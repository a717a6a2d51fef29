"""Who is at a table, and when each seat's decision falls due.

A learner is present while their page waits for news (a long poll is open)
or has just asked something.  A seat that must act has the time its
decision began and a deadline: a bot moves after the table's pace, a
learner's seat is played by a stand-in bot after the table's timeout, or at
the bots' pace once the learner is away (their page went away, or they were
not seen for the timeout).  :class:`Presence` answers these questions from
a table's seats and a time; the service (:mod:`tableserver.service`) asks
them under its lock and tells the pages what changed.

>>> from tableserver.tables import Seat
>>> p = Presence(bot_pace=0.5)
>>> page = Seat("human", "Ana", token="digest", polled=True, last_seen=100.0)
>>> p.gone(page, 100.0 + QUIET_AFTER + 1), p.gone(page, 101.0)
(True, False)
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from tableserver.tables import NOT_PLAYING, OPEN_STATUSES, Seat, Table

__all__ = ["Presence", "mark_seen", "mark_watching", "mark_beat", "LEFT_AFTER", "QUIET_AFTER",
           "NOT_PLAYING", "RETURN_WAIT", "BEAT_EVERY", "BEAT_AWAY", "PAGE_GRACE",
           "wait_for_learner"]

log = logging.getLogger("tableserver")

#: seconds after a learner's page stopped waiting for news (its long poll ended
#: and no other began: the page was closed, its kernel shut down) that the seat
#: counts as left: the teacher sees it, and at a table with a timeout a stand-in
#: plays the seat's turns at the bots' pace instead of waiting out the timeout
LEFT_AFTER = 5.0
#: seconds a page that stopped waiting the usual way (the service answered its
#: long poll) may take before its next one.  The kit's pages ask again at once
#: (their poll runs in a daemon thread of its own), and a closed page's poll is
#: cut off (LEFT_AFTER); a client that redraws before it asks again may take a
#: while on a busy machine.  A closed page whose poll was answered just before
#: it died never asks again: it counts as left after this
QUIET_AFTER = 15.0
#: seconds between two heartbeats of a learner's page: its browser (not its
#: kernel, which lives on when the browser dies) says it is open
BEAT_EVERY = 5.0
#: seconds without a heartbeat after which a page that sent them is away (its
#: browser crashed, the laptop's lid closed, the Wi-Fi dropped): a stand-in
#: plays the seat at the bots' pace, the teacher sees it
BEAT_AWAY = 15.0
#: seconds a page may stay away before its kernel is ended (the web layer
#: ends it; a page that comes back later is drawn afresh and finds its seat)
PAGE_GRACE = 60.0

#: seconds a call waits for a learner who is not playing (a stand-in played
#: their last NOT_PLAYING calls) at a table with a pace: time enough to come
#: back with a click, too little to hold the class
RETURN_WAIT = 5.0


def wait_for_learner(table: Table) -> float | None:
    """Seconds a learner's call (or turn) waits before the stand-in plays
    it: the table's ``pace`` if it has one, else its ``timeout`` (None:
    for ever)."""
    pace = table.settings.get("pace")
    return pace if pace is not None else table.settings["timeout"]


@dataclass
class Presence:
    """The rules of presence and pace: ``bot_pace`` (seconds between two
    moves at a table without a learner's seat), ``left_after`` and
    ``quiet_after`` (see :data:`LEFT_AFTER` and :data:`QUIET_AFTER`)."""

    bot_pace: float
    left_after: float = LEFT_AFTER
    quiet_after: float = QUIET_AFTER

    def pace(self, table: Table) -> float:
        """Seconds a bot waits before its move: the table's speed, and at a
        table without a learner's seat at least ``bot_pace``."""
        speed = float(table.settings["speed"])
        return speed if any(s.human for s in table.seats) else max(speed, self.bot_pace)

    def set_deadlines(self, table: Table, now: float) -> None:
        """Each seat that must act has the time its decision began and the
        time a bot or stand-in plays it; other seats have none."""
        acting = set(table.game.to_act()) if table.status == "playing" else set()
        for i, s in enumerate(table.seats):
            if i not in acting:
                s.since = s.deadline = None
            elif s.since is None:
                s.since = now
                if s.human:
                    wait = wait_for_learner(table)
                    s.deadline = None if wait is None else now + wait
                else:
                    s.deadline = now + self.pace(table)

    def restarted(self, table: Table, now: float) -> None:
        """After a restart: everybody gets the timeout to come back, and a
        deadline that passed while the server was down (not the learner's
        fault) gets its time again."""
        for s in table.seats:
            s.last_seen = now
            if s.deadline is not None and s.deadline < now:
                s.deadline = now + ((wait_for_learner(table) or 0.0) if s.human
                                    else self.pace(table))

    def gone(self, s: Seat, now: float) -> bool:
        """Did this learner's page go away?  It long-polled, none is open now,
        and none was for ``left_after`` seconds since the page cut its last
        poll off (it was closed), or for ``quiet_after`` seconds since its last
        poll was answered (a page opens its next poll once it has redrawn the
        table).  A learner who never polled (a script using the API) is judged
        by the table's timeout alone."""
        if s.beat is not None:  # the page's browser says whether it is open
            return s.human and s.token is not None and now - s.beat > BEAT_AWAY
        grace = self.left_after if s.dropped else self.quiet_after
        return (s.human and s.token is not None and s.polled and s.watching == 0
                and now - s.last_seen > grace)

    def absent(self, table: Table, s: Seat, now: float) -> bool:
        """Whether a stand-in plays this learner's seat at the bots' pace: nobody
        sits there, or (at a table with a timeout) the page went away or the
        learner was not seen for the timeout."""
        if s.token is None:
            return True
        if s.beat is not None and (s.left or self.gone(s, now)):
            return True  # its browser stopped beating: nobody is there
        timeout = table.settings["timeout"]
        return timeout is not None and (s.left or self.gone(s, now)
                                        or s.watching == 0 and now - s.last_seen > timeout)

    def due(self, table: Table, seat: int, now: float) -> bool:
        """Whether the bot or stand-in of ``seat`` moves now."""
        s = table.seats[seat]
        if s.since is None:
            return False
        if not s.human:
            return s.deadline is not None and now >= s.deadline
        if self.absent(table, s, now):
            return now >= s.since + self.pace(table)
        if s.away:
            pace = table.settings.get("pace")
            wait = self.pace(table) if pace is None else max(self.pace(table),
                                                             min(pace, RETURN_WAIT))
            return now >= s.since + wait
        return s.deadline is not None and now >= s.deadline

    def pages_ended(self, tables: Iterable[Table], now: float, grace: float) -> list[str]:
        """The kernels of the pages that stopped beating ``grace`` seconds
        ago or more, once each (the web layer ends them)."""
        out: list[str] = []
        for table in tables:
            for s in table.seats:
                if (s.kernel is not None and s.beat is not None
                        and now - s.beat > BEAT_AWAY + grace):
                    out.append(s.kernel)
                    s.kernel = None
        return out

    def mark_left(self, tables: Iterable[Table], now: float) -> list[str]:
        """Mark the seats whose page went away as left (a new version of
        their table); answers the codes of the tables that changed."""
        changed: list[str] = []
        for table in tables:
            if table.status not in OPEN_STATUSES:
                continue
            gone = [s for s in table.seats if not s.left and self.gone(s, now)]
            for s in gone:
                s.left = True
                log.info("table %s: a learner's page went away", table.code)
            if gone:
                table.version += 1
                changed.append(table.code)
        return changed


def mark_seen(table: Table, who: int | str, now: float) -> bool:
    """A seat's learner asked something at ``now``: a learner a stand-in
    played for is back (a new version: answers True)."""
    if not isinstance(who, int):
        return False
    s = table.seats[who]
    s.last_seen = now
    if s.away and table.settings.get("pace") is None:
        # back at the table (where calls keep a pace, only the learner's own
        # move says they play again: their page asks whether they click or not)
        s.away = False
        table.version += 1
        return True
    return False


def mark_watching(table: Table, who: int | str, delta: int, dropped: bool, now: float) -> bool:
    """A long poll for ``who`` opens (``delta`` 1) or ends (-1; ``dropped``:
    the page cut it off); answers True when a page that had left is back (a
    new version)."""
    if not isinstance(who, int):
        return False
    s = table.seats[who]
    s.watching = max(0, s.watching + delta)
    s.last_seen = now
    s.dropped = delta < 0 and dropped
    if delta > 0:
        s.polled = True
        if s.left and s.beat is None:  # the learner's page is back (a page that beats
            # says so itself: its kernel's poll is no sign of the browser)
            s.left = False
            table.version += 1
            return True
    return False


def mark_beat(table: Table, who: int, now: float, kernel: str | None = None, *,
              gone: bool = False) -> bool:
    """A heartbeat of ``who``'s page (its browser) at ``now``, naming the
    ``kernel`` it runs in; ``gone``: the page's last, sent as it is left
    (the seat counts as left :data:`LEFT_AFTER` seconds later, unless a
    reloaded page beats meanwhile).  Answers True when a page that had gone
    away is back (a new version)."""
    s = table.seats[who]
    s.last_seen = now
    s.beat = now - BEAT_AWAY + LEFT_AFTER if gone else now
    if kernel is not None:
        s.kernel = kernel
    if s.left and not gone:
        s.left = False
        table.version += 1
        return True
    return False
