"""The table service: shared tables that several learners play, each on
their own screen, with bots filling the other seats.

The service is the only holder of a shared table's engine state.  Everything
it answers is built from one seat's own ``observe(seat)`` (or, for a
spectator, from the fields that every seat's observation shows alike), never
from the full state.  Every applied move is written to the :class:`Store`
before the caller hears about it, and a restarted service rebuilds every
table from its seed and its moves.

A table's life: ``waiting`` (learners join) -> ``playing`` -> ``paused``
after each hand, until the teacher starts the next one -> ``over``; or
``closed`` by the teacher at any time.

>>> import tempfile, os
>>> svc = TableService(Store(os.path.join(tempfile.mkdtemp(), "t.sqlite3")),
...                    teacher_key="a-teacher-key-for-tests")
>>> made = svc.create("three_thirteen", ["human", "greedy"], speed=0,
...                   teacher_key="a-teacher-key-for-tests")
>>> me = svc.join(made["code"], "Ana")
>>> me["seat"], svc.state(made["code"], me["token"])["status"]
(0, 'playing')
>>> svc.state(made["code"], "not-a-token")
Traceback (most recent call last):
...
tableserver.core.Forbidden: this token is not valid at this table: use the token you got when you joined
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import pickle
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import rummy
from rummy.bots import Bot, bot_names, make_bot
from rummy.game import Action, GameError
from rummy.variants import Variant, VariantError, find_variant
from tableserver.store import Store
from tableserver.wire import encode

__all__ = [
    "TableService",
    "ServiceError",
    "BadRequest",
    "Forbidden",
    "NotFound",
    "Conflict",
    "Gone",
    "NotSaved",
    "TooMany",
    "new_code",
    "normal_code",
    "service_options",
    "CODE_ALPHABET",
    "STATUSES",
]

log = logging.getLogger("tableserver")

#: Letters and digits of a table code: no 0/O, 1/I/L or U, so a code read
#: aloud or copied from a projector is not misheard.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters in a code (three groups of four): 30**12, about 2**59 codes.
CODE_LENGTH = 12
#: A table's life, in order (``closed`` may come at any time).
STATUSES = ("waiting", "playing", "paused", "over", "closed")
#: The longest name a learner may give.
MAX_NAME = 24
#: Bits of a shared table's seed (from :mod:`secrets`): nobody can search the
#: seeds for the one that fits what they saw of a deal.
SEED_BITS = 128
#: Finished, closed and idle tables are forgotten after this many seconds.
EXPIRE_AFTER = 24 * 3600.0
#: Tables one client may make per hour.
CREATE_QUOTA = 60
#: Seconds between two moves at a table with no learner's seat, whatever its speed.
BOT_PACE = 0.5
#: Bot moves per table in one step of the bots' worker.
BOT_MOVES_PER_STEP = 1
#: seconds after a learner's page stopped waiting for news (its long poll ended
#: and no other began: the page was closed, its kernel shut down) that the seat
#: counts as left: the teacher sees it, and at a table with a timeout a stand-in
#: plays the seat's turns at the bots' pace instead of waiting out the timeout
LEFT_AFTER = 5.0
#: seconds a page that stopped waiting the usual way (the service answered its
#: long poll) may take before its next one.  The kit's pages ask again at once
#: (their poll runs in a daemon thread of its own, ``SharedTable._listen``), and
#: a closed page's poll is cut off (LEFT_AFTER); a client that redraws before it
#: asks again may take a while on a busy machine.  A closed page whose poll was
#: answered just before it died never asks again: it counts as left after this
QUIET_AFTER = 15.0
_FORMAT = 1
#: Statuses of a table that holds a place under the service's limit.
_OPEN = ("waiting", "playing", "paused")


class ServiceError(Exception):
    """A request the service refuses; ``status`` is its HTTP status and
    ``state`` (for a 409) the fresh view of the seat that asked."""

    status = 400

    def __init__(self, message: str, state: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.state = state


class BadRequest(ServiceError):
    """Bad input or an illegal move (400); the table is unchanged."""

    status = 400


class Forbidden(ServiceError):
    """A wrong or missing token (403); the table is unchanged."""

    status = 403


class NotFound(ServiceError):
    """No table has this code (404)."""

    status = 404


class Conflict(ServiceError):
    """The table moved on since the page's version, or it is full (409)."""

    status = 409


class TooMany(ServiceError):
    """A client made more tables than its quota allows (429)."""

    status = 429


class Gone(ServiceError):
    """The teacher closed the table (410)."""

    status = 410


class NotSaved(ServiceError):
    """The database refused a write (500): the tables were reloaded from it,
    so the move that could not be saved never happened (or the database file
    was deleted or replaced while the server ran: every move is refused)."""

    status = 500


def new_code() -> str:
    """A fresh table code: three groups of four, e.g. ``"K7QM-X4P9-RT2H"``.

    >>> c = new_code()
    >>> len(c), c[4], c[9], all(ch in CODE_ALPHABET for ch in c.replace("-", ""))
    (14, '-', '-', True)
    """
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def normal_code(text: Any) -> str:
    """A code as typed (any case, with or without dashes or spaces) in its
    written form, or :class:`NotFound` when it cannot be a code.

    >>> normal_code("k7qm x4p9-rt2h")
    'K7QM-X4P9-RT2H'
    >>> normal_code("hello")
    Traceback (most recent call last):
    ...
    tableserver.core.NotFound: 'hello' is not a table code: a code is 12 letters and digits, e.g. K7QM-X4P9-RT2H
    """
    if isinstance(text, str):
        raw = "".join(ch for ch in text.upper() if ch not in "- +")
        if len(raw) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in raw):
            return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))
    shown = text if isinstance(text, str) and len(text) <= 40 else "this"
    raise NotFound(f"{shown!r} is not a table code: a code is {CODE_LENGTH} letters and "
                   "digits, e.g. K7QM-X4P9-RT2H")


def service_options(env: dict[str, str] | None = None) -> dict[str, Any]:
    """:class:`TableService` options from the environment, for a server:
    ``RUMMY_TEACHER_KEY`` (the teacher key; it is taken out of the
    environment, so that no kernel the server starts inherits it),
    ``RUMMY_EXPIRE_HOURS`` (default 24), ``RUMMY_CREATE_QUOTA`` (tables per
    client per hour, default 60), ``RUMMY_BOT_PACE`` (seconds, default 0.5).

    >>> service_options({"RUMMY_EXPIRE_HOURS": "2", "RUMMY_BOT_PACE": "1"})
    {'teacher_key': None, 'expire_after': 7200.0, 'create_quota': 60, 'bot_pace': 1.0}
    """
    import os
    from collections.abc import MutableMapping

    source: MutableMapping[str, str] = os.environ if env is None else env
    key = source.pop("RUMMY_TEACHER_KEY", None) or None

    def number(name: str, default: float, low: float) -> float:
        raw = source.get(name)
        try:
            value = float(raw) if raw else default
        except ValueError:
            raise ValueError(f"{name}={raw!r} must be a number") from None
        if not math.isfinite(value) or value < low:
            raise ValueError(f"{name}={raw!r} must be a number of at least {low:g}")
        return value

    return {"teacher_key": key,
            "expire_after": number("RUMMY_EXPIRE_HOURS", EXPIRE_AFTER / 3600, 0.01) * 3600,
            "create_quota": int(number("RUMMY_CREATE_QUOTA", CREATE_QUOTA, 1)),
            "bot_pace": number("RUMMY_BOT_PACE", BOT_PACE, 0.0)}


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _same(token: Any, digest: str | None) -> bool:
    if digest is None or not isinstance(token, str) or not token:
        return False
    return hmac.compare_digest(_hash(token), digest)


@dataclass
class _Seat:
    kind: str  # "human" or a bot name
    name: str
    token: str | None = None  # sha-256 of the seat's token, once a learner joined
    away: bool = False  # a stand-in bot played for this learner since they were last seen
    since: float | None = None  # when this seat's current decision began
    deadline: float | None = None  # when a stand-in plays it (a time, not a countdown)
    last_seen: float = 0.0
    watching: int = 0  # open long polls
    polled: bool = False  # a page long-polled for this seat (so a closed page is noticed)
    dropped: bool = False  # its last long poll was cut off by the page, not answered
    left: bool = False  # that page went away (told to everybody once)

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def to_meta(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "token": self.token, "away": self.away,
                "since": self.since, "deadline": self.deadline}


@dataclass
class _Table:
    code: str
    variant: Variant
    options: dict[str, Any]
    seed: int
    seats: list[_Seat]
    settings: dict[str, Any]
    spectator: str
    status: str = "waiting"
    version: int = 1
    moves: int = 0
    hand: int | None = None
    names: list[str] | None = None
    touched: float = 0.0  # when the table last changed (it expires when idle)
    locked: bool = False  # the teacher let nobody else join
    turned_away: list[str] = field(default_factory=list)  # names the teacher turned away
    game: Any = None
    bots: list[Bot | None] = field(default_factory=list)
    broken: str | None = None
    pending: Future[None] | None = None  # the table's last write, until it is on disk
    paced_until: float = 0.0  # a table of bots only: no move before this time
    frozen: bytes | None = None  # a finished game's snapshot, unpickled when first asked for

    def to_meta(self) -> dict[str, Any]:
        return {
            "format": _FORMAT, "variant": self.variant.name, "options": self.options,
            "seed": self.seed, "seats": [s.to_meta() for s in self.seats],
            "settings": self.settings, "spectator": self.spectator,
            "status": self.status, "version": self.version, "moves": self.moves,
            "hand": self.hand, "names": self.names, "touched": self.touched,
            "locked": self.locked, "turned_away": list(self.turned_away),
        }


def _hand_number(obs: Any) -> int | None:
    """The round or hand on the table (every observation's ``number``)."""
    return int(obs.number)


class TableService:
    """Shared tables of every variant, kept in ``store``.

    ``clock`` gives the time (seconds); tests pass their own.  ``max_tables``
    caps how many open tables (waiting, playing or paused) the service holds;
    finished, closed and idle tables are forgotten after ``expire_after``
    seconds.  ``teacher_key`` is the secret that makes tables and runs them
    (a fresh one, :attr:`teacher_key`, when none is given); ``create_quota``
    is how many tables one client may make per hour.  Bots move in
    :meth:`step` (a worker thread, :meth:`start_bots`, outside any event
    loop), ``moves_per_step`` per table at most, and at a table without a
    learner's seat no faster than one move per ``bot_pace`` seconds.

    Every change is saved before a method returns (``wait_for_disk``).  The
    web layer sets ``wait_for_disk`` to False and, before it answers a
    request, awaits :meth:`pending` instead: meanwhile it serves other
    requests, and their moves are committed together with this one.
    """

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
        self.clock = clock
        self.wait_for_disk = wait_for_disk
        self.max_tables = max_tables
        self.expire_after = float(expire_after)
        self.create_quota = int(create_quota)
        self.bot_pace = float(bot_pace)
        self.moves_per_step = max(1, int(moves_per_step))
        self.left_after = float(left_after)
        self.quiet_after = float(quiet_after)
        if teacher_key is not None and (not isinstance(teacher_key, str)
                                        or len(teacher_key.strip()) < 12):
            raise ValueError("the teacher key must be at least 12 characters (a fresh one "
                             "is made when none is given)")
        #: the teacher's key: it makes tables and runs them (shown once, at start)
        self.teacher_key = teacher_key.strip() if teacher_key else secrets.token_urlsafe(16)
        #: whether the key was made here (then the server prints it; a given one it does not)
        self.teacher_key_made = not teacher_key
        self._teacher = _hash(self.teacher_key)
        self.tables: dict[str, _Table] = {}
        #: called with a table's code after every change (the web layer wakes long polls)
        self.listeners: list[Callable[[str], None]] = []
        self._lock = threading.RLock()
        self._made: dict[str, deque[float]] = {}  # client -> when it made its last tables
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        self._expired_at = 0.0
        self._restore()

    # -- creating and joining ------------------------------------------------
    def create(self, variant: Any, seats: Any, options: Any = None, *, teacher_key: Any = None,
               timeout: Any = 120, speed: Any = 1.0, pause_between_hands: Any = True,
               stand_in: Any = "greedy", seed: int | None = None, client: str = "",
               hints: Any = False) -> dict[str, Any]:
        """A new table: ``seats`` lists ``"human"`` or a bot name per seat;
        only the teacher (``teacher_key``) makes tables, ``client`` (who asks:
        the web layer passes the address) at most ``create_quota`` an hour.

        ``timeout``: seconds a learner has for a move before a stand-in bot
        (``stand_in``) plays it (None: never); a learner who has not been seen
        for that long is played for at once.  ``speed``: seconds a bot waits
        before its move.  ``pause_between_hands``: after each hand the table
        waits for the teacher's "next hand".  Answers the code and the
        spectator token (shown once).  The deal's seed is 128 secret bits
        that no answer, page or log ever shows."""
        self._check_teacher(teacher_key)
        try:
            v = find_variant(variant) if isinstance(variant, str) else None
        except VariantError as e:
            raise BadRequest(str(e)) from None
        if v is None:
            raise BadRequest("variant must be a variant's name, one of: "
                             + ", ".join(rummy.variant_names()))
        if not isinstance(seats, list) or not seats:
            raise BadRequest('seats must be a list with "human" or a bot name per seat, e.g. '
                             '["human", "human", "greedy"]')
        kinds = []
        for s in seats:
            k = s.strip().lower() if isinstance(s, str) else None
            if k != "human" and k not in bot_names():
                raise BadRequest(f"seat {s!r} is not allowed: each seat is \"human\" or a bot, "
                                 "one of: " + ", ".join(bot_names()))
            kinds.append(k)
        try:
            v.check_players(len(kinds))
        except (GameError, VariantError, ValueError) as e:
            raise BadRequest(str(e)) from None
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise BadRequest("options must be an object of the variant's options, e.g. "
                             '{"jokers": 2}')
        try:
            v.resolve(**options)
        except (VariantError, TypeError, ValueError) as e:
            raise BadRequest(str(e)) from None
        settings = {
            "timeout": self._seconds(timeout, "timeout", allow_none=True, low=5.0),
            "speed": self._seconds(speed, "speed", low=0.0, high=10.0),
            "pause_between_hands": self._flag(pause_between_hands, "pause_between_hands"),
            "stand_in": self._bot(stand_in),
            "hints": self._flag(hints, "hints"),  # learners' pages offer Hint and "Do it for me"
        }
        if seed is None:
            seed = self.seeds()
        with self._lock:
            now = self.clock()
            self.expire(now)
            made = self._made.setdefault(client, deque())
            while made and made[0] <= now - 3600:
                made.popleft()
            if len(made) >= self.create_quota:
                raise TooMany(f"you made {len(made)} tables in the last hour, the limit: "
                              "close or reuse a table, or wait")
            open_tables = sum(1 for t in self.tables.values()
                              if t.status in _OPEN and t.broken is None)
            if open_tables >= self.max_tables:
                raise Conflict(f"the server holds {open_tables} open tables, its limit: "
                               "close a table before making another")
            code = new_code()
            while code in self.tables:
                code = new_code()
            spectator = secrets.token_urlsafe(24)
            seat_list = [
                _Seat(k, f"Seat {i + 1}" if k == "human" else f"{k.title()} bot {i + 1}")
                for i, k in enumerate(kinds)
            ]
            table = _Table(code, v, dict(options), seed, seat_list, settings, _hash(spectator),
                           touched=now)
            table.pending = self.store.submit(self.store.create_statements(code,
                                                                           table.to_meta()))
            self.tables[code] = table
            made.append(now)
            if not any(s.human for s in seat_list):
                self._start(table)
                self._save(table)
            log.info("table %s: created (%s, %d seats)", code, v.name, len(kinds))
            out = {"code": code, "spectator_token": spectator, "table": self._info(table)}
        self._settle(table)
        self._changed(code)
        return out

    def join(self, code: Any, name: Any, *, token: str | None = None) -> dict[str, Any]:
        """Take the next free human seat under ``name``: answers the seat
        number and its secret token (keep it: it is the seat).  A page that
        kept a seat's token returns to it instead of joining again.  An
        identity layer (:mod:`tableserver.hub`) gives the seat's ``token``
        itself (a secret of at least 32 characters it derives from who joins)."""
        if token is not None and (not isinstance(token, str) or len(token) < 32):
            raise ValueError("a given seat token must be a secret of at least 32 characters")
        if not isinstance(name, str) or not name.strip():
            raise BadRequest(f"name must be a non-empty text of at most {MAX_NAME} characters")
        clean = " ".join(name.split())
        if len(clean) > MAX_NAME or not clean.isprintable():
            raise BadRequest(f"name must be a non-empty text of at most {MAX_NAME} printable "
                             "characters")
        with self._lock:
            table = self._table(code)
            if table.status == "over":
                raise Conflict(f"table {table.code} has finished its game: nobody can join")
            if table.locked:
                raise Forbidden(f"the teacher locked table {table.code}: nobody else can join")
            if clean.casefold() in table.turned_away:
                raise Forbidden(f"the teacher turned the name {clean!r} away from table "
                                f"{table.code}")
            free = [i for i, s in enumerate(table.seats) if s.human and s.token is None]
            if not free:
                humans = sum(1 for s in table.seats if s.human)
                raise Conflict(f"table {table.code} is full: all {humans} learners' seats are "
                               "taken")
            seat = free[0]
            s = table.seats[seat]
            if token is None:
                token = secrets.token_urlsafe(24)
            s.token = _hash(token)
            s.away = s.polled = s.left = s.dropped = False
            s.last_seen = self.clock()
            taken = {t.name.lower() for i, t in enumerate(table.seats) if i != seat}
            final, k = clean, 2
            while final.lower() in taken:
                final, k = f"{clean} {k}", k + 1
            s.name = final
            if table.game is not None:  # a late joiner: the game calls them by their name
                self._rename(table, seat, final)
            table.version += 1
            if table.status == "waiting" and all(t.token is not None for t in table.seats
                                                 if t.human):
                self._start(table)
            self._save(table)
            log.info("table %s: seat %d joined", table.code, seat)
            out = {"code": table.code, "seat": seat, "name": s.name, "token": token}
        self._settle(table)
        self._changed(table.code)
        return out

    # -- reading -------------------------------------------------------------
    def state(self, code: Any, token: Any) -> dict[str, Any]:
        """What the token's holder may see: a seat's observation (its own
        hand, the public table), or for the spectator token what every
        seat sees alike."""
        with self._lock:
            table = self._table(code)
            who = self._who(table, token, allow_teacher=True)
            changed = self._seen(table, who)
            out = self._view(table, who)
        self._settle(table)
        if changed:
            self._changed(table.code)
        return out

    def version(self, code: Any, token: Any) -> int:
        """The table's version (it grows with every change), for a token of
        this table."""
        with self._lock:
            table = self._table(code, allow_closed=True)
            self._who(table, token, allow_teacher=True)
            return table.version

    def watch(self, code: Any, token: Any, delta: int, *, dropped: bool = False) -> None:
        """A long poll for ``token``'s seat opens (``delta`` 1) or ends (-1;
        ``dropped``: the page cut it off before it was answered, as when the
        page is closed): a learner waiting for news is present."""
        with self._lock:
            table = self._table(code, allow_closed=True)
            who = self._who(table, token, allow_teacher=True)
            back = False
            if isinstance(who, int):
                s = table.seats[who]
                s.watching = max(0, s.watching + delta)
                s.last_seen = self.clock()
                s.dropped = delta < 0 and dropped
                if delta > 0:
                    s.polled = True
                    if s.left:  # the learner's page is back
                        s.left, back = False, True
                        table.version += 1
        if back:
            self._changed(table.code)

    def admin(self, code: Any, teacher_key: Any) -> dict[str, Any]:
        """The teacher's view: the table's seats (who joined, who is away),
        status and version, whether it is locked and the names turned away;
        no card of any hand."""
        self._check_teacher(teacher_key)
        with self._lock:
            table = self._table(code, allow_closed=True)
            info = self._info(table)
            info["turned_away"] = list(table.turned_away)
            return {"code": table.code, "version": table.version, "status": table.status,
                    "table": info}

    def list_tables(self, teacher_key: Any) -> dict[str, Any]:
        """The teacher's tables: code, variant, status and version of each."""
        self._check_teacher(teacher_key)
        with self._lock:
            return {"tables": [{"code": t.code, "variant": t.variant.name, "status": t.status,
                                "version": t.version} for t in self.tables.values()
                               if t.broken is None]}

    def check_teacher(self, key: Any) -> None:
        """Raise :class:`Forbidden` unless ``key`` is the teacher key: the one
        check of every teacher action (SHA-256 digests compared in constant time)."""
        self._check_teacher(key)

    def seated_names(self, code: Any = None) -> list[str]:
        """The names learners joined with, each once, in table and seat order:
        at table ``code``, or with None at every table this service holds
        (finished and closed ones too, until they expire); a freed seat's
        learner is no longer among them.  Checks no key: the caller does
        (:func:`tableserver.progress_api.teacher_may_see`)."""
        with self._lock:
            if code is not None:
                tables = [self._table(code, allow_closed=True)]
            else:
                tables = [t for t in self.tables.values() if t.broken is None]
            names = [s.name for t in tables for s in t.seats if s.human and s.token is not None]
        return list(dict.fromkeys(names))

    # -- moving ----------------------------------------------------------------
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
        with self._lock:
            table = self._table(code)
            who = self._who(table, token)
            if not isinstance(who, int):
                raise Forbidden("this token may watch the table but not move: use a seat's "
                                "token")
            seat = who
            self._seen(table, seat)
            stale = version is not None and version < table.version
            if table.status != "playing":
                reason = {
                    "waiting": "the game has not started yet: the teacher starts it",
                    "paused": "the hand is over: the teacher starts the next hand",
                    "over": "the game is over: no more moves",
                }.get(table.status, f"the table is {table.status}")
                if stale:
                    raise Conflict(reason, self._view(table, seat))
                raise BadRequest(reason)
            game = table.game
            try:
                parsed = Action.parse(action)
                if table.variant.family == "gin" and parsed.verb.startswith("advise"):
                    advice = Action.parse(action.strip()[len("advise"):].strip())
                    game.advise(advice, player=seat)
                    table.version += 1
                    out = self._view(table, seat)
                else:
                    game.apply(parsed, player=seat)
                    out = None
            except GameError as e:
                if stale:
                    raise Conflict(f"the table moved on since your page was drawn: {e}",
                                   self._view(table, seat)) from None
                raise BadRequest(str(e)) from None
            if out is None:
                self._commit_move(table, seat, parsed)
                out = self._view(table, seat)
        self._settle(table)
        self._changed(table.code)
        return out

    def step(self, *, settle: bool = True) -> int:
        """One step of the bots: at each playing table, at most
        ``moves_per_step`` due bot or stand-in moves.  A bot chooses outside
        the service's lock (other tables and requests go on meanwhile); its
        move is made if the table has not changed since.  Answers how many
        moves were made."""
        made = 0
        changed: list[_Table] = []
        for table in list(self.tables.values()):
            for _ in range(self.moves_per_step):
                if not self._bot_move(table):
                    break
                made += 1
                if not changed or changed[-1] is not table:
                    changed.append(table)
        if settle:
            for table in changed:
                self._settle(table)
        return made

    def _bot_move(self, table: _Table) -> bool:
        with self._lock:
            if table.status != "playing" or self.tables.get(table.code) is not table:
                return False
            now = self.clock()
            bots_only = not any(s.human for s in table.seats)
            if bots_only and now < table.paced_until:
                return False
            due = [p for p in table.game.to_act() if self._due(table, p, now)]
            if not due:
                return False
            seat, version = due[0], table.version
            bot = table.bots[seat]
            assert bot is not None
            obs = table.game.observe(seat)
        action = bot.choose(obs)  # the long part, outside the lock
        with self._lock:
            if table.version != version or table.status != "playing":
                return False  # the table moved on: the next step chooses afresh
            table.game.apply(action, player=seat)
            if bots_only:
                table.paced_until = now + self.bot_pace
            s = table.seats[seat]
            if s.human and not s.away:
                s.away = True
                log.info("table %s: a stand-in bot plays for seat %d", table.code, seat)
            self._commit_move(table, seat, action)
        self._changed(table.code)  # a page waits for the write before it sees the move
        return True

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
            self._settle(table)
        return made

    def start_bots(self, interval: float = 0.05) -> None:
        """Run the bots in a worker thread (never on a server's event loop):
        a step whenever something changed or every ``interval`` seconds, and
        the expiry of old tables once a minute."""
        if self._worker is not None and self._worker.is_alive():
            return
        self._stop.clear()

        def work() -> None:
            while not self._stop.is_set():
                try:
                    moved = self.step(settle=False)  # pages wait for the disk themselves
                    self.presence()
                    if self.clock() - self._expired_at > 60:
                        with self._lock:
                            self.expire()
                except Exception:  # a bot's failure is logged; the server goes on
                    log.exception("the bots' step failed")
                    moved = 0
                if not moved:
                    self._wake.wait(interval)
                    self._wake.clear()
                else:
                    time.sleep(0.001)  # let the server's requests in between steps

        self._worker = threading.Thread(target=work, name="rummy-bots", daemon=True)
        self._worker.start()

    def stop_bots(self) -> None:
        """Stop the bots' worker (the server is stopping)."""
        self._stop.set()
        self._wake.set()
        if self._worker is not None:
            self._worker.join(10)
            self._worker = None

    def expire(self, now: float | None = None) -> list[str]:
        """Forget every table that finished, was closed, could not be restored
        or did not change for ``expire_after`` seconds (also in the
        database); answers their codes."""
        now = self.clock() if now is None else now
        with self._lock:
            self._expired_at = now
            old = [c for c, t in self.tables.items() if now - t.touched >= self.expire_after]
            for code in old:
                del self.tables[code]
            if old:
                self.store.submit(self.store.delete_statements(old))
                log.info("%d tables expired", len(old))
        return old

    # -- the teacher -------------------------------------------------------------
    def next_hand(self, code: Any, teacher_key: Any) -> dict[str, Any]:
        """Start the game (a waiting table: free seats are played by stand-in
        bots until someone joins) or the next hand (a paused table)."""
        self._check_teacher(teacher_key)
        with self._lock:
            table = self._table(code)
            if table.status == "waiting":
                self._start(table)
            elif table.status == "paused":
                table.status = "playing"
                table.version += 1
                self._deadlines(table)
            elif table.status == "over":
                raise BadRequest("the game is over: make a new table for another game")
            else:
                raise BadRequest("the hand is still being played: the next hand starts when "
                                 "this one is scored")
            self._save(table)
            out = self.admin(code, teacher_key)
        self._settle(table)
        self._changed(table.code)
        return out

    def remove_seat(self, code: Any, teacher_key: Any, seat: Any) -> dict[str, Any]:
        """Take a learner off their seat: their token stops working, a stand-in
        bot plays the seat, and the next learner to join gets it."""
        self._check_teacher(teacher_key)
        with self._lock:
            table = self._table(code)
            n = len(table.seats)
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise BadRequest(f"seat must be a seat number, 0 to {n - 1}")
            s = table.seats[seat]
            if not s.human:
                raise BadRequest(f"seat {seat} is a bot's seat: only learners' seats can be "
                                 "freed")
            if s.token is None:
                raise BadRequest(f"seat {seat} is already free")
            self._free(table, seat)
            self._save(table)
            log.info("table %s: seat %d removed by the teacher", table.code, seat)
            out = self.admin(code, teacher_key)
        self._settle(table)
        self._changed(table.code)
        return out

    def lock(self, code: Any, teacher_key: Any, locked: Any = True) -> dict[str, Any]:
        """Lock the table (nobody else can join; who sits there plays on) or,
        with ``locked`` false, open it again."""
        self._check_teacher(teacher_key)
        flag = self._flag(locked, "locked")
        with self._lock:
            table = self._table(code)
            table.locked = flag
            table.version += 1
            self._save(table)
            log.info("table %s: %s by the teacher", table.code, "locked" if flag else "opened")
            out = self.admin(code, teacher_key)
        self._settle(table)
        self._changed(table.code)
        return out

    def turn_away(self, code: Any, teacher_key: Any, name: Any) -> dict[str, Any]:
        """Turn ``name`` away: a seat it holds is freed (a stand-in plays it)
        and nobody joins under that name again."""
        self._check_teacher(teacher_key)
        if not isinstance(name, str) or not name.strip() or len(name) > 2 * MAX_NAME:
            raise BadRequest("name must be the name a learner joined with, e.g. \"Ana\"")
        clean = " ".join(name.split()).casefold()
        with self._lock:
            table = self._table(code)
            if clean not in table.turned_away:
                table.turned_away.append(clean)
            for i, s in enumerate(table.seats):
                if s.human and s.token is not None and s.name.casefold() == clean:
                    self._free(table, i)
            table.version += 1
            self._save(table)
            log.info("table %s: a name was turned away by the teacher", table.code)
            out = self.admin(code, teacher_key)
        self._settle(table)
        self._changed(table.code)
        return out

    def close(self, code: Any, teacher_key: Any) -> dict[str, Any]:
        """Close the table for good: every token stops working."""
        self._check_teacher(teacher_key)
        with self._lock:
            table = self._table(code)
            table.status = "closed"
            table.version += 1
            for s in table.seats:
                s.since = s.deadline = None
            self._save(table)
            table.game = None
            table.bots = []
            log.info("table %s: closed by the teacher", table.code)
            out = {"code": table.code, "version": table.version, "status": table.status}
        self._settle(table)
        self._changed(table.code)
        return out

    # -- inside ------------------------------------------------------------------
    @staticmethod
    def _seconds(value: Any, name: str, *, allow_none: bool = False, low: float = 0.0,
                 high: float = 86400.0) -> float | None:
        if value is None and allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value) or not low <= value <= high:
            extra = " or null (never)" if allow_none else ""
            raise BadRequest(f"{name} must be a number of seconds from {low:g} to {high:g}{extra}")
        return float(value)

    @staticmethod
    def _flag(value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            raise BadRequest(f"{name} must be true or false")
        return value

    @staticmethod
    def _bot(value: Any) -> str:
        k = value.strip().lower() if isinstance(value, str) else None
        if k not in bot_names():
            raise BadRequest(f"stand_in must be a bot, one of: {', '.join(bot_names())}")
        return k

    def _table(self, code: Any, allow_closed: bool = False) -> _Table:
        key = normal_code(code)
        table = self.tables.get(key)
        if table is None:
            raise NotFound(f"there is no table {key}: check the code the teacher gave")
        if table.broken is not None:
            raise Gone(f"table {key} could not be restored after a restart: {table.broken}")
        if table.status == "closed" and not allow_closed:
            raise Gone(f"the teacher closed table {key}")
        if table.frozen is not None:  # a finished table, restored at its first visitor
            table.game, table.frozen = pickle.loads(table.frozen), None
        return table

    def _who(self, table: _Table, token: Any, *, allow_teacher: bool = False) -> int | str:
        """The seat a token belongs to, or "spectator" / "teacher"."""
        found: int | str | None = None
        for i, s in enumerate(table.seats):  # every seat is compared: no early exit
            if _same(token, s.token):
                found = i
        if _same(token, table.spectator):
            found = "spectator"
        if allow_teacher and _same(token, self._teacher):
            found = "teacher"
        if found is None:
            raise Forbidden("this token is not valid at this table: use the token you got "
                            "when you joined")
        return found

    def _check_teacher(self, key: Any) -> None:
        if not _same(key, self._teacher):
            raise Forbidden("only the teacher may do this: give the teacher key the server "
                            "printed when it started")

    def _free(self, table: _Table, seat: int) -> None:
        s = table.seats[seat]
        s.token = None
        s.away = s.polled = s.left = s.dropped = False
        if table.game is None:
            s.name = f"Seat {seat + 1}"
        table.version += 1

    def _rename(self, table: _Table, seat: int, name: str) -> None:
        """A learner who joins a game under way: the game calls the seat by
        their name from now on (the log keeps what was said)."""
        game = table.game
        names = list(game.players)
        names[seat] = name
        game.players = type(game.players)(names)
        if table.names is not None:
            table.names[seat] = name

    def _seen(self, table: _Table, who: int | str) -> bool:
        if not isinstance(who, int):
            return False
        s = table.seats[who]
        s.last_seen = self.clock()
        if s.away:
            s.away = False  # back at the table
            table.version += 1
            return True
        return False

    def _start(self, table: _Table) -> None:
        names = [s.name for s in table.seats]
        table.game = rummy.new_game(table.variant, players=names, seed=table.seed,
                                    **table.options)
        table.names = names
        table.status = "playing"
        table.version += 1
        table.hand = _hand_number(table.game.observe(0))
        self._make_bots(table)
        self._deadlines(table)
        log.info("table %s: the game starts", table.code)

    def _make_bots(self, table: _Table) -> None:
        table.bots = [
            make_bot(s.kind if not s.human else table.settings["stand_in"],
                     seed=table.seed * 31 + i)
            for i, s in enumerate(table.seats)
        ]

    def _deadlines(self, table: _Table) -> None:
        """Each seat that must act has the time its decision began and the
        time a bot or stand-in plays it; other seats have none."""
        now = self.clock()
        acting = set(table.game.to_act()) if table.status == "playing" else set()
        for i, s in enumerate(table.seats):
            if i not in acting:
                s.since = s.deadline = None
            elif s.since is None:
                s.since = now
                if s.human:
                    timeout = table.settings["timeout"]
                    s.deadline = None if timeout is None else now + timeout
                else:
                    s.deadline = now + self._pace(table)

    def _pace(self, table: _Table) -> float:
        """Seconds a bot waits before its move: the table's speed, and at a
        table without a learner's seat at least ``bot_pace``."""
        speed = float(table.settings["speed"])
        return speed if any(s.human for s in table.seats) else max(speed, self.bot_pace)

    def _absent(self, table: _Table, s: _Seat, now: float) -> bool:
        if s.token is None:
            return True
        timeout = table.settings["timeout"]
        return timeout is not None and (s.left or self._gone(s, now)
                                        or s.watching == 0 and now - s.last_seen > timeout)

    def _gone(self, s: _Seat, now: float) -> bool:
        """Did this learner's page go away?  It long-polled, none is open now,
        and none was for ``left_after`` seconds since the page cut its last
        poll off (it was closed), or for ``quiet_after`` seconds since its last
        poll was answered (a page opens its next poll once it has redrawn the
        table).  A learner who never polled (a script using the API) is judged
        by the table's timeout alone."""
        grace = self.left_after if s.dropped else self.quiet_after
        return (s.human and s.token is not None and s.polled and s.watching == 0
                and now - s.last_seen > grace)

    def presence(self, now: float | None = None) -> list[str]:
        """Mark the seats whose page went away as left, and tell everybody
        (the teacher's page lists them within seconds); answers the codes of
        the tables that changed.  The bots' worker calls it every step."""
        now = self.clock() if now is None else now
        changed: list[str] = []
        with self._lock:
            for table in self.tables.values():
                if table.status not in _OPEN:
                    continue
                gone = [s for s in table.seats if not s.left and self._gone(s, now)]
                for s in gone:
                    s.left = True
                    log.info("table %s: a learner's page went away", table.code)
                if gone:
                    table.version += 1
                    changed.append(table.code)
        for code in changed:
            self._changed(code)
        return changed

    def _due(self, table: _Table, seat: int, now: float) -> bool:
        s = table.seats[seat]
        if s.since is None:
            return False
        if not s.human:
            return s.deadline is not None and now >= s.deadline
        if s.away or self._absent(table, s, now):
            return now >= s.since + self._pace(table)
        return s.deadline is not None and now >= s.deadline

    def _commit_move(self, table: _Table, seat: int, action: Action) -> None:
        """After ``game.apply``: new version, status and deadlines, then the
        move and the bookkeeping are saved (before anybody hears of it)."""
        table.moves += 1
        table.version += 1
        table.seats[seat].since = table.seats[seat].deadline = None
        game = table.game
        ended = game.is_over
        if game.is_over:
            table.status = "over"
        else:
            hand = _hand_number(game.observe(seat))
            if hand != table.hand:
                ended = True
                table.hand = hand
                if table.settings["pause_between_hands"]:
                    table.status = "paused"
        self._deadlines(table)
        table.touched = self.clock()
        statements = self.store.move_statements(table.code, table.moves, seat, str(action),
                                                table.to_meta())
        if ended or table.moves % 200 == 0:
            # a snapshot at each hand's end: a restart replays the moves after it only
            statements += self.store.snapshot_statements(table.code, table.moves,
                                                         pickle.dumps(game))
        table.pending = self.store.submit(statements)
        self._wake.set()
        log.info("table %s: seat %d moved (%s), version %d", table.code, seat, action.verb,
                 table.version)

    def _save(self, table: _Table) -> None:
        table.touched = self.clock()
        table.pending = self.store.submit(self.store.meta_statements(table.code,
                                                                     table.to_meta()))
        self._wake.set()

    def pending(self, code: str) -> Future[None] | None:
        """The write a view of table ``code`` must wait for before anybody
        sees it (None: everything is on disk)."""
        table = self.tables.get(code)
        fut = None if table is None else table.pending
        return None if fut is None or fut.done() and fut.exception() is None else fut

    def _settle(self, table: _Table) -> None:
        if self.wait_for_disk and table.pending is not None:
            self.saved(table.pending)

    def saved(self, fut: Future[None]) -> None:
        """Wait for a write; if the database refused it, reload every table
        from the database (what was not saved never happened) and raise
        :class:`NotSaved`."""
        try:
            fut.result()
        except Exception as e:
            self.recover()
            raise NotSaved(f"the move could not be saved ({e}); the table is as it was "
                           "before it") from None

    def recover(self) -> None:
        """Reload every table from the database after a refused write."""
        with self._lock:
            if self.store.failed is None:
                return
            log.error("a write failed (%s): every table is reloaded from the database",
                      self.store.failed)
            self.store.reset()
            self.tables.clear()
            self._restore()

    def _changed(self, code: str) -> None:
        for listener in list(self.listeners):
            try:
                listener(code)
            except Exception:  # a listener's failure must not undo a saved move
                log.exception("a table listener failed")

    def _info(self, table: _Table) -> dict[str, Any]:
        """What everybody at the table may know about it (no hand, no token)."""
        return {
            "code": table.code,
            "variant": table.variant.name,
            "title": table.variant.title,
            "options": dict(table.options),
            "status": table.status,
            "version": table.version,
            "hand": table.hand,
            "locked": table.locked,
            "settings": dict(table.settings),
            "seats": [
                {"seat": i, "name": s.name, "kind": "human" if s.human else "bot",
                 "bot": None if s.human else s.kind, "joined": s.token is not None,
                 "away": s.away, "left": s.left, "deadline": s.deadline}
                for i, s in enumerate(table.seats)
            ],
        }

    def _view(self, table: _Table, who: int | str) -> dict[str, Any]:
        out: dict[str, Any] = {"code": table.code, "version": table.version,
                               "status": table.status, "table": self._info(table)}
        game = table.game
        if game is None:
            out.update({"variant": table.variant.name, "player": who if isinstance(who, int)
                        else None, "phase": "waiting"})
            return out
        if isinstance(who, int):
            out.update(encode(game.observe(who)))
        else:
            out.update(self._public(game, len(table.seats)))
        # the points of each round or hand played (public: the log says them too)
        out["score_rows"] = [[label, list(row)] for label, row in game._score_rows()]
        return out

    @staticmethod
    def _public(game: Any, seats: int) -> dict[str, Any]:
        """The fields that every seat's observation shows alike: what a
        spectator may see."""
        views = [encode(game.observe(i)) for i in range(seats)]
        first = views[0]
        same = {k: v for k, v in first.items() if all(o.get(k) == v for o in views[1:])}
        same["player"] = None
        return same

    # -- restart -----------------------------------------------------------------
    def _restore(self) -> None:
        for saved in self.store.load():
            code, meta = saved.code, saved.meta
            try:
                self.tables[code] = self._rebuild(code, meta, saved.moves, saved.snapshot,
                                                  saved.snapshot_moves)
            except Exception as e:  # one bad table must not stop the others
                log.exception("table %s could not be restored", code)
                t = self._bare(code, meta)
                t.broken = str(e)
                self.tables[code] = t

    def _bare(self, code: str, meta: dict[str, Any]) -> _Table:
        seats = [_Seat(s["kind"], s["name"], s.get("token"), bool(s.get("away")),
                       s.get("since"), s.get("deadline")) for s in meta["seats"]]
        return _Table(code, find_variant(meta["variant"]), dict(meta["options"]),
                      int(meta["seed"]), seats, dict(meta["settings"]),
                      meta["spectator"], meta["status"], int(meta["version"]),
                      int(meta["moves"]), meta.get("hand"), meta.get("names"),
                      float(meta.get("touched") or self.clock()), bool(meta.get("locked")),
                      list(meta.get("turned_away") or []))

    def _rebuild(self, code: str, meta: dict[str, Any], moves: Sequence[tuple[int, str]],
                 snapshot: bytes | None = None, snapshot_moves: int = 0) -> _Table:
        """A table as it was: its bookkeeping, and its game from its last
        snapshot (or its seed) and the saved moves after it."""
        table = self._bare(code, meta)
        if table.names is not None and table.status != "closed":
            if snapshot is not None and table.status == "over" and not moves:
                table.frozen = snapshot  # nothing more to play: unpickled when asked for
                return table
            if snapshot is not None:
                game = pickle.loads(snapshot)  # written by this service, in a 0600 file
                done = snapshot_moves
            else:
                game = rummy.new_game(table.variant, players=table.names, seed=table.seed,
                                      **table.options)
                done = 0
            for seat, action in moves:
                game.apply(action, player=seat)
            done += len(moves)
            if done != table.moves:
                # the bookkeeping is saved with each move, so this never happens
                # unless the file was edited; the moves are the truth
                table.moves = done
            table.game = game
            if table.status == "over":
                return table  # nothing more to play: no bots
            self._make_bots(table)
            now = self.clock()
            for s in table.seats:
                s.last_seen = now  # everybody gets the timeout to come back
                if s.deadline is not None and s.deadline < now:
                    # the deadline passed while the server was down: not the
                    # learner's fault, so the decision gets its time again
                    s.deadline = now + (table.settings["timeout"] if s.human
                                        else self._pace(table))
        return table
