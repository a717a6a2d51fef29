"""A school server that holds: what a curious learner on the school Wi-Fi,
or another website open in the teacher's browser, could try, each tried and
refused.

CSV cells that a spreadsheet would run as formulas; a foreign ``Host``
(DNS rebinding); guessing the teacher key; long polls that wake everybody;
seat grabbing; deals that a snapshot could restore; refusals that show the
server's files.  Each test fails on the server as it was before.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import csv
import gzip
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tableserver import BadRequest, Conflict, Forbidden, NotSaved, Store, TableService
from tableserver.checks import key_bits
from tableserver.guard import (
    PER_ADDRESS,
    SERVER_LIMITS,
    GuardedServer,
    KeyThrottle,
    allowed_hosts,
    host_name,
    raise_file_limit,
)
from tableserver.handler import Hub
from tableserver.progress_api import to_csv
from tableserver.wire import csv_cell, grid_csv
from tests.browser import harness
from tests.servers import (
    JSON,
    KEY,
    ROOT,
    TEACHER,
    TableServer,
    create_table,
    free_port,
    local_service,
    python_env,
)

# -- CSV cells that a spreadsheet would run (OWASP "CSV injection") ---------------------

#: names a learner may join with that a spreadsheet would take for formulas
FORMULAS = ['=HYPERLINK("//e.vil")', "=cmd|'/C calc'!A0", "@SUM(1+1)", "+1+1", "-2+3",
            "\tTAB", "\rCR"]


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _rows(names: list[str]) -> list[dict[str, Any]]:
    # a learner's wrong answer is theirs to type too
    return [{"learner": n, "rule": "M-1", "attempts": 1, "right_first": 1, "days": 1,
             "recall": 0.9, "status": "practising", "due": 0.0, "last_wrong": n,
             "play_attempts": 0, "play_right_first": 0} for n in names]


def test_no_csv_cell_starts_a_formula() -> None:
    for text in (to_csv(_rows(FORMULAS)), grid_csv(_rows(FORMULAS))):
        cells = [row[0] for row in _cells(text)[1:]]
        assert len(cells) == len(FORMULAS)
        for cell, name in zip(cells, FORMULAS, strict=True):
            assert cell[0] not in "=+-@\t\r", cell
            assert cell == "'" + name  # the name is kept, after a quote that makes it text
        wrong = [row[8] for row in _cells(text)[1:]]
        assert all(cell.startswith("'") for cell in wrong), wrong
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


# -- the Host header (DNS rebinding) --------------------------------------------------------

def _call(s: TableServer, method: str, path: str, body: Any = None,
          headers: dict[str, str] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(s.api + path, data=data, method=method,
                                 headers={**(JSON if data else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def test_a_foreign_host_is_refused(server: TableServer) -> None:
    made = create_table(server.api, {"variant": "gin_three", "seats": ["human"] * 3})
    code = made["code"]
    for host in ("rebind.evil.example", f"rebind.evil.example:{server.port}", "10.9.9.9"):
        status, body = _call(server, "POST", f"/tables/{code}/join", {"name": "Ana"},
                             {"Host": host})
        assert status == 403 and "token" not in body, (host, body)
        status, body = _call(server, "GET", "/tables", headers={**TEACHER, "Host": host})
        assert status == 403 and "tables" not in body
    seats = _call(server, "GET", f"/tables/{code}", headers=TEACHER)[1]["table"]["seats"]
    assert not any(s["joined"] for s in seats)  # nobody was seated
    for host, name in ((f"127.0.0.1:{server.port}", "Ana"), (f"localhost:{server.port}", "Ben"),
                       ("LOCALHOST", "Cleo")):
        status, body = _call(server, "POST", f"/tables/{code}/join", {"name": name},
                             {"Host": host})
        assert status == 200, (host, body)


def test_allowed_hosts_are_loopback_the_room_and_the_public_url() -> None:
    env = {"RUMMY_PUBLIC_URL": "https://Rummy.School.Example:8443/kit/"}
    assert allowed_hosts("10.0.0.5", env=env) == {"127.0.0.1", "::1", "localhost", "10.0.0.5",
                                                  "rummy.school.example"}
    assert allowed_hosts("0.0.0.0", env={}) == {"127.0.0.1", "::1", "localhost"}
    assert host_name("[::1]:8866") == "::1" and host_name("Room.Example.:80") == "room.example"


# -- the teacher key ---------------------------------------------------------------------------

@pytest.mark.parametrize("weak", ["choose-a-long-secret-here", "correct horse battery",
                                  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "Summer2026!"])
def test_a_chosen_key_under_128_bits_is_refused_with_a_fresh_one(tmp_path: Path,
                                                                weak: str) -> None:
    with pytest.raises(ValueError, match="too easy to guess") as got:
        TableService(Store(tmp_path / "t.sqlite3"), teacher_key=weak)
    offered = str(got.value).rsplit(" ", 1)[1]
    assert key_bits(offered) >= 128 and offered != weak
    TableService(Store(tmp_path / "u.sqlite3"), teacher_key=offered).store.close()
    # the server says so and does not start
    out = subprocess.run([sys.executable, "-m", "tableserver", "--port", str(free_port()),
                          "--data", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, env={**python_env(), "RUMMY_TEACHER_KEY": weak})
    assert out.returncode != 0 and "too easy to guess" in out.stderr
    assert "Traceback" not in out.stderr


def test_wrong_keys_wait_longer_and_longer_per_client_and_overall() -> None:
    now = [0.0]
    t = KeyThrottle(clock=lambda: now[0], free=2, base=1.0, most=8.0, overall_free=5,
                    overall_base=0.5, overall_most=2.0)
    waits = []
    for _ in range(7):
        waits.append(t.slot("10.0.0.7"))
        t.failed("10.0.0.7")
        now[0] += waits[-1]  # the client waited its turn, then guessed wrong
    # two free tries, then 1, 2, 4, 8, 8 seconds (doubling, worked by hand)
    assert waits == [0.0, 0.0, 0.0, 1.0, 2.0, 4.0, 8.0]
    # another address: its own count, but past 5 wrong keys everybody waits a little
    assert t.slot("10.0.0.9") > 0
    t.passed("10.0.0.7")
    assert t.fails.get("10.0.0.7") is None


def test_wrong_keys_are_logged_without_the_key(server: TableServer) -> None:
    guesses = [f"guess-number-{i}-xxxxxxxxxxxx" for i in range(3)]
    for g in guesses:
        assert _call(server, "GET", "/tables", headers={"X-Rummy-Teacher-Key": g})[0] == 403
    log = server.log()
    assert "a wrong teacher key from 127.0.0.1 (3 in a row)" in log
    assert not any(g in log for g in guesses)
    assert _call(server, "GET", "/tables", headers=TEACHER)[0] == 200


# -- long polls -----------------------------------------------------------------------------------

@contextlib.contextmanager
def api_here(svc: TableService) -> Iterator[tuple[int, Hub]]:
    """The API of ``svc`` on a free loopback port, served by a loop in a
    thread of this process (so that a test sees the long-poll hub): yields
    (the port, the hub)."""
    from tornado.httpserver import HTTPServer

    from tableserver.web import make_app

    box: dict[str, Any] = {}
    ready = threading.Event()
    loop = asyncio.new_event_loop()

    def run() -> None:
        asyncio.set_event_loop(loop)

        async def main() -> None:
            app = make_app(svc)
            server = HTTPServer(app)
            server.listen(0, "127.0.0.1")
            box["port"] = next(iter(server._sockets.values())).getsockname()[1]
            box["hub"] = next(f.__self__ for f in svc.listeners
                              if isinstance(getattr(f, "__self__", None), Hub))
            box["stop"] = asyncio.Event()
            ready.set()
            await box["stop"].wait()
            server.stop()
            svc.stop_bots()

        loop.run_until_complete(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(30)
    try:
        yield box["port"], box["hub"]
    finally:
        loop.call_soon_threadsafe(box["stop"].set)
        thread.join(30)


def _open_poll(port: int, code: str, token: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(f"GET /rummy/api/tables/{code}/wait?version=999999&timeout=50 HTTP/1.1\r\n"
              f"Host: 127.0.0.1:{port}\r\nX-Rummy-Token: {token}\r\n\r\n".encode())
    return s


def _until(check: Any, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(what)


def test_a_cut_off_poll_wakes_no_other_table(tmp_path: Path) -> None:
    svc = local_service(tmp_path, wait_for_disk=False)
    a = svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"]
    b = svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"]
    ana, ben = svc.join(a, "Ana"), svc.join(b, "Ben")
    with api_here(svc) as (port, hub):
        woken: list[str] = []
        wake = hub._wake
        hub._wake = lambda code: (woken.append(code), wake(code))  # type: ignore[method-assign]
        ben_poll = _open_poll(port, b, ben["token"])
        _until(lambda: svc.tables[b].seats[0].watching == 1, "Ben's poll did not open")
        for _ in range(5):
            cut = _open_poll(port, a, ana["token"])
            _until(lambda: svc.tables[a].seats[0].watching == 1, "Ana's poll did not open")
            cut.close()  # the page is gone: its poll ends, nobody else's
            _until(lambda: svc.tables[a].seats[0].watching == 0, "Ana's poll did not end")
        assert b not in woken
        assert svc.tables[b].seats[0].watching == 1  # Ben still waits, undisturbed
        ben_poll.close()


def test_a_seat_holds_at_most_four_open_polls(tmp_path: Path) -> None:
    svc = local_service(tmp_path, wait_for_disk=False)
    code = svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"]
    ana, ben = svc.join(code, "Ana"), svc.join(code, "Ben")
    with api_here(svc) as (port, _hub):
        polls = [_open_poll(port, code, ana["token"]) for _ in range(4)]
        _until(lambda: svc.tables[code].seats[0].watching == 4, "four polls did not open")
        fifth = _open_poll(port, code, ana["token"])
        answer = fifth.recv(4096).decode()
        assert answer.startswith("HTTP/1.1 429") and "4 times at once" in answer
        other = _open_poll(port, code, ben["token"])  # another seat is not held up
        _until(lambda: svc.tables[code].seats[1].watching == 1, "Ben's poll did not open")
        for s in (*polls, fifth, other):
            s.close()


# -- seats: one per browser, one per name, a PIN ----------------------------------------------

def test_names_are_one_learners_and_turning_away_covers_numbered_copies(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    code = svc.create("big_table", ["human"] * 6, teacher_key=KEY)["code"]
    svc.join(code, "Ana")
    for same in ("ana", "ANA", " Ana "):
        with pytest.raises(Conflict, match="taken"):
            svc.join(code, same)
    copies = [svc.join(code, f"Ana {k}") for k in range(2, 5)]
    svc.turn_away(code, KEY, "ana")
    seats = svc.admin(code, KEY)["table"]["seats"]
    assert not any(s["joined"] for s in seats)  # "Ana" and "Ana 2".."Ana 4" are freed
    for c in copies:
        with pytest.raises(Forbidden):
            svc.state(code, c["token"])
    for again in ("Ana", "ana 5", "Ana6", "ANA #7", "ana-8"):
        with pytest.raises(Forbidden, match="turned"):
            svc.join(code, again)
    assert svc.join(code, "Anaïs")["seat"] == 0  # another name still joins


def test_one_browser_sits_once_and_a_join_sent_twice_gets_one_seat(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    code = svc.create("big_table", ["human"] * 4, teacher_key=KEY)["code"]
    browser = "b" * 32
    first = svc.join(code, "Ana", browser=browser, request_id="join-0001")
    assert svc.join(code, "Ana", browser=browser, request_id="join-0001") == first
    with pytest.raises(Conflict, match="already sits"):
        svc.join(code, "Ben", browser=browser, request_id="join-0002")  # a second tab
    svc.store.close()
    again = local_service(tmp_path)  # kept across a restart
    with pytest.raises(Conflict, match="already sits"):
        again.join(code, "Ben", browser=browser)
    again.remove_seat(code, KEY, first["seat"])
    assert again.join(code, "Ben", browser=browser)["seat"] == 0  # a freed seat frees it


def test_a_table_with_a_pin_seats_only_who_knows_it(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    with pytest.raises(BadRequest, match="pin must be"):
        svc.create("gin_three", ["human"] * 3, teacher_key=KEY, pin="12")
    code = svc.create("gin_three", ["human"] * 3, teacher_key=KEY, pin="4821")["code"]
    for wrong in (None, "", "4822", 4821):
        with pytest.raises(Forbidden, match="PIN"):
            svc.join(code, "Ana", pin=wrong)
    assert svc.join(code, "Ana", pin="4821")["seat"] == 0
    assert "4821" not in json.dumps(svc.admin(code, KEY))
    svc.store.close()
    with pytest.raises(Forbidden, match="PIN"):
        local_service(tmp_path).join(code, "Ben", pin="0000")


def test_the_server_gives_each_browser_a_cookie_and_seats_it_once(server: TableServer) -> None:
    made = create_table(server.api, {"variant": "gin_three", "seats": ["human"] * 3,
                                     "pin": "7319"})
    url = f"{server.api}/tables/{made['code']}/join"
    assert _call(server, "POST", f"/tables/{made['code']}/join", {"name": "Eve"})[0] == 403
    req = urllib.request.Request(url, data=b'{"name": "Ana", "pin": "7319"}', headers=JSON,
                                 method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("rummy_browser=") and "HttpOnly" in cookie
    assert "samesite=strict" in cookie.lower()
    status, body = _call(server, "POST", f"/tables/{made['code']}/join",
                         {"name": "Ben", "pin": "7319"}, {"Cookie": cookie.split(";")[0]})
    assert status == 409 and "already sits" in body["error"]


# -- deals ------------------------------------------------------------------------------------

def _copy_tables(source: Path, to: Path, key: bool) -> Path:
    """The service's database in ``source`` copied to ``to`` (SQLite's backup: a
    consistent copy of a database in use), with the deal key beside it if ``key``."""
    import shutil
    import sqlite3

    to.mkdir()
    with sqlite3.connect(source / "tables.sqlite3") as src, \
            sqlite3.connect(to / "tables.sqlite3") as dst:
        src.backup(dst)
    if key:
        shutil.copy(source / "deals.key", to / "deals.key")
    return to


def _hands(svc: TableService, code: str) -> tuple[int, list[list[str]]]:
    game = svc.tables[code].game
    return game.number, [[str(c) for c in game.observe(i).hand] for i in range(2)]


def _play(svc: TableService, code: str, tokens: list[str], until_hand: int,
          moves: list[tuple[int, str]] | None = None, steps: int = 3000
          ) -> list[tuple[int, str]]:
    """Play ``moves`` at the table, or (None) a greedy bot's moves for every seat
    until hand ``until_hand`` is dealt (or ``steps`` moves); answers the moves made."""
    from rummy.bots import make_bot

    bot, made = make_bot("greedy", seed=1), []
    for i in range(3000):
        game = svc.tables[code].game
        if moves is None and (game.number >= until_hand or i == steps) \
                or moves is not None and i == len(moves):
            return made
        if moves is not None:
            seat, action = moves[i]
        else:
            seat = game.to_act()[0]
            action = str(bot.choose(game.observe(seat)))
        svc.act(code, tokens[seat], action)
        made.append((seat, action))
    raise AssertionError("the game never reached that hand")


def test_the_database_holds_nothing_that_predicts_the_next_hand(tmp_path: Path) -> None:
    live = tmp_path / "live"
    svc = local_service(live, seeds=None)  # the server's own deals, not a test's seeds
    code = svc.create("three_thirteen", ["human", "human"], teacher_key=KEY,
                      pause_between_hands=False)["code"]
    tokens = [svc.join(code, name)["token"] for name in ("Ana", "Ben")]
    if svc.tables[code].status == "waiting":
        svc.next_hand(code, KEY)
    _play(svc, code, tokens, until_hand=2)  # hand 1 ends: the game is kept whole
    _play(svc, code, tokens, until_hand=3, steps=3)  # and a few moves into hand 2
    key = (live / "deals.key").read_bytes()
    assert len(key) >= 16 and oct((live / "deals.key").stat().st_mode & 0o777) == "0o600"
    # what somebody who reads the database (or a backup of it) has, mid-hand 2
    stolen = _copy_tables(live, tmp_path / "stolen", key=False)
    restarted = _copy_tables(live, tmp_path / "restarted", key=True)
    raw = b"".join(f.read_bytes() for f in stolen.iterdir())
    assert key not in raw and key.hex().encode() not in raw
    # the game goes on uninterrupted to hand 3
    rest = _play(svc, code, tokens, until_hand=3)
    dealt = _hands(svc, code)
    assert dealt[0] == 3
    # a restarted server (the same database and key) plays on identically
    again = local_service(restarted, seeds=None)
    _play(again, code, tokens, 3, moves=rest)
    assert _hands(again, code) == dealt
    # the database alone (another server's key) does not deal the next hand
    thief = local_service(stolen, seeds=None)
    _play(thief, code, tokens, 3, moves=rest)
    number, hands = _hands(thief, code)
    assert number == 3 and hands != dealt[1]


# -- the pages (make app's server) ------------------------------------------------------------

def _page(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            got = {**dict(r.headers), "Set-Cookie": "\n".join(r.headers.get_all("Set-Cookie")
                                                               or [])}
            return r.status, got, r.read().decode(errors="replace")
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode(errors="replace")


@pytest.mark.timeout(300)  # a Voilà server and a page drawn: 35 s on a quiet machine
def test_make_apps_pages_refuse_foreign_hosts_framing_and_never_answer_500(tmp_path: Path
                                                                          ) -> None:
    env = {"RUMMY_DATA": str(tmp_path)}  # no RUMMY_TEACHER_KEY: a fresh key, not printed
    with harness.start_voila(env=env) as voila:
        render = voila.base + "voila/render/notebooks/apps/meld_odds.ipynb"
        # another host name (a DNS-rebinding site): neither the pages nor the API
        for url in (voila.base, render, voila.base + "rummy/api/tables"):
            status, _, body = _page(url, {"Host": "rebind.evil.example"})
            assert status == 403 and "own address" in body, url
        # Voilà's template files: an address that names none is a 404, never a 500
        for path in ("x", "", "rummy/../../etc/passwd", "rummy/static/nothere.css", "a/b"):
            status, _, body = _page(voila.base + "voila/templates/" + path)
            assert status == 404, (path, status)
            assert "/work" not in body and str(ROOT) not in body
        # another site's frame gets no page (and no kernel)
        status, _, body = _page(render, {"Sec-Fetch-Site": "cross-site",
                                         "Sec-Fetch-Dest": "iframe"})
        assert status == 403 and "not inside another site" in body
        status, headers, body = _page(render, {"Sec-Fetch-Site": "none",
                                               "Sec-Fetch-Dest": "document"})
        assert status == 200
        assert "frame-ancestors 'self'" in headers["Content-Security-Policy"]
        assert headers["Set-Cookie"].count("rummy_browser=") == 1
        log = voila.log()
        assert "this machine only" in log
        assert "learners open" not in log and "Teacher key" not in log
        assert "Traceback" not in log and "500 GET" not in log


@pytest.mark.timeout(300)  # a Voilà server and two pages drawn: 50 s on a quiet machine
def test_the_pages_and_the_kits_script_travel_compressed(tmp_path: Path) -> None:
    gz = {"Accept-Encoding": "gzip"}
    with harness.start_voila(env={"RUMMY_DATA": str(tmp_path)}) as voila:
        for path in ("voila/templates/rummy/static/kit.js",
                     "voila/render/notebooks/apps/meld_odds.ipynb"):
            req = urllib.request.Request(voila.base + path, headers=gz)
            with urllib.request.urlopen(req, timeout=120) as r:
                assert r.headers["Content-Encoding"] == "gzip", path
                packed = r.read()
            with urllib.request.urlopen(voila.base + path, timeout=120) as r:
                assert r.headers.get("Content-Encoding") is None  # a client without gzip
                plain = r.read()
            text = gzip.decompress(packed)
            assert len(packed) < len(text) // 3, (path, len(packed), len(text))
            if path.endswith("kit.js"):
                assert text == plain == (ROOT / "share/jupyter/voila/templates/rummy/static"
                                         / "kit.js").read_bytes()
            else:
                assert b"</html>" in text and b"meld" in text.lower()
        # the table API's answers (seat tokens) are never compressed
        req = urllib.request.Request(voila.base + "rummy/api/docs", headers=gz)
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.headers.get("Content-Encoding") is None and len(r.read()) > 1024
        # part of a file is sent as it is
        req = urllib.request.Request(voila.base + "voila/templates/rummy/static/kit.js",
                                     headers={**gz, "Range": "bytes=0-99"})
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status == 206 and r.headers.get("Content-Encoding") is None
            assert len(r.read()) == 100


def test_refusals_name_no_file_of_the_server(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    code = svc.create("three_thirteen", ["human", "human"], teacher_key=KEY)["code"]
    a, b = svc.join(code, "Ana"), svc.join(code, "Ben")
    for f in tmp_path.glob("tables.sqlite3*"):
        f.unlink()
    for me in (a, b):
        view = svc.state(code, me["token"])
        if view["legal_actions"]:
            with pytest.raises(NotSaved) as got:
                svc.act(code, me["token"], view["legal_actions"][0], view["version"])
            assert "deleted" in got.value.message
            assert str(tmp_path) not in got.value.message and "sqlite3" not in got.value.message
            break
    else:
        raise AssertionError("nobody could move")


# -- slow clients and many connections ----------------------------------------------------------

@contextlib.contextmanager
def guarded_here(**kw: Any) -> Iterator[int]:
    """A :class:`GuardedServer` answering "ok" on a free loopback port, in a
    thread of this process (``kw``: its settings); yields the port."""
    from tornado import web

    class Ok(web.RequestHandler):
        def get(self) -> None:
            self.finish("ok")

    box: dict[str, Any] = {}
    ready = threading.Event()
    loop = asyncio.new_event_loop()

    def run() -> None:
        asyncio.set_event_loop(loop)

        async def main() -> None:
            server = GuardedServer(web.Application([(r"/", Ok)]), **kw)
            server.listen(0, "127.0.0.1")
            box["port"] = next(iter(server._sockets.values())).getsockname()[1]
            box["stop"] = asyncio.Event()
            ready.set()
            await box["stop"].wait()
            server.stop()

        loop.run_until_complete(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(30)
    try:
        yield box["port"]
    finally:
        loop.call_soon_threadsafe(box["stop"].set)
        thread.join(30)


def _closed(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (waits up to 30 s for it to say anything)."""
    s.settimeout(30)
    try:
        return s.recv(100) == b""
    except (ConnectionResetError, TimeoutError):
        return False


def test_half_sent_headers_are_cut_off_and_one_address_holds_few_connections() -> None:
    assert 0 < SERVER_LIMITS["idle_connection_timeout"] <= 30
    assert SERVER_LIMITS["body_timeout"] <= 60 and PER_ADDRESS >= 8
    soft, hard = raise_file_limit()
    assert soft == hard or soft >= 65536
    with guarded_here(per_address=3, idle_connection_timeout=0.5) as port:
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
        assert _closed(slow)  # the header timeout cut it off
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        for s in held:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
        extra = socket.create_connection(("127.0.0.1", port))
        assert _closed(extra)  # a fourth from the same address is closed at once
        for s in held:
            s.close()
        _until(lambda: _answers(port), "a closed connection did not free its place")


def _answers(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            return s.recv(4096).startswith(b"HTTP/1.1 200")
        except ConnectionResetError:
            return False


# -- kernels ----------------------------------------------------------------------------------

def _browser(headers: dict[str, str]) -> str:
    """The ``rummy_browser`` cookie a page's answer set, as a Cookie header's value."""
    return next(c.split(";")[0] for c in headers["Set-Cookie"].split("\n")
                if c.startswith("rummy_browser="))


def _kernels_in_use(voila: Any) -> dict[str, Any]:
    status, _, body = _page(voila.base + "rummy/api/kernels", {"X-Rummy-Teacher-Key": KEY})
    assert status == 200, body
    return dict(json.loads(body))


@pytest.mark.timeout(300)  # a server filling its pools, a page waiting 15 s for one: 60-90 s
def test_kernels_are_capped_in_all_and_per_browser(tmp_path: Path) -> None:
    settings = json.loads((ROOT / "voila.json").read_text())["MappingKernelManager"]
    # a page that lost its socket keeps its kernel 15 minutes at most
    assert settings["cull_idle_timeout"] <= 900 and settings["cull_interval"] <= 30
    assert settings["cull_connected"] is False  # a learner thinking keeps their game
    env = {"RUMMY_DATA": str(tmp_path), "RUMMY_MAX_KERNELS": "2",
           "RUMMY_KERNELS_PER_BROWSER": "1", "RUMMY_TEACHER_KEY": KEY}
    # the pool refills 15 s after a page took its kernel: the second browser's page
    # is served with a kernel that was not even started when it asked
    with harness.start_voila(env=env, extra_args=["--VoilaKernelManager.fill_delay=15"]
                             ) as voila:
        render = voila.base + "voila/render/notebooks/apps/meld_odds.ipynb"
        _until(lambda: "pool of notebooks/apps/meld_odds.ipynb is filled" in voila.log(),
               "the page's pool never filled", seconds=180)
        status, headers, _ = _page(render)
        assert status == 200
        mine = _browser(headers)
        status, headers, body = _page(render, {"Cookie": mine})
        assert status == 503 and "close one" in body and headers["Retry-After"] == "60"
        assert _page(render)[0] == 200  # another browser
        status, headers, body = _page(render)  # a third page: over the cap in all
        assert status == 503 and "server is full" in body and "Try again" in body
        # the teacher sees the kernels in use (with the key only)
        status, _, body = _page(voila.base + "rummy/api/kernels")
        assert status == 403
        assert _kernels_in_use(voila) == {"in_use": 2, "limit": 2, "per_browser": 1}
        assert "Traceback" not in voila.log()


def test_the_teachers_page_shows_the_pages_open_and_the_limit(monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    from tableserver.client import RemoteError
    from widgets import classroom

    answers: dict[str, Any] = {"/tables": {"tables": []},
                               "/kernels": {"in_use": 7, "limit": 40, "per_browser": 6}}
    asked: list[tuple[str, Any]] = []

    def request(url: str, body: Any = None, *, teacher: Any = None, **_kw: Any) -> Any:
        asked.append((url, teacher))
        for end, got in answers.items():
            if url.endswith(end):
                if isinstance(got, Exception):
                    raise got
                return got
        raise AssertionError(url)

    monkeypatch.setattr(classroom, "request", request)
    room = classroom.Classroom(api="http://127.0.0.1:1/rummy/api", query="")
    assert room.kernels.layout.display == "none"  # nothing before the teacher signs in
    room.sign_in(KEY)
    assert ("http://127.0.0.1:1/rummy/api/kernels", KEY) in asked  # with the teacher key
    text = room.kernels.value
    assert room.kernels.layout.display == "" and "<b>7</b> of at most <b>40</b>" in text
    assert "6 per browser" in text and "full" not in text
    answers["/kernels"] = {"in_use": 40, "limit": 40, "per_browser": 6}
    room.show_kernels()
    assert "The server is full" in room.kernels.value
    # a server without pages of its own (the hub's service) answers 404: nothing shown
    answers["/kernels"] = RemoteError("not found", 404)
    room.show_kernels()
    assert room.kernels.layout.display == "none"


#: A notebook Voilà takes ``seconds`` to draw (its one cell runs that long).
def _slow_notebook(seconds: float) -> dict[str, Any]:
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": "slow",
                       "metadata": {}, "outputs": [],
                       "source": f"import time\ntime.sleep({seconds})\nprint('drawn at last')"}],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                        "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def _kernel_of(page: str) -> str:
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    assert found, "the page names no kernel"
    return found.group(1)


@pytest.mark.timeout(300)  # two pages drawn in 6 s each, kernels started for them: 40-80 s
def test_a_page_that_never_connects_loses_its_kernel_but_one_being_drawn_keeps_it(
        tmp_path: Path) -> None:
    from tornado.websocket import websocket_connect

    root = tmp_path / "root"
    (root / "notebooks").mkdir(parents=True)
    (root / "share").symlink_to(ROOT / "share")
    (root / "voila.json").write_text((ROOT / "voila.json").read_text())
    (root / "notebooks" / "slow.ipynb").write_text(json.dumps(_slow_notebook(6)))
    # a page has 2 s to connect once it was sent; drawing it takes three times that
    env = {"RUMMY_DATA": str(tmp_path / "data"), "RUMMY_CONNECT_WITHIN": "2",
           "RUMMY_TEACHER_KEY": KEY}
    with harness.start_voila(root=root, env=env) as voila:
        slow = voila.base + "voila/render/notebooks/slow.ipynb"
        status, _, body = _page(slow)  # a plain GET: Voilà runs the notebook as it sends it
        assert status == 200 and "drawn at last" in body, body[-2000:]
        assert "error" not in body.lower().split("drawn at last")[0][-400:]
        kernel = _kernel_of(body)
        # the page was sent and nothing connected: its kernel ends soon after
        _until(lambda: _kernels_in_use(voila)["in_use"] == 0,
               "a page that never connected kept its kernel", seconds=60)
        assert f"Ending kernel {kernel}: its page never connected" in voila.log()

        # a page that connects keeps its kernel, well past the time to connect
        status, _, body = _page(slow)
        assert status == 200 and "drawn at last" in body
        kernel = _kernel_of(body)
        ws_url = voila.base.replace("http://", "ws://") + f"api/kernels/{kernel}/channels"

        async def connected_for(seconds: float) -> int:
            ws = await websocket_connect(ws_url)
            try:
                await asyncio.sleep(seconds)
                return int(await asyncio.to_thread(lambda: _kernels_in_use(voila)["in_use"]))
            finally:
                ws.close()

        assert asyncio.run(connected_for(8)) == 1
        assert f"Ending kernel {kernel}" not in voila.log()
        assert "Traceback" not in voila.log()


def test_the_default_cap_follows_the_memory(tmp_path: Path) -> None:
    from tableserver.voila_app import KERNEL_MEMORY, default_max_kernels

    info = tmp_path / "meminfo"
    info.write_text("MemTotal: 8000000 kB\nMemAvailable: 6000000 kB\n")
    assert default_max_kernels(str(info)) == 6000000 * 1024 // 2 // KERNEL_MEMORY == 24
    info.write_text("MemAvailable: 100 kB\n")
    assert default_max_kernels(str(info)) == 4


# -- the hub's service as Zero to JupyterHub starts it ------------------------------------------

def test_the_service_listens_on_every_address_when_its_url_names_another_host(tmp_path: Path
                                                                              ) -> None:
    """On Kubernetes the service's URL is ``http://hub:10101``: ``hub`` is the
    hub Service's name, none of the pod's addresses; the service listens on
    every address at that port (and the proxy reaches it)."""
    from tests.servers import (
        HUB_ACCESS,
        HUB_API,
        HUB_PREFIX,
        HubService,
        Server,
        fake_hub_api,
        http_ready,
    )

    with fake_hub_api({}) as hub_port:
        port = free_port()
        env = python_env(RUMMY_DATA=str(tmp_path), RUMMY_BOT_PACE="0",
                         JUPYTERHUB_SERVICE_NAME="rummy-tables",
                         JUPYTERHUB_SERVICE_URL=f"http://hub.rummy-test.invalid:{port}",
                         JUPYTERHUB_SERVICE_PREFIX=HUB_PREFIX,
                         JUPYTERHUB_API_URL=f"http://127.0.0.1:{hub_port}/hub/api",
                         JUPYTERHUB_API_TOKEN=HubService.TOKEN,
                         JUPYTERHUB_CLIENT_ID="service-rummy-tables",
                         JUPYTERHUB_OAUTH_ACCESS_SCOPES=json.dumps([HUB_ACCESS]))
        env.pop("RUMMY_TEACHER_KEY", None)
        url = f"http://127.0.0.1:{port}{HUB_API}"
        with Server([sys.executable, "-m", "tableserver.hub"], port, ROOT, env,
                    f"http://127.0.0.1:{port}{HUB_PREFIX}", timeout=60,
                    ready=http_ready(url + "/nothing", ok=lambda status: status != 503),
                    log_path=tmp_path / "service.log") as service:
            status, _, body = _page(url + "/tables")
            assert status == 401 and "sign in" in body  # it answers: the hub's login is asked
            assert "Traceback" not in service.log()


def _helm_merge(base: Any, over: Any) -> Any:
    """Values ``over`` the chart's ``base`` as Helm merges them: maps key by
    key, anything else (a list too) replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: _helm_merge(base.get(k), v) for k, v in over.items()}}
    return over


def test_the_docs_helm_values_pass_the_charts_own_schema() -> None:
    """docs/JUPYTERHUB.md's Helm values against Zero to JupyterHub 4.3.5's values
    schema (docs/helm/, kept with its source and version): every key is one the
    chart knows, the service's port is open both ways, the images pinned, the
    kit's template selected."""
    import jsonschema
    import yaml

    doc = (ROOT / "docs" / "JUPYTERHUB.md").read_text()
    section = doc.split("## Zero to JupyterHub", 1)[1].split("\n## ", 1)[0]
    block = section.split("Helm values (`config.yaml`):", 1)[1].split("```yaml\n", 1)[1]
    values = yaml.safe_load(block.split("```", 1)[0])
    helm = ROOT / "docs" / "helm"
    schema = json.loads((helm / "z2jh-4.3.5-values.schema.json").read_text())
    defaults = yaml.safe_load((helm / "z2jh-4.3.5-values.yaml").read_text())
    # Helm checks the chart's defaults with the given values over them
    jsonschema.validate(_helm_merge(defaults, values), schema)
    with pytest.raises(jsonschema.ValidationError):  # the schema does refuse a wrong key
        wrong = {**values, "hub": {**values["hub"], "servcies": {}}}
        jsonschema.validate(_helm_merge(defaults, wrong), schema)
    port = int(values["hub"]["services"]["rummy-tables"]["url"].rsplit(":", 1)[1])
    assert {"port": port} in values["hub"]["networkPolicy"]["ingress"][0]["ports"]
    assert {"port": port} in values["singleuser"]["networkPolicy"]["egress"][0]["ports"]
    assert {"port": port} in values["proxy"]["chp"]["networkPolicy"]["egress"][0]["ports"]
    for image in (values["hub"]["image"], values["singleuser"]["image"]):
        assert image["tag"] not in ("latest", "") and image["tag"][0].isdigit()
    assert "--VoilaConfiguration.template=rummy" in values["singleuser"]["cmd"]
    assert "--ServerApp.jpserver_extensions=tableserver.hub_relay=True" in values["singleuser"]["cmd"]
    assert "FROM quay.io/jupyterhub/k8s-hub:4.3.5" in section
    assert "pip install --no-cache-dir -e" not in section  # nothing unpinned


def test_the_demo_hub_selects_the_kits_template_and_keeps_its_secrets_private(
        tmp_path: Path) -> None:
    from traitlets.config import Config

    c = Config()
    data = tmp_path / "hub"
    env = {**os.environ, "RUMMY_HUB_DATA": str(data)}
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    read = {"get_config": lambda: c, "__file__": str(ROOT / "jupyterhub_config.py")}
    try:
        exec(compile((ROOT / "jupyterhub_config.py").read_text(), "jupyterhub_config.py",
                     "exec"), read)
    finally:
        os.environ.clear()
        os.environ.update(old)
        if "RUNTIME" in read:  # (the users' short runtime folder, in the temporary folder)
            shutil.rmtree(read["RUNTIME"], ignore_errors=True)
    assert "--VoilaConfiguration.template=rummy" in c.Spawner.args
    assert "--ServerApp.jpserver_extensions=tableserver.hub_relay=True" in c.Spawner.args
    private = Path(c.JupyterHub.cookie_secret_file).parent
    assert private.stat().st_mode & 0o077 == 0  # the hub's folder: its owner's only
    service_data = Path(c.JupyterHub.services[0]["environment"]["RUMMY_DATA"])
    assert service_data.parent == private
    home = Path(c.DemoSpawner.data) / "home" / "ana"  # (tableserver.hub_users.DemoSpawner)
    assert private not in home.parents and private != home
    assert not str(private).startswith(str(ROOT) + os.sep)  # outside the users' root folder
