"""Load and faults for the table service, on the loopback interface only.

20 Big Tables of 12 learners' seats each (no bots: every seat is an API
client) are played at full speed for 60 s by one client thread per table:
each move is a ``GET state`` for a seat with something to do, then a ``POST
act`` with a random legal move.  Printed: moves per second, the median and
p99 latency of ``act``, and the server's memory (resident, and its peak).
Then the server is killed with SIGKILL while the clients are still playing,
started again on the same database, and every move the clients saw
acknowledged is looked for: the number of moves lost must be 0.

    python benchmarks/tables_load.py [--tables 20] [--seats 12] [--seconds 60]

With ``--hub`` the same load goes to the table service as a JupyterHub
service (``make hub`` on free loopback ports, data in a temporary folder):
through the hub's proxy, each seat a hub user of its own
with an API token from the hub's REST API (``POST
/hub/api/users/NAME/tokens``); the service asks the hub who each token is
(cached).  Printed the same way, with the service's memory; the SIGKILL check
is the standalone run's.

    python benchmarks/tables_load.py --hub [--tables 5] [--seats 6] [--seconds 30]

The servers are started as the tests start theirs (``tests/servers.py``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import API, HUB_API, KEY, DemoHub, TableServer  # noqa: E402


def hub_token(port: int, user: str, password: str, teacher: bool = False) -> str:
    """An API token of ``user`` from the hub's REST API (signing in with the password)."""
    scopes = ["access:services!service=rummy-tables"] + (["custom:rummy-teacher"] if teacher
                                                         else [])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", f"/hub/api/users/{user}/tokens", body=json.dumps(
        {"auth": {"username": user, "password": password}, "scopes": scopes,
         "expires_in": 3600, "note": "tables_load"}),
        headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    out = json.loads(r.read())
    assert r.status in (200, 201), out
    return str(out["token"])


class Client:
    """One keep-alive HTTP connection to the API at ``prefix``."""

    def __init__(self, port: int, prefix: str = API) -> None:
        self.port = port
        self.prefix = prefix
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        h = {"Content-Type": "application/json", **(headers or {})}
        if token:
            h["X-Rummy-Token"] = token
        data = None if body is None else json.dumps(body)
        self.conn.request(method, self.prefix + path, body=data, headers=h)
        r = self.conn.getresponse()
        return r.status, json.loads(r.read())


class Load:
    """The client threads of a load, one per table, and what they count: per
    table the latency of each ``act``, the moves acknowledged (200) and the
    stale ones refused (409, another seat got there first); the client errors."""

    def __init__(self, port: int, prefix: str, tables: list[tuple[str, list[Any]]],
                 auth: Any) -> None:
        #: (code, seats) per table; ``auth(seat)`` gives the keyword arguments of a
        #: GET and of a POST for that seat, and the keys it adds to a POST's body
        self.port, self.prefix, self.tables, self.auth = port, prefix, tables, auth
        self.latencies: list[list[float]] = [[] for _ in tables]
        self.acked = [0] * len(tables)
        self.refused = [0] * len(tables)
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.killed = threading.Event()  # after this, a failed connection is the point
        self.threads: list[threading.Thread] = []

    def play(self, k: int) -> None:
        """Seat after seat of table ``k``: its state, then a random legal move."""
        code, seats = self.tables[k]
        rng = random.Random(k)
        client = Client(self.port, self.prefix)
        seat = 0
        try:
            while not self.stop.is_set():
                get, post, body = self.auth(seats[seat])
                seat = (seat + 1) % len(seats)
                status, view = client.call("GET", f"/tables/{code}/state", **get)
                if status != 200 or not view.get("legal_actions"):
                    continue
                action = rng.choice(view["legal_actions"])
                t0 = time.perf_counter()
                status, _ = client.call("POST", f"/tables/{code}/act",
                                        {**body, "action": action, "version": view["version"]},
                                        **post)
                self.latencies[k].append(time.perf_counter() - t0)
                if status == 200:
                    self.acked[k] += 1
                elif status == 409:
                    self.refused[k] += 1
                elif status != 400:
                    self.errors.append(f"{status}")
        except (OSError, http.client.HTTPException, ValueError) as e:
            if not self.killed.is_set():
                self.errors.append(f"table {k}: {e!r}")

    def run(self, seconds: float, pid: int) -> None:
        """Play every table for ``seconds`` and print the figures (the threads go
        on until :meth:`end`)."""
        self.threads = [threading.Thread(target=self.play, args=(k,), daemon=True)
                        for k in range(len(self.tables))]
        t_start = time.perf_counter()
        for t in self.threads:
            t.start()
        time.sleep(seconds)
        elapsed = time.perf_counter() - t_start
        moves = sum(self.acked)
        lat = sorted(x for per in self.latencies for x in per)
        rss, peak = rss_kib(pid)
        print(f"moves applied: {moves} in {elapsed:.1f} s = {moves / elapsed:.0f} moves/s, "
              f"each a GET state and a POST act ({sum(self.refused)} stale moves refused "
              "with 409)")
        print(f"act latency: median {statistics.median(lat) * 1000:.1f} ms, "
              f"p99 {lat[int(0.99 * (len(lat) - 1))] * 1000:.1f} ms over {len(lat)} requests")
        print(f"server memory: {rss / 1024:.0f} MiB resident, peak {peak / 1024:.0f} MiB")

    def end(self) -> None:
        """Stop the threads and wait for them."""
        self.stop.set()
        for t in self.threads:
            t.join(10)


def find_service(hub: DemoHub) -> int:
    """The pid of the hub's table service (it keeps its tables in the hub's data)."""
    want = f"RUMMY_DATA={hub.hub_data / 'private' / 'tables'}".encode()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if want in (proc / "environ").read_bytes().split(b"\0") and \
                        b"tableserver.hub" in (proc / "cmdline").read_bytes():
                    return int(proc.name)
            except OSError:
                continue
    raise RuntimeError("the hub's table service was not found")


def hub_load(args: argparse.Namespace) -> None:
    """The load through the hub's proxy, each seat a hub user with a hub token."""
    users = args.tables * args.seats
    hub = DemoHub(Path(tempfile.mkdtemp(prefix="rummy-hub-load-")), more_learners=users)
    port, password = hub.port, hub.password
    try:
        teacher = {"Authorization": "token " + hub_token(port, "teacher", password, True)}
        setup = Client(port, HUB_API)
        tables: list[tuple[str, list[dict[str, str]]]] = []
        n = 0
        for _ in range(args.tables):
            status, made = setup.call("POST", "/tables", {
                "variant": "big_table", "seats": ["human"] * args.seats, "timeout": None,
                "pause_between_hands": False}, headers=teacher)
            assert status == 201, made
            seats = []
            for _ in range(args.seats):
                n += 1
                who = {"Authorization": "token " + hub_token(port, f"learner{n}", password)}
                status, j = setup.call("POST", f"/tables/{made['code']}/join", {}, headers=who)
                assert status == 200, j
                seats.append(who)
            tables.append((made["code"], seats))
        service = find_service(hub)
        print(f"on the hub: {args.tables} Big Tables x {args.seats} seats ({users} hub users, "
              f"each with a hub API token), {args.seconds:g} s at full speed through the "
              f"hub's proxy, service pid {service}", flush=True)
        load = Load(port, HUB_API, tables, lambda who: ({"headers": who}, {"headers": who}, {}))
        load.run(args.seconds, service)
        load.end()
        if load.errors:
            print(f"client errors: {len(load.errors)} (first: {load.errors[0]})")
    finally:
        hub.stop()


def rss_kib(pid: int) -> tuple[int, int]:
    """Resident memory now and at its peak (KiB)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seats", type=int, default=12)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--hub", action="store_true",
                   help="through a JupyterHub (make hub's configuration) with hub tokens")
    args = p.parse_args()
    if args.hub:
        hub_load(args)
        raise SystemExit(0)  # the other figures are the standalone service's
    data = tempfile.mkdtemp(prefix="rummy-load-")
    server = TableServer(Path(data), quiet=True)
    port = server.port
    setup = Client(port)
    tables: list[tuple[str, list[str]]] = []
    for _ in range(args.tables):
        status, made = setup.call("POST", "/tables", {
            "teacher_key": KEY, "variant": "big_table", "seats": ["human"] * args.seats, "timeout": None,
            "pause_between_hands": False})
        assert status == 201, made
        tokens = []
        for i in range(args.seats):
            status, j = setup.call("POST", f"/tables/{made['code']}/join", {"name": f"L{i}"})
            assert status == 200, j
            tokens.append(j["token"])
        tables.append((made["code"], tokens))
    print(f"{args.tables} Big Tables x {args.seats} seats, {args.seconds:g} s at full speed, "
          f"server pid {server.proc.pid}, database in {data}", flush=True)

    load = Load(port, API, tables, lambda token: ({"token": token}, {}, {"token": token}))
    load.run(args.seconds, server.proc.pid)

    # SIGKILL while the clients are still playing, then count what was kept
    acked = load.acked
    before = list(acked)
    load.killed.set()
    server.kill()
    load.end()
    after_kill = [a - b for a, b in zip(acked, before)]
    server = TableServer(Path(data), quiet=True)
    try:
        db = sqlite3.connect(os.path.join(data, "tables.sqlite3"))
        kept = dict(db.execute("SELECT code, COUNT(*) FROM moves GROUP BY code").fetchall())
        db.close()
        lost = sum(max(0, acked[k] - kept.get(code, 0)) for k, (code, _) in enumerate(tables))
        # and the restarted server has every table back, at its last version
        check = Client(server.port)
        back = 0
        for code, tokens in tables:
            status, view = check.call("GET", f"/tables/{code}/state", token=tokens[0])
            back += status == 200
        print(f"after SIGKILL mid-play ({sum(after_kill)} moves acknowledged in the last "
              f"instant) and a restart: {back}/{len(tables)} tables back, "
              f"{sum(kept.values())} moves kept, {sum(acked)} acknowledged, moves lost: {lost}")
        if load.errors:
            print(f"client errors: {len(load.errors)} (first: {load.errors[0]})")
    finally:
        server.stop()
    if lost:
        sys.exit(1)


def bot_tables(tables: int = 30, seconds: float = 30.0) -> None:
    """``tables`` tables of 12 expert bots at speed 0 (each held to the pace
    floor of tables without a learner), and one learner polling another
    table's state every 20 ms: the latency of those unrelated requests."""
    server = TableServer(Path(tempfile.mkdtemp(prefix="rummy-bots-")), quiet=True)
    try:
        c = Client(server.port)
        _, mine = c.call("POST", "/tables", {"teacher_key": KEY, "variant": "gin_three",
                                             "seats": ["human", "greedy", "greedy"]})
        _, me = c.call("POST", f"/tables/{mine['code']}/join", {"name": "Ana"})
        for _ in range(tables):
            status, made = c.call("POST", "/tables", {"teacher_key": KEY, "variant": "big_table",
                                                      "seats": ["expert"] * 12, "speed": 0})
            assert status == 201, made
        times = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.perf_counter()
            status, _ = c.call("GET", f"/tables/{mine['code']}/state", token=me["token"])
            times.append(time.perf_counter() - t)
            assert status == 200
            time.sleep(0.02)
        times.sort()
        p99 = times[int(0.99 * (len(times) - 1))]
        print(f"{tables} tables of 12 expert bots at speed 0: {len(times)} GET state of another "
              f"table, median {statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
              f"max {times[-1] * 1000:.1f} ms")
    finally:
        server.stop()


def restart_finished(copies: int = 100) -> None:
    """A restart with ``copies`` finished tables of 12 bots: from their
    snapshots, and (as before) replaying every move."""
    from tableserver import Store, TableService

    data = Path(tempfile.mkdtemp(prefix="rummy-restart-"))
    path = data / "tables.sqlite3"
    svc = TableService(Store(path), teacher_key=KEY, bot_pace=0)
    code = svc.create("big_table", ["greedy"] * 12, teacher_key=KEY, speed=0,
                      pause_between_hands=False)["code"]
    svc.tick(1_000_000)
    moves = svc.tables[code].moves
    svc.store.close()
    db = sqlite3.connect(path)
    row = db.execute("SELECT meta, created, snapshot, snapshot_moves FROM tables").fetchone()
    kept = db.execute("SELECT n, seat, action, t FROM moves").fetchall()
    for i in range(1, copies):
        other = f"{code[:-4]}{i:04d}"
        db.execute("INSERT INTO tables (code, meta, created, snapshot, snapshot_moves) "
                   "VALUES (?, ?, ?, ?, ?)", (other, *row))
        db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                       [(other, *m) for m in kept])
    db.commit()
    db.close()
    for label in ("from snapshots", "replaying every move (no snapshots)"):
        if label.startswith("replaying"):
            with sqlite3.connect(path) as db:
                db.execute("UPDATE tables SET snapshot = NULL, snapshot_moves = 0")
        times = []
        for _ in range(3):
            t = time.perf_counter()
            again = TableService(Store(path), teacher_key=KEY)
            times.append(time.perf_counter() - t)
            assert len(again.tables) == copies
            again.store.close()
        print(f"restart with {copies} finished 12-bot tables ({moves} moves each), {label}: "
              f"median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    if "--bots-only" not in sys.argv:
        main()
    bot_tables()
    restart_finished()
