"""The record of learning on the table service: the teacher's class grid and
a learner's own record (``docs/PROGRESS.md``).

The events are the ones the learners' kernels kept in this server's data
folder (:mod:`rummy.progress`, ``$RUMMY_DATA/progress.sqlite3``) under the
names they joined a table with.  Endpoints::

    GET /rummy/api/progress[?format=csv]                (X-Rummy-Teacher-Key)
        the class grid of every learner seated at this server's tables (each
        name once; finished and closed tables count until they expire): one
        row per learner and rule met (learner, rule, attempts, right_first,
        days, recall, status, due, last_wrong, play_attempts,
        play_right_first: rules and play apart), and "missed": the rules the
        class missed most with the commonest wrong answer; CSV (no formula cells) with
        format=csv
    GET /rummy/api/tables/CODE/progress[?format=csv]    (X-Rummy-Teacher-Key)
        the same for the learners seated at table CODE
    GET /rummy/api/progress/me                          (X-Rummy-Learner-Key)
        the learner's own rows and events: whoever holds the key (on a hub,
        the signed-in hub user); a seat's name, a name in the address or
        the body choose nothing
    DELETE /rummy/api/progress/me                       (X-Rummy-Learner-Key)
        erase the learner's events and key ({"erased": n})
    GET /rummy/api/tables/CODE/progress/me              (X-Rummy-Token and
        X-Rummy-Learner-Key) the same rows, from a seat's page
    POST /rummy/api/progress/answer                     (X-Rummy-Learner-Key)
        {"book": "01_three_thirteen", "part": "quizzes", "number": 3,
        "answer": TEXT} or {"drill": "TT-5", "seed": 7, "answer": TEXT}, with
        "hinted": true after a hint (no key: judged, kept for nobody; a
        wrong key: 403): the server judges the answer with the one checker (rummy.teach) against the answers it holds (the lessons'
        quiz files, $RUMMY_ANSWERS; a drill's position dealt again from its
        seed), keeps the event judged by the server (committed first) and
        answers {"right", "feedback", "counted", "rule", "judged", "first",
        "kept"} (and, kept, the event's "asked", "source" and "when"): the
        page holds neither the answer nor a hash of it
    POST /rummy/api/progress/key {"learner": NAME}      (X-Rummy-Teacher-Key)
        a new key for a learner of this server (the old one opens nothing):
        {"learner", "code"}, the recovery code the teacher hands over
    POST /rummy/api/progress/import {"record": TEXT, "code": CODE}
                                                        (X-Rummy-Teacher-Key)
        the teacher imports a learner's saved record (the file of "Save my
        record", checked with the learner's recovery code; a changed file: 400,
        nothing kept) into the class grid of the whole server: its events kept
        as the learner's self-checks (:func:`import_saved`); at most
        :data:`MAX_IMPORT` bytes
    POST /rummy/api/progress/events {"events": [...]}   (on a JupyterHub only)
        a learner's server sends the events its kernels kept (each learner's
        own record is in their own server's data folder): kept here under
        the learner's hub name, for the teacher's grid (:func:`hub_events`)

Who may see a grid is decided by one function, :func:`teacher_may_see`: the
teacher key, checked as the table service checks it for every teacher action
(digests compared in constant time).  The key and a seat's token come in the
headers only: an address that carries one (``?teacher_key=``, ``?token=``,
...) is refused, for an address is logged and kept in the browser's history.
A request from another site is refused before anything is read (as every
request of the API).  The record is read in a worker thread, never on the
event loop.

On a JupyterHub (:mod:`tableserver.hub`) each learner's kernels write in
their own server's data folder, which the service does not read: their
servers send each event kept to ``POST .../progress/events`` with the hub
token of the server (:mod:`tableserver.progress_client`), and the service keeps
it in its own record (the same :class:`rummy.progress.Record`) under the
name the hub says the sender is, never one in the body; the class grid then
reads it as it reads a laptop's.  Outside a hub the endpoint answers 403:
there the kernels and the service share one data folder.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from rummy import progress, teach_book
from rummy.teach import TeachError
from tableserver.errors import BadRequest, Forbidden, ServiceError
from tableserver.handler import CODE, ApiHandler, PostHandler
from tableserver.service import TableService
from tableserver.tables import normal_code
from tableserver.wire import grid_csv

__all__ = ["teacher_may_see", "class_grid", "own_rows", "seat_learner", "to_csv", "handlers",
           "hub_events", "key_learner", "reset_key", "judge_answer", "COLUMNS", "EVENT_KEYS",
           "MAX_EVENTS", "MAX_ANSWER", "MAX_SEED", "EVENTS_PER_MINUTE", "EVENTS_PER_DAY",
           "EVENT_MAX_AGE", "import_saved", "MAX_IMPORT"]

#: The columns of the class grid, in order (:data:`rummy.progress.GRID_COLUMNS`).
COLUMNS = progress.GRID_COLUMNS

#: Query parameters that would put a secret in an address: always refused.
_SECRET_PARAMS = ("teacher_key", "key", "admin_token", "admin", "token", "watch",
                  "learner_key")


def teacher_may_see(service: TableService, key: Any) -> None:
    """The one check before any class grid: ``key`` must be the teacher key
    (:meth:`TableService.check_teacher`, the check of every teacher action);
    else the service's ``Forbidden``."""
    service.check_teacher(key)


def _names(names: list[str]) -> list[str]:
    """The seats' names that are learners' names in the record (a name of 24
    characters made unique with " 2" is longer than a learner's: left out)."""
    out = []
    for name in names:
        try:
            out.append(progress.normal_name(name))
        except progress.ProgressError:
            continue
    return list(dict.fromkeys(out))


def class_grid(service: TableService, key: Any, code: Any = None,
               record: progress.Record | None = None) -> dict[str, Any]:
    """The class grid for the teacher (``key``): ``{"code", "learners",
    "columns", "rows"}``, a row per learner and rule they met, of the learners
    seated at table ``code`` (None: at every table of ``service``)."""
    teacher_may_see(service, key)
    learners = _names(service.seated_names(code))
    if code is None:  # the whole class: and the learners whose records the teacher imported
        learners += (record if record is not None else progress.default_record()).imported()
    return _grid(None if code is None else normal_code(code), learners, record)


def _grid(code: str | None, learners: list[str], record: progress.Record | None = None
          ) -> dict[str, Any]:
    rec = record if record is not None else progress.default_record()
    grid = rec.class_grid(learners)  # from each learner's marks, not every event again
    return {"code": code, "learners": grid["learners"], "columns": list(COLUMNS),
            "rows": grid["rows"], "missed": grid["missed"]}


def key_learner(key: Any, record: progress.Record | None = None) -> str:
    """The learner whose key ``key`` is (the ``X-Rummy-Learner-Key`` header),
    else :class:`~tableserver.errors.Forbidden`: no key, a wrong key and a
    name all open nothing."""
    if not key:
        raise Forbidden("a learner's record opens with their key only: send it in the "
                        f"{progress.KEY_HEADER} header (the kit's pages keep it in the browser)")
    rec = record if record is not None else progress.default_record()
    who = rec.learner_of(key)
    if who is None:
        raise Forbidden("this key opens no learner's record here (a wrong key, or the "
                        "teacher gave the learner a new one)")
    return who


def _own(learner: str, record: progress.Record | None = None) -> dict[str, Any]:
    rec = record if record is not None else progress.default_record()
    out = _grid(None, [learner], rec)
    out["learner"] = rec.label(learner)
    out["events"] = [{"rule": e.rule, "asked": e.asked, "answered": e.answered,
                      "right": e.right, "first": e.first, "source": e.source, "when": e.when,
                      "judged": e.judged, "by": e.by}
                     for e in rec.events(learner)]
    return out


def reset_key(service: TableService, key: Any, body: Any,
              record: progress.Record | None = None) -> dict[str, Any]:
    """The teacher (``key``) gives the learner ``body["learner"]`` a new key:
    ``{"learner", "code"}``, the recovery code to hand over."""
    teacher_may_see(service, key)
    if not isinstance(body, dict) or set(body) != {"learner"} or \
            not isinstance(body["learner"], str):
        raise BadRequest('the body must be {"learner": NAME}: the name of a learner in the '
                         "class grid")
    rec = record if record is not None else progress.default_record()
    try:
        who, new = rec.reset_key(body["learner"])
    except progress.ProgressError as e:
        raise BadRequest(str(e)) from None
    return {"learner": rec.label(who), "code": progress.show_key(new)}


def seat_learner(service: TableService, code: Any, token: Any) -> tuple[str, str]:
    """(table code, the name of the seat whose token this is); the
    spectator's token and the teacher key are refused here."""
    view = service.state(code, token)
    seat = view.get("player")
    if not isinstance(seat, int):
        raise BadRequest("progress/me takes a seat's token in X-Rummy-Token (the teacher's "
                         "grid is .../progress, with the teacher key)")
    return view["code"], view["table"]["seats"][seat]["name"]


def own_rows(service: TableService, code: Any, token: Any, key: Any = None,
             record: progress.Record | None = None) -> dict[str, Any]:
    """A learner's own rows from a seat's page: the seat's ``token`` and the
    learner's ``key``; the rows are the key's learner's, never the seat
    name's (anybody may sit down as "Ben")."""
    table, _name = seat_learner(service, code, token)
    out = _own(key_learner(key, record), record)
    out["code"] = table
    return out


#: What an event sent by a learner's server holds (the learner is who the hub says);
#: ``judged`` ("rule", the default, or "play") may be added.
EVENT_KEYS = ("rule", "asked", "answered", "right", "first", "source", "when")
#: The most events one request may carry.
MAX_EVENTS = 50
#: How far ahead of the service's clock an event's time may be (clocks differ a little).
_SKEW = 300.0
#: How old an event a learner's server may send (seconds): its sender sends each event
#: as it is kept, and tries again for minutes, not days (an older event stays in the
#: learner's own record; the teacher can import it from a saved record).
EVENT_MAX_AGE = progress.DAY
#: The most events kept for one hub user in a minute, and in a day (a class's busiest
#: lesson is a few hundred a day); past either, a request keeps nothing (429).
EVENTS_PER_MINUTE = 600
EVENTS_PER_DAY = 20_000
_QUOTA = ((60.0, EVENTS_PER_MINUTE), (progress.DAY, EVENTS_PER_DAY))


def hub_events(learner: str, body: Any, now: float) -> list[progress.Event]:
    """The events of ``body`` (``{"events": [{"rule", "asked", "answered",
    "right", "first", "source", "when"}, ...]}``, 1 to :data:`MAX_EVENTS`), for
    ``learner`` (the hub's name of the sender, never one from the body); a
    :class:`BadRequest` says what is wrong and what is allowed.

    >>> one = {"rule": "M-1", "asked": "q", "answered": "a", "right": True,
    ...        "first": True, "source": "drill", "when": 10.0}
    >>> [(e.learner, e.rule, e.when) for e in hub_events("ana", {"events": [one]}, 20.0)]
    [('ana', 'M-1', 10.0)]
    >>> hub_events("ana", {"events": [{**one, "rule": "Z-9"}]}, 20.0)
    Traceback (most recent call last):
    ...
    tableserver.errors.BadRequest: event 1: unknown rule id 'Z-9': use an id of RULES.md, e.g. TT-7, M-4a or G-9

    Each event's ``when`` is within the last :data:`EVENT_MAX_AGE` seconds
    before ``now`` (and at most a few minutes after: clocks differ a little).
    """
    if not isinstance(body, dict) or set(body) != {"events"}:
        raise BadRequest('the body must be {"events": [...]}: a list of 1 to '
                         f"{MAX_EVENTS} events, each with {', '.join(EVENT_KEYS)}")
    raw = body["events"]
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_EVENTS:
        raise BadRequest(f'"events" must be a list of 1 to {MAX_EVENTS} events, each with '
                         f"{', '.join(EVENT_KEYS)}")
    out = []
    for n, item in enumerate(raw, 1):
        if not isinstance(item, dict):
            raise BadRequest(f"event {n} must be a JSON object with {', '.join(EVENT_KEYS)}")
        if "learner" in item:
            raise BadRequest(f"event {n} names a learner: the learner is who the hub says "
                             "sent it, never a name in the request; leave \"learner\" out")
        keys = set(item) - {"judged"}  # "rule" (the default) or "play"
        if keys != set(EVENT_KEYS):
            extra = sorted(keys - set(EVENT_KEYS))
            missing = [k for k in EVENT_KEYS if k not in keys]
            what = (f"unknown keys {', '.join(repr(k[:20]) for k in extra[:3])}" if extra
                    else f"no {', '.join(missing)}")
            raise BadRequest(f"event {n} has {what}: an event has exactly "
                             f"{', '.join(EVENT_KEYS)}")
        for key in ("asked", "answered", "rule", "source"):
            if not isinstance(item[key], str):
                raise BadRequest(f"event {n}: {key} must be a text")
        for key in ("right", "first"):
            if not isinstance(item[key], bool):
                raise BadRequest(f"event {n}: {key} must be true or false")
        when = item["when"]
        if isinstance(when, bool) or not isinstance(when, int | float) or \
                not math.isfinite(when) or not now - EVENT_MAX_AGE <= when <= now + _SKEW:
            raise BadRequest(f"event {n}: when must be the time it happened, in seconds since "
                             f"the epoch, within the last {EVENT_MAX_AGE / 3600:g} hours and "
                             "not in the future (an older event stays in the learner's own "
                             "record: the teacher imports it from their saved record)")
        try:
            out.append(progress.Event(learner, item["rule"], item["asked"], item["answered"],
                                      item["right"], item["first"], item["source"],
                                      float(when), judged=item.get("judged", "rule")).checked())
        except progress.ProgressError as e:
            raise BadRequest(f"event {n}: {e}") from None
    return out


#: The longest answer the server judges (characters).
MAX_ANSWER = 200
#: A drill's seed is a whole number from 0 to this.
MAX_SEED = 2**53 - 1
_QUIZ_KEYS = {"book", "part", "number", "answer"}
_DRILL_KEYS = {"drill", "seed", "answer"}
_ANSWER_HELP = ('the body must be {"book": "01_three_thirteen", "part": "quizzes" or '
                '"exercises", "number": N, "answer": TEXT} or {"drill": RULE, "seed": N, '
                '"answer": TEXT} (with "variant": NAME when the drill was dealt from one), '
                'with "hinted": true after a hint')


def judge_answer(learner: str | None, body: Any, record: progress.Record | None = None
                 ) -> dict[str, Any]:
    """Judge a learner's answer where they can't read the answer, and keep it.

    ``body`` names a quiz or exercise of a lesson's quiz file (``book``,
    ``part``, ``number``) or a drill (its ``rule`` and ``seed``, and the
    ``variant`` a lesson dealt it from: the engine deals the same position
    again), and the ``answer`` given; ``hinted``
    (true after a hint) makes it a later try.  The one checker
    (:mod:`rummy.teach`) judges it against the answers this server holds
    (:func:`rummy.teach_book.book_entry`); an answer that counts is kept for
    ``learner`` as judged by the server (``by="server"``), committed before
    this returns (``learner`` None, nobody named yet: judged, kept for
    nobody; the page sends it again once the learner is named).  It is the first try at the question unless a hint was
    taken or the learner answered the same question today already.  A
    :class:`BadRequest` says what was wrong and what is allowed."""
    if not isinstance(body, dict):
        raise BadRequest(_ANSWER_HELP)
    keys = set(body) - {"hinted"}
    if keys not in (_QUIZ_KEYS, _DRILL_KEYS, _DRILL_KEYS | {"variant"}):
        raise BadRequest(_ANSWER_HELP)
    answer, hinted = body["answer"], body.get("hinted", False)
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER:
        raise BadRequest(f'"answer" must be a text of at most {MAX_ANSWER} characters')
    if not isinstance(hinted, bool):
        raise BadRequest('"hinted" must be true or false')
    try:
        if "drill" in keys:
            rule, seed, variant = body["drill"], body["seed"], body.get("variant")
            if not isinstance(rule, str) or rule not in teach_book.drill_rules():
                raise BadRequest(f"no drill for {str(rule)[:20]!r}: a rule id of RULES.md "
                                 "that has drills, e.g. TT-7, M-4a or G-9")
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
                raise BadRequest(f'"seed" must be a whole number from 0 to {MAX_SEED}')
            if variant is not None and not isinstance(variant, str):
                raise BadRequest('"variant" must be a variant\'s name, e.g. "tre_tretton"')
            try:
                verdict = teach_book.judge_drill(rule, seed, answer, variant)
            except ValueError as e:  # an unknown variant, or one the drill can't deal from
                raise BadRequest(str(e)[:200]) from None
            source = "drill"
        else:
            entry = teach_book.book_entry(body["book"], body["part"], body["number"])
            verdict = teach_book.judge_entry(entry, answer, body["part"])
            source = "quiz" if body["part"] == "quizzes" else "exercise"
    except TeachError as e:
        raise BadRequest(str(e)) from None
    out: dict[str, Any] = {"right": verdict.right, "feedback": verdict.feedback,
                           "counted": verdict.counted, "rule": verdict.rule,
                           "judged": verdict.judged, "first": False, "kept": False}
    if learner is None or not (verdict.counted and verdict.rule):
        return out  # nobody named; an answer that can't be read is not a try; no rule
    rec = record if record is not None else progress.default_record()
    now = rec.clock()
    today = int(now // progress.DAY)
    again = any(e.rule == verdict.rule and e.asked == verdict.asked and
                int(e.when // progress.DAY) == today for e in rec.events(learner))
    first = not hinted and not again
    rec.add(learner, verdict.rule, verdict.asked, answer, verdict.right, first=first,
            source=source, when=now, judged=verdict.judged, by="server")
    out.update(first=first, kept=True, asked=verdict.asked, source=source, when=now)
    return out


#: The largest body of ``POST .../progress/import`` (bytes): a saved record of a few
#: thousand events, in JSON (a learner's year of practice is a few hundred).
MAX_IMPORT = 1_000_000
_IMPORT_HELP = ('the body must be {"record": TEXT, "code": CODE}: the text of the file the '
                "learner saved with Save my record, and the learner's recovery code (the "
                "file is checked with it)")


def import_saved(service: TableService, key: Any, body: Any,
                 record: progress.Record | None = None) -> dict[str, Any]:
    """The teacher (``key``) imports a learner's saved record into the class grid:
    ``body`` is ``{"record": TEXT, "code": CODE}`` (the file "Save my record" made
    and the learner's recovery code, which its MAC is checked with:
    :func:`rummy.progress.import_record`); its events are kept as the learner's
    self-checks (an event kept already is not kept twice) and the learner is in the
    class grid of the whole server from now on.  ``{"learner", "events", "new"}``;
    a file changed after it was saved, another learner's code or not a saved record
    at all: :class:`BadRequest` saying so, and nothing kept."""
    teacher_may_see(service, key)
    if not isinstance(body, dict) or set(body) != {"record", "code"}:
        raise BadRequest(_IMPORT_HELP)
    text, code = body["record"], body["code"]
    if not isinstance(text, str) or not text.strip():
        raise BadRequest('"record" must be the text of the file the learner saved with Save '
                         "my record")
    if not isinstance(code, str) or progress.normal_key(code) is None:
        raise BadRequest('"code" must be the learner\'s recovery code: 32 letters and digits, '
                         "dashes allowed (the learner's page shows it under Recovery code)")
    rec = record if record is not None else progress.default_record()
    known = rec.learner_of(code)
    before = len(rec.events(known)) if known is not None else 0
    try:
        who, kept = progress.import_record(text, code, rec, into_class=True)
    except progress.ProgressError as e:
        raise BadRequest(str(e)) from None
    return {"learner": rec.label(who), "events": len(kept),
            "new": len(rec.events(who)) - before}


def to_csv(rows: list[dict[str, Any]]) -> str:
    """The grid as CSV, with its header even when empty, no cell a
    spreadsheet would run as a formula (:func:`tableserver.wire.grid_csv`).

    >>> to_csv([]).startswith('"learner","rule","attempts"')
    True
    """
    return grid_csv(rows)


def handlers(root: str, kw: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The routes, under the API's ``root`` (``.../rummy/api``)."""
    return [
        (root + "/progress/events", EventsHandler, kw),
        (root + "/progress/?", GridHandler, kw),
        (root + f"/tables/{CODE}/progress/?", GridHandler, kw),
        (root + f"/tables/{CODE}/progress/me", OwnHandler, kw),
        (root + "/progress/me", MeHandler, kw),
        (root + "/progress/key", KeyHandler, kw),
        (root + "/progress/answer", AnswerHandler, kw),
        (root + "/progress/import", ImportHandler, kw),
    ]


class _ProgressHandler(ApiHandler):
    #: the query parameters the endpoint takes
    allowed: tuple[str, ...] = ()

    def bad_query(self) -> str | None:
        """Why the address is refused: it carries a secret, or a parameter
        the endpoint does not take (None: it is fine)."""
        given = list(self.request.query_arguments)
        if any(p.lower() in _SECRET_PARAMS for p in given):
            return ("a key or token never goes in an address (it would be logged and kept in "
                    "the browser's history): send the teacher key in the X-Rummy-Teacher-Key "
                    "header, a seat's token in X-Rummy-Token")
        unknown = [p for p in given if p not in self.allowed]
        if unknown:
            takes = "format=json or format=csv" if self.allowed else "no query parameter"
            return f"unknown query parameter {unknown[0][:20]!r}: this endpoint takes {takes}"
        return None

    def refused_early(self, too_big: str = "") -> bool:
        """Answer the refusal of a body too large (413, ``too_big`` says what
        to do instead) or of a bad address (400) and say True; False: go on."""
        if getattr(self, "refused", False):
            self.send_error_json(413, f"the request body is larger than {self.max_body} bytes"
                                      + too_big)
            return True
        why = self.bad_query()
        if why is not None:
            self.send_error_json(400, why)
            return True
        return False


class GridHandler(_ProgressHandler):
    allowed = ("format",)

    async def get(self, code: str | None = None) -> None:
        if self.refused_early():
            return
        fmt = self.get_query_argument("format", "json")
        if fmt not in ("json", "csv"):
            self.send_error_json(400, f"format must be json or csv, not {fmt[:20]!r}")
            return
        try:
            teacher_may_see(self.service, self.teacher_key())  # in memory: on the loop
            names = _names(self.service.seated_names(code))
            table = None if code is None else normal_code(code)
            if code is None:  # and the learners whose saved records the teacher imported
                names += await asyncio.to_thread(progress.default_record().imported)
            grid = await asyncio.to_thread(_grid, table, names)
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        if fmt == "json":
            self.send_json(grid)
            return
        text = await asyncio.to_thread(to_csv, grid["rows"])
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition",
                        f"attachment; filename=progress-{grid['code'] or 'class'}.csv")
        self.finish(text)


class OwnHandler(_ProgressHandler):
    def hub_learner(self) -> str | None:
        """Who the hub says sent this request (None: not on a hub)."""
        return None

    def learner(self) -> str:
        """The learner of this request: on a hub the signed-in user (their
        whole name), else whoever holds the key of the header."""
        who = self.hub_learner()
        if who is not None:
            return progress.default_record().hub_user(who)
        return key_learner(self.request.headers.get(progress.KEY_HEADER))

    async def get(self, code: str) -> None:
        if self.refused_early():
            return
        try:
            # the seat's token: the X-Rummy-Token header (on a hub, the hub user's seat)
            table, _name = seat_learner(self.service, code, self.token())
            who = await asyncio.to_thread(self.learner)
            out = await asyncio.to_thread(_own, who)
            out["code"] = table
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json(out)


def _erase(learner: str) -> dict[str, Any]:
    return {"erased": progress.default_record().erase(learner)}


class MeHandler(OwnHandler):
    """``GET``/``DELETE .../progress/me``: the learner's own record, by their key."""

    async def for_learner(self, fn: Any) -> None:
        """Answer ``fn(learner)`` for the learner of this request (their key;
        on a hub the hub user), in a worker thread: the address checked
        first, every refusal as the service's JSON error."""
        if self.refused_early():
            return
        try:
            who = await asyncio.to_thread(self.learner)
            out = await asyncio.to_thread(fn, who)
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json(out)

    async def get(self) -> None:  # type: ignore[override]
        await self.for_learner(_own)

    async def delete(self) -> None:
        await self.for_learner(_erase)


class KeyHandler(_ProgressHandler, PostHandler):
    """``POST .../progress/key``: the teacher resets a learner's key."""

    async def post(self) -> None:
        if self.refused_early():
            return
        try:
            teacher_may_see(self.service, self.teacher_key())
            out = await asyncio.to_thread(reset_key, self.service, self.teacher_key(),
                                          self.json_body())
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json(out)


class ImportHandler(_ProgressHandler, PostHandler):
    """``POST .../progress/import``: the teacher imports a learner's saved record
    (:func:`import_saved`), read and kept in a worker thread."""

    max_body = MAX_IMPORT

    async def post(self) -> None:
        if self.refused_early(": a saved record this big is not imported"):
            return
        try:
            teacher_may_see(self.service, self.teacher_key())  # in memory: on the loop
            out = await asyncio.to_thread(import_saved, self.service, self.teacher_key(),
                                          self.json_body())
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json(out)


class EventsHandler(_ProgressHandler, PostHandler):
    """``POST .../progress/events``: a learner's server on a hub sends the
    events its kernels kept; they are kept (committed) under the hub's name
    of the sender before the answer ``{"learner", "kept"}``."""

    def hub_learner(self) -> str | None:
        """Who the hub says sent this request (None: not on a hub)."""
        return None

    async def post(self) -> None:
        if self.refused_early(": send fewer events at once"):
            return
        who = self.hub_learner()
        if who is None:
            self.send_error_json(403, "only a learner's server on a JupyterHub sends its events "
                                      "here (signed by the hub); elsewhere the kernels keep "
                                      "the record in the server's own data folder")
            return
        rec = progress.default_record()
        try:
            name = await asyncio.to_thread(rec.hub_user, who)  # the whole hub name
        except progress.ProgressError as e:
            self.send_error_json(403, f"the hub name can't be a learner's name here: {e}")
            return
        try:
            events = hub_events(name, self.json_body(), progress.clock())
            kept = await asyncio.to_thread(rec.add_events, events, quota=_QUOTA)
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        except progress.QuotaError as e:
            self.set_header("Retry-After", str(e.retry_after))
            per = "minute" if e.span <= 60 else "day"
            self.send_error_json(429, f"too many events: the teacher's grid keeps at most "
                                      f"{e.limit} a {per} from each learner, and none of these "
                                      f"{len(events)} was kept (they stay in your own record); "
                                      f"try again in {_wait(e.retry_after)}")
            return
        self.send_json({"learner": rec.label(name), "kept": len(kept)})


def _wait(seconds: int) -> str:
    """``42 seconds``, ``3 minutes`` or ``2 hours`` (rounded up).

    >>> _wait(42), _wait(150), _wait(7200)
    ('42 seconds', '3 minutes', '2 hours')
    """
    if seconds <= 90:
        return f"{seconds} seconds"
    if seconds <= 90 * 60:
        return f"{math.ceil(seconds / 60)} minutes"
    return f"{math.ceil(seconds / 3600)} hours"


class AnswerHandler(OwnHandler, PostHandler):
    """``POST .../progress/answer``: the server judges a learner's answer
    (:func:`judge_answer`) and keeps it under the learner of the key (on a
    hub, the signed-in hub user)."""

    async def post(self) -> None:  # type: ignore[override]
        if self.refused_early():
            return
        try:
            body = self.json_body()
            named = self.hub_learner() is not None or self.request.headers.get(
                progress.KEY_HEADER)  # no key: nobody named yet (a wrong key: 403)
            who = await asyncio.to_thread(self.learner) if named else None
            out = await asyncio.to_thread(judge_answer, who, body)
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json(out)
