"""The record of learning in the classroom, headless against a real
``python -m tableserver``: a learner at a shared table learns under the name
they joined with once their page found its seat, and the teacher's page
shows the class grid (every table of the server, or this table only) and its
CSV with the teacher key it holds, which no widget ever shows."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from rummy import progress
from rummy.progress import Record
from tableserver.client import request
from tests.servers import KEY, TableServer, create_table
from tests.table_play import widget_state
from widgets import apps
from widgets.remote_table import find_seat, shared_table


def brief(rows):
    """The grid's rows cut to who, which rule, attempts and right at the first try."""
    return [{k: r[k] for k in ("learner", "rule", "attempts", "right_first")} for r in rows]


pytest.importorskip("ipywidgets")


pytestmark = pytest.mark.usefixtures("own_data")


def test_joining_a_shared_table_under_a_name_opens_nobodys_record(
        server: TableServer, monkeypatch: pytest.MonkeyPatch) -> None:
    api = server.api
    made = create_table(api, {"variant": "big_table", "seats": ["human", "human", "greedy"],
                              "speed": 10, "timeout": None})
    code = made["code"]
    monkeypatch.setenv("RUMMY_API", api)
    page = apps._shared({"table": code, "name": "  Ana  "})
    assert page.seat is None and progress.learner() is None  # no seat, nobody named
    progress.record("M-1", "q", "a", True, source="quiz")  # before the seat: waits
    assert progress.pending()
    page.box.value = json.dumps({"token": "", "name": ""})  # the page kept no seat
    assert page.seat is not None
    # the seat's name is a label at the table, not a key to Ana's record
    assert progress.learner() is None and progress.default_record().events("Ana") == []
    # the same browser opens the link again without a name: it returns to the seat
    again = apps._shared({"table": code, "name": ""})
    again.box.value = json.dumps({"token": page.seat.game.token, "name": "Ana"})
    assert again.seat.game.seat == page.seat.game.seat and progress.learner() is None
    # a hook registered once the seat was found runs at once
    heard: list[str] = []
    again.on_seated(lambda seat: heard.append(seat.game.players[seat.game.seat]))
    assert heard == ["Ana"]


def fill(folder: Path) -> None:
    """What the learners' kernels kept in the server's data folder."""
    r = Record(folder / "progress.sqlite3", clock=lambda: 1000.0)
    r.add("Ana", "BT-3", "your move", "draw own pile", False, source="table")
    r.add("Ben", "BT-3", "your move", "draw own pile", False, source="table")
    r.add("Ben", "BT-3", "your move", "draw pool", True, first=False, source="table")
    r.add("Cleo", "G-9", "q", "a", True, source="drill")
    r.add("Eve", "C-2", "q", "a", True, source="quiz")  # at no table
    r.close()


def csv_rows(link_html: str) -> list[dict[str, Any]]:
    data = re.search(r"base64,([A-Za-z0-9+/=]+)", link_html)
    assert data, link_html
    return list(pd.read_csv(io.StringIO(base64.b64decode(data.group(1)).decode()))
                .to_dict("records"))


def test_the_classroom_page_shows_the_class_grid_with_the_teacher_key(server: TableServer) -> None:
    from widgets.classroom import Classroom

    api = server.api
    fill(server.data)
    other = create_table(api, {"variant": "gin_three", "seats": ["human", "greedy", "greedy"],
                               "speed": 10})
    shared_table(other["code"], "Cleo", api=api)
    room = Classroom(api=api, query="")
    grid = room.class_grid
    assert grid.widget.layout.display == "none"  # not before the teacher signed in
    grid.show.click()
    assert "sign in" in grid.grid.value and brief(grid.rows) == []
    room.sign_in(KEY)
    assert grid.widget.layout.display == "" and grid.only_table.layout.display == "none"
    # signed in, no table of the page yet: the whole class (Cleo joined another table)
    grid.show.click()
    assert [r["learner"] for r in brief(grid.rows)] == ["Cleo"]
    assert "data-learner='Cleo'" in grid.grid.value
    assert "progress-class.csv" in grid.csv.value
    # the page's table, Ana and Ben at it
    room.variant.value, room.learners.value, room.bots.value = "big_table", 2, 1
    room.speed.value = 10.0
    room.create.click()
    assert room.message.value == "", room.message.value
    for name in ("Ana", "Ben"):
        find_seat(room.code, name, api=api).handoff({})
    assert grid.only_table.layout.display == ""
    grid.show.click()
    # worked by hand: Ana wrong at the first try (box 1); Ben wrong, then right after it
    ana = {"learner": "Ana", "rule": "BT-3", "attempts": 1, "right_first": 0}
    ben = {"learner": "Ben", "rule": "BT-3", "attempts": 2, "right_first": 0}
    cleo = {"learner": "Cleo", "rule": "G-9", "attempts": 1, "right_first": 1}
    assert brief(grid.rows) == [cleo, ana, ben]
    assert brief(csv_rows(grid.csv.value)) == [cleo, ana, ben]
    grid.only_table.value = True
    grid.show.click()
    assert brief(grid.rows) == [ana, ben] and "data-learner='Cleo'" not in grid.grid.value
    assert f"progress-{room.code}.csv" in grid.csv.value
    assert "rule: 0 of 1 right first, 1 day" in grid.grid.value
    assert "rule: 0 of 2 right first, 1 day" in grid.grid.value
    # the class missed BT-3 most, both times with the same answer (worked by hand)
    assert "<b>BT-3</b>: 2 wrong answers by 2 learners; the commonest: " \
           "\u201cdraw own pile\u201d (2 times)" in grid.grid.value
    assert "Eve" not in grid.grid.value + grid.csv.value  # at no table of this server
    # the key is in no widget and in no address the page holds
    assert KEY not in widget_state(room)
    # a key the service refuses: a message, no grid, no CSV
    room.key = "a-wrong-teacher-key"
    grid.show.click()
    assert "only the teacher" in grid.grid.value and grid.csv.value == ""
    # the grid's requests carried the key in a header: the service logged none
    assert request(f"{api}/progress", teacher=KEY)["learners"] == ["Cleo", "Ana", "Ben"]
    server.stop()
    assert KEY not in server.log()


def test_the_teacher_gives_a_learner_a_new_recovery_code(server: TableServer) -> None:
    from widgets.classroom import Classroom

    r = Record(server.data / "progress.sqlite3")
    _, old = r.enrol("Ana")
    r.close()
    room = Classroom(api=server.api, query="")
    grid = room.class_grid
    grid.reset_name.value = "ana"
    grid.reset.click()
    assert "sign in" in grid.reset_said.value  # not before the teacher signed in
    room.sign_in(KEY)
    grid.reset_name.value = "Zed"
    grid.reset.click()
    assert "nobody learns as" in grid.reset_said.value
    code = grid.reset_key("ana")
    assert code and code in grid.reset_said.value
    r = Record(server.data / "progress.sqlite3")
    assert r.learner_of(code) == "Ana" and r.learner_of(old) is None
    r.close()
    assert KEY not in widget_state(room)


def test_the_teacher_imports_a_learners_saved_record_on_the_page(server: TableServer,
                                                                  tmp_path: Path) -> None:
    """The teacher's page: a saved record (Save my record) chosen in the upload box and
    the learner's recovery code typed: the learner's rows join the class grid; a changed
    file or a wrong code is a message (never a traceback) and keeps nothing."""
    import datetime as dt

    from widgets.classroom import Classroom

    NOW = dt.datetime.now(dt.UTC)  # noqa: N806 - when the file was last changed
    laptop = Record(tmp_path / "laptop.sqlite3", clock=lambda: 5000.0)
    _, key = laptop.enrol("Zoe")
    laptop.add("Zoe", "TT-5", "which pile?", "pass", False, source="drill", when=4000.0)
    laptop.add("Zoe", "M-1", "q", "a", True, source="quiz", when=4001.0)
    text = progress.export_record(key, laptop)
    laptop.close()
    code = progress.show_key(key)
    room = Classroom(api=server.api, query="")
    grid = room.class_grid
    grid.import_button.click()
    assert "sign in" in grid.import_said.value  # not before the teacher signed in
    room.sign_in(KEY)
    grid.show.click()
    assert "Nobody has joined" in grid.grid.value
    grid.import_button.click()
    assert "choose the file" in grid.import_said.value and "role='alert'" in grid.import_said.value
    grid.upload.value = ({"name": "zoe-record.jsonl", "type": "text/plain", "size": len(text),
                          "content": memoryview(text.replace('"right": false',
                                                             '"right": true').encode()),
                          "last_modified": NOW},)
    grid.import_button.click()
    assert "type the learner" in grid.import_said.value
    grid.import_code.value = code
    grid.import_button.click()  # the file was changed after it was saved
    assert "changed after it was saved" in grid.import_said.value
    assert "Traceback" not in grid.import_said.value and grid.rows == []
    grid.upload.value = ({"name": "zoe-record.jsonl", "type": "text/plain", "size": len(text),
                          "content": memoryview(text.encode()), "last_modified": NOW},)
    grid.import_code.value = "AAAA-" + code[5:]  # another learner's code
    grid.import_button.click()
    assert "not the record of this learner key" in grid.import_said.value
    grid.import_code.value = code.lower()
    grid.import_button.click()
    assert "Zoe's record is in the class grid: 2 new answers of 2" in grid.import_said.value
    assert "role='status'" in grid.import_said.value
    # the grid shown before is drawn again with her rows; the code is not kept in the page
    assert brief(grid.rows) == [{"learner": "Zoe", "rule": "M-1", "attempts": 1,
                                 "right_first": 1},
                                {"learner": "Zoe", "rule": "TT-5", "attempts": 1,
                                 "right_first": 0}]
    assert "data-learner='Zoe'" in grid.grid.value
    state = widget_state(room)
    assert grid.import_code.value == "" and key not in state and code not in state
    assert KEY not in state
    assert grid.import_file(text, code)["new"] == 0  # again: nothing kept twice
