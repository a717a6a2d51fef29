"""The table service: shared tables that several learners play, each on
their own screen, with bots filling the other seats.

:class:`TableService` is the API (what the web layer, :mod:`tableserver.web`,
serves as JSON): what learners do (:mod:`tableserver.learners`: join, read,
act) and what the teacher does (:mod:`tableserver.teacher`: make and run
tables), over the core that holds the tables (:mod:`tableserver.core`).  It
is the only holder of a shared table's engine state, and works through its
parts: the records and what each token may see (:mod:`tableserver.tables`),
the checks of a request (:mod:`tableserver.checks`), presence and deadlines
(:mod:`tableserver.presence`), the bots and their thread
(:mod:`tableserver.bots`) and the database (:mod:`tableserver.persistence`).
Every applied move is written before the caller hears about it, and a
restarted service rebuilds every table from its seed and its moves.

A table's life: ``waiting`` (learners join) -> ``playing`` -> ``paused``
after each hand, until the teacher starts the next one -> ``over``; or
``closed`` by the teacher at any time.

>>> import tempfile, os
>>> from tableserver.store import Store
>>> svc = TableService(Store(os.path.join(tempfile.mkdtemp(), "t.sqlite3")),
...                    teacher_key="a-teacher-key-for-the-tests-0123456789")
>>> made = svc.create("three_thirteen", ["human", "greedy"], speed=0,
...                   teacher_key="a-teacher-key-for-the-tests-0123456789")
>>> me = svc.join(made["code"], "Ana")
>>> me["seat"], svc.state(made["code"], me["token"])["status"]
(0, 'playing')
>>> svc.state(made["code"], "not-a-token")
Traceback (most recent call last):
...
tableserver.errors.Forbidden: this token is not valid at this table: use the token you got when you joined
"""

from __future__ import annotations

import math
import os
from collections.abc import MutableMapping
from typing import Any

from tableserver.bots import BOT_PACE
from tableserver.core import CREATE_QUOTA, EXPIRE_AFTER
from tableserver.learners import LearnerActions
from tableserver.teacher import TeacherActions

__all__ = ["TableService", "service_options"]


def service_options(env: MutableMapping[str, str] | None = None) -> dict[str, Any]:
    """:class:`TableService` options from the environment, for a server:
    ``RUMMY_TEACHER_KEY`` (the teacher key; it is taken out of the
    environment, so that no kernel the server starts inherits it),
    ``RUMMY_EXPIRE_HOURS`` (default 24), ``RUMMY_CREATE_QUOTA`` (tables per
    client per hour, default 60), ``RUMMY_BOT_PACE`` (seconds, default 0.5).

    >>> service_options({"RUMMY_EXPIRE_HOURS": "2", "RUMMY_BOT_PACE": "1"})
    {'teacher_key': None, 'expire_after': 7200.0, 'create_quota': 60, 'bot_pace': 1.0}
    """
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


class TableService(LearnerActions, TeacherActions):
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
    ``left_after`` and ``quiet_after``: see :mod:`tableserver.presence`.

    Every change is saved before a method returns (``wait_for_disk``).  The
    web layer sets ``wait_for_disk`` to False and, before it answers a
    request, awaits :meth:`pending` instead: meanwhile it serves other
    requests, and their moves are committed together with this one.
    Without a ``store``, the tables are kept in :func:`tableserver.tables_path`.
    """
