"""The record of learning: every judged act is an event with a rule id, and
mastery per rule is a function of those events (FSRS).

An *event* says who (the learner), which rule (an id of RULES.md, e.g.
``TT-7``, as the catalogue :mod:`rummy.rulebook` lists them), what was asked,
what was answered, whether it was right and at the first try, when, where it
came from (``quiz``, ``exercise``, ``drill``, ``guided`` or ``table``) and
what was judged (``rule``: legal and right by the rules; ``play``: the best
play among legal moves).  Events hold what the learner saw and did: never
another player's hidden cards.

*Who* the learner is is a secret, not a name: :meth:`Record.enrol` makes a
learner key (160 bits from :mod:`secrets`, only its digest is kept) that the
learner's browser keeps; whoever holds it is that learner (:func:`use_key`).
The name is a label for people, compared without case and unique in a data
folder.  On a JupyterHub the learner is the hub user, by their whole name.

*Mastery* is computed from the events (the class grid reads it from *marks*, one per
learner and rule, which SQLite keeps up to date in the same transaction as each
event and which the events can always make again).  Each answer at the first
try judged by the rules is a review of an FSRS-6 card (the ``fsrs`` package,
fuzzing off: the state is a function of the events alone): right is *Good*,
wrong is *Again*.  FSRS gives when the rule is due again and the predicted
recall.  A rule is *mastered* when it was right at the first try on three
different days, the last a week or more after the first, on three different
positions, the last answer was right and FSRS's stability is three weeks or
more (:attr:`Mastery.status`); seen but not mastered is *practising*.

>>> day = 86_400.0
>>> events = [Event("Ana", "TT-7", "q", "a", True, when=0.0),
...           Event("Ana", "TT-7", "q", "a", True, when=1 * day),
...           Event("Ana", "TT-7", "q", "b", False, when=2 * day)]
>>> m = mastery(events, now=2.5 * day)["TT-7"]
>>> m.attempts, m.right_first, m.status, m.is_due(2.5 * day), m.wrong
(3, 2, 'practising', False, ('b',))

The events are kept in SQLite (WAL, mode 0600) in the kit's data folder
(``$RUMMY_DATA``, else ``~/.local/share/rummy-kit``, as the table service),
file ``progress.sqlite3``: :class:`Record`.  Every judged act of the widgets
calls :func:`record`, which writes for the learner of this kernel (the one a
key named; on a JupyterHub the hub user, ``$JUPYTERHUB_USER``), and tells
whoever listens (:func:`on_event`: on a hub, the sender to the teacher's
table service) once the event is kept.  See ``docs/PROGRESS.md``.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import json
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummy import rulebook
from rummy.progress_store import Store, StoredEvent, open_store

__all__ = [
    "BOX_DAYS", "TOP_BOX", "SOURCES", "JUDGED", "JUDGED_BY", "DAY", "MASTERED_DAYS", "MASTERED_SPAN",
    "MASTERED_POSITIONS", "MASTERED_STABILITY", "MAX_NAME", "MAX_ID", "KEY_HEADER",
    "new_key", "normal_key", "show_key", "fold", "use_key", "enrol", "current_key",
    "Event", "Mastery", "Summary", "Record", "ProgressError", "QuotaError",
    "step", "mastery", "summary", "due_first", "grid_rows", "most_missed", "GRID_COLUMNS", "summary_line", "normal_name",
    "data_dir", "default_path", "default_record",
    "use_learner", "learner", "label", "record", "pending", "on_learner", "on_event", "clock",
    "set_clock", "export_record", "read_record", "import_record", "RECORD_FORMAT",
]

#: Days until a rule in box 0..4 is due again.
BOX_DAYS: tuple[int, ...] = (0, 1, 3, 7, 21)
#: The top box: a rule there is mastered.
TOP_BOX = 4
#: Seconds in a day.
DAY = 86_400.0
#: Where an event may come from.
SOURCES = ("quiz", "exercise", "drill", "guided", "table")
#: The longest learner name (as a seat's name at a shared table).
MAX_NAME = 24
#: The longest learner id (a hub user's whole name; a learner's own label is shorter).
MAX_ID = 255
#: The header a page or program sends a learner's key in (never in an address).
KEY_HEADER = "X-Rummy-Learner-Key"
_TEXT_MAX = 500
#: Base32 characters of a learner key: 32 characters, 160 bits from :mod:`secrets`.
_KEY_CHARS = 32


class ProgressError(ValueError):
    """Bad input to the record of learning (the message says what is allowed)."""


class QuotaError(ProgressError):
    """More events for one learner than a quota of :meth:`Record.add_events` takes:
    at most ``limit`` kept in ``span`` seconds; ``retry_after``: seconds until enough
    of them are older than that for the refused events to fit."""

    def __init__(self, learner: str, limit: int, span: float, retry_after: float) -> None:
        self.learner, self.limit, self.span = learner, limit, span
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(f"at most {limit} events in {span:g} seconds are kept for one "
                         f"learner: none of these was kept; try again in "
                         f"{self.retry_after} seconds")


log = logging.getLogger("rummy.progress")


def normal_name(name: Any) -> str:
    """A learner's name as it is kept: spaces collapsed, 1 to 24 printable
    characters (as a seat's name at a shared table).

    >>> normal_name("  Ana   Lima ")
    'Ana Lima'
    """
    if not isinstance(name, str) or not name.strip():
        raise ProgressError(f"a learner's name must be a non-empty text of at most {MAX_NAME} "
                            f"characters, not {name!r}")
    clean = " ".join(name.split())
    if len(clean) > MAX_NAME or not clean.isprintable():
        raise ProgressError(f"a learner's name must be at most {MAX_NAME} printable characters, "
                            f"not {clean[:40]!r}")
    return clean


def fold(name: Any) -> str:
    """A name as names are compared: normalised, without case ("Ana" is "ana").

    >>> fold(" ANA ") == fold("ana")
    True
    """
    return normal_name(name).casefold()


def _normal_id(learner: Any) -> str:
    """A learner id: a learner's label, or a hub user's whole name (1 to
    :data:`MAX_ID` printable characters)."""
    if not isinstance(learner, str) or not learner.strip():
        raise ProgressError(f"a learner must be a non-empty text, not {learner!r}")
    clean = " ".join(learner.split())
    if len(clean) > MAX_ID or not clean.isprintable():
        raise ProgressError(f"a learner id must be at most {MAX_ID} printable characters")
    return clean


def new_key() -> str:
    """A fresh learner key: 160 bits from :mod:`secrets`, 32 base32 characters
    (no 0, 1, 8 or 9: it is read aloud and typed).

    >>> k = new_key(); len(k), normal_key(k) == k, normal_key(show_key(k).lower()) == k
    (32, True, True)
    """
    return base64.b32encode(secrets.token_bytes(_KEY_CHARS * 5 // 8)).decode()


def normal_key(text: Any) -> str | None:
    """A learner key as typed (any case, spaces and dashes anywhere) made
    plain; None when it can't be a key.

    >>> normal_key("abcd-efgh"), normal_key(None)
    (None, None)
    """
    if not isinstance(text, str):
        return None
    clean = "".join(text.split()).replace("-", "").upper()
    if len(clean) != _KEY_CHARS or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
                                       for c in clean):
        return None
    return clean


def show_key(key: str) -> str:
    """The key as the recovery code a learner copies: groups of four.

    >>> show_key("A" * 32)
    'AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA'
    """
    return "-".join(key[i:i + 4] for i in range(0, len(key), 4))


def _digest(key: str) -> str:
    return hashlib.sha256(b"rummy-learner\0" + key.encode()).hexdigest()


def _text(value: Any) -> str:
    s = str(value)
    return s if len(s) <= _TEXT_MAX else s[:_TEXT_MAX - 1] + "…"


@dataclass(frozen=True, slots=True)
class Event:
    """One judged act: ``learner`` answered ``answered`` to ``asked`` about
    ``rule``; ``right``; ``first`` (it was the first try at that question);
    ``when`` (seconds since the epoch); ``source`` (one of :data:`SOURCES`);
    ``id`` (its number in the record, 0 before it is kept); ``judged``
    (``rule`` or ``play``, :data:`JUDGED`); ``by`` (who judged it,
    :data:`JUDGED_BY`: ``self``, the learner's own kernel, or ``server``,
    the kit's server, where the learner can't read the answer)."""

    learner: str
    rule: str
    asked: str
    answered: str
    right: bool
    first: bool = True
    source: str = "quiz"
    when: float = 0.0
    id: int = 0
    judged: str = "rule"
    by: str = "self"

    def checked(self) -> Event:
        """This event with its fields checked (a :class:`ProgressError` says what is wrong)."""
        if not rulebook.is_rule(self.rule):
            raise ProgressError(f"unknown rule id {self.rule!r}: use an id of RULES.md, e.g. "
                                "TT-7, M-4a or G-9")
        if self.source not in SOURCES:
            raise ProgressError(f"unknown source {self.source!r}: one of {', '.join(SOURCES)}")
        if self.judged not in JUDGED:
            raise ProgressError(f"an event judges {' or '.join(JUDGED)}, not {self.judged!r}")
        if self.by not in JUDGED_BY:
            raise ProgressError(f"an event is judged by {' or '.join(JUDGED_BY)}, not "
                                f"{str(self.by)[:20]!r}")
        return Event(_normal_id(self.learner), self.rule, _text(self.asked),
                     _text(self.answered), bool(self.right), bool(self.first), self.source,
                     float(self.when), self.id, self.judged, self.by)


def step(box: int, right: bool, first: bool = True) -> int:
    """The Leitner box after one answer: right at the first try moves up one
    (at most 4), wrong goes back to box 1, right after a wrong try stays.

    >>> step(0, True), step(4, True), step(4, False), step(2, True, first=False)
    (1, 4, 1, 2)
    """
    if not right:
        return 1
    return min(box + 1, TOP_BOX) if first else box


#: What an event judged: ``rule`` (legal and right by the rules) or ``play``
#: (the best play among legal moves: a weaker legal move is never a rule failure).
JUDGED = ("rule", "play")
#: Who judged an event: ``self`` (the learner's own kernel: a self-check, its
#: answer readable there) or ``server`` (the kit's server, which holds the
#: answer where the learner can't read it: ``POST /rummy/api/progress/answer``).
JUDGED_BY = ("self", "server")
#: "Mastered" needs right answers at the first try on this many different days ...
MASTERED_DAYS = 3
#: ... the last at least this many days after the first ...
MASTERED_SPAN = 7.0
#: ... on this many different positions (what was asked) ...
MASTERED_POSITIONS = 3
#: ... and FSRS's stability (days until predicted recall falls to 90%) at least this.
MASTERED_STABILITY = 21.0


def _scheduler() -> Any:
    """The FSRS-6 scheduler of the record: default parameters, no learning
    steps (a rule is reviewed at most once a question), fuzzing off (a
    learner's state is a function of their events alone)."""
    global _fsrs
    if _fsrs is None:
        from fsrs import Scheduler

        _fsrs = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    return _fsrs


_fsrs: Any = None


def _at(t: float) -> Any:
    import datetime as dt

    return dt.datetime.fromtimestamp(t, dt.UTC)


@dataclass(slots=True)
class Mastery:
    """Where one rule stands for one learner: counts of the events judged by
    the rules, the FSRS card they make, and the events judged as play apart.

    ``box`` is the old Leitner box (0-4), kept for comparison
    (``benchmarks/scheduling.py``); the schedule and the status come from
    FSRS and the spacing of the right answers."""

    rule: str
    attempts: int = 0
    right_first: int = 0
    box: int = 0
    last_seen: float | None = None
    #: FSRS: days until predicted recall falls to 90% (None: never reviewed)
    stability: float | None = None
    difficulty: float | None = None
    #: FSRS: when the rule is due again (seconds since the epoch)
    due: float | None = None
    #: the days (UTC day numbers) the rule was practised, and those of right first answers
    days: tuple[int, ...] = ()
    right_days: tuple[int, ...] = ()
    #: the first and last right answer at the first try, and on how many positions
    first_right: float | None = None
    last_right: float | None = None
    positions: int = 0
    #: the last answer at the first try was right
    last_right_first: bool = False
    #: the last few wrong answers (newest last)
    wrong: tuple[str, ...] = ()
    #: events judged as play: how many, how many the best play at the first try
    play_attempts: int = 0
    play_right_first: int = 0
    card: Any = field(default=None, repr=False)

    @property
    def status(self) -> str:
        """``not seen``, ``practising`` or ``mastered``: right at the first
        try on :data:`MASTERED_DAYS` different days, the last
        :data:`MASTERED_SPAN` days or more after the first, on
        :data:`MASTERED_POSITIONS` different positions, the last answer right,
        and an FSRS stability of :data:`MASTERED_STABILITY` days or more."""
        if self.attempts == 0:
            return "not seen"
        spaced = (len(set(self.right_days)) >= MASTERED_DAYS and self.first_right is not None
                  and self.last_right is not None
                  and self.last_right - self.first_right >= MASTERED_SPAN * DAY
                  and self.positions >= MASTERED_POSITIONS)
        if spaced and self.last_right_first and (self.stability or 0.0) >= MASTERED_STABILITY:
            return "mastered"
        return "practising"

    @property
    def due_at(self) -> float | None:
        """When the rule is due again, by FSRS (None: never seen)."""
        if self.due is not None:
            return self.due
        return self.last_seen

    def is_due(self, now: float) -> bool:
        """Seen, and its time to come back has come."""
        due = self.due_at
        return due is not None and now >= due

    def recall(self, now: float) -> float | None:
        """FSRS's predicted chance of recalling the rule at ``now`` (None: never reviewed)."""
        if self.card is None:
            return None
        return float(_scheduler().get_card_retrievability(self.card, _at(max(now, 0.0))))

    def overdue(self, now: float) -> float:
        """How long past due at ``now``, in days (negative: not due yet; never
        seen: 0, after every rule that is due)."""
        due = self.due_at
        return 0.0 if due is None else (now - due) / DAY


#: How many wrong answers a rule's mastery remembers.
_WRONG_KEPT = 3


def mastery(events: Iterable[Event], now: float | None = None) -> dict[str, Mastery]:
    """Every rule's :class:`Mastery` from ``events`` (of one learner), taken in
    the order they happened.  Each answer at the first try judged by the
    rules is an FSRS review (right: Good, wrong: Again); a later try at the
    same question and a ``play`` event leave the schedule alone.  ``now`` is
    accepted for symmetry with :func:`summary` (mastery itself does not age).

    >>> ms = mastery([Event("Ana", "M-1", "q", "a", True, when=5.0)])
    >>> len(ms), ms["M-1"].status, ms["M-2"].status, round(ms["M-1"].stability, 2)
    (58, 'practising', 'not seen', 2.31)
    """
    out = {r: Mastery(r) for r in rulebook.RULE_IDS}
    asked: dict[str, set[str]] = {}
    for e in sorted(events, key=lambda e: (e.when, e.id)):
        m = out.get(e.rule)
        if m is None:
            continue
        _step_mastery(m, e, _first_time(asked.setdefault(e.rule, set())))
    return out


def _first_time(seen: set[str]) -> Callable[[str], bool]:
    """``new(asked)``: True the first time ``asked`` is seen (remembered in ``seen``)."""
    def new(asked: str) -> bool:
        if asked in seen:
            return False
        seen.add(asked)
        return True
    return new


def _step_mastery(m: Mastery, e: Event, new_position: Callable[[str], bool]) -> None:
    """Take the event ``e`` (the next of its rule, in time order) into ``m``;
    ``new_position(asked)``: True when no right answer at the first try was given to
    ``asked`` before (and remember this one)."""
    from fsrs import Card, Rating

    day = int(e.when // DAY)
    if e.judged == "play":
        m.play_attempts += 1
        m.play_right_first += bool(e.right and e.first)
        return
    m.attempts += 1
    m.right_first += bool(e.right and e.first)
    m.box = step(m.box, e.right, e.first)
    m.last_seen = e.when if m.last_seen is None else max(m.last_seen, e.when)
    if day not in m.days:
        m.days = (*m.days, day)
    if not e.right:
        m.wrong = (*m.wrong, e.answered)[-_WRONG_KEPT:]
    if not e.first:
        return
    card = m.card if m.card is not None else Card(card_id=1)
    m.card, _log = _scheduler().review_card(card, Rating.Good if e.right else Rating.Again,
                                            review_datetime=_at(e.when))
    m.stability, m.difficulty = m.card.stability, m.card.difficulty
    m.due = m.card.due.timestamp()
    m.last_right_first = e.right
    if e.right:
        m.first_right = e.when if m.first_right is None else m.first_right
        m.last_right = e.when
        if day not in m.right_days:
            m.right_days = (*m.right_days, day)
        if new_position(e.asked):
            m.positions += 1


@dataclass(frozen=True, slots=True)
class Summary:
    """How many rules are mastered, practising, due, of how many; the due
    rules, most overdue first; when the next rule not yet due is due."""

    mastered: int
    practising: int
    due: int
    total: int = len(rulebook.RULE_IDS)
    due_rules: tuple[str, ...] = field(default=())
    next_due: float | None = None

    def line(self) -> str:
        """``12 of 58 rules mastered, 3 due``."""
        return f"{self.mastered} of {self.total} rules mastered, {self.due} due"


def summary(events: Iterable[Event], now: float) -> Summary:
    """Counts over :func:`mastery`, and which rules are due at ``now``
    (most overdue first).

    >>> s = summary([Event("Ana", "M-1", "q", "a", True, when=0.0)], now=3 * DAY)
    >>> s.line(), s.due_rules
    ('0 of 58 rules mastered, 1 due', ('M-1',))
    >>> summary([Event("Ana", "M-1", "q", "a", True, when=0.0)], now=DAY).next_due / DAY
    2.0
    """
    ms = mastery(events).values()
    due = tuple(m.rule for m in sorted((m for m in ms if m.is_due(now)),
                                       key=lambda m: m.due_at or 0.0))
    later = [m.due_at for m in ms if m.due_at is not None and not m.is_due(now)]
    return Summary(sum(m.status == "mastered" for m in ms),
                   sum(m.status == "practising" for m in ms), len(due), due_rules=due,
                   next_due=min(later) if later else None)


def due_first(events: Iterable[Event], now: float, rules: Iterable[str] | None = None
              ) -> list[str]:
    """``rules`` (default: all 58) in the order to practise them at ``now``:
    the most overdue first, then the ones never seen, then the rest by when
    they are due.

    >>> day = DAY
    >>> ev = [Event("A", "M-1", "q", "a", True, when=0.0),
    ...       Event("A", "M-2", "q", "a", True, when=day)]
    >>> due_first(ev, 10 * day, ["M-3", "M-2", "M-1"])
    ['M-1', 'M-2', 'M-3']
    """
    ms = mastery(events)
    order = list(rulebook.RULE_IDS if rules is None else rules)

    def key(rule: str) -> tuple[int, float]:
        m = ms.get(rule)
        if m is None or m.due_at is None:
            return (1, 0.0)
        return (0, m.due_at) if m.is_due(now) else (2, m.due_at)

    return sorted(order, key=key)


# -- where the record is kept ---------------------------------------------------------------
def data_dir() -> Path:
    """The kit's data folder: ``$RUMMY_DATA``, else ``$XDG_DATA_HOME/rummy-kit``
    (``~/.local/share/rummy-kit``), as the table service's."""
    env = os.environ.get("RUMMY_DATA")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "rummy-kit"


def default_path() -> Path:
    """The record of learning in the data folder."""
    return data_dir() / "progress.sqlite3"


def _event(row: tuple[Any, ...]) -> Event:
    i, who, rule, asked, answered, right, first, source, t, judged, by = row
    return Event(who, rule, asked, answered, bool(right), bool(first), source, t, i, judged, by)


def _stored(e: Event, kept: float | None = None) -> StoredEvent:
    return StoredEvent(e.learner, e.rule, e.asked, e.answered, e.right, e.first, e.source,
                       e.when, e.judged, e.by, kept)


def _now() -> float:
    return _clock[0]()


class Record:
    """The events of every learner of this data folder, kept by a
    :class:`rummy.progress_store.Store`: SQLite (WAL) where Python has it, else
    (the static site) a JSON-lines log the browser keeps; the same learners,
    keys, events and schedule either way.

    Each event is kept before :meth:`add` returns; several processes
    (kernels) may write at once: SQLite takes turns, nothing is lost.
    ``clock`` (seconds since the epoch) may be injected for tests.

    >>> import tempfile, os
    >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"), clock=lambda: 100.0)
    >>> r.add("Ana", "C-2", "What does a queen cost?", "10", True, source="quiz").when
    100.0
    >>> [e.rule for e in r.events("Ana")], r.events("Ben")
    (['C-2'], [])
    >>> r.summary("Ana").line()
    '0 of 58 rules mastered, 0 due'
    >>> r.erase("Ana"), r.events("Ana")
    (1, [])
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 clock: Callable[[], float] | None = None, store: Store | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.clock: Callable[[], float] = clock if clock is not None else _now
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._store: Store = store if store is not None else open_store(self.path)
        if self._marked(self._store) and not self._store.marks_made():  # type: ignore[attr-defined]
            self._write(self._make_marks)

    def close(self) -> None:
        """Close the database (the record can't be read or written after)."""
        with self._lock:
            self._store.close()

    def _write(self, fn: Callable[[Any], Any]) -> Any:
        return self._store.write(fn)

    def add(self, learner: str, rule: str, asked: Any, answered: Any, right: bool, *,
            first: bool = True, source: str = "quiz", when: float | None = None,
            judged: str = "rule", by: str = "self") -> Event:
        """Keep one event (committed when this returns) and return it."""
        e = Event(learner, rule, asked, answered, right, first, source,
                  self.clock() if when is None else when, judged=judged, by=by).checked()
        return self.add_event(e)

    def add_event(self, event: Event) -> Event:
        """Keep ``event`` (checked first); returns it with its id."""
        e = event.checked()
        now = self.clock()
        with self._lock:
            i = self._write(lambda tx: self._keep(tx, e, now))
        return dataclasses.replace(e, id=int(i))

    def add_events(self, events: Iterable[Event], *,
                   quota: Iterable[tuple[float, int]] = ()) -> list[Event]:
        """Keep several events in one transaction (all checked first: one bad
        event keeps none), each with its id.  An event already kept (the same
        learner, rule, asked, answered, right, first, source and time) is not
        kept twice, so a sender that did not hear the answer may send again.

        ``quota``: pairs (``span`` seconds, ``limit``): at most ``limit`` events
        kept for one learner in the last ``span`` seconds (counted from the
        record, so a restart forgets nothing; events sent again don't count);
        past it nothing of these events is kept and :class:`QuotaError` says
        when to try again.

        >>> import tempfile, os
        >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"), clock=lambda: 100.0)
        >>> e = Event("Ana", "M-1", "q", "a", True, source="table", when=5.0)
        >>> [k.id for k in r.add_events([e, Event("Ana", "M-2", "q", "a", False, when=6.0)])]
        [1, 2]
        >>> [k.id for k in r.add_events([e])], r.count()
        ([1], 2)
        >>> r.add_events([Event("Ana", "M-3", "q", "a", True, when=7.0)], quota=[(60.0, 2)])
        Traceback (most recent call last):
        ...
        rummy.progress.QuotaError: at most 2 events in 60 seconds are kept for one learner: none of these was kept; try again in 60 seconds
        """
        checked = [e.checked() for e in events]
        limits = list(quota)
        now = self.clock()

        def keep(tx: Any) -> list[int]:
            ids, new = [], set()
            for e in checked:
                known = tx.find_event(_stored(e))
                if known is None:
                    known = self._keep(tx, e, now)
                    new.add(e.learner)
                ids.append(known)
            for who in sorted(new):
                for span, limit in limits:
                    kept = tx.kept_since(who, now - span)  # with the ones just added
                    if len(kept) > limit:  # fits once the oldest len - limit are older
                        raise QuotaError(who, limit, span, kept[len(kept) - limit - 1]
                                         + span - now)
            return ids

        with self._lock:
            ids = self._write(keep)
        return [dataclasses.replace(e, id=i) for e, i in zip(checked, ids, strict=True)]

    # -- who the learners are ------------------------------------------------------------
    def _owner(self, store: Any, name: str) -> str | None:
        """The learner id a name stands for, compared without case: a
        learner's label or id, else a name with events (kept before keys)."""
        key = " ".join(name.split()).casefold()
        who = store.owner(key, " ".join(name.split()))
        if who is not None:
            return str(who)
        for who in store.event_learners():
            if who.casefold() == key:
                return str(who)
        return None

    def resolve(self, name: str) -> str | None:
        """The learner id ``name`` stands for (a label in any case, or an id);
        None: nobody of that name.

        >>> import tempfile, os
        >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
        >>> _ = r.enrol("Ana")
        >>> r.resolve("ANA"), r.resolve("Ben")
        ('Ana', None)
        """
        with self._lock:
            return self._owner(self._store, name)

    def enrol(self, label: str) -> tuple[str, str]:
        """A new learner called ``label``: (their id, their key).  The key is
        returned once, never kept (only its digest is): whoever holds it is
        this learner.  A label already used here, in any case, is refused.

        >>> import tempfile, os
        >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
        >>> who, key = r.enrol("Ana")
        >>> who, r.learner_of(key), r.learner_of(new_key())
        ('Ana', 'Ana', None)
        >>> r.enrol("ana")
        Traceback (most recent call last):
        ...
        rummy.progress.ProgressError: somebody already learns as 'ana' here: choose another name, or type your recovery code to continue as them
        """
        name = normal_name(label)
        key = new_key()

        def make(tx: Any) -> str:
            if self._owner(tx, name) is not None:
                raise ProgressError(f"somebody already learns as {name!r} here: choose another "
                                    "name, or type your recovery code to continue as them")
            tx.insert_learner(name, name, name.casefold(), _digest(key), self.clock())
            return name

        with self._lock:
            return self._write(make), key

    def learner_of(self, key: Any) -> str | None:
        """The learner whose key this is (None: no learner here holds it)."""
        plain = normal_key(key)
        if plain is None:
            return None
        digest = _digest(plain)
        with self._lock:
            row = self._store.learner_by_digest(digest)
        if row is None or not hmac.compare_digest(str(row[1]), digest):
            return None
        return str(row[0])

    def reset_key(self, name: str) -> tuple[str, str]:
        """A new key for the learner ``name`` (the teacher's act: the old key
        no longer opens the record): (their id, the new key).  A name with
        events from before keys were given gets its first key here.

        >>> import tempfile, os
        >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
        >>> _, old = r.enrol("Ana")
        >>> who, new = r.reset_key("ana")
        >>> who, r.learner_of(old), r.learner_of(new)
        ('Ana', None, 'Ana')
        """
        key = new_key()

        def reset(tx: Any) -> str:
            who = self._owner(tx, name)
            if who is None:
                raise ProgressError(f"nobody learns as {' '.join(str(name).split())[:40]!r} "
                                    "here: the learners are the names in the class grid")
            if not tx.set_key(who, _digest(key)):
                label = normal_name(who[:MAX_NAME])
                tx.insert_learner(who, label, label.casefold(), _digest(key), self.clock())
            return who

        with self._lock:
            return self._write(reset), key

    def hub_user(self, user: str) -> str:
        """The learner id of a hub user: their whole hub name (a learner of a
        hub is who the hub says, with no key of the kit); their label is the
        name cut to :data:`MAX_NAME` characters, made unique here.

        >>> import tempfile, os
        >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
        >>> a, b = "alexandra.konstantinopoulou@x.org", "alexandra.konstantinopoulos@x.org"
        >>> r.hub_user(a) == a, r.hub_user(b) == b, r.label(a), r.label(b)
        (True, True, 'alexandra.konstantinopou', 'alexandra.konstantinop 2')
        """
        who = _normal_id(user)

        def make(tx: Any) -> str:
            if tx.has_learner(who):
                return who
            base = normal_name(who[:MAX_NAME])
            label, n = base, 1
            while tx.fold_taken(label.casefold()):
                n += 1
                label = normal_name(f"{base[:MAX_NAME - 1 - len(str(n))]} {n}")
            tx.insert_learner(who, label, label.casefold(), None, self.clock())
            return who

        with self._lock:
            return str(self._write(make))

    def label(self, learner: str) -> str:
        """The name people see for the learner id ``learner``."""
        with self._lock:
            shown = self._store.label_of(learner)
        return shown if shown is not None else learner[:MAX_NAME]

    # -- their events -----------------------------------------------------------------
    def events(self, learner: str) -> list[Event]:
        """Every event kept about ``learner`` (a label in any case, or an id),
        oldest first."""
        name = _normal_id(learner)
        with self._lock:
            who = self._owner(self._store, name) or name
            rows = self._store.events(who)
        return [_event(r) for r in rows]

    def count(self) -> int:
        """How many events are kept, for every learner."""
        with self._lock:
            return self._store.count()

    def imported(self) -> list[str]:
        """The learners whose saved records a teacher imported here (their ids), in the
        order they were first imported (:func:`import_record` with ``into_class``)."""
        with self._lock:
            return self._store.imported()

    def learners(self) -> list[str]:
        """The learners with events (their ids), sorted."""
        with self._lock:
            return self._store.event_learners()

    def erase(self, learner: str) -> int:
        """Remove every event of ``learner`` (a label in any case, or an id)
        and their key (and nothing else); how many events were removed."""
        name = _normal_id(learner)

        def drop(tx: Any) -> int:
            return int(tx.erase(self._owner(tx, name) or name))

        with self._lock:
            return int(self._write(drop))

    def mastery(self, learner: str) -> dict[str, Mastery]:
        """Every rule's :class:`Mastery` for ``learner``."""
        return mastery(self.events(learner))

    def summary(self, learner: str) -> Summary:
        """``learner``'s :class:`Summary` now (by this record's clock)."""
        return summary(self.events(learner), self.clock())

    # -- marks: each learner's standing per rule, kept with each event ----------------------
    @staticmethod
    def _marked(store: Any) -> bool:
        """The store keeps marks (SQLite): the class grid reads them, not every event."""
        return bool(getattr(store, "keeps_marks", False))

    def _keep(self, tx: Any, e: Event, now: float) -> int:
        """(inside a write) Keep the checked event ``e`` and bring its rule's mark up to
        date in the same transaction; its id."""
        i = int(tx.insert_event(_stored(e, now)))
        if self._marked(tx):
            _mark(tx, dataclasses.replace(e, id=i))
        return i

    def _make_marks(self, tx: Any) -> None:
        """(inside a write) Make every mark from the events (a record of an older kit)."""
        if tx.marks_made():
            return
        tx.clear_marks()
        for who, rule in tx.pairs():
            events = [_event(r) for r in tx.rule_events(who, rule)]
            _put_mark(tx, who, rule, events)
            for e in events:
                if not e.right and e.judged == "rule":
                    tx.add_missed(who, rule, e.answered, e.when, e.id)
        tx.set_marks_made()

    def class_grid(self, names: Iterable[str], now: float | None = None) -> dict[str, Any]:
        """The class grid of the learners ``names`` (labels in any case, or ids):
        ``{"learners", "rows", "missed"}``: their labels, one row per learner and rule
        met (:func:`grid_rows`) and the rules the class missed most
        (:func:`most_missed`), at ``now`` (default: this record's clock).  Read from
        the marks kept with each event (SQLite), the same as a replay of every event.

        >>> import tempfile, os
        >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"), clock=lambda: 9.0)
        >>> _ = r.add("Ana", "TT-5", "q", "pass", False, when=1.0)
        >>> g = r.class_grid(["ana", "Ben"])
        >>> g["learners"], [(x["rule"], x["attempts"]) for x in g["rows"]], g["missed"][0]["commonest"]
        (['Ana', 'Ben'], [('TT-5', 1)], 'pass')
        """
        at = self.clock() if now is None else now
        ids = list(dict.fromkeys(self.resolve(n) or n for n in names))
        labels = [self.label(who) for who in ids]
        if not self._marked(self._store):  # the browser's log: every event again
            rows: list[dict[str, Any]] = []
            everything: list[Event] = []
            for who, shown in zip(ids, labels, strict=True):
                events = self.events(who)
                everything += events
                rows += grid_rows(shown, events, at)
            return {"learners": labels, "rows": rows, "missed": most_missed(everything)}
        order = {r: n for n, r in enumerate(rulebook.RULE_IDS)}
        when, sched = _at(max(at, 0.0)), _scheduler()
        rows, keys = [], []
        with self._lock:
            store: Any = self._store
            for who, shown in zip(ids, labels, strict=True):
                name = _normal_id(who)
                key = self._owner(store, name) or name
                keys.append(key)
                for cols in sorted(store.marks(key), key=lambda c: order.get(c[0], len(order))):
                    rows.append(_mark_row(shown, cols, when, sched))
            missed = self._missed(store, keys)
        return {"learners": labels, "rows": rows, "missed": missed}

    @staticmethod
    def _missed(store: Any, keys: list[str], top: int = 5) -> list[dict[str, Any]]:
        """:func:`most_missed` of the learners ``keys`` from the kept counts of wrong
        answers (the commonest answer's ties go to the one given first, as the events
        of the learners one after the other give them)."""
        if len(set(keys)) != len(keys):  # a learner asked for twice: counted twice
            wrong = [(rule, answered, times, (n, t, i), key)
                     for n, key in enumerate(keys)
                     for rule, answered, times, t, i in store.missed(key)]
            return _most_missed_of(wrong, top)
        place = {key: n for n, key in enumerate(keys)}
        totals = store.missed_totals(keys)
        ranked = sorted(totals, key=lambda r: (-r[1], -r[2], r[0]))[:top]
        out: list[dict[str, Any]] = []
        for rule, total, learners in ranked:
            answers: dict[str, list[Any]] = {}
            for key, answered, times, t, i in store.missed_of(keys, rule):
                seen = answers.setdefault(answered, [0, (place[key], t, i)])
                seen[0] += times
                seen[1] = min(seen[1], (place[key], t, i))
            answer, (times, _first) = min(answers.items(), key=lambda a: (-a[1][0], a[1][1]))
            out.append({"rule": rule, "wrong": int(total), "learners": int(learners),
                        "commonest": answer, "times": times})
        return out

    def grid(self, learners: Iterable[str], now: float | None = None) -> list[dict[str, Any]]:
        """One row per learner and rule met (for a teacher's class grid and
        its CSV): :data:`GRID_COLUMNS`, rules and play apart, predicted
        recall at ``now`` (default: this record's clock)."""
        return list(self.class_grid(learners, now)["rows"])


#: The columns of a class grid row (:meth:`Record.grid`, the CSV).
GRID_COLUMNS = ("learner", "rule", "attempts", "right_first", "days", "recall", "status",
                "due", "last_wrong", "play_attempts", "play_right_first", "server_judged")


def grid_rows(label: str, events: Iterable[Event], now: float) -> list[dict[str, Any]]:
    """The class grid's rows of one learner (``label``) from their events:
    per rule met, attempts and right at the first try judged by the rules,
    the days practised, FSRS's predicted recall at ``now`` (0-1, 2 decimals),
    the status, when it is due (seconds since the epoch), the last wrong
    answers (`` | ``-separated), the events judged as play apart, and how
    many of the rule's events the kit's server judged (``server_judged``:
    the answer was never where the learner could read it; the others were
    self-checks in the learner's own kernel).

    >>> [r["rule"] for r in grid_rows("Ana", [Event("Ana", "M-1", "q", "a", False)], 0.0)]
    ['M-1']
    """
    events = list(events)
    by_server: dict[str, int] = {}
    for e in events:
        if e.by == "server":
            by_server[e.rule] = by_server.get(e.rule, 0) + 1
    rows = []
    for m in mastery(events).values():
        if not (m.attempts or m.play_attempts):
            continue
        recall = m.recall(now)
        rows.append({"learner": label, "rule": m.rule, "attempts": m.attempts,
                     "right_first": m.right_first, "days": len(m.days),
                     "recall": None if recall is None else round(recall, 2),
                     "status": m.status, "due": m.due_at,
                     "last_wrong": " | ".join(m.wrong), "play_attempts": m.play_attempts,
                     "play_right_first": m.play_right_first,
                     "server_judged": by_server.get(m.rule, 0)})
    return rows


def most_missed(events: Iterable[Event], top: int = 5) -> list[dict[str, Any]]:
    """The rules a class missed most (wrong answers judged by the rules), each
    with the commonest wrong answer: ``[{"rule", "wrong", "learners",
    "commonest", "times"}]``, most missed first.

    >>> ev = [Event(w, "TT-5", "q", a, False) for w, a in
    ...       (("Ana", "draw stock"), ("Ben", "draw stock"), ("Ben", "pass"))]
    >>> most_missed(ev)
    [{'rule': 'TT-5', 'wrong': 3, 'learners': 2, 'commonest': 'draw stock', 'times': 2}]
    """
    from collections import Counter

    wrong: dict[str, Counter[str]] = {}
    who: dict[str, set[str]] = {}
    for e in events:
        if e.right or e.judged != "rule":
            continue
        wrong.setdefault(e.rule, Counter())[e.answered] += 1
        who.setdefault(e.rule, set()).add(e.learner)
    ranked = sorted(wrong, key=lambda r: (-sum(wrong[r].values()), -len(who[r]), r))
    out: list[dict[str, Any]] = []
    for rule in ranked[:top]:
        answer, times = wrong[rule].most_common(1)[0]
        out.append({"rule": rule, "wrong": sum(wrong[rule].values()),
                    "learners": len(who[rule]), "commonest": answer, "times": times})
    return out


# -- marks: a learner's standing per rule, kept in the store with each event ------------------
def _state(m: Mastery, server: int, missed: int) -> str:
    """A mark's state as the store keeps it (JSON: every field of ``m``, its FSRS card,
    how many events the server judged and how many answers judged by the rules were
    wrong)."""
    fields = {f.name: getattr(m, f.name) for f in dataclasses.fields(m) if f.name != "card"}
    fields["card"] = None if m.card is None else m.card.to_dict()
    fields["server"], fields["missed"] = server, missed
    return json.dumps(fields)


def _from_state(text: str) -> tuple[Mastery, int, int]:
    from fsrs import Card

    fields = json.loads(text)
    server, missed = int(fields.pop("server")), int(fields.pop("missed"))
    card = fields.pop("card")
    for name in ("days", "right_days", "wrong"):
        fields[name] = tuple(fields[name])
    return (Mastery(**fields, card=None if card is None else Card.from_dict(card)), server,
            missed)


def _wrong(e: Event) -> bool:
    """A wrong answer judged by the rules (one the class's rules missed most count)."""
    return not e.right and e.judged == "rule"


def _put_mark(tx: Any, who: str, rule: str, events: list[Event]) -> None:
    """Make the mark of ``who`` and ``rule`` from all its events, oldest first."""
    m = Mastery(rule)
    seen: set[str] = set()
    for e in events:
        _step_mastery(m, e, _first_time(seen))
    last = events[-1]
    _save_mark(tx, who, m, sum(e.by == "server" for e in events), sum(map(_wrong, events)),
               last.when, last.id)


def _save_mark(tx: Any, who: str, m: Mastery, server: int, missed: int, last_t: float,
               last_id: int) -> None:
    review = None if m.card is None or m.card.last_review is None \
        else m.card.last_review.isoformat()
    tx.put_mark(who, last_t, last_id, _state(m, server, missed),
                (m.rule, m.attempts, m.right_first, len(m.days), m.stability, review, m.status,
                 m.due_at, " | ".join(m.wrong), m.play_attempts, m.play_right_first, server),
                missed)


def _mark(tx: Any, e: Event) -> None:
    """Bring the mark of ``e``'s learner and rule up to date with ``e`` (just kept)."""
    if _wrong(e):
        tx.add_missed(e.learner, e.rule, e.answered, e.when, e.id)
    kept = tx.mark_state(e.learner, e.rule)
    if kept is None or (e.when, e.id) < (kept[1], kept[2]):
        # the first of its rule, or one that happened before the last: all of them again
        _put_mark(tx, e.learner, e.rule, [_event(r) for r in tx.rule_events(e.learner, e.rule)])
        return
    m, server, missed = _from_state(kept[0])
    _step_mastery(m, e, lambda asked: not tx.right_before(e.learner, e.rule, asked, e.id))
    _save_mark(tx, e.learner, m, server + (e.by == "server"), missed + _wrong(e), e.when, e.id)


class _Reviewed:
    """What FSRS's recall needs of a card: its stability and last review."""

    __slots__ = ("stability", "last_review")

    def __init__(self, stability: float, last_review: Any) -> None:
        self.stability, self.last_review = stability, last_review


def _mark_row(label: str, cols: tuple[Any, ...], at: Any, sched: Any) -> dict[str, Any]:
    """A class grid row (:func:`grid_rows`) from a mark's columns, recall at ``at``
    (a datetime) by the FSRS scheduler ``sched``."""
    (rule, attempts, right_first, days, stability, review, status, due, last_wrong,
     play_attempts, play_right_first, server) = cols
    recall = None
    if review is not None:
        card = _Reviewed(stability, _from_iso(review))
        recall = round(float(sched.get_card_retrievability(card, at)), 2)
    return {"learner": label, "rule": rule, "attempts": attempts, "right_first": right_first,
            "days": days, "recall": recall, "status": status, "due": due,
            "last_wrong": last_wrong, "play_attempts": play_attempts,
            "play_right_first": play_right_first, "server_judged": server}


def _from_iso(text: str) -> Any:
    import datetime as dt

    return dt.datetime.fromisoformat(text)


def _most_missed_of(wrong: list[tuple[str, str, int, tuple[int, float, int], str]],
                    top: int = 5) -> list[dict[str, Any]]:
    """:func:`most_missed` from the kept counts of wrong answers: (rule, answer, times,
    where it was first given (learner's place, time, id), learner)."""
    total: dict[str, int] = {}
    who: dict[str, set[str]] = {}
    answers: dict[str, dict[str, list[Any]]] = {}
    for rule, answer, times, first, learner in wrong:
        total[rule] = total.get(rule, 0) + times
        who.setdefault(rule, set()).add(learner)
        seen = answers.setdefault(rule, {}).setdefault(answer, [0, first])
        seen[0] += times
        seen[1] = min(seen[1], first)
    ranked = sorted(total, key=lambda r: (-total[r], -len(who[r]), r))
    out: list[dict[str, Any]] = []
    for rule in ranked[:top]:
        answer, (times, _first) = min(answers[rule].items(), key=lambda a: (-a[1][0], a[1][1]))
        out.append({"rule": rule, "wrong": total[rule], "learners": len(who[rule]),
                    "commonest": answer, "times": times})
    return out


def _wall_clock() -> float:
    return time.time()


_clock: list[Callable[[], float]] = [_wall_clock]


def clock() -> float:
    """Now, by the clock of the record of learning (seconds since the epoch)."""
    return _clock[0]()


def set_clock(fn: Callable[[], float] | None) -> None:
    """Make ``fn`` the clock of :func:`record` and of records opened without
    their own (tests); None: the wall clock again."""
    _clock[0] = fn if fn is not None else _wall_clock


_records: dict[Path, Record] = {}
_records_lock = threading.Lock()


def default_record() -> Record:
    """The :class:`Record` of the data folder (one per process and folder)."""
    path = default_path()
    with _records_lock:
        rec = _records.get(path)
        if rec is None:
            rec = _records[path] = Record(path)
        return rec


# -- who is learning in this kernel ------------------------------------------------------------
_learner: str | None = None
_key: str | None = None
_pending: list[Event] = []
_listeners: list[Callable[[str | None], None]] = []
_event_listeners: list[Callable[[Event], None]] = []


def on_event(fn: Callable[[Event], None]) -> None:
    """Call ``fn(event)`` after each event :func:`record` (or :func:`use_learner`,
    for the events that waited) kept in this process's record: on a hub, the
    sender to the hub's table service (:mod:`tableserver.progress_client`).  A
    listener that fails is logged and never breaks the recording; the same
    ``fn`` is added once."""
    if fn not in _event_listeners:
        _event_listeners.append(fn)


def _kept(event: Event) -> Event:
    for fn in list(_event_listeners):
        try:
            fn(event)
        except Exception:  # noqa: BLE001 - the learner's own record is kept: go on
            log.exception("a listener of the record of learning failed")
    return event


def use_learner(name: str | None) -> str | None:
    """Make the learner id ``name`` the learner of this process (None: nobody
    yet); events recorded while nobody was named are kept for them now.
    Returns the id.  Pages never call this with a typed name: they prove who
    the learner is with a key (:func:`use_key`, :func:`enrol`)."""
    return _become(name, None)


def _become(name: str | None, key: str | None) -> str | None:
    global _learner, _key
    _learner = None if name is None else _normal_id(name)
    _key = key if _learner is not None else None
    if _learner is not None and _pending:
        waiting = list(_pending)
        _pending.clear()
        rec = default_record()
        for e in waiting:
            _kept(rec.add_event(dataclasses.replace(e, learner=_learner, id=0)))
    for fn in list(_listeners):
        fn(_learner)
    return _learner


def use_key(key: Any) -> str | None:
    """Learn as the learner whose key (or recovery code) ``key`` is; None,
    and nothing changes, when no learner here holds it."""
    who = default_record().learner_of(key)
    if who is None:
        return None
    return _become(who, normal_key(key))


def enrol(label: str) -> str:
    """A new learner called ``label`` (:meth:`Record.enrol`), who learns in
    this process from now on; returns their key, for the browser to keep."""
    who, key = default_record().enrol(label)
    _become(who, key)
    return key


def current_key() -> str | None:
    """The key of this process's learner, when a key named them (for the
    learner's own page to show as a recovery code)."""
    return _key if _learner is not None else None


def on_learner(fn: Callable[[str | None], None]) -> None:
    """Call ``fn(name)`` whenever the learner of this process changes."""
    _listeners.append(fn)


def learner() -> str | None:
    """The learner of this process: the one a key named (:func:`use_key`,
    :func:`enrol`, :func:`use_learner`), else on a JupyterHub the server's
    hub user (``$JUPYTERHUB_USER``, their whole name), else None.  A name in
    the page's address (``?learner=``) names nobody.

    >>> isinstance(learner(), (str, type(None)))
    True
    """
    if _learner is not None:
        return _learner
    user = os.environ.get("JUPYTERHUB_USER", "").strip()
    if user:
        try:
            return _normal_id(user)
        except ProgressError:
            return None
    return None


def label(name: str | None = None) -> str | None:
    """The name people see for ``name`` (default: this process's learner)."""
    who = name or learner()
    if who is None:
        return None
    return default_record().label(who)


def pending() -> list[Event]:
    """Events recorded before anybody was named (kept once a name is given)."""
    return list(_pending)


def record(rule: str, asked: Any, answered: Any, right: bool, *, source: str,
           first: bool = True, judged: str = "rule") -> Event | None:
    """Record one judged act of this process's learner: the one call every
    quiz, exercise, drill, guided move and table judgement makes.  ``judged``
    says what was judged: ``rule`` (legal and right by the rules) or ``play``
    (the best play among legal moves).

    With no learner named yet the event waits in memory (:func:`pending`) and
    is kept as soon as one is (:func:`use_learner`).  Returns the event kept
    (None while it waits).  A bad rule id or source raises :class:`ProgressError`.
    """
    who = learner()
    e = Event(who or "nobody", rule, asked, answered, right, first, source, clock(),
              judged=judged).checked()
    if who is None:  # nothing touches the disk before somebody is named
        _pending.append(e)
        return None
    return _kept(default_record().add_event(e))


def summary_line(name: str | None = None) -> str:
    """``12 of 58 rules mastered, 3 due`` for ``name`` (default: this
    process's learner; nobody named: what is pending)."""
    who = name or learner()
    if who is None:
        return summary(_pending, clock()).line()
    return default_record().summary(who).line()


# -- a record that travels: "Save my record", "Load my record" ----------------------------------
#: The first line of a saved record says what the file is.
RECORD_FORMAT = "rummy-kit record of learning"
#: The longest saved record read (a learner's events for years fit many times over).
RECORD_MAX_BYTES = 8_000_000
_EVENT_FIELDS = ("rule", "asked", "answered", "right", "first", "source", "when", "judged")


def _record_mac(key: str, body: str) -> str:
    return hmac.new(b"rummy-record\0" + key.encode(), body.encode("utf-8"),
                    hashlib.sha256).hexdigest()


def export_record(key: Any, record: Record | None = None) -> str:
    """The record of the learner whose key ``key`` is (default record: this kernel's),
    as a file to save: JSON lines, a head (what the file is, the learner's name), one
    line per event, and a last line with an HMAC-SHA256 of the lines above keyed by the
    learner key: a file edited by hand is refused when it is loaded again.  The key
    itself is never in the file.

    >>> import os, tempfile
    >>> r = Record(os.path.join(tempfile.mkdtemp(), "p.sqlite3"), clock=lambda: 5.0)
    >>> _, key = r.enrol("Ana")
    >>> _ = r.add("Ana", "C-2", "What does a queen cost?", "10", True)
    >>> text = export_record(key, r)
    >>> [sorted(json.loads(line))[:2] for line in text.splitlines()]
    [['format', 'learner'], ['answered', 'asked'], ['mac']]
    >>> key in text
    False
    """
    rec = record if record is not None else default_record()
    plain = normal_key(key)
    who = rec.learner_of(plain) if plain else None
    if plain is None or who is None:
        raise ProgressError("that learner key opens no record here: save the record from "
                            "the page where you learn")
    lines = [json.dumps({"format": RECORD_FORMAT, "version": 1, "learner": rec.label(who)},
                        ensure_ascii=False)]
    for e in rec.events(who):
        lines.append(json.dumps({f: getattr(e, f) for f in _EVENT_FIELDS}, ensure_ascii=False))
    body = "".join(line + "\n" for line in lines)
    return body + json.dumps({"mac": _record_mac(plain, body)}) + "\n"


def read_record(text: Any, key: Any) -> tuple[str, list[Event]]:
    """The learner's name and events of a saved record (:func:`export_record`), checked
    with the learner key: a file edited after it was saved, cut short, made with another
    key or not a saved record at all raises a :class:`ProgressError` saying so."""
    plain = normal_key(key)
    if plain is None:
        raise ProgressError("a learner key is 32 letters and digits (the recovery code, "
                            "dashes allowed)")
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str) or len(text) > RECORD_MAX_BYTES:
        raise ProgressError(f"a saved record is a text file of at most {RECORD_MAX_BYTES} bytes")
    body, _, last = text.rstrip("\n").rpartition("\n")
    body += "\n"
    try:
        mac = json.loads(last)["mac"] if last else ""
        head = json.loads(body.split("\n", 1)[0])
    except (ValueError, KeyError, TypeError):
        mac, head = "", {}
    if not isinstance(head, dict) or head.get("format") != RECORD_FORMAT:
        raise ProgressError("this is not a saved record of the kit (Save my record makes one)")
    if not isinstance(mac, str) or not hmac.compare_digest(mac, _record_mac(plain, body)):
        raise ProgressError("this saved record was changed after it was saved, or it is not "
                            "the record of this learner key: it is not loaded")
    name = normal_name(head.get("learner"))
    events = []
    for n, line in enumerate(body.splitlines()[1:], 2):
        try:
            fields = json.loads(line)
            when = float(fields["when"])
            if not math.isfinite(when):
                raise ValueError("not a time")
            events.append(Event(name, str(fields["rule"]), fields["asked"], fields["answered"],
                                bool(fields["right"]), bool(fields["first"]),
                                str(fields["source"]), when,
                                judged=str(fields["judged"])).checked())
        except ProgressError as e:
            raise ProgressError(f"line {n} of the saved record: {e}") from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise ProgressError(f"line {n} of the saved record is not an event the kit "
                                "saved: it is not loaded") from None
    return name, events


def import_record(text: Any, key: Any, record: Record | None = None, *,
                  into_class: bool = False) -> tuple[str, list[Event]]:
    """Load a saved record (:func:`export_record`) into ``record`` (default: this
    kernel's) under the learner whose key ``key`` is; in a record that does not know
    the key yet (another browser, the teacher's server) the learner is made with that
    key and the file's name.  Events already kept are not kept twice.  Returns the
    learner id and the events kept.  A changed file keeps nothing.

    >>> import os, tempfile
    >>> a = Record(os.path.join(tempfile.mkdtemp(), "a.sqlite3"))
    >>> _, key = a.enrol("Ana")
    >>> _ = a.add("Ana", "C-2", "What does a queen cost?", "10", True, when=9.0)
    >>> b = Record(os.path.join(tempfile.mkdtemp(), "b.sqlite3"))
    >>> who, kept = import_record(export_record(key, a), key, b)
    >>> who, b.learner_of(key), [(e.rule, e.when) for e in b.events("Ana")]
    ('Ana', 'Ana', [('C-2', 9.0)])
    """
    rec = record if record is not None else default_record()
    name, events = read_record(text, key)
    plain = normal_key(key)
    assert plain is not None  # read_record checked it
    who = rec.learner_of(plain)
    if who is None:
        digest = _digest(plain)

        def adopt(tx: Any) -> str:
            if rec._owner(tx, name) is not None:
                raise ProgressError(f"somebody else learns as {name!r} here: the record is not "
                                    "loaded (ask your teacher)")
            tx.insert_learner(name, name, name.casefold(), digest, rec.clock())
            return name

        with rec._lock:
            who = str(rec._write(adopt))
    kept = rec.add_events([dataclasses.replace(e, learner=who) for e in events])
    if into_class:
        at = rec.clock()
        with rec._lock:
            rec._write(lambda tx: tx.set_imported(who, at))
    return who, kept
