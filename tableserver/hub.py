"""The table service as a JupyterHub service: learners known by their hub login.

On a hub (a school's JupyterHub, or ``make hub``), the hub starts this
process (``c.JupyterHub.services``) and its proxy serves it at
``/services/rummy-tables/``; the API is the one of :mod:`tableserver.web`,
under ``/services/rummy-tables/rummy/api/``, with the same core and the same
handlers.  Only who is asking changes:

- every request is a hub user's: their kernel's ``JUPYTERHUB_API_TOKEN``
  (``Authorization: token ...``) or, in a browser, the cookie of the hub's
  OAuth (a page's POST also carries the hub's XSRF token).  Nothing else gets
  in: no seat token and no teacher key is ever asked for or answered;
- a learner's seat is theirs wherever they open it: its secret is derived
  from the table's code and their hub name with the service's secret
  (:func:`hub_secret`), so joining again returns to the same seat, a request
  can act only for its own user's seat, and a restarted service knows them;
- teachers are the hub users whose token holds :data:`TEACHER_SCOPE` (the
  hub gives it to a ``teachers`` group through a role): only they make and
  run tables, and they see each table as the teacher does with the key;
- the record of learning: each learner's server sends the events its
  kernels kept (``POST .../progress/events``, :mod:`tableserver.hub_progress`),
  kept here under the sender's hub name for the teacher's class grid
  (:mod:`tableserver.progress_api`).

    python -m tableserver.hub      # started by the hub, which sets JUPYTERHUB_*

>>> seat_token(b"0" * 32, "k7qm-x4p9-rt2h", "ana") == seat_token(b"0" * 32, "K7QMX4P9RT2H", "ana")
True
>>> seat_token(b"0" * 32, "K7QM-X4P9-RT2H", "ana") == seat_token(b"0" * 32, "K7QM-X4P9-RT2H", "ben")
False
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import os
import secrets
import signal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tornado import httputil, web
from tornado.httpserver import HTTPServer

from tableserver import web as api
from tableserver.core import (
    MAX_NAME,
    Forbidden,
    ServiceError,
    TableService,
    normal_code,
    service_options,
)
from tableserver.store import Store, data_dir, default_path

__all__ = ["SERVICE_NAME", "TEACHER_SCOPE", "Identity", "seat_token", "hub_secret",
           "hub_handlers", "make_hub_app", "main"]

log = logging.getLogger("tableserver")

#: The service's name on the hub: its address is ``/services/rummy-tables/``.
SERVICE_NAME = "rummy-tables"
#: The hub scope that makes a user a teacher (a custom scope, given by a role).
TEACHER_SCOPE = "custom:rummy-teacher"
#: The file in the data folder that keeps the service's secret.
SECRET_FILE = "hub-secret"


def hub_secret(folder: Path | None = None, env: dict[str, str] | None = None) -> bytes:
    """The service's secret (32 random bytes): ``$RUMMY_HUB_SECRET`` (hex), else
    the ``hub-secret`` file of the data folder, made once (mode 0600).  It
    derives every seat's secret and signs the OAuth cookie, so it is the
    same after a restart; whoever reads it could act for any learner."""
    env = dict(os.environ) if env is None else env
    given = env.get("RUMMY_HUB_SECRET")
    if given:
        try:
            raw = bytes.fromhex(given)
        except ValueError:
            raw = b""
        if len(raw) < 32:
            raise SystemExit("RUMMY_HUB_SECRET must be at least 32 bytes written in hex "
                             "(64 characters, e.g. from `openssl rand -hex 32`)")
        return raw
    path = (folder or data_dir()) / SECRET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raw = bytes.fromhex(path.read_text().strip())
        if len(raw) < 32:
            raise SystemExit(f"{path} is not a secret of 32 bytes in hex: remove it and "
                             "restart (learners then join their tables again)") from None
        return raw
    raw = secrets.token_bytes(32)
    with os.fdopen(fd, "w") as f:
        f.write(raw.hex())
        f.flush()
        os.fsync(f.fileno())
    return raw


def seat_token(secret: bytes, code: str, user: str) -> str:
    """The secret of ``user``'s seat at table ``code`` (43 characters): the
    same wherever and whenever they open the table, different for every
    user and table, and of no use without the service's secret."""
    mac = hmac.new(secret, f"seat\0{normal_code(code)}\0{user}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


class Identity:
    """Maps a hub user (the model the hub answers for their token) to a seat
    of a table and to the teacher's rights."""

    def __init__(self, service: TableService, secret: bytes) -> None:
        self.service = service
        self.secret = secret

    @staticmethod
    def is_teacher(user: dict[str, Any]) -> bool:
        """Whether the hub gave this user (this request's token) the teacher scope."""
        return TEACHER_SCOPE in (user.get("scopes") or ())

    def seat(self, code: str, user: dict[str, Any]) -> str:
        """The secret of the user's seat at ``code`` (whether or not they sat down)."""
        return seat_token(self.secret, code, str(user["name"]))

    def seated(self, code: str, user: dict[str, Any]) -> bool:
        """Whether the user holds a seat at table ``code``."""
        try:
            self.service.version(code, self.seat(code, user))
        except Forbidden:
            return False
        except ServiceError:
            return True  # no such table: the service says so with the seat's secret
        return True

    def token(self, code: str, user: dict[str, Any]) -> str | None:
        """What the service's calls for a seat get: the user's seat, else for a
        teacher the teacher's view; None for a learner without a seat."""
        if self.seated(code, user):
            return self.seat(code, user)
        if self.is_teacher(user):
            return self.service.teacher_key
        return None

    def teacher_key(self, user: dict[str, Any]) -> str | None:
        """The teacher key for a teacher, None for anybody else."""
        return self.service.teacher_key if self.is_teacher(user) else None

    def join(self, code: str, user: dict[str, Any]) -> dict[str, Any]:
        """Sit the user at table ``code`` under their hub name, or return them
        to the seat they hold.  The answer names the seat; its secret stays here."""
        secret = self.seat(code, user)
        if self.seated(code, user):
            view = self.service.state(code, secret)
            seat = int(view["player"])
            return {"code": view["code"], "seat": seat, "token": "", "returned": True,
                    "name": view["table"]["seats"][seat]["name"]}
        out = self.service.join(code, display_name(str(user["name"])), token=secret)
        out["token"] = ""
        out["returned"] = False
        return out


def display_name(user: str) -> str:
    """The name a hub user sits down under (a table's names are short).

    >>> display_name("ana"), display_name("a.very.long.name@school.example.org")
    ('ana', 'a.very.long.name@school.')
    """
    return user[:MAX_NAME]


def hub_handlers(prefix: str, service: TableService, hub: api.Hub,
                 identity: Identity) -> list[tuple[str, Any, Any]]:
    """The API's routes under the service's ``prefix`` with the hub's identity,
    the home page and the OAuth callback."""
    from tableserver.hub_web import hub_handlers as routes

    return routes(prefix, service, hub, identity)


def make_hub_app(service: TableService, prefix: str, secret: bytes) -> web.Application:
    """The service's tornado application: the API with the hub's identity."""
    from tableserver.hub_web import make_hub_app as make

    return make(service, prefix, secret)


class _Starting(httputil.HTTPServerConnectionDelegate):
    """The server's requests go to ``app``: at first a page saying the service
    is starting (503), then the service's own application."""

    def __init__(self, app: web.Application) -> None:
        self.app = app

    def start_request(self, server_conn: object,
                      request_conn: httputil.HTTPConnection) -> httputil.HTTPMessageDelegate:
        return self.app.start_request(server_conn, request_conn)

    def on_close(self, server_conn: object) -> None:
        self.app.on_close(server_conn)


class _StartingHandler(web.RequestHandler):
    """While the service loads: 503 for the API; for its home page, which the hub
    asks for to know it is up (any answer but a 5xx, for at most about ten
    seconds, else the hub stops), a page that reloads itself in a moment."""

    def initialize(self, prefix: str = "/") -> None:
        self.prefix = "/" + prefix.strip("/")

    def prepare(self) -> None:
        if self.request.method in ("GET", "HEAD") and \
                self.request.path.rstrip("/") == self.prefix.rstrip("/"):
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.set_header("Refresh", "2")
            self.finish("<!doctype html><title>Rummy tables</title><p>The table service is "
                        "starting: this page reloads in a moment.</p>")
            return
        self.set_status(503)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Retry-After", "2")
        self.finish('{"error": "the table service is starting: try again in a moment"}')


def main(argv: list[str] | None = None) -> None:
    """Serve the table service where the hub says (``JUPYTERHUB_SERVICE_URL``,
    ``JUPYTERHUB_SERVICE_PREFIX``), until the hub stops it."""
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s %(name)s] %(message)s")
    url = os.environ.get("JUPYTERHUB_SERVICE_URL")
    if not url or not os.environ.get("JUPYTERHUB_API_TOKEN"):
        raise SystemExit("python -m tableserver.hub is started by JupyterHub "
                         "(c.JupyterHub.services, see docs/JUPYTERHUB.md); on its own, "
                         "run `python -m tableserver` or `make app`")
    where = urlsplit(url)
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", f"/services/{SERVICE_NAME}/")
    ip, port = where.hostname or "127.0.0.1", where.port or 80

    async def serve() -> None:
        # The hub gives a service it starts about ten seconds to answer: listen at once
        # (503 while starting), then load JupyterHub's client (seconds on a busy machine).
        # Behind the hub's proxy, the scheme and host a browser used are in X-Forwarded-*.
        front = _Starting(web.Application([(r".*", _StartingHandler, {"prefix": prefix})]))
        server = HTTPServer(front, xheaders=True, max_body_size=1024 * 1024)
        server.listen(port, ip)
        store = Store(default_path())
        secret = hub_secret(store.path.parent)
        service = TableService(store, **service_options())
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, __import__, "tableserver.hub_web")
        front.app = make_hub_app(service, prefix, secret)
        print(f"Rummy table service for the hub on {url}{prefix} (database {store.path})",
              flush=True)
        api.scrub_logs()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        server.stop()
        service.stop_bots()
        store.close()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
