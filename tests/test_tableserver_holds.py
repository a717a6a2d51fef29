"""A school server that holds: what a curious learner on the school Wi-Fi,
or another website open in the teacher's browser, could try, each tried and
refused.

CSV cells that a spreadsheet would run as formulas; a foreign ``Host``
(DNS rebinding); guessing the teacher key; long polls that wake everybody;
seat grabbing; deals that a snapshot could restore; refusals that show the
server's files.  Each test fails on the server as it was before.
"""

from __future__ import annotations

import base64
import csv
import io
from typing import Any

import pytest

from tableserver.progress_api import to_csv
from tableserver.wire import csv_cell, grid_csv

# -- CSV cells that a spreadsheet would run (OWASP "CSV injection") ---------------------

#: names a learner may join with that a spreadsheet would take for formulas
FORMULAS = ['=HYPERLINK("//e.vil")', "=cmd|'/C calc'!A0", "@SUM(1+1)", "+1+1", "-2+3",
            "\tTAB", "\rCR"]


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _rows(names: list[str]) -> list[dict[str, Any]]:
    return [{"learner": n, "rule": "M-1", "attempts": 1, "right_first": 1, "box": 1}
            for n in names]


def test_no_csv_cell_starts_a_formula() -> None:
    for text in (to_csv(_rows(FORMULAS)), grid_csv(_rows(FORMULAS))):
        cells = [row[0] for row in _cells(text)[1:]]
        assert len(cells) == len(FORMULAS)
        for cell, name in zip(cells, FORMULAS, strict=True):
            assert cell[0] not in "=+-@\t\r", cell
            assert cell == "'" + name  # the name is kept, after a quote that makes it text
    assert csv_cell("Ana") == "Ana" and csv_cell(3) == 3 and csv_cell("") == ""


def test_the_teachers_page_downloads_a_safe_csv(monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets import class_grid

    class Room:
        key, code, api = "k" * 20, None, "http://127.0.0.1:1/rummy/api"

    got = {"code": None, "learners": FORMULAS, "rows": _rows(FORMULAS)}
    monkeypatch.setattr(class_grid, "request", lambda url, teacher=None: got)
    grid = class_grid.ClassGrid(Room())
    grid.refresh()
    data = grid.csv.value.split("base64,", 1)[1].split("'", 1)[0]
    cells = [row[0] for row in _cells(base64.b64decode(data).decode())[1:]]
    assert cells == ["'" + n for n in FORMULAS]
