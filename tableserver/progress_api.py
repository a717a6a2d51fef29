"""The record of learning on the table service: the teacher's class grid and
a learner's own record (``docs/PROGRESS.md``).

The events are the ones the learners' kernels kept in this server's data
folder (:mod:`rummy.progress`, ``$RUMMY_DATA/progress.sqlite3``) under the
names they joined a table with.  Endpoints::

    GET /rummy/api/progress[?format=csv]                (X-Rummy-Teacher-Key)
        the class grid of every learner seated at this server's tables (each
        name once; finished and closed tables count until they expire): one
        row per learner and rule seen (learner, rule, attempts, right_first,
        box); CSV (pandas) with format=csv
    GET /rummy/api/tables/CODE/progress[?format=csv]    (X-Rummy-Teacher-Key)
        the same for the learners seated at table CODE
    GET /rummy/api/tables/CODE/progress/me              (X-Rummy-Token)
        the rows of the learner of that seat only
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

from rummy import progress
from tableserver.errors import BadRequest, ServiceError
from tableserver.handler import CODE, MAX_BODY, ApiHandler, PostHandler
from tableserver.service import TableService
from tableserver.tables import normal_code
from tableserver.wire import GRID_COLUMNS, grid_csv

__all__ = ["teacher_may_see", "class_grid", "own_rows", "seat_learner", "to_csv", "handlers",
           "hub_events", "COLUMNS", "EVENT_KEYS", "MAX_EVENTS"]

#: The columns of the class grid, in order.
COLUMNS = GRID_COLUMNS

#: Query parameters that would put a secret in an address: always refused.
_SECRET_PARAMS = ("teacher_key", "key", "admin_token", "admin", "token", "watch")


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
    return _grid(None if code is None else normal_code(code), learners, record)


def _grid(code: str | None, learners: list[str], record: progress.Record | None = None
          ) -> dict[str, Any]:
    rec = record if record is not None else progress.default_record()
    return {"code": code, "learners": learners, "columns": list(COLUMNS),
            "rows": rec.grid(learners)}


def seat_learner(service: TableService, code: Any, token: Any) -> tuple[str, str]:
    """(table code, the name of the seat whose token this is); the
    spectator's token and the teacher key are refused here."""
    view = service.state(code, token)
    seat = view.get("player")
    if not isinstance(seat, int):
        raise BadRequest("progress/me takes a seat's token in X-Rummy-Token (the teacher's "
                         "grid is .../progress, with the teacher key)")
    return view["code"], view["table"]["seats"][seat]["name"]


def own_rows(service: TableService, code: Any, token: Any,
             record: progress.Record | None = None) -> dict[str, Any]:
    """A learner's own rows, by their seat's token: nobody else's."""
    table, name = seat_learner(service, code, token)
    out = _grid(table, _names([name]), record)
    out["learner"] = name
    return out


#: What an event sent by a learner's server holds (the learner is who the hub says).
EVENT_KEYS = ("rule", "asked", "answered", "right", "first", "source", "when")
#: The most events one request may carry.
MAX_EVENTS = 50
#: How far ahead of the service's clock an event's time may be (clocks differ a little).
_SKEW = 300.0


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
        keys = set(item)
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
                not math.isfinite(when) or not 0 <= when <= now + _SKEW:
            raise BadRequest(f"event {n}: when must be the time it happened, in seconds since "
                             "the epoch (not in the future)")
        try:
            out.append(progress.Event(learner, item["rule"], item["asked"], item["answered"],
                                      item["right"], item["first"], item["source"],
                                      float(when)).checked())
        except progress.ProgressError as e:
            raise BadRequest(f"event {n}: {e}") from None
    return out


def to_csv(rows: list[dict[str, Any]]) -> str:
    """The grid as CSV, with its header even when empty, no cell a
    spreadsheet would run as a formula (:func:`tableserver.wire.grid_csv`).

    >>> print(to_csv([]).strip())
    "learner","rule","attempts","right_first","box"
    """
    return grid_csv(rows)


def handlers(root: str, kw: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The routes, under the API's ``root`` (``.../rummy/api``)."""
    return [
        (root + "/progress/events", EventsHandler, kw),
        (root + "/progress/?", GridHandler, kw),
        (root + f"/tables/{CODE}/progress/?", GridHandler, kw),
        (root + f"/tables/{CODE}/progress/me", OwnHandler, kw),
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


class GridHandler(_ProgressHandler):
    allowed = ("format",)

    async def get(self, code: str | None = None) -> None:
        why = self.bad_query()
        if why is not None:
            self.send_error_json(400, why)
            return
        fmt = self.get_query_argument("format", "json")
        if fmt not in ("json", "csv"):
            self.send_error_json(400, f"format must be json or csv, not {fmt[:20]!r}")
            return
        try:
            teacher_may_see(self.service, self.teacher_key())  # in memory: on the loop
            names = _names(self.service.seated_names(code))
            table = None if code is None else normal_code(code)
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
    async def get(self, code: str) -> None:
        why = self.bad_query()
        if why is not None:
            self.send_error_json(400, why)
            return
        try:
            # the seat's token: the X-Rummy-Token header (on a hub, the hub user's seat)
            table, name = seat_learner(self.service, code, self.token())
            out = await asyncio.to_thread(_grid, table, _names([name]))
            out["learner"] = name
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
        if self.refused:
            self.send_error_json(413, f"the request body is larger than {MAX_BODY} bytes: "
                                      "send fewer events at once")
            return
        why = self.bad_query()
        if why is not None:
            self.send_error_json(400, why)
            return
        who = self.hub_learner()
        if who is None:
            self.send_error_json(403, "only a learner's server on a JupyterHub sends its events "
                                      "here (signed by the hub); elsewhere the kernels keep "
                                      "the record in the server's own data folder")
            return
        try:
            name = progress.normal_name(who)
        except progress.ProgressError as e:
            self.send_error_json(403, f"the hub name can't be a learner's name here: {e}")
            return
        try:
            events = hub_events(name, self.json_body(), progress.clock())
            kept = await asyncio.to_thread(progress.default_record().add_events, events)
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json({"learner": name, "kept": len(kept)})
