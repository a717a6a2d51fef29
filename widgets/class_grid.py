"""The class grid on the teacher's page: learners x rules, what each learner
seated at this server's tables (or at the page's table only) has met
(attempts, right at the first try, Leitner box), from the table service's
``progress`` endpoints with the teacher key the page holds (in a header, never
in an address), and a CSV export (pandas).  See ``docs/PROGRESS.md``.

It asks the table service through its client (:mod:`tableserver.client`)."""

from __future__ import annotations

import base64
import html
from typing import Any

import ipywidgets as w

from rummy.rulebook import RULE_IDS
from tableserver.client import RemoteError, request, table_url
from tableserver.wire import grid_csv

__all__ = ["ClassGrid", "grid_frame", "grid_html"]


def grid_frame(rows: list[dict[str, Any]]) -> Any:
    """The grid's rows as a pandas table (learner, rule, attempts, right_first, box)."""
    import pandas as pd  # heavy: loaded when a teacher asks for the grid, not with the page

    return pd.DataFrame(rows, columns=["learner", "rule", "attempts", "right_first", "box"])


def grid_html(learners: list[str], rows: list[dict[str, Any]]) -> str:
    """Learners down, the rules met across; a cell says "attempts / right at the
    first try / box"; an empty cell: not met yet.

    >>> print(grid_html(["Ana"], [{"learner": "Ana", "rule": "M-1", "attempts": 2,
    ...                            "right_first": 1, "box": 1}]))  # doctest: +ELLIPSIS
    <table class='rummy-class-grid'>...<th scope='row'>Ana</th><td data-rule='M-1'>2 / 1 / box 1</td>...
    """
    seen = {r["rule"] for r in rows}
    rules = [r for r in RULE_IDS if r in seen]
    cell = {(r["learner"], r["rule"]): r for r in rows}
    head = "".join(f"<th scope='col'>{html.escape(r)}</th>" for r in rules)
    body = []
    for who in learners:
        tds = []
        for rule in rules:
            c = cell.get((who, rule))
            text = f"{c['attempts']} / {c['right_first']} / box {c['box']}" if c else ""
            tds.append(f"<td data-rule='{html.escape(rule)}'>{text}</td>")
        body.append(f"<tr data-learner='{html.escape(who)}'><th scope='row'>{html.escape(who)}"
                    f"</th>{''.join(tds)}</tr>")
    return (f"<table class='rummy-class-grid'><caption>Each cell: attempts / right at the first "
            f"try / Leitner box (0-4)</caption><thead><tr><th scope='col'>Learner</th>{head}"
            f"</tr></thead><tbody>{''.join(body)}</tbody></table>")


class ClassGrid:
    """The class grid of a signed-in :class:`widgets.classroom.Classroom`:
    every learner seated at the server's tables, or (the box ticked) at the
    page's table only."""

    def __init__(self, classroom: Any) -> None:
        self.classroom = classroom
        self.rows: list[dict[str, Any]] = []
        self.show = w.Button(description="Show the class's progress", button_style="primary",
                             layout=w.Layout(width="auto"))
        self.show.add_class("rummy-class-progress")
        self.show.on_click(lambda _b: self._guard())
        self.only_table = w.Checkbox(value=False, indent=False,
                                     description="Only the learners at this table",
                                     layout=w.Layout(display="none", width="auto"))
        self.only_table.add_class("rummy-class-only-table")
        self.grid = w.HTML()
        self.grid.add_class("rummy-class-grid-view")
        self.csv = w.HTML()
        self.csv.add_class("rummy-class-csv")
        self.widget = w.VBox([w.HTML("<h2>The class's progress</h2>"),
                              w.HBox([self.show, self.only_table],
                                     layout=w.Layout(flex_flow="row wrap")),
                              self.grid, self.csv], layout=w.Layout(display="none"))
        self.widget.add_class("rummy-class-progress-box")

    def signed_in(self, code: str | None) -> None:
        """Show the grid's controls to the signed-in teacher; ``code``: the
        page's table (the box to narrow the grid to it appears)."""
        self.widget.layout.display = ""
        self.only_table.layout.display = "" if code else "none"
        if not code:
            self.only_table.value = False

    def _guard(self) -> None:
        try:
            self.refresh()
        except Exception as exc:  # noqa: BLE001 - a message, never a traceback
            self.grid.value = f"<p role='alert'>{html.escape(str(exc))}</p>"

    def refresh(self) -> None:
        """Fetch the grid (the service checks the teacher key) and draw it."""
        c = self.classroom
        if not c.key:
            raise RemoteError("sign in with the teacher key first")
        one = bool(self.only_table.value and c.code)
        url = table_url(c.api, c.code, "progress") if one else f"{c.api}/progress"
        try:
            got = request(url, teacher=c.key)
        except RemoteError as exc:
            self.grid.value = f"<p role='alert'>{html.escape(str(exc))}</p>"
            self.csv.value = ""
            return
        self.rows = got["rows"]
        where = "this table" if one else "a table of this server"
        if not got["learners"]:
            self.grid.value = f"<p>Nobody has joined {where} yet.</p>"
        elif not self.rows:
            self.grid.value = f"<p>No learner who joined {where} has practised a rule yet.</p>"
        else:
            self.grid.value = grid_html(got["learners"], self.rows)
        # no cell a spreadsheet would run as a formula (a learner's name is theirs to choose)
        data = base64.b64encode(grid_csv(self.rows).encode()).decode()
        name = f"progress-{html.escape(str(got['code'] or 'class'))}.csv"
        self.csv.value = (f"<a class='rummy-class-csv-link' download='{name}' "
                          f"href='data:text/csv;base64,{data}'>Download the grid as CSV "
                          f"({name})</a>")
