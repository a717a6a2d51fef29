"""The score sheet: ``state.score_sheet()`` (a pandas DataFrame) as a table.

>>> from rummy import new_game
>>> s = ScoreSheet(new_game("three_thirteen", players=["Ana", "Ben"], seed=1))
>>> "<table" in s.table.value and "Total" in s.table.value
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from widgets._common import View, esc, html_box

__all__ = ["ScoreSheet"]


class ScoreSheet(View):
    """A score sheet, updated with :meth:`update` from any engine state."""

    def __init__(self, state: Any = None, *, title: str = "Score sheet") -> None:
        super().__init__()
        self.frame: Any = None
        self.title = w.HTML(f"<b>{esc(title)}</b>")
        self.table = html_box("rummy-score-sheet")
        self.widget = w.VBox([self._style, self.title, self.table, self.message])
        self.widget.add_class("rummy-score-sheet-view")
        self.update(state)

    def update(self, state: Any) -> None:
        """Redraw from ``state.score_sheet()``."""
        if state is None:
            self.frame = None
            self.table.value = "<i>No game yet.</i>"
            return
        df = state.score_sheet()
        self.frame = df
        new = df.to_html(classes="rummy-score-table", border=0, escape=True)
        if self.table.value != new:
            self.table.value = new
