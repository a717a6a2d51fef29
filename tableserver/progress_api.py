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

Who may see a grid is decided by one function, :func:`teacher_may_see`: the
teacher key, checked as the table service checks it for every teacher action
(digests compared in constant time).  The key and a seat's token come in the
headers only: an address that carries one (``?teacher_key=``, ``?token=``,
...) is refused, for an address is logged and kept in the browser's history.
A request from another site is refused before anything is read (as every
request of the API).  The record is read in a worker thread, never on the
event loop.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

from rummy import progress
from tableserver.core import BadRequest, ServiceError, TableService, normal_code
from tableserver.web import _CODE, _Handler

__all__ = ["teacher_may_see", "class_grid", "own_rows", "seat_learner", "to_csv", "handlers",
           "COLUMNS"]

#: The columns of the class grid, in order.
COLUMNS = ("learner", "rule", "attempts", "right_first", "box")

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


def to_csv(rows: list[dict[str, Any]]) -> str:
    """The grid as CSV (pandas), with its header even when empty.

    >>> print(to_csv([]).strip())
    learner,rule,attempts,right_first,box
    """
    import pandas as pd

    buf = io.StringIO()
    pd.DataFrame(rows, columns=list(COLUMNS)).to_csv(buf, index=False)
    return buf.getvalue()


def handlers(root: str, kw: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The routes, under the API's ``root`` (``.../rummy/api``)."""
    return [
        (root + "/progress/?", GridHandler, kw),
        (root + f"/tables/{_CODE}/progress/?", GridHandler, kw),
        (root + f"/tables/{_CODE}/progress/me", OwnHandler, kw),
    ]


class _ProgressHandler(_Handler):
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
            table, name = seat_learner(self.service, code,
                                       self.request.headers.get("X-Rummy-Token"))
            out = await asyncio.to_thread(_grid, table, _names([name]))
            out["learner"] = name
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json(out)
