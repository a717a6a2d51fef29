"""What the teacher does with shared tables: make them, see them, start
each hand, free a seat, lock a table, turn a name away, close it.

Each is a method of the table service (:class:`tableserver.service.TableService`),
built on :class:`tableserver.core.ServiceCore`, and each asks for the
teacher key first (:meth:`ServiceCore.check_teacher
<tableserver.core.ServiceCore.check_teacher>`).  The teacher's views show no
card of any hand.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from rummy.progress import MAX_NAME
from tableserver.checks import flag, new_table
from tableserver.core import ServiceCore
from tableserver.deals import hand_seed
from tableserver.errors import BadRequest, Conflict
from tableserver.learners import base_name
from tableserver.tables import OPEN_STATUSES, Seat, Table, new_code, token_digest

__all__ = ["TeacherActions"]

log = logging.getLogger("tableserver")


class TeacherActions(ServiceCore):
    """The teacher's side of the table service's API."""

    def create(self, variant: Any, seats: Any, options: Any = None, *, teacher_key: Any = None,
               timeout: Any = 120, speed: Any = 1.0, pause_between_hands: Any = True,
               stand_in: Any = "greedy", seed: int | None = None, client: str = "",
               hints: Any = False, pin: Any = None, pace: Any = None) -> dict[str, Any]:
        """A new table: ``seats`` lists ``"human"`` or a bot name per seat;
        only the teacher (``teacher_key``) makes tables, ``client`` (who asks:
        the web layer passes the address) at most ``create_quota`` an hour.

        ``timeout``: seconds a learner has for a move before a stand-in bot
        (``stand_in``) plays it (None: never); a learner who has not been seen
        for that long is played for at once.  ``speed``: seconds a bot waits
        before its move.  ``pause_between_hands``: after each hand the table
        waits for the teacher's "next hand".  Answers the code and the
        spectator token (shown once).  Each hand is dealt from the server's
        deal key and the hand's number (:mod:`tableserver.deals`): nothing
        that an answer, a page, a log or the database shows tells a hand to
        come.  ``pin`` (4 to 12 letters or digits): learners need it to join,
        besides the code.  ``pace``:
        seconds each call (or turn) waits for a learner before the stand-in
        plays it for them, who is told so; None is the game's own (25 at the
        Big Table, none elsewhere), 0 none (:func:`tableserver.checks.pace_of`).
        A learner a stand-in played for three calls in a row shows to the
        teacher as not playing, and from then on each call waits only a few
        seconds for them, until they move again."""
        self.check_teacher(teacher_key)
        if pin is not None and (not isinstance(pin, str) or not pin.isascii()
                                or not pin.isalnum() or not 4 <= len(pin) <= 12):
            raise BadRequest("pin must be 4 to 12 letters or digits, e.g. \"4821\", or null")
        v, kinds, options, settings = new_table(
            variant, seats, options, timeout=timeout, speed=speed,
            pause_between_hands=pause_between_hands, stand_in=stand_in, hints=hints, pace=pace)
        keyed = seed is None and self.deal_key is not None
        if seed is None:
            seed = self.seeds()
        with self.tables_lock:
            now = self.clock()
            self.expire(now)
            self.quota.check(client, now)
            open_tables = sum(1 for t in self.tables.values()
                              if t.status in OPEN_STATUSES and t.broken is None)
            if open_tables >= self.max_tables:
                raise Conflict(f"the server holds {open_tables} open tables, its limit: "
                               "close a table before making another")
            code = new_code()
            while code in self.tables:
                code = new_code()
            spectator = secrets.token_urlsafe(24)
            if keyed and self.deal_key is not None:  # from the server's key, never saved
                seed = hand_seed(self.deal_key, code, 0)
            seat_list = [
                Seat(k, f"Seat {i + 1}" if k == "human" else f"{k.title()} bot {i + 1}")
                for i, k in enumerate(kinds)
            ]
            table = Table(code, v, options, seed, seat_list, settings, token_digest(spectator),
                          touched=now, pin=None if pin is None else token_digest(pin),
                          keyed=keyed)
            self.save_new(table)
            self.tables[code] = table
            self.quota.count(client, now)
            if not any(s.human for s in seat_list):
                self.start_game(table)
                self.save(table)
            log.info("table %s: created (%s, %d seats)", code, v.name, len(kinds))
            out = {"code": code, "spectator_token": spectator, "table": table.info()}
        self.settle(table)
        self.notify(code)
        return out

    def admin(self, code: Any, teacher_key: Any) -> dict[str, Any]:
        """The teacher's view: the table's seats (who joined, who is away),
        status and version, whether it is locked and the names turned away;
        no card of any hand."""
        self.check_teacher(teacher_key)
        with self.tables_lock:
            table = self.table(code, allow_closed=True)
            info = table.info()
            info["turned_away"] = list(table.turned_away)
            return {"code": table.code, "version": table.version, "status": table.status,
                    "table": info}

    def list_tables(self, teacher_key: Any) -> dict[str, Any]:
        """The teacher's tables: code, variant, status and version of each."""
        self.check_teacher(teacher_key)
        with self.tables_lock:
            return {"tables": [{"code": t.code, "variant": t.variant.name, "status": t.status,
                                "version": t.version} for t in self.tables.values()
                               if t.broken is None]}

    def seated_names(self, code: Any = None) -> list[str]:
        """The names learners joined with, each once, in table and seat order:
        at table ``code``, or with None at every table this service holds
        (finished and closed ones too, until they expire); a freed seat's
        learner is no longer among them.  Checks no key: the caller does
        (:func:`tableserver.progress_api.teacher_may_see`)."""
        with self.tables_lock:
            if code is not None:
                tables = [self.table(code, allow_closed=True)]
            else:
                tables = [t for t in self.tables.values() if t.broken is None]
            names = [s.name for t in tables for s in t.seats if s.human and s.token is not None]
        return list(dict.fromkeys(names))

    def next_hand(self, code: Any, teacher_key: Any) -> dict[str, Any]:
        """Start the game (a waiting table: free seats are played by stand-in
        bots until someone joins) or the next hand (a paused table)."""
        self.check_teacher(teacher_key)
        with self.changing(code) as table:
            if table.status == "waiting":
                self.start_game(table)
            elif table.status == "paused":
                self.play_on(table)
            elif table.status == "over":
                raise BadRequest("the game is over: make a new table for another game")
            else:
                raise BadRequest("the hand is still being played: the next hand starts when "
                                 "this one is scored")
            self.save(table)
            out = self.admin(code, teacher_key)
        return out

    def remove_seat(self, code: Any, teacher_key: Any, seat: Any) -> dict[str, Any]:
        """Take a learner off their seat: their token stops working, a stand-in
        bot plays the seat, and the next learner to join gets it."""
        self.check_teacher(teacher_key)
        with self.changing(code) as table:
            n = len(table.seats)
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise BadRequest(f"seat must be a seat number, 0 to {n - 1}")
            s = table.seats[seat]
            if not s.human:
                raise BadRequest(f"seat {seat} is a bot's seat: only learners' seats can be "
                                 "freed")
            if s.token is None:
                raise BadRequest(f"seat {seat} is already free")
            table.free_seat(seat)
            self.save(table)
            log.info("table %s: seat %d removed by the teacher", table.code, seat)
            out = self.admin(code, teacher_key)
        return out

    def lock(self, code: Any, teacher_key: Any, locked: Any = True) -> dict[str, Any]:
        """Lock the table (nobody else can join; who sits there plays on) or,
        with ``locked`` false, open it again."""
        self.check_teacher(teacher_key)
        locking = flag(locked, "locked")
        with self.changing(code) as table:
            table.locked = locking
            table.version += 1
            self.save(table)
            log.info("table %s: %s by the teacher", table.code, "locked" if locking else "opened")
            out = self.admin(code, teacher_key)
        return out

    def turn_away(self, code: Any, teacher_key: Any, name: Any) -> dict[str, Any]:
        """Turn ``name`` away: a seat it holds, or a numbered copy of it
        ("Ana 2"), is freed (a stand-in plays it) and nobody joins under that
        name or a numbered copy of it again."""
        self.check_teacher(teacher_key)
        if not isinstance(name, str) or not name.strip() or len(name) > 2 * MAX_NAME:
            raise BadRequest("name must be the name a learner joined with, e.g. \"Ana\"")
        clean = base_name(name)  # "Ana" covers "ana 2", "Ana3" ...
        with self.changing(code) as table:
            if clean not in table.turned_away:
                table.turned_away.append(clean)
            for i, s in enumerate(table.seats):
                if s.human and s.token is not None and base_name(s.name) == clean:
                    table.free_seat(i)
            table.version += 1
            self.save(table)
            log.info("table %s: a name was turned away by the teacher", table.code)
            out = self.admin(code, teacher_key)
        return out

    def close(self, code: Any, teacher_key: Any) -> dict[str, Any]:
        """Close the table for good: every token stops working."""
        self.check_teacher(teacher_key)
        with self.changing(code) as table:
            table.status = "closed"
            table.version += 1
            for s in table.seats:
                s.since = s.deadline = None
            self.save(table)
            table.game = None
            table.bots = []
            log.info("table %s: closed by the teacher", table.code)
            out = {"code": table.code, "version": table.version, "status": table.status}
        return out
