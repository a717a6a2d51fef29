"""The score sheet: ``state.score_sheet()`` (a pandas DataFrame) as a table.

>>> from rummy import new_game
>>> s = ScoreSheet(new_game("three_thirteen", players=["Ana", "Ben"], seed=1))
>>> "<table" in s.table.value and "Total" in s.table.value
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from widgets.view import View, esc, html_box

__all__ = ["ScoreSheet", "score_table_html"]


def score_table_html(state: Any) -> str:
    """The score sheet as an HTML table without pandas (``state.score_rows()``), as
    :class:`ScoreSheet` draws it where pandas is missing (the static site).

    >>> from rummy import new_game
    >>> print(score_table_html(new_game("three_thirteen", players=["Ana", "Ben"], seed=1)))
    <table class="rummy-score-table"><thead><tr><th>Round</th><th>Ana</th><th>Ben</th></tr></thead><tbody><tr><th>Total</th><td>0</td><td>0</td></tr></tbody></table>
    """
    label = str(getattr(state, "row_name", "round") or "round").capitalize()
    head = "".join(f"<th>{esc(str(p))}</th>" for p in [label, *state.players])
    body = "".join(
        f"<tr><th>{esc(row)}</th>" + "".join(f"<td>{int(v)}</td>" for v in values) + "</tr>"
        for row, values in state.score_rows())
    return (f'<table class="rummy-score-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


class ScoreSheet(View):
    """A score sheet, updated with :meth:`update` from any engine state.

    With ``shown=False`` (a table keeps its sheet folded) :meth:`update` only
    remembers the state; the sheet is drawn, and pandas loaded, once
    :meth:`show` is called.  ``frame`` is ``state.score_sheet()`` of the last
    state either way.

    >>> from rummy import new_game
    >>> folded = ScoreSheet(None, shown=False)
    >>> folded.update(new_game("three_thirteen", players=["Ana", "Ben"], seed=1))
    >>> folded.table.value, list(folded.frame.columns)
    ('<i>No game yet.</i>', ['Ana', 'Ben'])
    >>> folded.show()
    >>> "Ana" in folded.table.value
    True
    """

    def __init__(self, state: Any = None, *, title: str = "Score sheet",
                 shown: bool = True, styled: bool = True) -> None:
        super().__init__()
        self.shown = shown
        self._state: Any = None
        self._frame: Any = None
        self._stale = False
        self.title = w.HTML(f"<b>{esc(title)}</b>")
        self.table = html_box("rummy-score-sheet")
        self.widget = w.VBox([*([self._style] if styled else []), self.title, self.table,
                              self.message])
        self.widget.add_class("rummy-score-sheet-view")
        self.update(state)

    @property
    def frame(self) -> Any:
        """``state.score_sheet()`` (a pandas DataFrame) of the last state, or None."""
        if self._frame is None and self._state is not None:
            self._frame = self._state.score_sheet()
        return self._frame

    def update(self, state: Any) -> None:
        """Redraw from ``state.score_sheet()`` (once shown, if folded)."""
        self._state, self._frame = state, None
        if state is None:
            self._stale = False
            self.table.value = "<i>No game yet.</i>"
            return
        self._stale = True
        if self.shown:
            self._draw()

    def show(self, shown: bool = True) -> None:
        """Unfold (draw what :meth:`update` was given) or fold the sheet."""
        self.shown = shown
        if shown and self._stale:
            self._draw()

    def _draw(self) -> None:
        try:
            import pandas  # noqa: F401
        except ImportError:  # the static site (Pyodide): no pandas, the same table
            self._stale = False
            self.table.value = score_table_html(self._state)
            return
        frame = self.frame
        label = str(frame.index.name or "round").capitalize()
        # the corner cell names the rows: no empty header cell (axe: empty-table-header)
        new = frame.to_html(classes="rummy-score-table", border=0, escape=True,
                            index_names=False).replace("<th></th>", f"<th>{esc(label)}</th>", 1)
        self._stale = False
        if self.table.value != new:
            self.table.value = new
