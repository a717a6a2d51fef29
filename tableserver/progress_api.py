"""The record of learning on the table service: the teacher's class grid and
a learner's own record (``docs/PROGRESS.md``).

The events are the ones the learners' kernels kept in this server's data
folder (:mod:`rummy.progress`, ``$RUMMY_DATA/progress.sqlite3``) under the
names they joined a table with.  Endpoints::

    GET /rummy/api/tables/CODE/progress?admin_token=...[&format=csv]
        the class grid of the learners seated at table CODE: one row per
        learner and rule seen (learner, rule, attempts, right_first, box);
        CSV (pandas) with format=csv
    GET /rummy/api/tables/CODE/progress/me?token=SEAT_TOKEN
        the rows of the learner of that seat only

Who may see the grid is decided by one function, :func:`teacher_may_see`
(today: the table's admin token; a teacher key can replace it there).  The
token may come in the ``X-Rummy-Token`` header instead of the query.  The
record is read in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

from rummy import progress
from tableserver.core import BadRequest, ServiceError, TableService
from tableserver.web import _CODE, _Handler

__all__ = ["teacher_may_see", "class_grid", "own_rows", "handlers", "COLUMNS"]

#: The columns of the class grid, in order.
COLUMNS = ("learner", "rule", "attempts", "right_first", "box")


def teacher_may_see(service: TableService, code: Any, token: Any) -> dict[str, Any]:
    """The one check before the class grid of table ``code``: the table's admin
    token.  Returns the teacher's view of the table; raises the service's
    ``Forbidden`` (wrong token) or ``NotFound`` (no such table)."""
    return service.admin(code, token)


def _learners(view: dict[str, Any]) -> list[str]:
    seats = view.get("table", {}).get("seats", [])
    return [s["name"] for s in seats if s.get("kind") == "human" and s.get("joined")]


def class_grid(service: TableService, code: Any, token: Any,
               record: progress.Record | None = None) -> dict[str, Any]:
    """The class grid of table ``code`` for its teacher: ``{"code", "learners",
    "columns", "rows"}``, a row per learner seated there and rule they met."""
    view = teacher_may_see(service, code, token)
    return _grid(view["code"], _learners(view), record)


def _grid(code: str, learners: list[str], record: progress.Record | None = None
          ) -> dict[str, Any]:
    rec = record if record is not None else progress.default_record()
    return {"code": code, "learners": learners, "columns": list(COLUMNS),
            "rows": rec.grid(learners)}


def seat_learner(service: TableService, code: Any, token: Any) -> tuple[str, str]:
    """(table code, the name of the seat whose token this is); a spectator's
    or the teacher's token is refused here."""
    view = service.state(code, token)
    seat = view.get("player")
    if not isinstance(seat, int):
        raise BadRequest("progress/me takes a seat's token (the teacher's grid is "
                         "progress?admin_token=...)")
    return view["code"], view["table"]["seats"][seat]["name"]


def own_rows(service: TableService, code: Any, token: Any,
             record: progress.Record | None = None) -> dict[str, Any]:
    """A learner's own rows, by their seat's token: nobody else's."""
    table, name = seat_learner(service, code, token)
    out = _grid(table, [name], record)
    out["learner"] = name
    return out


def to_csv(rows: list[dict[str, Any]]) -> str:
    """The grid as CSV (pandas), with its header even when empty."""
    import pandas as pd

    buf = io.StringIO()
    pd.DataFrame(rows, columns=list(COLUMNS)).to_csv(buf, index=False)
    return buf.getvalue()


def handlers(root: str, kw: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The routes, under the API's ``root`` (``.../rummy/api``)."""
    return [
        (root + f"/tables/{_CODE}/progress/?", GridHandler, kw),
        (root + f"/tables/{_CODE}/progress/me", OwnHandler, kw),
    ]


class GridHandler(_Handler):
    async def get(self, code: str) -> None:
        token = self.get_query_argument("admin_token", None) or self.request.headers.get(
            "X-Rummy-Token")
        fmt = self.get_query_argument("format", "json")
        if fmt not in ("json", "csv"):
            self.send_error_json(400, f"format must be json or csv, not {fmt[:20]!r}")
            return
        try:
            view = teacher_may_see(self.service, code, token)  # in memory: on the loop
            grid = await asyncio.to_thread(_grid, view["code"], _learners(view))
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        if fmt == "json":
            self.send_json(grid)
            return
        text = await asyncio.to_thread(to_csv, grid["rows"])
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition",
                        f"attachment; filename=progress-{grid['code']}.csv")
        self.finish(text)


class OwnHandler(_Handler):
    async def get(self, code: str) -> None:
        try:
            table, name = seat_learner(self.service, code, self.token())
            out = await asyncio.to_thread(_grid, table, [name])
            out["learner"] = name
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        self.send_json(out)
