"""The class grid on the teacher's page: learners x rules, what each learner
seated at this server's tables (or at the page's table only) has met
(answers right at the first try, days practised, predicted recall, play
apart) and the rules the class missed most, from the table service's
``progress`` endpoints with the teacher key the page holds (in a header, never
in an address), and a CSV export (no cell a spreadsheet runs as a formula).  See ``docs/PROGRESS.md``.

It asks the table service through its client (:mod:`tableserver.client`)."""

from __future__ import annotations

import base64
import html
from typing import Any

import ipywidgets as w

from rummy.progress import GRID_COLUMNS
from rummy.rulebook import RULE_IDS
from tableserver.client import RemoteError, request, table_url
from tableserver.wire import grid_csv

__all__ = ["ClassGrid", "grid_frame", "grid_html", "missed_html", "COLUMNS"]


#: The largest saved record sent to the service (its limit, ``MAX_IMPORT`` of
#: ``tableserver.progress_api``: it refuses a larger one too).
MAX_IMPORT = 1_000_000

#: The grid's columns (the service's, :data:`rummy.progress.GRID_COLUMNS`).
COLUMNS = list(GRID_COLUMNS)


def grid_frame(rows: list[dict[str, Any]]) -> Any:
    """The grid's rows as a pandas table (:data:`COLUMNS`)."""
    import pandas as pd  # heavy: loaded when a teacher asks for the grid, not with the page

    return pd.DataFrame(rows, columns=COLUMNS)


def _cell(c: dict[str, Any]) -> str:
    parts = []
    if c["attempts"]:
        recall = c.get("recall")
        parts.append(f"rule: {c['right_first']} of {c['attempts']} right first, "
                     f"{c['days']} day{'s' if c['days'] != 1 else ''}"
                     + (f", recall {round(100 * recall)}%" if recall is not None else "")
                     + (", mastered" if c.get("status") == "mastered" else ""))
    if c.get("play_attempts"):
        parts.append(f"play: {c['play_right_first']} of {c['play_attempts']} best")
    if c.get("server_judged"):
        total = c["attempts"] + (c.get("play_attempts") or 0)
        parts.append(f"{c['server_judged']} of {total} judged by the server")
    return "; ".join(parts)


def grid_html(learners: list[str], rows: list[dict[str, Any]]) -> str:
    """Learners down, the rules met across; a cell says, for the rule, how
    many answers were right at the first try of how many, on how many days,
    the predicted recall now, the play apart, and how many answers the kit's
    server judged (the others were self-checks); an empty cell: not met.

    >>> print(grid_html(["Ana"], [{"learner": "Ana", "rule": "M-1", "attempts": 2,
    ...     "right_first": 1, "days": 1, "recall": 0.9, "status": "practising",
    ...     "play_attempts": 0, "play_right_first": 0}]))  # doctest: +ELLIPSIS
    <table class='rummy-class-grid'>...<th scope='row'>Ana</th><td data-rule='M-1'>rule: 1 of 2 right first, 1 day, recall 90%</td>...
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
            tds.append(f"<td data-rule='{html.escape(rule)}'>"
                       f"{html.escape(_cell(c)) if c else ''}</td>")
        body.append(f"<tr data-learner='{html.escape(who)}'><th scope='row'>{html.escape(who)}"
                    f"</th>{''.join(tds)}</tr>")
    return (f"<table class='rummy-class-grid'><caption>Each cell: the rule's answers right at "
            f"the first try, of all answers, on how many days, and the predicted chance of "
            f"recalling it now (FSRS); play (the best move among legal ones) apart; how many "
            f"answers the kit's server judged (the others were checked on the learner's own "
            f"computer)</caption>"
            f"<thead><tr><th scope='col'>Learner</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def missed_html(missed: list[dict[str, Any]]) -> str:
    """The rules the class missed most, each with its commonest wrong answer.

    >>> missed_html([{"rule": "TT-5", "wrong": 3, "learners": 2, "commonest": "pass",
    ...               "times": 2}])  # doctest: +ELLIPSIS
    "<h3>The rules missed most</h3><ul ...><li><b>TT-5</b>: 3 wrong answers by 2 learners; the commonest: \u201cpass\u201d (2 times)</li></ul>"
    """
    if not missed:
        return ""
    items = "".join(
        f"<li><b>{html.escape(m['rule'])}</b>: {m['wrong']} wrong answer"
        f"{'s' if m['wrong'] != 1 else ''} by {m['learners']} learner"
        f"{'s' if m['learners'] != 1 else ''}; the commonest: "
        f"\u201c{html.escape(str(m['commonest']))}\u201d ({m['times']} time"
        f"{'s' if m['times'] != 1 else ''})</li>" for m in missed)
    return f"<h3>The rules missed most</h3><ul class='rummy-class-missed'>{items}</ul>"


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
        # a learner who lost their key (a new device, a cleared browser) gets a new one
        self.reset_name = w.Text(value="", description="Learner", placeholder="their name",
                                 continuous_update=False)
        self.reset_name.add_class("rummy-class-reset-name")
        self.reset = w.Button(description="Give a new recovery code", layout=w.Layout(
            width="auto"), tooltip="The learner's old key then opens nothing")
        self.reset.add_class("rummy-class-reset")
        self.reset.on_click(lambda _b: self._reset_guard())
        self.reset_said = w.HTML()
        self.reset_said.add_class("rummy-class-reset-said")
        # a learner's saved record (Save my record, on their own computer) into the grid
        self.upload = w.FileUpload(accept=".jsonl,.txt,.json", multiple=False,
                                   description="Choose a saved record",
                                   layout=w.Layout(width="auto"))
        self.upload.add_class("rummy-class-import-file")
        self.import_code = w.Text(value="", description="Their code",
                                  placeholder="the learner's recovery code",
                                  continuous_update=False)
        self.import_code.add_class("rummy-class-import-code")
        self.import_button = w.Button(description="Import into the class grid",
                                      layout=w.Layout(width="auto"),
                                      tooltip="The file is checked with the learner's code")
        self.import_button.add_class("rummy-class-import")
        self.import_button.on_click(lambda _b: self._import_guard())
        self.import_said = w.HTML()
        self.import_said.add_class("rummy-class-import-said")
        self.widget = w.VBox([w.HTML("<h2>The class's progress</h2>"),
                              w.HBox([self.show, self.only_table],
                                     layout=w.Layout(flex_flow="row wrap")),
                              self.grid, self.csv,
                              w.HBox([self.reset_name, self.reset],
                                     layout=w.Layout(flex_flow="row wrap")),
                              self.reset_said,
                              w.HBox([self.upload, self.import_code, self.import_button],
                                     layout=w.Layout(flex_flow="row wrap")),
                              self.import_said], layout=w.Layout(display="none"))
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

    def _reset_guard(self) -> None:
        try:
            self.reset_key()
        except Exception as exc:  # noqa: BLE001 - a message, never a traceback
            self.reset_said.value = f"<p role='alert'>{html.escape(str(exc))}</p>"

    def _import_guard(self) -> None:
        try:
            self.import_file()
        except Exception as exc:  # noqa: BLE001 - a message, never a traceback
            self.import_said.value = f"<p role='alert'>{html.escape(str(exc))}</p>"

    def _chosen(self) -> str | None:
        """The text of the file chosen in the upload box (None: none chosen)."""
        files = self.upload.value
        if not files:
            return None
        first = files[0] if isinstance(files, list | tuple) else next(iter(files.values()))
        data = bytes(first["content"])
        if len(data) > MAX_IMPORT:
            raise RemoteError(f"this file is larger than {MAX_IMPORT // 1000} kB: it is not a "
                              "record the kit saved")
        return data.decode("utf-8", errors="replace")

    def import_file(self, text: str | None = None, code: str | None = None
                    ) -> dict[str, Any] | None:
        """Import a learner's saved record (``text``, default: the file chosen)
        checked with their recovery code (``code``, default: the box) into the class
        grid; says what was kept (None: refused, said why).  The grid, once shown, is
        drawn again."""
        c = self.classroom
        if not c.key:
            raise RemoteError("sign in with the teacher key first")
        text = self._chosen() if text is None else text
        code = (self.import_code.value if code is None else code).strip()
        if not text:
            raise RemoteError("choose the file the learner saved (Save my record on their "
                              "progress page) first")
        if not code:
            raise RemoteError("type the learner's recovery code: the file is checked with it")
        try:
            got = request(f"{c.api}/progress/import", {"record": text, "code": code},
                          teacher=c.key)
        except RemoteError as exc:
            self.import_said.value = f"<p role='alert'>{html.escape(str(exc))}</p>"
            return None
        self.import_code.value = ""  # the code is the learner's secret: not kept in the page
        self.upload.value = ()
        new, total = int(got["new"]), int(got["events"])
        self.import_said.value = (
            f"<p role='status'>{html.escape(str(got['learner']))}'s record is in the class "
            f"grid: {new} new answer{'s' if new != 1 else ''} of {total} in the file "
            "(counted as checks on their own computer).</p>")
        if self.rows or self.grid.value:
            self.refresh()
        return got

    def reset_key(self, name: str | None = None) -> str | None:
        """Give the learner ``name`` (default: the box) a new key; shows the new
        recovery code for the teacher to hand over (None: refused, said why)."""
        c = self.classroom
        if not c.key:
            raise RemoteError("sign in with the teacher key first")
        who = (self.reset_name.value if name is None else name).strip()
        try:
            got = request(f"{c.api}/progress/key", {"learner": who}, teacher=c.key)
        except RemoteError as exc:
            self.reset_said.value = f"<p role='alert'>{html.escape(str(exc))}</p>"
            return None
        code = str(got["code"])
        self.reset_said.value = (
            f"<p role='status'>A new recovery code for {html.escape(str(got['learner']))}: "
            f"<code>{html.escape(code)}</code>. They type it under <i>Recovery code</i> on "
            "any page of the kit; their old key opens nothing now.</p>")
        return code

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
            self.grid.value = (grid_html(got["learners"], self.rows)
                               + missed_html(got.get("missed") or []))
        # no cell a spreadsheet would run as a formula (a learner's name is theirs to choose)
        data = base64.b64encode(grid_csv(self.rows).encode()).decode()
        name = f"progress-{html.escape(str(got['code'] or 'class'))}.csv"
        self.csv.value = (f"<a class='rummy-class-csv-link' download='{name}' "
                          f"href='data:text/csv;base64,{data}'>Download the grid as CSV "
                          f"({name})</a>")
