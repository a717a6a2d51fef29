"""The table service on a real school network: each thing a mischievous
student or an outsider could try, tried on loopback and bounded in count and
time.

1. secret deals; 2. no flood stops new tables; 3. bots never freeze the
server; 4. no cross-site request is obeyed; 5. (tests/test_tableserver_remote.py:
a reopened link keeps its seat); 6. the teacher locks a table and turns a
name away; 7. bad requests are 400s; 8. no token in a log; 9. a database that
notices; 10. (tests/test_voila_app.py and the browser test of ``make
classroom``).  Late joiners' names and every family's score rows too.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import statistics
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import rummy
from tableserver import (
    BadRequest,
    Conflict,
    Forbidden,
    NotSaved,
    TooMany,
)
from tableserver.deals import hand_seed
from tableserver.tables import SEED_BITS
from tableserver.web import ScrubTokens, scrub
from tests.servers import JSON, KEY, TEACHER, Clock, TableServer, local_service

# -- 1. secret deals ---------------------------------------------------------------------


def test_seeds_are_128_secret_bits_and_the_deal_depends_on_every_bit(tmp_path: Path) -> None:
    svc = local_service(tmp_path, seeds=None)  # the server's own source, not the tests' fixed one
    seeds = [svc.tables[svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"]].seed
             for _ in range(40)]
    assert SEED_BITS >= 128
    assert len(set(seeds)) == 40
    # 40 draws below 2**31 (today's seeds) have at most 31 bits; from 2**128 the
    # chance that none of them has 120 bits or more is 2**-320
    assert max(s.bit_length() for s in seeds) >= 120
    # the engine uses every bit: two seeds that differ only in the top bit deal apart
    s = seeds[0] & ((1 << 127) - 1)
    a = rummy.new_game("big_table", players=12, seed=s)
    b = rummy.new_game("big_table", players=12, seed=s | (1 << 127))
    assert [a.observe(i).hand for i in range(12)] != [b.observe(i).hand for i in range(12)]


def _seed_texts(seed: int) -> list[str]:
    return [str(seed), f"{seed:x}", f"{seed:X}", str(seed)[:18]]


def test_no_answer_and_no_log_holds_a_seed(tmp_path: Path) -> None:
    server = TableServer(tmp_path)
    answers: list[str] = []
    try:
        def call(method: str, path: str, body: Any = None, **kw: Any) -> Any:
            status, got = server.call(method, path, body, **kw)
            answers.append(json.dumps(got))
            return got

        made = call("POST", "/tables", {"teacher_key": KEY, "variant": "three_thirteen",
                                        "seats": ["human", "greedy"], "speed": 0})
        code = made["code"]
        me = call("POST", f"/tables/{code}/join", {"name": "Ana"})
        tok = {"X-Rummy-Token": me["token"]}
        for _ in range(12):
            view = call("GET", f"/tables/{code}/state", headers=tok)
            if view.get("legal_actions"):
                call("POST", f"/tables/{code}/act", {"token": me["token"], "version":
                                                      view["version"],
                                                      "action": view["legal_actions"][0]})
            else:
                time.sleep(0.05)
        call("POST", f"/tables/{code}/act", {"token": me["token"], "action": "nonsense"})
        call("GET", f"/tables/{code}", headers=TEACHER)
        call("GET", f"/tables/{code}/state", headers={"X-Rummy-Token": made["spectator_token"]})
        call("GET", "/tables", headers=TEACHER)
    finally:
        server.stop()
    db = sqlite3.connect(tmp_path / "tables.sqlite3")
    meta = json.loads(db.execute("SELECT meta FROM tables").fetchone()[0])
    db.close()
    assert meta["seed"] is None and meta["keyed"] is True  # the database holds no seed
    # the deals come from the server's key (beside the database) and the hand's number
    key = (tmp_path / "deals.key").read_bytes()
    text = "\n".join(answers) + server.log()
    assert key.hex() not in text
    for hand in range(4):
        seed = hand_seed(key, code, hand)
        assert seed.bit_length() > 64
        for shown in _seed_texts(seed):
            assert shown not in text


# -- 2. limits that free themselves ---------------------------------------------------------

def test_a_flood_without_the_teacher_key_makes_no_table(tmp_path: Path) -> None:
    server = TableServer(tmp_path, {"RUMMY_CREATE_QUOTA": "5"})
    try:
        body = {"variant": "gin_three", "seats": ["human"] * 3}
        statuses = [server.call("POST", "/tables", body)[0] for _ in range(150)]
        assert set(statuses) == {403}
        # the teacher's own client may make its quota of tables, then is told to wait
        made = [server.call("POST", "/tables", {**body, "teacher_key": KEY})[0]
                for _ in range(6)]
        assert made == [201] * 5 + [429]
        status, listed = server.call("GET", "/tables", headers=TEACHER)
        assert status == 200 and len(listed["tables"]) == 5
    finally:
        server.stop()


def test_finished_tables_free_their_place_and_old_tables_expire(tmp_path: Path) -> None:
    clock = Clock()
    svc = local_service(tmp_path, clock, max_tables=3, bot_pace=0, expire_after=3600)
    codes = [svc.create("gin_three", ["greedy"] * 3, teacher_key=KEY, speed=0,
                        pause_between_hands=False)["code"] for _ in range(2)]
    waiting = svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"]
    with pytest.raises(Conflict, match="limit"):
        svc.create("gin_three", ["human"] * 3, teacher_key=KEY)
    svc.tick(100_000)  # the two bot tables play to their end
    assert [svc.tables[c].status for c in codes] == ["over", "over"]
    svc.close(waiting, KEY)
    fresh = svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"]  # a place again
    clock.t += 1800
    svc.join(fresh, "Ana")  # a table in use stays
    clock.t += 1801
    assert sorted(svc.expire()) == sorted([*codes, waiting])
    assert set(svc.tables) == {fresh}
    svc.store.close()
    again = local_service(tmp_path, clock, expire_after=3600)  # forgotten in the database too
    assert set(again.tables) == {fresh}
    clock.t += 3600
    assert again.expire() == [fresh]  # idle for the expiry time: gone too
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 0


def test_the_create_quota_is_per_client(tmp_path: Path) -> None:
    svc = local_service(tmp_path, create_quota=2)
    for _ in range(2):
        svc.create("gin_three", ["human"] * 3, teacher_key=KEY, client="10.0.0.5")
    with pytest.raises(TooMany):
        svc.create("gin_three", ["human"] * 3, teacher_key=KEY, client="10.0.0.5")
    svc.create("gin_three", ["human"] * 3, teacher_key=KEY, client="10.0.0.6")
    with pytest.raises(Forbidden, match="teacher"):
        svc.create("gin_three", ["human"] * 3, teacher_key="guess", client="10.0.0.7")


# -- 3. bots off the event loop -------------------------------------------------------------

def test_bot_tables_never_hold_up_another_tables_requests(tmp_path: Path) -> None:
    """Six tables of 12 expert bots at speed 0 (the pace floor lowered to 20
    moves a second each): another table's state is answered at once."""
    server = TableServer(tmp_path, {"RUMMY_BOT_PACE": "0.05"})
    try:
        mine = server.call("POST", "/tables", {"teacher_key": KEY, "variant": "gin_three",
                                               "seats": ["human", "greedy", "greedy"]})[1]
        me = server.call("POST", f"/tables/{mine['code']}/join", {"name": "Ana"})[1]
        bots = [server.call("POST", "/tables", {"teacher_key": KEY, "variant": "big_table",
                                                "seats": ["expert"] * 12, "speed": 0})[1]
                for _ in range(6)]
        times = []
        for _ in range(40):
            t = time.perf_counter()
            status, _view = server.call("GET", f"/tables/{mine['code']}/state",
                                        headers={"X-Rummy-Token": me["token"]})
            times.append(time.perf_counter() - t)
            assert status == 200
            time.sleep(0.05)
        versions = [server.call("GET", f"/tables/{b['code']}", headers=TEACHER)[1]["version"]
                    for b in bots]
    finally:
        server.stop()
    assert min(versions) > 3  # the bots do play
    # today's server played each bot table to its end on the loop: seconds per request
    assert statistics.median(times) < 0.1 and max(times) < 1.0, times


def test_a_table_of_bots_only_keeps_a_minimum_pace(tmp_path: Path) -> None:
    clock = Clock()
    svc = local_service(tmp_path, clock, bot_pace=0.5)
    code = svc.create("big_table", ["greedy"] * 4, teacher_key=KEY, speed=0)["code"]
    assert svc.step() == 0  # not yet: half a second between two moves
    moves = 0
    for _ in range(10):
        clock.t += 0.5
        moves += svc.step()
        assert svc.step() == 0  # one move per step at most, then the pace again
    assert moves == svc.tables[code].moves == 10


# -- 4. cross-site requests --------------------------------------------------------------

def test_cross_site_requests_are_refused(tmp_path: Path) -> None:
    server = TableServer(tmp_path)
    try:
        body = json.dumps({"teacher_key": KEY, "variant": "gin_three",
                           "seats": ["human"] * 3}).encode()
        own = f"http://127.0.0.1:{server.port}"
        tries = [
            ({"Content-Type": "text/plain"}, 415),  # what fetch(..., {mode: "no-cors"}) sends
            ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
            ({}, 415),
            ({**JSON, "Origin": "http://evil.example"}, 403),
            ({**JSON, "Origin": "null"}, 403),
            ({**JSON, "Origin": f"https://127.0.0.1:{server.port}"}, 403),
            ({**JSON, "Sec-Fetch-Site": "cross-site"}, 403),
            ({**JSON, "Sec-Fetch-Site": "same-site"}, 403),
        ]
        for headers, want in tries:
            status, got = server.call("POST", "/tables", raw=body, headers=headers)
            assert status == want, (headers, got)
        status, got = server.call("GET", "/tables", headers={**TEACHER, "Origin": "http://x.y"})
        assert status == 403
        assert server.call("GET", "/tables", headers=TEACHER)[1]["tables"] == []
        status, made = server.call("POST", "/tables", raw=body,
                                   headers={**JSON, "Origin": own, "Sec-Fetch-Site": "same-origin"})
        assert status == 201
        req = urllib.request.Request(f"{own}/rummy/api/tables/{made['code']}/join",
                                     data=b'{"name": "Ana"}', method="POST", headers=JSON)
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.headers.get("Access-Control-Allow-Origin") is None
    finally:
        server.stop()


# -- 6. the teacher's say over a table -------------------------------------------------

def test_the_teacher_locks_a_table_frees_a_seat_and_turns_a_name_away(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    code = svc.create("big_table", ["human"] * 4 + ["greedy"], teacher_key=KEY)["code"]
    ana = svc.join(code, "Ana")
    svc.join(code, "Ben")
    with pytest.raises(Forbidden):
        svc.lock(code, ana["token"])
    svc.lock(code, KEY)
    with pytest.raises(Forbidden, match="locked"):
        svc.join(code, "Cleo")
    assert svc.admin(code, KEY)["table"]["locked"] is True
    svc.lock(code, KEY, False)
    svc.turn_away(code, KEY, "ana")  # any case
    with pytest.raises(Forbidden):
        svc.state(code, ana["token"])  # her seat is free again
    with pytest.raises(Forbidden, match="turned"):
        svc.join(code, " ANA ")
    assert svc.join(code, "Cleo")["seat"] == 0
    seats = svc.admin(code, KEY)["table"]["seats"]
    assert [s["joined"] for s in seats[:4]] == [True, True, False, False]
    with pytest.raises(BadRequest):
        svc.turn_away(code, KEY, "")
    svc.store.close()
    again = local_service(tmp_path)  # kept across a restart
    with pytest.raises(Forbidden, match="turned"):
        again.join(code, "Ana")


# -- 7. bad requests ----------------------------------------------------------------------

def test_deep_nesting_non_finite_numbers_and_codes_with_spaces(tmp_path: Path) -> None:
    server = TableServer(tmp_path)
    try:
        made = server.call("POST", "/tables", {"teacher_key": KEY, "variant": "gin_three",
                                               "seats": ["human"] * 3})[1]
        code = made["code"]
        status, got = server.call("POST", f"/tables/{code}/join", raw=b"[" * 1000 + b"]" * 1000)
        assert status == 400 and "nests" in got["error"]
        status, got = server.call("POST", f"/tables/{code}/join",
                                  raw=b'{"name": "Ana", "x": ' + b"[" * 500 + b"]" * 500 + b"}")
        assert status == 400
        for constant in (b"NaN", b"Infinity", b"-Infinity"):
            status, got = server.call("POST", "/tables", raw=b'{"teacher_key": "%s", '
                                      b'"variant": "gin_three", "seats": ["human", "human", '
                                      b'"human"], "speed": %s}' % (KEY.encode(), constant))
            assert status == 400 and "finite" in got["error"], got
        me = server.call("POST", f"/tables/{code}/join", {"name": "Ana"})[1]
        tok = {"X-Rummy-Token": me["token"]}
        for bad in ("nan", "inf", "-inf", "abc"):
            t = time.perf_counter()
            status, got = server.call("GET", f"/tables/{code}/wait?version=0&timeout={bad}",
                                      headers=tok)
            assert status == 400 and time.perf_counter() - t < 5
        spaced = code.replace("-", "%20").lower()
        status, view = server.call("GET", f"/tables/{spaced}/state", headers=tok)
        assert status == 200 and view["code"] == code
        status, view = server.call("GET", f"/tables/{code.replace('-', '+')}/state", headers=tok)
        assert status == 200
        assert "Traceback" not in server.log()
    finally:
        server.stop()


# -- 8. tokens out of addresses and logs --------------------------------------------------

def test_the_log_hides_token_looking_values(caplog: pytest.LogCaptureFixture) -> None:
    token = "xb-Y2PM-OvnA85i87bmS3NrYYxu7hcru"
    access = logging.getLogger("tornado.access")
    access.addFilter(ScrubTokens())
    try:
        with caplog.at_level(logging.INFO, logger="tornado.access"):
            access.warning("404 GET /voila/render/notebooks/apps/big_table.ipynb?table=ABCD&"
                           "token=%s (127.0.0.1) 3.1ms", token)
            access.info("200 GET /x?admin=abc&teacher_key=short-key&watch=w1 (::1)")
    finally:
        access.filters.clear()
    text = caplog.text
    assert token not in text and "short-key" not in text and "abc" not in text
    assert "table=ABCD" in text and "[hidden]" in text
    assert scrub("Rummy table service: tables, database /tmp/x/tables.sqlite3") == \
        "Rummy table service: tables, database /tmp/x/tables.sqlite3"


# -- 9. storage that notices ---------------------------------------------------------------

def test_the_database_is_private_to_the_server(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        svc = local_service(tmp_path)
        svc.create("gin_three", ["human"] * 3, teacher_key=KEY)
    finally:
        os.umask(old)
    for f in tmp_path.glob("tables.sqlite3*"):
        assert f.stat().st_mode & 0o077 == 0, f


def test_a_damaged_file_is_moved_aside_and_the_server_starts(tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture
                                                           ) -> None:
    path = tmp_path / "tables.sqlite3"
    path.write_bytes(b"this is not a database" * 200)
    with caplog.at_level(logging.ERROR, logger="tableserver"):
        svc = local_service(tmp_path)
    assert svc.tables == {} and svc.store.moved_aside is not None
    assert svc.store.moved_aside.read_bytes().startswith(b"this is not a database")
    assert "damaged" in caplog.text and str(svc.store.moved_aside) in caplog.text
    svc.create("gin_three", ["human"] * 3, teacher_key=KEY)  # and it works


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_deleted_or_replaced_file_refuses_moves(tmp_path: Path, how: str) -> None:
    svc = local_service(tmp_path)
    code = svc.create("three_thirteen", ["human", "human"], teacher_key=KEY)["code"]
    a, b = svc.join(code, "Ana"), svc.join(code, "Ben")
    path = tmp_path / "tables.sqlite3"
    for f in tmp_path.glob("tables.sqlite3*"):
        f.unlink()
    if how == "replaced":
        sqlite3.connect(path).close()
    view = svc.state(code, a["token"]) if svc.state(code, a["token"])["legal_actions"] \
        else svc.state(code, b["token"])
    token = a["token"] if view["player"] == 0 else b["token"]
    with pytest.raises(NotSaved, match=how):
        svc.act(code, token, view["legal_actions"][0], view["version"])
    assert svc.tables[code].moves == 0  # nothing acknowledged into a lost file
    with pytest.raises(NotSaved, match=how):
        svc.act(code, token, view["legal_actions"][0])


def test_a_restart_does_not_replay_finished_tables(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    svc = local_service(tmp_path, bot_pace=0)
    for _ in range(3):
        svc.create("three_thirteen", ["greedy", "greedy"], teacher_key=KEY, speed=0,
                   pause_between_hands=False)
    svc.tick(100_000)
    before = {c: (t.status, t.game.observe(0)) for c, t in svc.tables.items()}
    assert {s for s, _ in before.values()} == {"over"}
    svc.store.close()
    applied = []
    engine = type(next(iter(svc.tables.values())).game)
    real = engine.apply
    monkeypatch.setattr(engine, "apply", lambda g, *a, **kw: (applied.append(a),
                                                              real(g, *a, **kw))[1])
    again = local_service(tmp_path)
    assert applied == []  # from their snapshots, not from every move
    assert {c: (t.status, again.table(c).game.observe(0))
            for c, t in again.tables.items()} == before


# -- whole tables for every family -----------------------------------------------------------

def test_a_late_joiner_has_their_own_name(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    code = svc.create("gin_three", ["human"] * 3, teacher_key=KEY, speed=0)["code"]
    svc.join(code, "Ana")
    svc.next_hand(code, KEY)
    late = svc.join(code, "Ben")
    view = svc.state(code, late["token"])
    assert view["players"][late["seat"]] == "Ben"
    assert "Seat 2" not in view["players"]
    svc.store.close()
    assert local_service(tmp_path).state(code, late["token"])["players"][late["seat"]] == "Ben"


@pytest.mark.parametrize("variant,label", [("big_table", "Hand 1"), ("gin_three", "Hand 1"),
                                           ("three_thirteen", "Round 1")])
def test_every_family_sends_a_row_per_hand(tmp_path: Path, variant: str, label: str) -> None:
    svc = local_service(tmp_path, bot_pace=0)
    n = 3 if variant == "gin_three" else 4 if variant == "big_table" else 2
    code = svc.create(variant, ["greedy"] * n, teacher_key=KEY, speed=0)["code"]
    spectator_view = None
    while svc.tables[code].status == "playing":
        assert svc.step()
    t = svc.tables[code]
    assert t.status == "paused"
    spectator_view = svc.state(code, KEY)
    rows = spectator_view["score_rows"]
    assert rows[0][0] == label and len(rows[0][1]) == n
    # the row is the change of the scores over the hand, as the public totals say
    assert [sum(r[1][i] for r in rows) for i in range(n)] == list(spectator_view["scores"])
