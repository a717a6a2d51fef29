"""The record of learning on the table service (tableserver.progress_api): the
teacher's class grid (JSON and CSV), of one table or of every table the server
holds, needs the teacher key in the ``X-Rummy-Teacher-Key`` header and shows
the learners seated there only; a learner's own rows need their seat's token
in the ``X-Rummy-Token`` header.  No token or key is taken from an address.
Each endpoint with bad input, a wrong key or token, a cross-site request and a
restart."""

from __future__ import annotations

import hmac
import io
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from rummy import progress
from rummy.progress import Record
from tableserver import Forbidden, Store, TableService
from tableserver.progress_api import class_grid, own_rows, teacher_may_see
from tests.servers import KEY, TableServer, new_table


def brief(rows):
    """The grid's rows cut to who, which rule, attempts and right at the first try."""
    return [{k: r[k] for k in ("learner", "rule", "attempts", "right_first")} for r in rows]


TEACHER = {"X-Rummy-Teacher-Key": KEY}


def fill(data: Path) -> dict[str, str]:
    """What the learners' kernels keep in this server's data folder; the
    learners' keys (their browsers keep them)."""
    r = Record(data / "progress.sqlite3", clock=lambda: 1000.0)
    keys = {name: r.enrol(name)[1] for name in ("Ana", "Ben", "Cleo")}
    r.add("Ana", "BT-3", "your move", "draw own pile", False, source="table")
    r.add("Ana", "BT-3", "q", "draw pool", True, first=False, source="drill")
    r.add("Ana", "M-1", "q", "a", True, source="quiz")
    r.add("Ben", "G-9", "q", "a", True, source="drill")
    r.add("Cleo", "TT-7", "q", "a", True, source="quiz")  # not at the first table
    r.add("Eve", "C-2", "q", "a", True, source="quiz")  # at no table of this server
    r.close()
    return keys


def mine(name: str, keys: dict[str, str]) -> dict[str, str]:
    return {"X-Rummy-Learner-Key": keys[name]}


def raw_get(s: TableServer, path: str, headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(s.api + path, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def get(s: TableServer, path: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    return s.call("GET", path, headers=headers or {})


# worked by hand from fill(): Ana's BT-3 is wrong at the first try (box 1), then right
# after a wrong try (stays in box 1); M-1 and G-9 right at the first try (box 1)
GRID = [{"learner": "Ana", "rule": "M-1", "attempts": 1, "right_first": 1},
        {"learner": "Ana", "rule": "BT-3", "attempts": 2, "right_first": 0},
        {"learner": "Ben", "rule": "G-9", "attempts": 1, "right_first": 1}]
CLEO = {"learner": "Cleo", "rule": "TT-7", "attempts": 1, "right_first": 1}


def two_tables(s: TableServer) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any],
                                    list[dict[str, Any]]]:
    """Ana and Ben at one table, Cleo and Dan (no events yet) at another."""
    made, joined = new_table(s, seats=["human", "human", "greedy"], names=("Ana", "Ben"),
                             speed=10)
    made2, joined2 = new_table(s, variant="gin_three", seats=["human", "human", "greedy"],
                               names=("Cleo", "Dan"), speed=10)
    return made, joined, made2, joined2


def test_class_grid_needs_the_teacher_key_and_shows_the_tables_learners(server):
    fill(server.data)
    made, joined, made2, joined2 = two_tables(server)
    code = made["code"]
    status, grid = get(server, f"/tables/{code}/progress", TEACHER)
    assert status == 200, grid
    assert grid["code"] == code and grid["learners"] == ["Ana", "Ben"]
    assert grid["columns"] == list(progress.GRID_COLUMNS)
    assert brief(grid["rows"]) == GRID  # Cleo, Dan and Eve, not seated here, are not in it
    # wrong keys: a seat's token, the spectator's, none, an empty one, a wrong one, the key
    # in another case: each 403, and the answer names the teacher key
    for key in (joined[0]["token"], made["spectator_token"], None, "", "x" * 32, KEY.upper()):
        status, body = get(server, f"/tables/{code}/progress",
                           {} if key is None else {"X-Rummy-Teacher-Key": key})
        assert status == 403 and "teacher key" in body["error"], (key, body)
    # a seat's token in the seat header is no teacher key either
    assert get(server, f"/tables/{code}/progress",
               {"X-Rummy-Token": joined[0]["token"]})[0] == 403
    # no such table (with the key); not a code at all
    status, body = get(server, "/tables/ABCD-EFGH-JKMN/progress", TEACHER)
    assert status == 404 and "no table" in body["error"]
    assert get(server, "/tables/no!such!code/progress", TEACHER)[0] == 404
    # bad input: a format that is not json or csv, a parameter the endpoint does not take
    status, body = get(server, f"/tables/{code}/progress?format=xls", TEACHER)
    assert status == 400 and "json or csv" in body["error"]
    status, body = get(server, f"/tables/{code}/progress?learner=Eve", TEACHER)
    assert status == 400 and "format" in body["error"]


def test_the_teacher_key_in_an_address_is_refused_even_when_right(server):
    made, joined, _, _ = two_tables(server)
    code = made["code"]
    for query in (f"teacher_key={KEY}", f"admin_token={KEY}", f"key={KEY}", f"token={KEY}"):
        for path in (f"/tables/{code}/progress", "/progress"):
            status, body = get(server, f"{path}?{query}")
            assert status == 400, (path, query, body)
            assert "X-Rummy-Teacher-Key" in body["error"] and "address" in body["error"]
            assert KEY not in body["error"]
        # even with the right header as well: the address is still refused
        assert get(server, f"/tables/{code}/progress?{query}", TEACHER)[0] == 400


def test_the_class_grid_of_every_table_of_the_server(server):
    fill(server.data)
    made, joined, made2, joined2 = two_tables(server)
    status, grid = get(server, "/progress", TEACHER)
    assert status == 200, grid
    # every learner seated at this server's tables, in table and seat order; Eve, who
    # practised under a name that joined no table here, is not in it
    assert grid["code"] is None and grid["learners"] == ["Ana", "Ben", "Cleo", "Dan"]
    assert brief(grid["rows"]) == [*GRID, CLEO]
    # a closed table's learners stay in the grid (until the table expires)
    assert server.call("POST", f"/tables/{made2['code']}/close", {"teacher_key": KEY})[0] == 200
    assert get(server, "/progress", TEACHER)[1]["learners"] == ["Ana", "Ben", "Cleo", "Dan"]
    # a name seated at two tables is one learner
    new_table(server, seats=["human", "greedy"], names=("Ana",), speed=10)
    assert get(server, "/progress", TEACHER)[1]["learners"] == ["Ana", "Ben", "Cleo", "Dan"]
    # a freed seat's learner is no longer the teacher's
    assert server.call("POST", f"/tables/{made['code']}/remove",
                       {"teacher_key": KEY, "seat": joined[1]["seat"]})[0] == 200
    status, grid = get(server, "/progress", TEACHER)
    assert grid["learners"] == ["Ana", "Cleo", "Dan"] and brief(grid["rows"]) == [*GRID[:2], CLEO]
    for key in (joined[0]["token"], made["spectator_token"], None, "x" * 32):
        status, body = get(server, "/progress", {} if key is None else
                           {"X-Rummy-Teacher-Key": key})
        assert status == 403 and "teacher key" in body["error"]
    status, body = get(server, "/progress?format=pdf", TEACHER)
    assert status == 400 and "json or csv" in body["error"]
    assert server.call("POST", "/progress", {"teacher_key": KEY})[0] in (404, 405)


def test_class_grid_as_csv_and_across_a_restart(server):
    fill(server.data)
    made, _, _, _ = two_tables(server)
    code = made["code"]
    status, headers, text = raw_get(server, f"/tables/{code}/progress?format=csv", TEACHER)
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert f"progress-{code}.csv" in headers["Content-Disposition"]
    assert headers["Cache-Control"] == "no-store"
    assert brief(pd.read_csv(io.StringIO(text)).to_dict("records")) == GRID
    status, headers, text = raw_get(server, "/progress?format=csv", TEACHER)
    assert status == 200 and "progress-class.csv" in headers["Content-Disposition"]
    assert brief(pd.read_csv(io.StringIO(text)).to_dict("records")) == [*GRID, CLEO]
    # a wrong key gets no CSV
    status, _, text = raw_get(server, "/progress?format=csv", {"X-Rummy-Teacher-Key": "x" * 20})
    assert status == 403 and "learner" not in text
    again = server.restart()
    try:
        status, grid = get(again, f"/tables/{code}/progress", TEACHER)
        assert status == 200 and brief(grid["rows"]) == GRID
        status, grid = get(again, "/progress", TEACHER)
        assert status == 200 and brief(grid["rows"]) == [*GRID, CLEO]
    finally:
        again.stop()


@pytest.mark.parametrize("site", [{"Origin": "http://evil.example"},
                                  {"Sec-Fetch-Site": "cross-site"},
                                  {"Origin": "null"}])
def test_a_cross_site_page_can_neither_read_nor_borrow(server, site):
    keys = fill(server.data)
    made, joined, _, _ = two_tables(server)
    code, token = made["code"], joined[1]["token"]
    ben = mine("Ben", keys)
    # another site's page, even with the right key or token (or a cookie): refused
    for path, headers in ((f"/tables/{code}/progress", {**TEACHER, "Cookie": f"key={KEY}"}),
                          ("/progress?format=csv", TEACHER),
                          (f"/tables/{code}/progress/me", {"X-Rummy-Token": token, **ben}),
                          ("/progress/me", ben)):
        status, answer, text = raw_get(server, path, {**headers, **site})
        assert status == 403 and "refused" in text, (path, text)
        assert not any(k.lower().startswith("access-control-allow") for k in answer)
        assert "Ben" not in text and "G-9" not in text
    for method, path, body in (("DELETE", "/progress/me", None),
                               ("POST", "/progress/key", {"learner": "Ben"})):
        status, out = server.call(method, path, body, headers={
            **ben, **TEACHER, **site, "Content-Type": "application/json"})
        assert status == 403 and "refused" in out["error"], (path, out)
    assert len(Record(server.data / "progress.sqlite3").events("Ben")) == 1
    # the same requests from the server's own page are answered
    own = {"Origin": f"http://127.0.0.1:{server.port}", "Sec-Fetch-Site": "same-origin"}
    assert get(server, f"/tables/{code}/progress", {**TEACHER, **own})[0] == 200
    assert get(server, f"/tables/{code}/progress/me",
               {"X-Rummy-Token": token, **ben, **own})[0] == 200
    assert get(server, "/progress/me", {**ben, **own})[0] == 200


def test_a_learner_sees_only_their_own_rows(server):
    keys = fill(server.data)
    made, joined, made2, joined2 = two_tables(server)
    code = made["code"]
    status, got = get(server, f"/tables/{code}/progress/me",
                      {"X-Rummy-Token": joined[1]["token"], **mine("Ben", keys)})
    assert status == 200 and got["learner"] == "Ben" and got["learners"] == ["Ben"]
    assert brief(got["rows"]) == [GRID[2]]
    # the teacher key and the spectator token are not a seat's token
    for token in (KEY, made["spectator_token"]):
        status, body = get(server, f"/tables/{code}/progress/me",
                           {"X-Rummy-Token": token, **mine("Ben", keys)})
        assert status == 400 and "seat's token" in body["error"]
    # another table's seat, a wrong token, none
    for headers in ({"X-Rummy-Token": joined2[0]["token"]}, {"X-Rummy-Token": "wrong" * 6}, {}):
        status, body = get(server, f"/tables/{code}/progress/me", {**headers,
                                                                    **mine("Ben", keys)})
        assert status == 403 and "token" in body["error"]
    # a token in the address is refused, even a right one, and not echoed
    status, body = get(server, f"/tables/{code}/progress/me?token={joined[1]['token']}")
    assert status == 400 and "X-Rummy-Token" in body["error"]
    assert joined[1]["token"] not in body["error"]
    status, body = get(server, f"/tables/{code}/progress/me?format=csv",
                       {"X-Rummy-Token": joined[1]["token"]})
    assert status == 400
    assert get(server, "/tables/ABCD-EFGH-JKMN/progress/me",
               {"X-Rummy-Token": joined[1]["token"]})[0] == 404
    again = server.restart()
    try:
        status, got = get(again, f"/tables/{code}/progress/me",
                          {"X-Rummy-Token": joined[0]["token"], **mine("Ana", keys)})
        assert status == 200 and brief(got["rows"]) == GRID[:2]
    finally:
        again.stop()


def test_tokens_and_the_key_never_reach_the_log(server):
    fill(server.data)
    made, joined, _, _ = two_tables(server)
    code = made["code"]
    raw_get(server, f"/tables/{code}/progress?format=csv", TEACHER)
    raw_get(server, "/progress", TEACHER)
    get(server, f"/tables/{code}/progress/me", {"X-Rummy-Token": joined[0]["token"]})
    # refused attempts with the secrets in the address
    raw_get(server, f"/progress?teacher_key={KEY}")
    raw_get(server, f"/tables/{code}/progress/me?token={joined[0]['token']}")
    server.stop()
    log = server.log()
    assert "/progress" in log
    assert KEY not in log and joined[0]["token"] not in log


# -- in process -------------------------------------------------------------------------------
def test_teacher_may_see_checks_the_key_as_the_service_does(tmp_path: Path, monkeypatch):
    svc = TableService(Store(tmp_path / "t.sqlite3"), teacher_key=KEY)
    compared: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr("tableserver.tables.hmac.compare_digest", spy)
    teacher_may_see(svc, KEY)
    assert len(compared) == 1  # the service's own comparison: of digests, in constant time
    for wrong in (None, "", 42, KEY + " ", "teacher-key-of-the-tests-012345678X"):
        with pytest.raises(Forbidden, match="teacher key"):
            teacher_may_see(svc, wrong)
    svc.store.close()


def test_class_grid_and_own_rows_in_process(tmp_path: Path) -> None:
    keys = fill(tmp_path)
    rec = Record(tmp_path / "progress.sqlite3")
    svc = TableService(Store(tmp_path / "t.sqlite3"), teacher_key=KEY)
    made = svc.create("big_table", ["human", "human", "greedy"], speed=10, teacher_key=KEY)
    ana, ben = (svc.join(made["code"], n) for n in ("Ana", "Ben"))
    assert brief(class_grid(svc, KEY, made["code"], record=rec)["rows"]) == GRID
    assert class_grid(svc, KEY, record=rec)["learners"] == ["Ana", "Ben"]
    with pytest.raises(Forbidden):
        class_grid(svc, ana["token"], made["code"], record=rec)
    assert brief(own_rows(svc, made["code"], ben["token"], keys["Ben"], record=rec)["rows"]) == \
        [GRID[2]]
    with pytest.raises(Forbidden, match="key"):  # a seat's name is no key to a record
        own_rows(svc, made["code"], ben["token"], record=rec)
    rec.close()
    svc.store.close()


def test_events_are_sent_here_only_on_a_hub(server):
    """The standalone service (make app) shares its data folder with the kernels
    and has no hub to say who sends: the events endpoint answers 403 and keeps
    nothing, and another site's page is refused first."""
    body = {"events": [{"rule": "M-1", "asked": "q", "answered": "a", "right": True,
                        "first": True, "source": "drill", "when": 1000.0}]}
    for headers in ({"Content-Type": "application/json"},
                    {"Content-Type": "application/json", **TEACHER}):
        status, out = server.call("POST", "/progress/events", body, headers=headers)
        assert status == 403 and "only a learner's server on a JupyterHub" in out["error"]
    status, out = server.call("POST", "/progress/events", body,
                              headers={"Content-Type": "application/json",
                                       "Origin": "http://evil.example"})
    assert status == 403 and "refused" in out["error"]
    assert not (server.data / "progress.sqlite3").exists()


# -- the teacher imports a learner's saved record ("Save my record") into the class grid -----
def saved_record(folder: Path, name: str = "Zoe") -> tuple[str, str, list[tuple[Any, ...]]]:
    """A record saved on the learner's own computer: (the file's text, the learner's
    recovery code, their events as (rule, answered, right, when))."""
    r = Record(folder / "laptop.sqlite3", clock=lambda: 5000.0)
    _, key = r.enrol(name)
    r.add(name, "TT-5", "which pile?", "pass", False, source="drill", when=4000.0)
    r.add(name, "TT-5", "which pile?", "stock", True, first=False, source="drill", when=4001.0)
    r.add(name, "M-1", "q", "a", True, source="quiz", when=4002.0)
    events = [(e.rule, e.answered, e.right, e.when) for e in r.events(name)]
    text = progress.export_record(key, r)
    r.close()
    return text, progress.show_key(key), events


def imported(s: TableServer, body: Any, headers: dict[str, str] | None = None
             ) -> tuple[int, Any]:
    return s.call("POST", "/progress/import", body,
                  headers={"Content-Type": "application/json",
                           **(TEACHER if headers is None else headers)})


def test_the_teacher_imports_a_saved_record_into_the_class_grid(server, tmp_path: Path):
    fill(server.data)
    made, _, _, _ = two_tables(server)
    text, code, events = saved_record(tmp_path)
    status, out = imported(server, {"record": text, "code": code})
    assert status == 200 and out == {"learner": "Zoe", "events": 3, "new": 3}, out
    status, out = imported(server, {"record": text, "code": code.lower().replace("-", " ")})
    assert status == 200 and out["new"] == 0  # imported again: nothing kept twice
    # worked by hand: TT-5 wrong at the first try, then right at a later try; M-1 right
    zoe = [{"learner": "Zoe", "rule": "M-1", "attempts": 1, "right_first": 1},
           {"learner": "Zoe", "rule": "TT-5", "attempts": 2, "right_first": 0}]
    status, grid = get(server, "/progress", TEACHER)
    assert status == 200 and brief(grid["rows"]) == [*GRID, CLEO, *zoe]
    assert [r["server_judged"] for r in grid["rows"] if r["learner"] == "Zoe"] == [0, 0]
    status, grid = get(server, f"/tables/{made['code']}/progress", TEACHER)
    assert "Zoe" not in grid["learners"]  # she sits at no table
    kept = Record(server.data / "progress.sqlite3").events("Zoe")
    assert [(e.rule, e.answered, e.right, e.when) for e in kept] == events
    assert {e.by for e in kept} == {"self"}  # self-checks, as she checked them herself
    again = server.restart()
    try:
        status, grid = get(again, "/progress", TEACHER)
        assert status == 200 and brief(grid["rows"]) == [*GRID, CLEO, *zoe]
    finally:
        again.stop()


def test_a_changed_or_foreign_record_is_refused_and_keeps_nothing(server, tmp_path: Path):
    text, code, _ = saved_record(tmp_path)
    _, other, _ = saved_record(tmp_path / "other", "Yann")
    changed = text.replace('"right": false', '"right": true')
    assert changed != text
    for body, says in (
            ({"record": changed, "code": code}, "changed after it was saved"),
            ({"record": text, "code": other}, "not the record of this learner key"),
            ({"record": "hello\n", "code": code}, "not a saved record of the kit"),
            ({"record": text}, 'the body must be {"record": TEXT, "code": CODE}'),
            ({"record": text, "code": code, "learner": "Eve"}, 'the body must be {"record"'),
            ({"record": 7, "code": code}, '"record" must be the text of the file'),
            ({"record": text, "code": "1234"}, '"code" must be the learner\'s recovery code'),
            (["record", text], "must be a JSON object")):
        status, out = imported(server, body)
        assert status == 400 and says in out["error"], (body, out)
    # a wrong teacher key, none, a key in the address, another site: refused
    for headers in ({"X-Rummy-Teacher-Key": "x" * 24}, {}):
        status, out = imported(server, {"record": text, "code": code}, headers)
        assert status == 403 and "teacher key" in out["error"], out
    status, out = server.call("POST", f"/progress/import?teacher_key={KEY}",
                              {"record": text, "code": code}, headers={
                                  "Content-Type": "application/json"})
    assert status == 400 and "never goes in an address" in out["error"]
    for site in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        status, out = imported(server, {"record": text, "code": code}, {**TEACHER, **site})
        assert status == 403 and "refused" in out["error"]
    from tableserver.progress_api import MAX_IMPORT

    # refused from its headers, before a byte of it is read
    status, out = server.call_announcing("POST", "/progress/import", MAX_IMPORT + 1,
                                         {"Content-Type": "application/json", **TEACHER})
    assert status == 413 and f"larger than {MAX_IMPORT} bytes" in out["error"]
    r = Record(server.data / "progress.sqlite3")
    assert r.events("Zoe") == [] and r.imported() == []
    r.close()
    status, grid = get(server, "/progress", TEACHER)
    assert status == 200 and grid["learners"] == []


def test_an_import_whose_name_is_taken_by_another_learner_is_refused(server, tmp_path: Path):
    keys = fill(server.data)
    text, code, _ = saved_record(tmp_path, "Ana")  # another Ana, on her own computer
    status, out = imported(server, {"record": text, "code": code})
    assert status == 400 and "somebody else learns as 'Ana'" in out["error"], out
    # the Ana of this server imports her own record again: kept under her
    r = Record(server.data / "progress.sqlite3")
    before = len(r.events("Ana"))
    mine = progress.export_record(keys["Ana"], r)
    r.close()
    status, out = imported(server, {"record": mine, "code": keys["Ana"]})
    assert status == 200 and out == {"learner": "Ana", "events": before, "new": 0}
