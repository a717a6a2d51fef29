"""What a request to the table service may ask: a new table's variant,
seats, options and settings, a learner's name, a flag.  Each check answers
the clean value or raises :class:`tableserver.errors.BadRequest` saying
what would have been valid; :class:`Quota` caps how many tables one client
makes in an hour (:class:`tableserver.errors.TooMany`).

>>> new_table("three_thirteen", ["human", " Greedy"], None, timeout=None, speed=0,
...           pause_between_hands=True, stand_in="greedy", hints=False)[1:]
(['human', 'greedy'], {}, {'timeout': None, 'speed': 0.0, 'pause_between_hands': True, 'stand_in': 'greedy', 'hints': False, 'pace': None})
>>> learner_name("  Ana   Lee ")
'Ana Lee'
>>> seconds(3, "speed", high=2.0)
Traceback (most recent call last):
...
tableserver.errors.BadRequest: speed must be a number of seconds from 0 to 2
"""

from __future__ import annotations

import math
import secrets
from collections import deque
from typing import Any

import rummy
from rummy.bots import bot_names
from rummy.errors import GameError
from rummy.progress import MAX_NAME, ProgressError, normal_name
from rummy.variants import Variant, VariantError, find_variant
from tableserver.errors import BadRequest, TooMany

__all__ = ["new_table", "learner_name", "seconds", "flag", "bot_name", "Quota", "key_bits",
           "check_key_strength", "MIN_KEY_BITS", "pace_of", "BIG_TABLE_PACE", "MIN_PACE",
           "MAX_PACE"]

#: Bits a chosen teacher key must have at least.
MIN_KEY_BITS = 128
#: Seconds a Big Table call waits for a learner, unless the teacher sets the
#: table's ``pace``: then the table's stand-in plays that call for them.
BIG_TABLE_PACE = 25.0
#: The shortest and longest pace a teacher may set.
MIN_PACE, MAX_PACE = 2.0, 600.0


def pace_of(value: Any, family: str) -> float | None:
    """A table's ``pace``: seconds each call (or turn) waits for a learner
    before the stand-in plays it; None (not given) is the family's own, 25
    seconds at the Big Table and none elsewhere (the ``timeout`` rules
    there); 0 is none.

    >>> pace_of(None, "big_table"), pace_of(None, "gin"), pace_of(0, "big_table"), pace_of(8, "gin")
    (25.0, None, None, 8.0)
    """
    if value is None:
        return BIG_TABLE_PACE if family == "big_table" else None
    if not isinstance(value, bool) and isinstance(value, (int, float)) and value == 0:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not MIN_PACE <= value <= MAX_PACE:
        raise BadRequest(f"pace must be a number of seconds from {MIN_PACE:g} to {MAX_PACE:g} "
                         "(how long each call waits for a learner), 0 for no pace, or null "
                         "for the game's own (25 at the Big Table)")
    return float(value)


def new_table(variant: Any, seats: Any, options: Any, *, timeout: Any, speed: Any,
              pause_between_hands: Any, stand_in: Any, hints: Any, pace: Any = None
              ) -> tuple[Variant, list[str], dict[str, Any], dict[str, Any]]:
    """A new table's variant, seat kinds (``"human"`` or a bot's name per
    seat), options and settings (see :meth:`TableService.create
    <tableserver.service.TableService.create>`)."""
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
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadRequest("options must be an object of the variant's options, e.g. "
                         '{"jokers": 2}')
    try:
        v.resolve(**options)
    except (VariantError, TypeError, ValueError) as e:
        raise BadRequest(str(e)) from None
    try:  # the engine's own check, with the options (max_players, packs): dealt as a game would be
        rummy.new_game(v.name, players=len(kinds), seed=0, **options)
    except (GameError, VariantError, ValueError) as e:
        raise BadRequest(str(e)) from None
    settings = {
        "timeout": seconds(timeout, "timeout", allow_none=True, low=5.0),
        "speed": seconds(speed, "speed", low=0.0, high=10.0),
        "pause_between_hands": flag(pause_between_hands, "pause_between_hands"),
        "stand_in": bot_name(stand_in),
        "hints": flag(hints, "hints"),  # learners' pages offer Hint and "Do it for me"
        "pace": pace_of(pace, v.family),  # seconds a call waits for a learner (pace_of)
    }
    return v, kinds, dict(options), settings


def learner_name(name: Any) -> str:
    """The name a learner joins with, as the record of learning keeps it
    (:func:`rummy.progress.normal_name`: spaces made single, 1 to
    :data:`~rummy.progress.MAX_NAME` printable characters)."""
    try:
        return normal_name(name)
    except ProgressError:
        raise BadRequest(f"name must be a non-empty text of at most {MAX_NAME} printable "
                         "characters") from None


def seconds(value: Any, name: str, *, allow_none: bool = False, low: float = 0.0,
            high: float = 86400.0) -> float | None:
    """A number of seconds from ``low`` to ``high`` (or None, with ``allow_none``)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not low <= value <= high:
        extra = " or null (never)" if allow_none else ""
        raise BadRequest(f"{name} must be a number of seconds from {low:g} to {high:g}{extra}")
    return float(value)


def flag(value: Any, name: str) -> bool:
    """True or false, nothing else."""
    if not isinstance(value, bool):
        raise BadRequest(f"{name} must be true or false")
    return value


def bot_name(value: Any) -> str:
    """A bot's name (any case) as the registry spells it."""
    k = value.strip().lower() if isinstance(value, str) else None
    if k not in bot_names():
        raise BadRequest(f"stand_in must be a bot, one of: {', '.join(bot_names())}")
    return k


class Quota:
    """At most ``per_hour`` new tables for each client in any hour.

    >>> q = Quota(1)
    >>> q.check("10.0.0.7", 0.0); q.count("10.0.0.7", 0.0)
    >>> q.check("10.0.0.7", 3599.0)
    Traceback (most recent call last):
    ...
    tableserver.errors.TooMany: you made 1 tables in the last hour, the limit: close or reuse a table, or wait
    >>> q.check("10.0.0.7", 3600.0)
    """

    def __init__(self, per_hour: int) -> None:
        self.per_hour = int(per_hour)
        self._made: dict[str, deque[float]] = {}  # client -> when it made its last tables

    def check(self, client: str, now: float) -> None:
        """:class:`TooMany` if ``client`` made ``per_hour`` tables in the hour before ``now``."""
        made = self._made.setdefault(client, deque())
        while made and made[0] <= now - 3600:
            made.popleft()
        if len(made) >= self.per_hour:
            raise TooMany(f"you made {len(made)} tables in the last hour, the limit: "
                          "close or reuse a table, or wait")

    def count(self, client: str, now: float) -> None:
        """``client`` made a table at ``now``."""
        self._made.setdefault(client, deque()).append(now)


def key_bits(key: str) -> float:
    """The most bits a key can hold: its length times the bits of a
    character drawn from the kinds of character it uses (small letters,
    capitals, digits, other signs when it uses three or more), and no more
    than a key of its distinct characters repeated would.  An estimate from
    above: words are weaker still.

    >>> round(key_bits("choose-a-long-secret-here")), round(key_bits("a" * 40))
    (119, 0)
    >>> key_bits("xb-Y2PM-OvnA85i87bmS3NrYYxu7hcru") >= MIN_KEY_BITS
    True
    """
    pool = 0
    pool += 26 if any(c.islower() for c in key) else 0
    pool += 26 if any(c.isupper() for c in key) else 0
    pool += 10 if any(c.isdigit() for c in key) else 0
    symbols = {c for c in key if not c.isalnum()}
    pool += 33 if len(symbols) >= 3 else len(symbols)  # a dash between words is no secret
    distinct = len(set(key))
    if distinct < 2:
        return 0.0
    return len(key) * math.log2(min(pool, distinct * 4) or 1)


def check_key_strength(key: str) -> None:
    """Raise :class:`ValueError` unless a chosen teacher key has
    :data:`MIN_KEY_BITS` bits at least (by :func:`key_bits`); the message
    offers a fresh key from :mod:`secrets`."""
    if key_bits(key) < MIN_KEY_BITS:
        raise ValueError(
            f"RUMMY_TEACHER_KEY is too easy to guess (a key needs {MIN_KEY_BITS} bits: about "
            "22 random letters and digits); use this fresh one, or leave RUMMY_TEACHER_KEY "
            f"unset and the server makes one: {secrets.token_urlsafe(24)}")
