"""Test servers: the one way the tests and benchmarks start a server.

Every server is a process of its own on a free loopback port
(:func:`free_port`), in a session of its own, with everything it prints kept
in a log file (:meth:`Server.log`); it is waited for until it answers, and
stopped (SIGTERM, then SIGKILL) or killed as a whole process group.  On top
of :class:`Server`:

- :class:`TableServer`: ``python -m tableserver``, the table API alone, with
  a data folder of its own and the tests' teacher key (:data:`KEY`);
- :class:`HubService`: ``python -m tableserver.hub`` as a JupyterHub starts
  it, asking a stand-in for the hub's REST API (:func:`fake_hub_api`) who a
  token is;
- :class:`DemoHub`: ``make hub``, a whole JupyterHub with the table service;
- the Voilà, Jupyter server and JupyterLab of the browser tests
  (``tests/browser/harness.py``: ``start_voila`` ...).

:func:`local_service` is the table service in this process, with deals that
are the same on every run.  Nothing here reads or writes the user's own
folders: every server gets the data folder it is given.  This is a helper
module, not a test module: tests and benchmarks import it.

>>> KEY in TEACHER.values(), 1024 <= free_port() < 65536
(True, True)
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tableserver import Store, TableService

ROOT = Path(__file__).resolve().parents[1]
#: Where the table API lives on a server.
API = "/rummy/api"
#: The teacher key of the tests' services (RUMMY_TEACHER_KEY of the servers they start).
KEY = "teacher-key-of-the-tests-0123456789"
#: The headers of a JSON request, and of a teacher's.
JSON = {"Content-Type": "application/json"}
TEACHER = {**JSON, "X-Rummy-Teacher-Key": KEY}
#: Where the table service is on a hub, under the hub's proxy.
HUB_PREFIX = "/services/rummy-tables/"
HUB_API = HUB_PREFIX + "rummy/api"
#: The hub scope that lets a user use the table service.
HUB_ACCESS = "access:services!service=rummy-tables"

#: Every server started in this process, so that a failed test's report can
#: show what the servers it used printed (see tests/browser/conftest.py).
STARTED: list[Server] = []


def free_port() -> int:
    """A TCP port nobody listens on right now (on the loopback interface)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call_json(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None,
              raw: bytes | None = None, context: ssl.SSLContext | None = None
              ) -> tuple[int, Any]:
    """One JSON request: (status, the answer's JSON); an error status answers
    its JSON body too.  A body is
    sent as JSON (``raw``: as these bytes) with ``Content-Type: application/json``
    unless ``headers`` are given."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    if headers is None:
        headers = dict(JSON) if data is not None else {}
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30, context=context) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def call_announcing(method: str, url: str, length: int, headers: dict[str, str]
                    ) -> tuple[int, Any]:
    """A request that announces a body of ``length`` bytes (``Content-Length``)
    but sends none: (status, the answer's JSON).  A server that refuses a body
    too large from its headers alone answers at once; sending the body as
    well would race its closing of the connection (a broken pipe, not an
    answer, when the body is bigger than the socket's buffers)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest(method, parts.path + (f"?{parts.query}" if parts.query else ""))
        for name, value in {**headers, "Content-Length": str(length)}.items():
            conn.putheader(name, value)
        conn.endheaders()
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()


def http_ready(url: str, context: ssl.SSLContext | None = None,
               ok: Callable[[int], bool] = lambda status: status < 400) -> Callable[[], bool]:
    """A readiness check: ``url`` answers with a status ``ok`` takes (by
    default a success; ``context`` checks an HTTPS server's certificate)."""
    def ready() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as r:
                return ok(r.status)
        except urllib.error.HTTPError as e:
            return ok(e.code)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False
    return ready


def port_ready(port: int) -> Callable[[], bool]:
    """A readiness check: something accepts connections on ``port``."""
    def ready() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False
    return ready


class Server:
    """A server process (``argv`` in ``cwd`` with ``env``) on ``port`` at
    ``base``, its output kept in ``log_path`` (a new temporary file unless
    given).  Ready when ``ready`` says so (by default: ``base`` +
    ``ready_path`` answers with a success status; ``context`` checks an
    HTTPS server's certificate), within ``timeout`` seconds; else it is
    stopped and :class:`RuntimeError` shows the end of its log."""

    #: seconds :meth:`stop` gives the server after SIGTERM before SIGKILL
    STOP_WAIT = 15.0

    def __init__(self, argv: Sequence[str], port: int, cwd: Path, env: dict[str, str],
                 base: str, ready_path: str = "", context: ssl.SSLContext | None = None, *,
                 ready: Callable[[], bool] | None = None, log_path: Path | None = None,
                 timeout: float = 90.0, poll: float = 0.2) -> None:
        self.port = port
        self.base = base
        self.log_path = log_path or Path(tempfile.mkstemp(prefix="rummy-server-",
                                                          suffix=".log")[1])
        self._log = self.log_path.open("wb")
        STARTED.append(self)
        self.proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        check = ready or http_ready(base.rstrip("/") + "/" + ready_path, context)
        deadline = time.monotonic() + timeout
        try:
            while not check():
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server stopped with code {self.proc.returncode}")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{base} was not ready within {timeout:.0f} s")
                time.sleep(poll)
        except Exception as exc:
            self.stop()
            raise RuntimeError(f"{list(argv)[1:4]} did not start: {exc}\n"
                               + self.log()[-3000:]) from exc

    def log(self) -> str:
        """Everything the server (and what it started) printed so far."""
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL to its process group: no clean shutdown, nothing flushed at exit."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self._log.close()

    def stop(self) -> None:
        """Stop the server and what it started (its own process group only)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(self.STOP_WAIT)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def python_env(**extra: str) -> dict[str, str]:
    """This environment for a Python server of the kit: the repository first
    on its path, its output unbuffered, and ``extra``."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **extra}


class TableServer(Server):
    """``python -m tableserver`` on a free loopback port, tables in ``data``,
    teacher key :data:`KEY` (``extra_env``: more of its environment); its log
    is ``data/server-PORT.log``."""

    def __init__(self, data: Path, extra_env: dict[str, str] | None = None, *,
                 quiet: bool = False) -> None:
        self.data = data
        self.extra_env = extra_env
        port = free_port()
        env = python_env(RUMMY_TEACHER_KEY=KEY, **(extra_env or {}))
        argv = [sys.executable, "-m", "tableserver", "--port", str(port), "--data", str(data),
                *(["--quiet"] if quiet else [])]
        super().__init__(argv, port, ROOT, env, f"http://127.0.0.1:{port}/", timeout=30,
                         ready=port_ready(port), log_path=data / f"server-{port}.log",
                         poll=0.05)

    @property
    def api(self) -> str:
        """The API's address, as a kernel is told it (``RUMMY_API``)."""
        return f"http://127.0.0.1:{self.port}{API}"

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None, raw: bytes | None = None
             ) -> tuple[int, Any]:
        """A request to the API (``path`` after ``/rummy/api``): (status, JSON)."""
        return call_json(method, self.api + path, body, headers, raw)

    def call_announcing(self, method: str, path: str, length: int,
                        headers: dict[str, str]) -> tuple[int, Any]:
        """A request to the API announcing a body of ``length`` bytes and
        sending none (:func:`call_announcing`)."""
        return call_announcing(method, self.api + path, length, headers)

    def restart(self) -> TableServer:
        """Kill it (SIGKILL) and start another on the same data folder."""
        self.kill()
        return TableServer(self.data, self.extra_env)


class HubService(Server):
    """``python -m tableserver.hub`` as the hub starts it, its data in
    ``data``, asking the hub's REST API at ``hub_port`` (:func:`fake_hub_api`)
    who a token is; ``users`` maps each token to the user model the hub
    answers for it."""

    #: the service's own hub token (JUPYTERHUB_API_TOKEN)
    TOKEN = "the-service-s-own-hub-token-0123456789"

    def __init__(self, data: Path, hub_port: int, users: dict[str, dict[str, Any]]) -> None:
        self.data, self.hub_port, self.users = data, hub_port, users
        port = free_port()
        env = python_env(RUMMY_DATA=str(data), RUMMY_BOT_PACE="0",
                         JUPYTERHUB_SERVICE_NAME="rummy-tables",
                         JUPYTERHUB_SERVICE_URL=f"http://127.0.0.1:{port}",
                         JUPYTERHUB_SERVICE_PREFIX=HUB_PREFIX,
                         JUPYTERHUB_API_URL=f"http://127.0.0.1:{hub_port}/hub/api",
                         JUPYTERHUB_API_TOKEN=self.TOKEN,
                         JUPYTERHUB_CLIENT_ID="service-rummy-tables",
                         JUPYTERHUB_OAUTH_ACCESS_SCOPES=json.dumps([HUB_ACCESS,
                                                                    "access:services"]))
        env.pop("RUMMY_TEACHER_KEY", None)
        # ready once it answers the API (503 while it loads JupyterHub's client)
        super().__init__([sys.executable, "-m", "tableserver.hub"], port, ROOT, env,
                         f"http://127.0.0.1:{port}{HUB_PREFIX}", timeout=30,
                         ready=http_ready(f"http://127.0.0.1:{port}{HUB_API}/nothing",
                                          ok=lambda status: status != 503),
                         log_path=data / f"hub-service-{port}.log", poll=0.05)

    @property
    def api(self) -> str:
        """The API's address on the service."""
        return f"http://127.0.0.1:{self.port}{HUB_API}"

    def call(self, method: str, path: str, body: Any = None, user: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """A request to the API as hub user ``user`` (their token; None: no token)."""
        h = dict(JSON) if body is not None else {}
        if user is not None:
            token = next(t for t, u in self.users.items() if u["name"] == user)
            h["Authorization"] = f"token {token}"
        h.update(headers or {})
        return call_json(method, self.api + path, body, h)


class DemoHub(Server):
    """``make hub`` (JupyterHub with the kit's demo configuration, the table
    service as its service) on free loopback ports, with a password of its
    own and ``more_learners`` learners beyond ana, ben and cleo; its log in
    ``data/hub.log``.  The hub's data (its database, the tables, each user's
    home) is in :attr:`hub_data`, a new folder of the temporary folder that
    every user may pass through (as root, the hub runs each user's server as
    a system user of their own, who could not reach a folder under pytest's
    own, mode 0700).  Up once its proxy routes the table service (which asks
    a browser that has not signed in to do so: 401)."""

    STOP_WAIT = 30.0

    def __init__(self, data: Path, more_learners: int = 0) -> None:
        self.data = data
        self.hub_data = Path(tempfile.mkdtemp(prefix="rummy-hub-data-")).resolve()
        self.hub_data.chmod(0o711)
        (self.hub_data / "home").mkdir(mode=0o711)
        (self.hub_data / "home").chmod(0o711)
        from tableserver.hub_users import kit_paths, startup_warning

        said = startup_warning(self.hub_data / "private", kit_paths(ROOT), self.hub_data)
        if os.geteuid() == 0 and said:  # as root, its users' servers could not start at all
            shutil.rmtree(self.hub_data)
            raise RuntimeError(f"make hub as root: {said}; e.g. `rm -rf .venv && make venv "
                               "PYTHON=/usr/bin/python3` gives .venv a Python every user may run")
        self.password = secrets.token_urlsafe(12)
        self.api_port = free_port()
        port = free_port()
        env = {**os.environ, "RUMMY_HUB_PASSWORD": self.password, "RUMMY_BOT_PACE": "0",
               "RUMMY_HUB_API_PORT": str(self.api_port),
               "RUMMY_HUB_PROXY_API_PORT": str(free_port()),
               "RUMMY_HUB_SERVICE_PORT": str(free_port()),
               "RUMMY_HUB_MORE_LEARNERS": str(more_learners)}
        base = f"http://127.0.0.1:{port}"
        super().__init__(["make", "--no-print-directory", "hub", f"HUB_PORT={port}",
                          f"HUB_DATA={self.hub_data}"], port, ROOT, env, base,
                         ready=http_ready(base + HUB_API + "/tables", ok=lambda s: s == 401),
                         log_path=data / "hub.log", timeout=180.0, poll=0.25)

    def stop(self) -> None:
        """Stop the hub, then what it started in sessions of their own (the
        service, the proxy, users' servers) and did not stop, e.g. after a
        failed start: found by this hub's folders; then remove the system
        users it made and its data."""
        super().stop()
        # the users' servers' runtime folder (jupyterhub_config.py's RUNTIME)
        digest = hashlib.sha256(str(self.hub_data).encode()).hexdigest()[:10]
        shutil.rmtree(Path(tempfile.gettempdir()) / f"rummy-hub-{digest}", ignore_errors=True)
        mine = (str(self.data).encode(), str(self.hub_data).encode())
        for proc in Path("/proc").iterdir():
            with contextlib.suppress(OSError, ValueError):
                if proc.name.isdigit() and any(m in (proc / "environ").read_bytes()
                                               or m in (proc / "cmdline").read_bytes()
                                               for m in mine):
                    os.kill(int(proc.name), signal.SIGKILL)
        if os.geteuid() == 0:
            from tableserver.hub_users import remove_system_users

            for _ in range(50):  # (a killed process of theirs may take a moment to go)
                try:
                    remove_system_users(self.hub_data)
                    break
                except RuntimeError:
                    time.sleep(0.1)
            else:
                remove_system_users(self.hub_data)
        shutil.rmtree(self.hub_data, ignore_errors=True)


def create_table(api: str, body: dict[str, Any]) -> dict[str, Any]:
    """A new table made by the teacher (:data:`KEY`) through the API at ``api``."""
    status, made = call_json("POST", api + "/tables", body, TEACHER)
    assert status == 201, made
    return dict(made)


def new_table(s: TableServer, variant: str = "big_table", seats: list[str] | None = None,
              names: tuple[str, ...] = ("Ana", "Ben", "Cleo"), **kw: Any
              ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A new table at ``s`` (three learners' seats unless ``seats`` says
    otherwise, ``kw`` its settings), joined by ``names`` in turn: (what
    making it answered, what each join answered)."""
    seats = seats or ["human", "human", "human"]
    made = create_table(s.api, {"variant": variant, "seats": seats, **kw})
    joined = []
    for name in names[:seats.count("human")]:
        status, j = s.call("POST", f"/tables/{made['code']}/join", {"name": name})
        assert status == 200, j
        joined.append(j)
    return made, joined


@contextlib.contextmanager
def fake_hub_api(users: dict[str, dict[str, Any]]) -> Iterator[int]:
    """A stand-in for the hub's REST API on a free loopback port (yielded):
    ``GET /hub/api/user`` answers the user model of the request's token
    (``users``), as JupyterHub does; anything else is refused."""

    class FakeHubAPI(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            auth = self.headers.get("Authorization", "")
            token = auth.split(" ", 1)[1] if " " in auth else ""
            user = users.get(token)
            if self.path.rstrip("/") != "/hub/api/user" or user is None:
                self.send_response(403 if user is None else 404)
                self.end_headers()
                self.wfile.write(b'{"status": 403, "message": "not allowed"}')
                return
            body = json.dumps({"kind": "user", "groups": [], "admin": False, **user}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeHubAPI)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(httpd.server_address[1])
    finally:
        httpd.shutdown()
        httpd.server_close()


# -- the service in this process ----------------------------------------------------------------
class Clock:
    """A clock the test moves by hand (``clock.t += 5``)."""

    def __init__(self) -> None:
        self.t = 1_000.0

    def __call__(self) -> float:
        return self.t


def local_service(folder: Path, clock: Clock | None = None, **kw: Any) -> TableService:
    """A :class:`tableserver.TableService` in this process, tables in
    ``folder``, teacher key :data:`KEY`, clock ``clock`` (a fresh
    :class:`Clock` unless given); its deals are the same on every run (seeds
    drawn from the folder's name: a server's come from ``secrets``, so a test
    of it would deal differently each time)."""
    rng = random.Random(folder.name)
    kw.setdefault("seeds", lambda: rng.getrandbits(128))
    return TableService(Store(folder / "tables.sqlite3"), clock=clock or Clock(),
                        teacher_key=KEY, **kw)
