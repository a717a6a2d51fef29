"""What a learner does at a shared table: join, read, wait for news, act.

Each is a method of the table service (:class:`tableserver.service.TableService`),
built on :class:`tableserver.core.ServiceCore`.  A seat is its token: a
view is built from that seat's own observation, a move is the engine's to
judge, and a page that showed an old version gets :class:`Conflict` with the
fresh state instead of a move it did not mean.
"""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

from rummy.action import Action
from rummy.errors import GameError
from tableserver.checks import flag, learner_name
from tableserver.core import ServiceCore
from tableserver.errors import BadRequest, Conflict, Forbidden, TooMany
from tableserver.presence import mark_beat, mark_seen, mark_watching
from tableserver.tables import token_digest, token_matches

__all__ = ["LearnerActions", "MAX_POLLS"]

#: How long the answer of a join is kept for its ``request_id`` (a page that
#: sends its join again, e.g. after a timeout, gets the same seat back).
JOIN_MEMORY = 600.0
#: Joins remembered at most (the oldest are forgotten first).
JOIN_MEMORY_SIZE = 10_000

_NUMBERED = re.compile(r"[\s\d_.#()-]+$")


def base_name(name: str) -> str:
    """A name without case and without a number at its end: ``"Ana 2"``,
    ``"ana2"`` and ``"ANA #3"`` are all ``"ana"`` (a turned-away name covers
    its numbered copies).

    >>> base_name("Ana 2"), base_name("ana-3"), base_name("R2D2"), base_name("42")
    ('ana', 'ana', 'r2d', '42')
    """
    folded = " ".join(name.split()).casefold()
    return _NUMBERED.sub("", folded) or folded


#: What a kernel id a page names in its heartbeat looks like (Jupyter's: a uuid).
_KERNEL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

#: Long polls one seat may hold open at once (a page holds one; a learner
#: may have the table open in a second tab).
MAX_POLLS = 4

log = logging.getLogger("tableserver")


class LearnerActions(ServiceCore):
    """The learners' side of the table service's API."""

    def join(self, code: Any, name: Any, *, token: str | None = None, pin: Any = None,
             browser: Any = None, request_id: Any = None) -> dict[str, Any]:
        """Take the next free human seat under ``name``: answers the seat
        number and its secret token (keep it: it is the seat).  A page that
        kept a seat's token returns to it instead of joining again.  An
        identity layer (:mod:`tableserver.hub`) gives the seat's ``token``
        itself (a secret of at least 32 characters it derives from who joins).

        A name is one learner's at a table (any case): a second "ana" is
        refused, as is a name the teacher turned away or a numbered copy of it
        ("Ana 2").  A table made with a ``pin`` needs it.  ``browser`` (the
        web layer's cookie) sits one browser once at a table; ``request_id``
        (the page's, for this join) answers a join sent twice with the same
        seat."""
        if token is not None and (not isinstance(token, str) or len(token) < 32):
            raise ValueError("a given seat token must be a secret of at least 32 characters")
        if request_id is not None and (not isinstance(request_id, str)
                                       or not 8 <= len(request_id) <= 64):
            raise BadRequest("request_id must be a text of 8 to 64 characters, the same for "
                             "a join sent again")
        if browser is not None and (not isinstance(browser, str) or not 16 <= len(browser) <= 128):
            browser = None  # not one this server made: the browser is not known
        clean = learner_name(name)
        remembered = self._remembered_join(code, request_id)
        if remembered is not None:
            return remembered
        with self.changing(code) as table:
            if table.status == "over":
                raise Conflict(f"table {table.code} has finished its game: nobody can join")
            if table.locked:
                raise Forbidden(f"the teacher locked table {table.code}: nobody else can join")
            if table.pin is not None:
                right = token_matches(pin if isinstance(pin, str) else None, table.pin)
                for listener in list(self.key_listeners):
                    if isinstance(pin, str) and pin:
                        listener(right)
                if not right:
                    raise Forbidden(f"table {table.code} needs the PIN the teacher gave: "
                                    "type it with your name")
            if base_name(clean) in {base_name(n) for n in table.turned_away}:
                raise Forbidden(f"the teacher turned the name {clean!r} away from table "
                                f"{table.code}")
            if browser is not None:
                mine = token_digest("browser:" + browser)
                for i, t in enumerate(table.seats):
                    if t.human and t.token is not None and t.browser == mine:
                        raise Conflict(f"this browser already sits at table {table.code} as "
                                       f"{t.name} (seat {i + 1}): go back to that page, or ask "
                                       "the teacher to free that seat")
            free = [i for i, s in enumerate(table.seats) if s.human and s.token is None]
            if not free:
                humans = sum(1 for s in table.seats if s.human)
                raise Conflict(f"table {table.code} is full: all {humans} learners' seats are "
                               "taken")
            seat = free[0]
            s = table.seats[seat]
            taken = {t.name.casefold() for i, t in enumerate(table.seats) if i != seat}
            final, k = clean, 2
            if token is None and final.casefold() in taken:
                raise Conflict(f"the name {clean!r} is taken at table {table.code}: add a "
                               f"letter of your surname, e.g. \"{clean} L\"")
            while final.casefold() in taken:  # a hub user's name, cut to fit, is theirs
                final, k = f"{clean} {k}", k + 1
            if token is None:
                token = secrets.token_urlsafe(24)
            s.token = token_digest(token)
            s.browser = None if browser is None else token_digest("browser:" + browser)
            s.away = s.polled = s.left = s.dropped = False
            s.last_seen = self.clock()
            s.name = final
            if table.game is not None:  # a late joiner: the game calls them by their name
                table.rename(seat, final)
            table.version += 1
            if table.status == "waiting" and all(t.token is not None for t in table.seats
                                                 if t.human):
                self.start_game(table)
            self.save(table)
            log.info("table %s: seat %d joined", table.code, seat)
            out = {"code": table.code, "seat": seat, "name": s.name, "token": token}
            if request_id is not None:
                self._remember_join(table.code, request_id, out)
        return out

    def _remembered_join(self, code: Any, request_id: str | None) -> dict[str, Any] | None:
        """The answer of an earlier join with this ``request_id``, if it is
        recent and its seat is still held."""
        if request_id is None:
            return None
        with self.tables_lock:
            table = self.table(code)
            kept = self.joins.get((table.code, request_id))
            if kept is None or self.clock() - kept[0] > JOIN_MEMORY:
                return None
            out = kept[1]
            if not token_matches(out["token"], table.seats[out["seat"]].token):
                return None  # the teacher freed the seat meanwhile
            return dict(out)

    def _remember_join(self, code: str, request_id: str, out: dict[str, Any]) -> None:
        joins = self.joins
        joins[(code, request_id)] = (self.clock(), dict(out))
        if len(joins) > JOIN_MEMORY_SIZE:
            for k in list(joins)[:len(joins) - JOIN_MEMORY_SIZE]:
                del joins[k]

    def state(self, code: Any, token: Any) -> dict[str, Any]:
        """What the token's holder may see: a seat's observation (its own
        hand, the public table), or for the spectator token what every
        seat sees alike."""
        with self.tables_lock:
            table = self.table(code)
            who = self.who(table, token, allow_teacher=True)
            changed = mark_seen(table, who, self.clock())
            out = table.view(who)
        self.settle(table)
        if changed:
            self.notify(table.code)
        return out

    def version(self, code: Any, token: Any) -> int:
        """The table's version (it grows with every change), for a token of
        this table."""
        with self.tables_lock:
            table = self.table(code, allow_closed=True)
            self.who(table, token, allow_teacher=True)
            return table.version

    def watch(self, code: Any, token: Any, delta: int, *, dropped: bool = False) -> None:
        """A long poll for ``token``'s seat opens (``delta`` 1) or ends (-1;
        ``dropped``: the page cut it off before it was answered, as when the
        page is closed): a learner waiting for news is present.  A seat holds
        at most :data:`MAX_POLLS` open at once (:class:`TooMany`)."""
        with self.tables_lock:
            table = self.table(code, allow_closed=True)
            who = self.who(table, token, allow_teacher=True)
            if delta > 0 and isinstance(who, int) and table.seats[who].watching >= MAX_POLLS:
                raise TooMany(f"this seat already waits for news {MAX_POLLS} times at once: "
                              "close a tab of this table, then try again")
            back = mark_watching(table, who, delta, dropped, self.clock())
        if back:
            self.notify(table.code)

    def beat(self, code: Any, token: Any, kernel: Any = None, gone: Any = False
             ) -> dict[str, Any]:
        """A heartbeat of the token's page, sent by its browser every few
        seconds (:data:`tableserver.presence.BEAT_EVERY`): the page is open.
        From its first beat the seat is judged by its beats alone (its
        kernel lives on when the browser dies): none for
        :data:`~tableserver.presence.BEAT_AWAY` seconds and the seat is away,
        a stand-in plays it and the teacher sees it; after a grace the
        ``kernel`` the page named (a Jupyter kernel id) is ended by the web
        layer.  A page being left says so (``gone``): its seat counts as
        left within :data:`~tableserver.presence.LEFT_AFTER` seconds unless
        a page (a reload) beats again.  Answers the table's code, the seat
        and the version."""
        gone = flag(gone, "gone")
        if kernel is not None and (not isinstance(kernel, str)
                                   or not _KERNEL_ID.fullmatch(kernel)):
            raise BadRequest("kernel must be the page's kernel id, e.g. "
                             "\"0b5c9b6e-2f7a-4d5e-9b0a-1c2d3e4f5a6b\", or null")
        with self.tables_lock:
            table = self.table(code)
            who = self.who(table, token)
            if not isinstance(who, int):
                raise Forbidden("only a seat's page sends heartbeats: use the seat's token")
            back = mark_beat(table, who, self.clock(), kernel, gone=gone)
            out = {"code": table.code, "seat": who, "version": table.version}
        if back:
            log.info("table %s: seat %d's page is back", table.code, who)
            self.notify(table.code)
        return out

    def act(self, code: Any, token: Any, action: Any, version: Any = None) -> dict[str, Any]:
        """Make ``action`` (text such as ``"discard 9c"``) for the token's seat.

        ``version`` is the table version the page showed: a move that is no
        longer legal because the table moved on gets :class:`Conflict` with
        the fresh state; an illegal move on a fresh page gets
        :class:`BadRequest` with the engine's reason.  Answers the seat's
        new state once the move is saved.  The advisor at a Gin table gives
        advice with ``"advise draw stock"``."""
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise BadRequest("version must be the whole number the table's state showed")
        if not isinstance(action, str) or not action.strip() or len(action) > 200:
            raise BadRequest("action must be a move as text, e.g. \"draw stock\" or "
                             "\"discard 9c\"")
        with self.changing(code) as table:
            who = self.who(table, token)
            if not isinstance(who, int):
                raise Forbidden("this token may watch the table but not move: use a seat's "
                                "token")
            seat = who
            mark_seen(table, seat, self.clock())
            stale = version is not None and version < table.version
            if table.status != "playing":
                reason = {
                    "waiting": "the game has not started yet: the teacher starts it",
                    "paused": "the hand is over: the teacher starts the next hand",
                    "over": "the game is over: no more moves",
                }.get(table.status, f"the table is {table.status}")
                if stale:
                    raise Conflict(reason, table.view(seat))
                raise BadRequest(reason)
            game = table.game
            try:
                parsed = Action.parse(action)
                if table.variant.family == "gin" and parsed.verb.startswith("advise"):
                    advice = Action.parse(action.strip()[len("advise"):].strip())
                    game.advise(advice, player=seat)
                    table.version += 1
                    out = table.view(seat)
                else:
                    game.apply(parsed, player=seat)
                    out = None
                    me = table.seats[seat]
                    if me.missed or me.away:  # the learner's own move: they play again
                        me.missed, me.away = 0, False
            except GameError as e:
                if stale:
                    raise Conflict(f"the table moved on since your page was drawn: {e}",
                                   table.view(seat)) from None
                raise BadRequest(str(e)) from None
            if out is None:
                self.commit_move(table, seat, parsed)
                out = table.view(seat)
        return out
