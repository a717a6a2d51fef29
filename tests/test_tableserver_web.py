"""The table API over HTTP (tableserver.web), against a real server process
on 127.0.0.1 (``python -m tableserver``), killed with SIGKILL and started
again on the same database to check that nothing acknowledged is lost.

Every endpoint is tried with a wrong token, with bad input and across a
restart.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser import harness
from tests.servers import JSON, KEY, ROOT, TEACHER, Server, TableServer, free_port, new_table


def state(s: TableServer, code: str, token: str) -> dict[str, Any]:
    status, view = s.call("GET", f"/tables/{code}/state?token={token}")
    assert status == 200, view
    return view


def mover(s: TableServer, code: str, joined: list[dict[str, Any]]) -> tuple[dict[str, Any],
                                                                        dict[str, Any]]:
    """A seat with a move to make, and its state."""
    for j in joined:
        view = state(s, code, j["token"])
        if view["legal_actions"]:
            return j, view
    raise AssertionError("nobody can move")


# -- POST /tables -----------------------------------------------------------------------

@pytest.mark.parametrize("raw,says", [
    (b"{not json", "JSON object"),
    (b"[1, 2]", "JSON object"),
    (b'{"variant": "poker", "seats": ["human", "human"]}', "poker"),
    (b'{"variant": "gin_three", "seats": ["human", "human", "robot"]}', "robot"),
    (b'{"variant": "gin_three", "seats": ["human"] , "colour": "red"}', "unknown keys"),
    (b'{"variant": "three_thirteen", "seats": ["human", "human"], "options": {"aces": "up"}}',
     "aces"),
    # more than 12 at the Big Table: the option that allows it, then the packs it needs
    (b'{"variant": "big_table", "seats": [' + b'"human", ' * 15 + b'"human"]}',
     "set the option max_players (one of 16, 20, 24)"),
    (b'{"variant": "big_table", "seats": [' + b'"human", ' * 15 + b'"human"], '
     b'"options": {"max_players": 16}}', "4 packs hold 208; use packs=5 or more"),
])
def test_create_refuses_bad_input(server: TableServer, raw: bytes, says: str) -> None:
    status, body = server.call("POST", "/tables", raw=raw, headers=TEACHER)
    assert status == 400 and says in body["error"]


def test_a_class_of_24_sits_at_one_big_table_with_the_options_that_allow_it(
        server: TableServer) -> None:
    status, made = server.call("POST", "/tables", {
        "variant": "big_table", "seats": ["human"] * 24, "options": {"max_players": 24,
                                                                      "packs": 7}},
        headers=TEACHER)
    assert status == 201, made
    assert len(made["table"]["seats"]) == 24


def test_bodies_are_size_limited(server: TableServer) -> None:
    big = {"teacher_key": KEY, "variant": "gin_three", "seats": ["human"] * 3, "options": {},
           "pad": "x" * 20_000}
    status, body = server.call("POST", "/tables", big)
    assert status == 413 and "16384" in body["error"]


def test_unknown_endpoints_answer_json_404(server: TableServer) -> None:
    assert server.call("GET", "/nothing")[0] == 404
    status, body = server.call("GET", "/tables/ABCD-EFGH-JKMN/state?token=x")
    assert status == 404 and "there is no table" in body["error"]


def test_create_and_admin_view_survive_a_restart(server: TableServer) -> None:
    made, joined = new_table(server, seats=["human", "human", "greedy"], names=("Ana", "Ben"),
                             speed=10)  # the bot waits: nothing moves during the test
    code, admin = made["code"], KEY
    assert server.call("GET", f"/tables/{code}",
                       headers={"X-Rummy-Teacher-Key": "wrong"})[0] == 403
    assert server.call("GET", f"/tables/{code}")[0] == 403
    status, view = server.call("GET", f"/tables/{code}", headers={"X-Rummy-Teacher-Key": admin})
    assert status == 200
    assert [(x["name"], x["joined"]) for x in view["table"]["seats"]] == [
        ("Ana", True), ("Ben", True), ("Greedy bot 3", False)]
    again = server.restart()
    try:
        assert again.call("GET", f"/tables/{code}",
                          headers={"X-Rummy-Teacher-Key": admin})[1] == view
    finally:
        again.stop()


# -- POST /tables/CODE/join ------------------------------------------------------------------

def test_join_bad_input_full_table_and_restart(server: TableServer) -> None:
    made, joined = new_table(server, seats=["human", "human", "greedy"], names=("Ana",))
    code = made["code"]
    assert server.call("POST", f"/tables/{code}/join", raw=b"name=Ben")[0] == 400
    assert server.call("POST", f"/tables/{code}/join", {"name": ""})[0] == 400
    assert server.call("POST", "/tables/ABCD-EFGH-JKMN/join", {"name": "Ben"})[0] == 404
    again = server.restart()
    try:
        status, ben = again.call("POST", f"/tables/{code}/join", {"name": "Ben"})
        assert status == 200 and ben["seat"] == 1
        status, body = again.call("POST", f"/tables/{code}/join", {"name": "Cleo"})
        assert status == 409 and "full" in body["error"]
        assert state(again, code, joined[0]["token"])["player"] == 0
    finally:
        again.stop()


# -- GET /tables/CODE/state ------------------------------------------------------------------

def test_state_needs_the_seats_token_and_survives_a_restart(server: TableServer) -> None:
    made, joined = new_table(server)
    code = made["code"]
    for bad in ("", "?token=", "?token=abc", f"?token={KEY}x"):
        status, body = server.call("GET", f"/tables/{code}/state{bad}")
        assert status == 403 and "hand" not in body
    views = {j["seat"]: state(server, code, j["token"]) for j in joined}
    assert all(v["player"] == seat for seat, v in views.items())
    hands = {seat: v["hand"] for seat, v in views.items()}
    spectator = state(server, code, made["spectator_token"])
    assert "hand" not in spectator and spectator["player"] is None
    assert len({tuple(h) for h in hands.values()}) == 3  # three different hands
    for v in views.values():  # and each view holds one of them: its own
        assert sum(1 for h in hands.values() if h == v["hand"]) == 1
    again = server.restart()
    try:
        for j in joined:
            assert state(again, code, j["token"]) == views[j["seat"]]
        status, _ = again.call("GET", f"/tables/{code}/state",
                               headers={"X-Rummy-Token": joined[0]["token"]})
        assert status == 200
    finally:
        again.stop()


# -- POST /tables/CODE/act ---------------------------------------------------------------------

def test_act_wrong_token_bad_input_illegal_stale_and_restart(server: TableServer) -> None:
    made, joined = new_table(server, "three_thirteen", ["human", "human"])
    code = made["code"]
    j, view = mover(server, code, joined)
    other = next(x for x in joined if x is not j)
    version = view["version"]
    url = f"/tables/{code}/act"
    for token in (None, "nope", other["token"] + "!", made["spectator_token"]):
        status, body = server.call("POST", url, {"token": token, "action": "draw stock"})
        assert status == 403, body
    assert server.call("POST", url, raw=b"draw stock")[0] == 400
    status, body = server.call("POST", url, {"token": j["token"], "action": "discard 9c"})
    assert status == 400 and "draw" in body["error"]  # the engine says what is allowed
    assert state(server, code, j["token"]) == view  # nothing changed
    status, after = server.call("POST", url, {"token": j["token"], "action": "draw stock",
                                              "version": version})
    assert status == 200 and after["version"] > version and after["phase"] == "discard"
    # the same click again from the old page: 409 with the fresh state
    status, body = server.call("POST", url, {"token": j["token"], "action": "draw stock",
                                             "version": version})
    assert status == 409 and body["state"] == after
    again = server.restart()
    try:
        assert state(again, code, j["token"]) == after
        discard = after["legal_actions"][0]
        status, body = again.call("POST", url, {"token": j["token"], "action": discard,
                                                "version": after["version"]})
        assert status == 200, body
    finally:
        again.stop()


def test_every_acknowledged_move_survives_sigkill(server: TableServer) -> None:
    made, joined = new_table(server, "big_table", ["human", "human", "human", "greedy"],
                             speed=0, pause_between_hands=False)
    code = made["code"]
    acked = 0
    for _ in range(15):
        for j in joined:
            view = state(server, code, j["token"])
            if view["legal_actions"]:
                status, _ = server.call("POST", f"/tables/{code}/act",
                                        {"token": j["token"], "action": view["legal_actions"][0]})
                assert status == 200
                acked += 1
    last = {j["seat"]: state(server, code, j["token"]) for j in joined}
    again = server.restart()
    try:
        assert {j["seat"]: state(again, code, j["token"]) for j in joined} == last
    finally:
        again.stop()
    assert acked >= 15


# -- GET /tables/CODE/wait -----------------------------------------------------------------------

def test_wait_answers_at_once_when_behind_and_wakes_on_a_move(server: TableServer) -> None:
    made, joined = new_table(server, "three_thirteen", ["human", "human"])
    code = made["code"]
    j, view = mover(server, code, joined)
    other = next(x for x in joined if x is not j)
    v = view["version"]
    assert server.call("GET", f"/tables/{code}/wait?token=bad&version={v}")[0] == 403
    assert server.call("GET", f"/tables/{code}/wait?token={other['token']}&version=x")[0] == 400
    status, now = server.call("GET", f"/tables/{code}/wait?token={other['token']}&version=0")
    assert status == 200 and now["version"] == v
    got: dict[str, Any] = {}

    def wait() -> None:
        got["answer"] = server.call(
            "GET", f"/tables/{code}/wait?token={other['token']}&version={v}&timeout=20")
    t0 = time.monotonic()
    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.5)
    assert "answer" not in got
    server.call("POST", f"/tables/{code}/act", {"token": j["token"], "action": "draw stock"})
    waiter.join(20)
    status, news = got["answer"]
    assert status == 200 and news["version"] > v and news["player"] == other["seat"]
    assert time.monotonic() - t0 < 10
    status, same = server.call(
        "GET", f"/tables/{code}/wait?token={other['token']}&version={news['version']}&timeout=0.3")
    assert status == 200 and same["version"] == news["version"]  # a timeout: no news
    again = server.restart()
    try:
        status, after = again.call(
            "GET", f"/tables/{code}/wait?token={other['token']}&version=0")
        assert status == 200 and after == state(again, code, other["token"])
    finally:
        again.stop()


# -- the teacher's endpoints -----------------------------------------------------------------------

def test_next_remove_and_close_need_the_teacher_key_and_survive_a_restart(server: TableServer
                                                                          ) -> None:
    made, joined = new_table(server, "three_thirteen", ["human", "human", "greedy"],
                             names=("Ana",))
    code, admin = made["code"], KEY
    for path in ("next", "remove", "close"):
        for body in ({"teacher_key": joined[0]["token"], "seat": 0}, {"seat": 0},
                     {"teacher_key": made["spectator_token"], "seat": 0}):
            assert server.call("POST", f"/tables/{code}/{path}", body)[0] == 403, path
        assert server.call("POST", f"/tables/{code}/{path}", raw=b"admin")[0] == 400
    assert server.call("POST", f"/tables/{code}/remove", {"teacher_key": admin,
                                                          "seat": "one"})[0] == 400
    assert server.call("POST", f"/tables/{code}/remove", {"teacher_key": admin,
                                                          "seat": 2})[0] == 400  # a bot
    status, view = server.call("POST", f"/tables/{code}/next", {"teacher_key": admin})
    assert status == 200 and view["status"] == "playing"
    status, view = server.call("POST", f"/tables/{code}/remove", {"teacher_key": admin,
                                                                  "seat": 0})
    assert status == 200 and not view["table"]["seats"][0]["joined"]
    assert server.call("GET", f"/tables/{code}/state?token={joined[0]['token']}")[0] == 403
    again = server.restart()
    try:
        assert again.call("GET", f"/tables/{code}/state?token={joined[0]['token']}")[0] == 403
        status, view = again.call("GET", f"/tables/{code}",
                                  headers={"X-Rummy-Teacher-Key": admin})
        assert view["status"] == "playing"
        status, view = again.call("POST", f"/tables/{code}/close", {"teacher_key": admin})
        assert status == 200 and view["status"] == "closed"
    finally:
        again.stop()
    third = TableServer(server.data)
    try:
        status, body = third.call("POST", f"/tables/{code}/join", {"name": "Dev"})
        assert status == 410 and "closed" in body["error"]
    finally:
        third.stop()


def test_tokens_never_reach_the_servers_log(server: TableServer) -> None:
    made, joined = new_table(server)
    code = made["code"]
    for j in joined:
        state(server, code, j["token"])
        server.call("GET", f"/tables/{code}/wait?token={j['token']}&version=0")
    server.call("GET", f"/tables/{code}", headers={"X-Rummy-Teacher-Key": KEY})
    server.stop()
    log = server.log()
    assert "/state" in log
    for t in [j["token"] for j in joined] + [KEY, made["spectator_token"]]:
        assert t not in log


# -- served beside the apps ------------------------------------------------------------------------

def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_make_app_serves_the_api_beside_the_apps(tmp_path: Path) -> None:
    """`make app`'s server (tableserver.voila_app): the landing page and the
    API on one origin, tables in RUMMY_DATA, kernels told where the API is."""
    with harness.start_voila(env={"RUMMY_DATA": str(tmp_path), "RUMMY_TEACHER_KEY": KEY}
                             ) as voila:
        status, page = _get(voila.base)
        assert status == 200 and "index.ipynb" in page
        req = urllib.request.Request(voila.base + "rummy/api/tables", method="POST", data=json.dumps(
            {"variant": "gin_three", "seats": ["human", "greedy", "greedy"]}).encode(),
            headers=TEACHER)
        with urllib.request.urlopen(req, timeout=30) as r:
            made = json.loads(r.read())
        status, body = _get(voila.base + f"rummy/api/tables/{made['code']}/state?token=no")
        assert status == 403 and json.loads(body)["error"]
        assert (tmp_path / "tables.sqlite3").exists()
        # the kernels this server starts for the apps find the API in RUMMY_API
        deadline = time.monotonic() + 60
        while True:
            envs = [_environ(p) for p in Path("/proc").glob("[0-9]*")
                    if _parent(p) == voila.proc.pid]
            if any(e.get("RUMMY_API") == voila.base + "rummy/api" for e in envs):
                break
            assert time.monotonic() < deadline, "no kernel was told where the API is"
            time.sleep(0.5)


def _parent(proc: Path) -> int | None:
    try:
        return int((proc / "stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _environ(proc: Path) -> dict[str, str]:
    try:
        raw = (proc / "environ").read_bytes()
    except OSError:
        return {}
    return dict(x.decode(errors="replace").partition("=")[::2] for x in raw.split(b"\0") if x)


def test_the_jupyter_server_extension_serves_the_api(tmp_path: Path) -> None:
    """With `jupyter server` (as on Binder) the extension serves the same API."""
    port = free_port()
    env = {**os.environ, "RUMMY_DATA": str(tmp_path), "PYTHONPATH": str(ROOT),
           "RUMMY_TEACHER_KEY": KEY}
    argv = [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}",
            "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0", "--allow-root",
            "--IdentityProvider.token=t", f"--ServerApp.root_dir={ROOT}",
            "--ServerApp.jpserver_extensions={'tableserver': True}"]
    with Server(argv, port, ROOT, env, f"http://127.0.0.1:{port}/",
                        ready_path="api/status?token=t") as server:
        base = server.base + "rummy/api"
        req = urllib.request.Request(base + "/tables", method="POST", data=json.dumps(
            {"variant": "three_thirteen", "seats": ["human", "expert"]}).encode(),
            headers=TEACHER)
        with urllib.request.urlopen(req, timeout=30) as r:
            made = json.loads(r.read())
        req = urllib.request.Request(base + f"/tables/{made['code']}/join", method="POST",
                                     data=b'{"name": "Ana"}', headers=JSON)
        with urllib.request.urlopen(req, timeout=30) as r:
            me = json.loads(r.read())
        status, body = _get(base + f"/tables/{made['code']}/state?token={me['token']}")
        assert status == 200 and json.loads(body)["player"] == 0
        assert _get(base + f"/tables/{made['code']}/state?token=x")[0] == 403
