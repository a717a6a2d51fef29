"""The record of learning on the table service (tableserver.progress_api): the
teacher's class grid (JSON and CSV) needs the table's admin token and shows the
learners seated there only; a learner's own rows need their seat's token.
Each endpoint with bad input, a wrong token, a cross-site request and a restart."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
from pathlib import Path

import pandas as pd

from rummy.progress import Record
from tests.test_tableserver_web import API, Server, new_table, restart, server  # noqa: F401


def fill(data: Path) -> None:
    """What the learners' kernels keep in this server's data folder."""
    r = Record(data / "progress.sqlite3", clock=lambda: 1000.0)
    r.add("Ana", "BT-3", "your move", "draw own pile", False, source="table")
    r.add("Ana", "BT-3", "q", "draw pool", True, first=False, source="drill")
    r.add("Ana", "M-1", "q", "a", True, source="quiz")
    r.add("Ben", "G-9", "q", "a", True, source="drill")
    r.add("Cleo", "TT-7", "q", "a", True, source="quiz")  # not at this table
    r.close()


def raw_get(s: Server, path: str, headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(f"http://127.0.0.1:{s.port}{API}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


GRID = [{"learner": "Ana", "rule": "M-1", "attempts": 1, "right_first": 1, "box": 1},
        {"learner": "Ana", "rule": "BT-3", "attempts": 2, "right_first": 0, "box": 1},
        {"learner": "Ben", "rule": "G-9", "attempts": 1, "right_first": 1, "box": 1}]


def test_class_grid_needs_the_admin_token_and_shows_the_tables_learners(server):  # noqa: F811
    fill(server.data)
    made, joined = new_table(server, seats=["human", "human", "greedy"], names=("Ana", "Ben"),
                             speed=10)
    code, admin = made["code"], made["admin_token"]
    status, grid = server.call("GET", f"/tables/{code}/progress?admin_token={admin}")
    assert status == 200
    assert grid["learners"] == ["Ana", "Ben"]
    assert grid["columns"] == ["learner", "rule", "attempts", "right_first", "box"]
    assert grid["rows"] == GRID  # Cleo, not seated here, is not in it
    # the token in the header works too
    assert server.call("GET", f"/tables/{code}/progress",
                       headers={"X-Rummy-Token": admin})[1] == grid
    # wrong tokens: a seat's, the spectator's, none, a wrong one
    for token in (joined[0]["token"], made["spectator_token"], "", "x" * 32):
        status, body = server.call("GET", f"/tables/{code}/progress?admin_token={token}")
        assert status == 403 and "admin" in body["error"].lower()
    assert server.call("GET", "/tables/ABCD-EFGH-JKMN/progress?admin_token=x")[0] == 404
    status, body = server.call("GET", f"/tables/{code}/progress?admin_token={admin}&format=xls")
    assert status == 400 and "json or csv" in body["error"]


def test_class_grid_as_csv_and_across_a_restart(server):  # noqa: F811
    fill(server.data)
    made, _ = new_table(server, seats=["human", "human", "greedy"], names=("Ana", "Ben"),
                        speed=10)
    code, admin = made["code"], made["admin_token"]
    status, headers, text = raw_get(server, f"/tables/{code}/progress?admin_token={admin}"
                                            "&format=csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert f"progress-{code}.csv" in headers["Content-Disposition"]
    assert pd.read_csv(io.StringIO(text)).to_dict("records") == GRID
    again = restart(server)
    try:
        status, grid = again.call("GET", f"/tables/{code}/progress?admin_token={admin}")
        assert status == 200 and grid["rows"] == GRID
    finally:
        again.stop()


def test_a_cross_site_page_can_neither_read_nor_borrow(server):  # noqa: F811
    fill(server.data)
    made, _ = new_table(server, seats=["human", "human", "greedy"], names=("Ana", "Ben"),
                        speed=10)
    code, admin = made["code"], made["admin_token"]
    # a request from another origin with the browser's cookies but no token: refused
    status, headers, _ = raw_get(server, f"/tables/{code}/progress", headers={
        "Origin": "http://evil.example", "Cookie": f"admin_token={admin}"})
    assert status == 403
    # with the token, the answer carries no CORS permission: another origin can't read it
    status, headers, _ = raw_get(server, f"/tables/{code}/progress?admin_token={admin}",
                                 headers={"Origin": "http://evil.example"})
    assert status == 200
    assert not any(k.lower().startswith("access-control-allow") for k in headers)
    assert headers["Cache-Control"] == "no-store"


def test_a_learner_sees_only_their_own_rows(server):  # noqa: F811
    fill(server.data)
    made, joined = new_table(server, seats=["human", "human", "greedy"], names=("Ana", "Ben"),
                             speed=10)
    code = made["code"]
    status, mine = server.call("GET", f"/tables/{code}/progress/me?token={joined[1]['token']}")
    assert status == 200 and mine["learner"] == "Ben"
    assert mine["rows"] == [GRID[2]]
    status, body = server.call("GET", f"/tables/{code}/progress/me?token={made['admin_token']}")
    assert status == 400 and "seat's token" in body["error"]
    assert server.call("GET", f"/tables/{code}/progress/me?token=wrong")[0] == 403
    assert server.call("GET", f"/tables/{code}/progress/me")[0] == 403
    # another origin: a cookie is no token, and a token's answer is not readable there
    status, _, _ = raw_get(server, f"/tables/{code}/progress/me", headers={
        "Origin": "http://evil.example", "Cookie": f"token={joined[1]['token']}"})
    assert status == 403
    status, headers, _ = raw_get(server, f"/tables/{code}/progress/me?token="
                                         f"{joined[1]['token']}",
                                 headers={"Origin": "http://evil.example"})
    assert status == 200
    assert not any(k.lower().startswith("access-control-allow") for k in headers)
    again = restart(server)
    try:
        status, mine = again.call("GET", f"/tables/{code}/progress/me",
                                  headers={"X-Rummy-Token": joined[0]["token"]})
        assert status == 200 and mine["rows"] == GRID[:2]
    finally:
        again.stop()


def test_tokens_never_reach_the_log(server):  # noqa: F811
    made, joined = new_table(server, seats=["human", "human", "greedy"], names=("Ana", "Ben"),
                             speed=10)
    code = made["code"]
    raw_get(server, f"/tables/{code}/progress?admin_token={made['admin_token']}&format=csv")
    server.call("GET", f"/tables/{code}/progress/me?token={joined[0]['token']}")
    server.stop()
    log = server.log.read_text()
    assert "/progress" in log
    assert made["admin_token"] not in log and joined[0]["token"] not in log
