"""A shared table as the service holds it: its code, its seats and their
tokens, its bookkeeping, and what each token's holder may see of it.

A :class:`Table` is a plain record: the service (:mod:`tableserver.service`)
changes it under its lock, :mod:`tableserver.persistence` writes
:meth:`Table.to_meta` with every change and rebuilds it with
:meth:`Table.from_meta`.  Tokens are kept as SHA-256 digests only
(:func:`token_digest`), compared in constant time (:func:`token_matches`).
Everything a view shows is built from one seat's own ``observe(seat)`` (or,
for a spectator, from the fields every seat's observation shows alike),
never from the full state.

>>> t = Table("K7QM-X4P9-RT2H", find_variant("three_thirteen"), {}, 1,
...           [Seat("human", "Seat 1"), Seat("greedy", "Greedy bot 2")], {}, "")
>>> t.status, [s.human for s in t.seats], t.info()["seats"][1]["bot"]
('waiting', [True, False], 'greedy')
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from rummy.bots import Bot
from rummy.variants import Variant, find_variant
from tableserver.errors import Forbidden, NotFound
from tableserver.wire import encode

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "STATUSES", "OPEN_STATUSES", "SEED_BITS",
           "META_FORMAT", "NOT_PLAYING", "new_code", "normal_code", "token_digest", "token_matches", "Seat",
           "Table", "public_view"]

#: Letters and digits of a table code: no 0/O, 1/I/L or U, so a code read
#: aloud or copied from a projector is not misheard.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters in a code (three groups of four): 30**12, about 2**59 codes.
CODE_LENGTH = 12
#: A table's life, in order (``closed`` may come at any time).
STATUSES = ("waiting", "playing", "paused", "over", "closed")
#: Statuses of a table that holds a place under the service's limit.
OPEN_STATUSES = ("waiting", "playing", "paused")
#: Bits of a shared table's seed (from :mod:`secrets`): nobody can search the
#: seeds for the one that fits what they saw of a deal.
SEED_BITS = 128
#: The version of :meth:`Table.to_meta`'s layout, saved with it.
META_FORMAT = 1
#: Calls in a row a stand-in played for a learner (they made no move of their
#: own meanwhile) after which the teacher sees them as "not playing".
NOT_PLAYING = 3


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
    tableserver.errors.NotFound: 'hello' is not a table code: a code is 12 letters and digits, e.g. K7QM-X4P9-RT2H
    """
    if isinstance(text, str):
        raw = "".join(ch for ch in text.upper() if ch not in "- +")
        if len(raw) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in raw):
            return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))
    shown = text if isinstance(text, str) and len(text) <= 40 else "this"
    raise NotFound(f"{shown!r} is not a table code: a code is {CODE_LENGTH} letters and "
                   "digits, e.g. K7QM-X4P9-RT2H")


def token_digest(token: str) -> str:
    """What the service keeps of a token: its SHA-256 digest, in hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_matches(token: Any, digest: str | None) -> bool:
    """Whether ``token`` is the one kept as ``digest`` (compared in constant time).

    >>> token_matches("a-secret", token_digest("a-secret")), token_matches("", None)
    (True, False)
    """
    if digest is None or not isinstance(token, str) or not token:
        return False
    return hmac.compare_digest(token_digest(token), digest)


@dataclass
class Seat:
    """A seat of a table: a learner's (``kind`` "human") or a bot's."""

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
    browser: str | None = None  # sha-256 of the browser's id (a cookie) that sits here
    missed: int = 0  # calls in a row a stand-in played here since the learner's own last move
    beat: float | None = None  # the page's last heartbeat (None: its page never sent one)
    kernel: str | None = None  # the kernel that page runs in, as its heartbeat said

    @property
    def not_playing(self) -> bool:
        """Whether a stand-in played :data:`NOT_PLAYING` calls in a row here."""
        return self.human and self.missed >= NOT_PLAYING

    @property
    def human(self) -> bool:
        """Whether this is a learner's seat."""
        return self.kind == "human"

    def to_meta(self) -> dict[str, Any]:
        """What is saved of the seat (last-seen times and long polls are not)."""
        return {"kind": self.kind, "name": self.name, "token": self.token, "away": self.away,
                "since": self.since, "deadline": self.deadline, "browser": self.browser,
                "missed": self.missed}


@dataclass
class Table:
    """A shared table: its rules, seats, settings and game, and the
    bookkeeping saved with every change (:meth:`to_meta`)."""

    code: str
    variant: Variant
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    settings: dict[str, Any]
    spectator: str  # sha-256 of the spectator token
    status: str = "waiting"
    version: int = 1
    moves: int = 0
    hand: int | None = None
    names: list[str] | None = None
    touched: float = 0.0  # when the table last changed (it expires when idle)
    locked: bool = False  # the teacher let nobody else join
    turned_away: list[str] = field(default_factory=list)  # names the teacher turned away
    pin: str | None = None  # sha-256 of the table's PIN, if the teacher set one
    game: Any = None
    bots: list[Bot | None] = field(default_factory=list)
    broken: str | None = None
    pending: Future[None] | None = None  # the table's last write, until it is on disk
    paced_until: float = 0.0  # a table of bots only: no move before this time
    frozen: bytes | None = None  # a finished game's snapshot, unpickled when first asked for
    #: each hand dealt from the server's deal key (tableserver.deals): the seed is not saved
    keyed: bool = False

    def to_meta(self) -> dict[str, Any]:
        """The table's bookkeeping as saved (the game is its seed and moves)."""
        return {
            "format": META_FORMAT, "variant": self.variant.name, "options": self.options,
            "seed": None if self.keyed else self.seed, "keyed": self.keyed,
            "seats": [s.to_meta() for s in self.seats],
            "settings": self.settings, "spectator": self.spectator,
            "status": self.status, "version": self.version, "moves": self.moves,
            "hand": self.hand, "names": self.names, "touched": self.touched,
            "locked": self.locked, "turned_away": list(self.turned_away), "pin": self.pin,
        }

    @classmethod
    def from_meta(cls, code: str, meta: dict[str, Any], now: float) -> Table:
        """The table ``code`` as :meth:`to_meta` saved it, without its game
        (``now``: when it changed, if the bookkeeping does not say)."""
        seats = [Seat(s["kind"], s["name"], s.get("token"), bool(s.get("away")),
                      s.get("since"), s.get("deadline"), browser=s.get("browser"),
                      missed=int(s.get("missed") or 0))
                 for s in meta["seats"]]
        return cls(code, find_variant(meta["variant"]), dict(meta["options"]),
                   int(meta.get("seed") or 0), seats, dict(meta["settings"]),
                   meta["spectator"], meta["status"], int(meta["version"]),
                   int(meta["moves"]), meta.get("hand"), meta.get("names"),
                   float(meta.get("touched") or now), bool(meta.get("locked")),
                   list(meta.get("turned_away") or []), pin=meta.get("pin"),
                   keyed=bool(meta.get("keyed")))

    def holder(self, token: Any, teacher: str | None = None) -> int | str:
        """Who holds ``token`` here: a seat number, ``"spectator"``, or
        ``"teacher"`` (when ``teacher``, the teacher key's digest, is given);
        else :class:`Forbidden`.  Every digest is compared: no early exit."""
        found: int | str | None = None
        for i, s in enumerate(self.seats):
            if token_matches(token, s.token):
                found = i
        if token_matches(token, self.spectator):
            found = "spectator"
        if teacher is not None and token_matches(token, teacher):
            found = "teacher"
        if found is None:
            raise Forbidden("this token is not valid at this table: use the token you got "
                            "when you joined")
        return found

    def free_seat(self, seat: int) -> None:
        """Take the learner off ``seat``: their token stops working."""
        s = self.seats[seat]
        s.token = s.browser = None
        s.away = s.polled = s.left = s.dropped = False
        s.missed = 0
        s.beat = s.kernel = None
        if self.game is None:
            s.name = f"Seat {seat + 1}"
        self.version += 1

    def rename(self, seat: int, name: str) -> None:
        """A learner who joins a game under way: the game calls the seat by
        their name from now on (the log keeps what was said)."""
        game = self.game
        names = list(game.players)
        names[seat] = name
        game.players = type(game.players)(names)
        if self.names is not None:
            self.names[seat] = name

    def after_move(self, seat: int) -> bool:
        """The bookkeeping after ``game.apply`` for ``seat``: a new version,
        the seat's decision done, and the status after the move (``over``, or
        ``paused`` at a new hand when the table pauses between hands); answers
        whether a hand (or the game) ended."""
        self.moves += 1
        self.version += 1
        self.seats[seat].since = self.seats[seat].deadline = None
        game = self.game
        ended = bool(game.is_over)
        if game.is_over:
            self.status = "over"
        else:
            hand = game.number
            if hand != self.hand:
                ended = True
                self.hand = hand
                if self.settings["pause_between_hands"]:
                    self.status = "paused"
        return ended

    def info(self) -> dict[str, Any]:
        """What everybody at the table may know about it (no hand, no token)."""
        return {
            "code": self.code,
            "variant": self.variant.name,
            "title": self.variant.title,
            "options": dict(self.options),
            "status": self.status,
            "version": self.version,
            "hand": self.hand,
            "locked": self.locked,
            "pin": self.pin is not None,
            "settings": dict(self.settings),
            "seats": [
                {"seat": i, "name": s.name, "kind": "human" if s.human else "bot",
                 "bot": None if s.human else s.kind, "joined": s.token is not None,
                 "away": s.away, "left": s.left, "deadline": s.deadline,
                 "helped": s.missed, "not_playing": s.not_playing}
                for i, s in enumerate(self.seats)
            ],
        }

    def view(self, who: int | str) -> dict[str, Any]:
        """What ``who`` (a seat number, ``"spectator"`` or ``"teacher"``) may
        see: a seat its own observation, anybody else :func:`public_view`."""
        out: dict[str, Any] = {"code": self.code, "version": self.version,
                               "status": self.status, "table": self.info()}
        game = self.game
        if game is None:
            out.update({"variant": self.variant.name, "player": who if isinstance(who, int)
                        else None, "phase": "waiting"})
            return out
        if isinstance(who, int):
            out.update(encode(game.observe(who)))
            if self.status != "playing":
                # a hand dealt but not started (paused), or a finished game:
                # nobody may move until the teacher starts it, so no move is offered
                out["legal_actions"] = []
                if "waiting" in out:
                    out["waiting"] = []
        else:
            out.update(public_view(game, len(self.seats)))
        # the points of each round or hand played (public: the log says them too)
        out["score_rows"] = [[label, row] for label, row in game.score_rows()[:-1]]
        return out


def public_view(game: Any, seats: int) -> dict[str, Any]:
    """The fields that every seat's observation shows alike: what a
    spectator may see.

    >>> import rummy
    >>> g = rummy.new_game("three_thirteen", players=2, seed=1)
    >>> seen = public_view(g, 2)
    >>> "hand" in seen, seen["player"], seen["variant"]
    (False, None, 'three_thirteen')
    """
    views = [encode(game.observe(i)) for i in range(seats)]
    first = views[0]
    same = {k: v for k, v in first.items() if all(o.get(k) == v for o in views[1:])}
    same["player"] = None
    return same
