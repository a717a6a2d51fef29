"""The table service on the web: JSON under ``/rummy/api/`` (tornado).

The same handlers are served three ways, always on the origin of the apps:

- as a Jupyter server extension (``jupyter server`` with
  ``--ServerApp.jpserver_extensions="{'tableserver': True}"``, as on Binder);
- inside the Voilà server that ``make app`` starts (:mod:`tableserver.voila_app`:
  Voilà 0.5 on its own loads no server extension, and only on its own keeps
  kernels ready for the apps);
- alone, ``python -m tableserver --port 8870`` (tests and benchmarks).

Endpoints (see ``docs/API.md``)::

    POST /rummy/api/tables                   {"teacher_key", "variant", "seats", ...}
    GET  /rummy/api/tables                   the teacher's tables (X-Rummy-Teacher-Key)
    GET  /rummy/api/tables/CODE              the teacher's view of a table (X-Rummy-Teacher-Key)
    POST /rummy/api/tables/CODE/join         {"name"}
    GET  /rummy/api/tables/CODE/state        (X-Rummy-Token)
    GET  /rummy/api/tables/CODE/wait?version=&timeout=   (long poll; X-Rummy-Token)
    POST /rummy/api/tables/CODE/act          {"token", "action", "version"}
    POST /rummy/api/tables/CODE/beat         {"token", "kernel"}: the page's heartbeat
    POST /rummy/api/tables/CODE/next         {"teacher_key"}
    POST /rummy/api/tables/CODE/remove       {"teacher_key", "seat"}
    POST /rummy/api/tables/CODE/lock         {"teacher_key", "locked"}
    POST /rummy/api/tables/CODE/turn_away    {"teacher_key", "name"}
    POST /rummy/api/tables/CODE/close        {"teacher_key"}
    GET  /rummy/api/progress[?format=csv]    the class grid of every table (X-Rummy-Teacher-Key)
    GET  /rummy/api/tables/CODE/progress[?format=csv]   one table's grid (X-Rummy-Teacher-Key)
    GET  /rummy/api/tables/CODE/progress/me  a learner's own rows (X-Rummy-Token)
    POST /rummy/api/progress/events          {"events": [...]}: on a JupyterHub only, a
                                             learner's server sends the events it kept
    POST /rummy/api/progress/import          {"record", "code"}: a learner's saved record
                                             into the class grid (X-Rummy-Teacher-Key)

The progress endpoints are :mod:`tableserver.progress_api`; every handler
builds on :class:`tableserver.handler.ApiHandler`.

Every POST is ``Content-Type: application/json``; a request that names
another origin (``Origin``, ``Sec-Fetch-Site``) is refused, and no CORS
header is ever sent, so a page elsewhere can't make a teacher's or a
learner's browser act.  Errors answer ``{"error": "..."}`` (and ``"state"``
with a 409).  No token ever reaches the log (:class:`ScrubTokens`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tornado import web
from tornado.ioloop import IOLoop, PeriodicCallback

from tableserver import progress_api
from tableserver.errors import BadRequest, ServiceError
from tableserver.handler import CODE, ApiHandler, Hub, PostHandler
from tableserver.presence import BEAT_AWAY, PAGE_GRACE
from tableserver.service import TableService, service_options
from tableserver.tables import normal_code

__all__ = ["API", "MAX_WAIT", "ScrubTokens", "scrub", "scrub_logs", "TABLE_SETTINGS",
           "table_settings", "handlers", "setup", "start", "make_app", "api_url", "page_grace",
           "end_dead_pages",
           "_load_jupyter_server_extension", "_jupyter_server_extension_points"]

log = logging.getLogger("tableserver")

#: Where the API lives, under the server's base URL.
API = "rummy/api"
#: The longest a long poll waits (seconds).
MAX_WAIT = 60.0

#: ``key=value`` pairs whose value is a secret, and any long run of the
#: characters a token is made of with a digit, a capital and a small letter
#: in it (a ``secrets.token_urlsafe`` value; kernel ids are small hex).
_SECRET_PAIR = re.compile(r"(?i)\b((?:[a-z_]*token|watch|admin|key|teacher_key|password)=)"
                          r"[^&\s\"']+")
_TOKENISH = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Z])"
                       r"(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")


def scrub(text: str) -> str:
    """``text`` with every token-looking value replaced by ``[hidden]``.

    >>> scrub("GET /voila/render/x.ipynb?table=K7QM&token=xb-Y2PM-OvnA85i87bmS3NrYYxu7hcru")
    'GET /voila/render/x.ipynb?table=K7QM&token=[hidden]'
    >>> scrub("seat 3 of 1DUOxIGnx9UlAghENKogzzHLXOiX2Fjp, kernel 6f1c0e7a-2b3d-4c5e-8f90-1a2b3c4d5e6f")
    'seat 3 of [hidden], kernel 6f1c0e7a-2b3d-4c5e-8f90-1a2b3c4d5e6f'
    """
    return _TOKENISH.sub("[hidden]", _SECRET_PAIR.sub(r"\1[hidden]", text))


class ScrubTokens(logging.Filter):
    """A logging filter that hides token-looking values in every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken record is logged as it is
            return True
        clean = scrub(text)
        if clean != text:
            record.msg, record.args = clean, None
        return True


_SCRUBBER = ScrubTokens()


def scrub_logs(*loggers: logging.Logger) -> None:
    """Hide tokens in what these loggers, tornado's and the root's handlers
    write (a page's address may carry one in its query)."""
    names = ("tornado.access", "tornado.application", "tornado.general", "tableserver")
    for logger in (*loggers, *(logging.getLogger(n) for n in names), logging.getLogger()):
        if _SCRUBBER not in logger.filters:
            logger.addFilter(_SCRUBBER)
        for handler in logger.handlers:
            if _SCRUBBER not in handler.filters:
                handler.addFilter(_SCRUBBER)


#: What a new table's body may set besides its variant, seats and options.
TABLE_SETTINGS = ("timeout", "speed", "pause_between_hands", "stand_in", "hints", "pin", "pace")


def table_settings(body: dict[str, Any]) -> dict[str, Any]:
    """The settings of a new table's body; an unknown key is a 400 that names
    every key a table takes."""
    extra = {k: body[k] for k in TABLE_SETTINGS if k in body}
    unknown = set(body) - {"variant", "seats", "options", "teacher_key", *extra}
    if unknown:
        raise BadRequest(f"unknown keys {sorted(unknown)}: a table takes teacher_key, variant, "
                         f"seats, options, {', '.join(TABLE_SETTINGS)}")
    return extra


class TablesHandler(PostHandler):
    async def post(self) -> None:
        def create() -> dict[str, Any]:
            d = self.json_body()
            key = self.teacher_key(d)
            extra = table_settings(d)
            return self.service.create(d.get("variant"), d.get("seats"), d.get("options"),
                                       teacher_key=key, client=self.request.remote_ip or "",
                                       **extra)
        await self.run(create, status=201)

    async def get(self) -> None:
        await self.run(lambda: self.service.list_tables(self.teacher_key()))


class AdminHandler(ApiHandler):
    async def get(self, code: str) -> None:
        await self.run(self.service.admin, code, self.teacher_key())


#: The cookie that tells one browser from another at the tables (HttpOnly,
#: SameSite=Strict): one browser sits once at a table.
BROWSER_COOKIE = "rummy_browser"


class JoinHandler(PostHandler):
    async def post(self, code: str) -> None:
        browser = self.browser()

        def join() -> dict[str, Any]:
            d = self.json_body()
            return self.service.join(code, d.get("name"), pin=d.get("pin"), browser=browser,
                                     request_id=d.get("request_id"))
        await self.run(join)

    def browser(self) -> str:
        """This browser's id: its cookie (set here when it has none), or the
        ``X-Rummy-Browser`` header a page's kernel sends for its browser."""
        given = self.request.headers.get("X-Rummy-Browser") or self.get_cookie(BROWSER_COOKIE)
        if given and 16 <= len(given) <= 128:
            return given
        made = secrets.token_urlsafe(24)
        self.set_cookie(BROWSER_COOKIE, made, httponly=True, samesite="Strict",
                        secure=self.request.protocol == "https", expires_days=1)
        return made


class StateHandler(ApiHandler):
    async def get(self, code: str) -> None:
        await self.run(self.service.state, code, self.token())


class WaitHandler(ApiHandler):
    _gone = False
    _waiting: asyncio.Future[None] | None = None

    def on_connection_close(self) -> None:
        """The page cut its poll off: this poll ends (no other is woken)."""
        self._gone = True
        f = self._waiting
        if f is not None and not f.done():
            f.set_result(None)

    async def get(self, code: str) -> None:
        """Answer the state as soon as the table's version is past ``version``
        (at once if it already is), or after ``timeout`` seconds (at most 60)."""
        token = self.token()
        try:
            version = int(self.get_query_argument("version", "0"))
            asked = float(self.get_query_argument("timeout", "25"))
            if not math.isfinite(asked):
                raise ValueError(asked)
            timeout = min(max(asked, 0.0), MAX_WAIT)
        except ValueError:
            self.send_error_json(400, "version must be a whole number and timeout a number of "
                                      f"seconds up to {MAX_WAIT:g}")
            return
        try:
            self.service.watch(code, token, +1)
        except ServiceError as e:
            self.send_error_json(e.status, e.message)
            return
        try:
            loop = asyncio.get_running_loop()
            end = loop.time() + timeout
            while self.service.version(code, token) <= version:
                left = end - loop.time()
                if left <= 0 or self._gone:
                    break
                self._waiting = self.hub.waiter(normal_code(code))
                await self.hub.wait(normal_code(code), left, self._waiting)
        except ServiceError:
            pass  # answered below with the same refusal
        finally:
            with contextlib.suppress(ServiceError):
                self.service.watch(code, token, -1, dropped=self._gone)
        await self.run(self.service.state, code, token)


class ActHandler(PostHandler):
    async def post(self, code: str) -> None:
        def act() -> dict[str, Any]:
            d = self.json_body()
            return self.service.act(code, d.get("token"), d.get("action"), d.get("version"))
        await self.run(act)


class BeatHandler(PostHandler):
    async def post(self, code: str) -> None:
        def beat() -> dict[str, Any]:
            d = self.json_body()
            return self.service.beat(code, d.get("token"), d.get("kernel"),
                                     d.get("gone", False))
        await self.run(beat)


class NextHandler(PostHandler):
    async def post(self, code: str) -> None:
        await self.run(lambda: self.service.next_hand(code, self.teacher_key(self.json_body())))


class RemoveHandler(PostHandler):
    async def post(self, code: str) -> None:
        def remove() -> dict[str, Any]:
            d = self.json_body()
            return self.service.remove_seat(code, self.teacher_key(d), d.get("seat"))
        await self.run(remove)


class LockHandler(PostHandler):
    async def post(self, code: str) -> None:
        def lock() -> dict[str, Any]:
            d = self.json_body()
            return self.service.lock(code, self.teacher_key(d), d.get("locked", True))
        await self.run(lock)


class TurnAwayHandler(PostHandler):
    async def post(self, code: str) -> None:
        def turn_away() -> dict[str, Any]:
            d = self.json_body()
            return self.service.turn_away(code, self.teacher_key(d), d.get("name"))
        await self.run(turn_away)


class CloseHandler(PostHandler):
    async def post(self, code: str) -> None:
        await self.run(lambda: self.service.close(code, self.teacher_key(self.json_body())))


#: docs/API.md, which ``GET /rummy/api/docs`` serves as text (the teacher's page links it)
API_DOC = Path(__file__).resolve().parents[1] / "docs" / "API.md"


class DocsHandler(ApiHandler):
    async def get(self) -> None:
        try:
            text = await asyncio.to_thread(API_DOC.read_text, encoding="utf-8")
        except OSError:
            self.send_error_json(404, "docs/API.md is not in this installation")
            return
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(text)


class NotFoundHandler(ApiHandler):
    async def prepare(self) -> None:
        self.send_error_json(404, "no such endpoint: see docs/API.md for the table API")


def handlers(base_url: str, service: TableService, hub: Hub) -> list[tuple[str, Any, Any]]:
    """The API's routes under ``base_url``."""
    root = "/" + "/".join(p for p in (base_url.strip("/"), API) if p)
    kw = {"service": service, "hub": hub}
    return [
        (root + "/tables/?", TablesHandler, kw),
        (root + f"/tables/{CODE}/?", AdminHandler, kw),
        (root + f"/tables/{CODE}/join", JoinHandler, kw),
        (root + f"/tables/{CODE}/state", StateHandler, kw),
        (root + f"/tables/{CODE}/wait", WaitHandler, kw),
        (root + f"/tables/{CODE}/act", ActHandler, kw),
        (root + f"/tables/{CODE}/beat", BeatHandler, kw),
        (root + f"/tables/{CODE}/next", NextHandler, kw),
        (root + f"/tables/{CODE}/remove", RemoveHandler, kw),
        (root + f"/tables/{CODE}/lock", LockHandler, kw),
        (root + f"/tables/{CODE}/turn_away", TurnAwayHandler, kw),
        (root + f"/tables/{CODE}/close", CloseHandler, kw),
        *progress_api.handlers(root, kw),  # the record of learning: tableserver/progress_api.py
        (root + "/docs/?", DocsHandler, kw),
        (root + "/.*", NotFoundHandler, kw),
    ]


def setup(web_app: web.Application, base_url: str = "/",
          service: TableService | None = None) -> TableService:
    """Serve the API in ``web_app`` and start giving bots their turns; the
    service keeps its tables in the data folder unless one is given."""
    service = service if service is not None else TableService(**service_options())
    service.wait_for_disk = False  # each request awaits its own writes (a group commit)
    hub = Hub()
    service.listeners.append(hub.changed)
    service.key_listeners.append(hub.key_checked)
    web_app.add_handlers(".*$", handlers(base_url, service, hub))
    start(service, hub, lambda: web_app.settings.get("kernel_manager"))
    web_app.settings["rummy_tables"] = service
    log.info("Rummy table service: %s tables, database %s", len(service.tables),
             service.store.path)
    return service


def start(service: TableService, hub: Hub, kernels: Callable[[], Any] | None = None) -> None:
    """Once the server's loop runs: the hub learns it, the bots start in
    their worker thread (never on the loop), and the log hides tokens.
    ``kernels`` gives the server's kernel manager, where it holds the
    learners' kernels: a dead page's kernel is ended (:func:`end_dead_pages`)."""
    scrub_logs()

    def begin() -> None:
        hub.bind(asyncio.get_running_loop())
        service.start_bots()

    IOLoop.current().add_callback(begin)
    if kernels is not None:
        end_dead_pages(service, kernels)


def page_grace(env: dict[str, str] | None = None) -> float:
    """Seconds a learner's page may stay away (no heartbeat) before its
    kernel is ended: ``RUMMY_PAGE_GRACE``, default
    :data:`tableserver.presence.PAGE_GRACE`.

    >>> page_grace({}), page_grace({"RUMMY_PAGE_GRACE": "5"})
    (60.0, 5.0)
    """
    raw = (os.environ if env is None else env).get("RUMMY_PAGE_GRACE")
    try:
        value = float(raw) if raw else PAGE_GRACE
    except ValueError:
        raise ValueError(f"RUMMY_PAGE_GRACE={raw!r} must be a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"RUMMY_PAGE_GRACE={raw!r} must be a number of seconds of at least 0")
    return value


def end_dead_pages(service: TableService, kernels: Callable[[], Any],
                   every: float = 5.0) -> None:
    """Every ``every`` seconds, end the kernels of learners' pages whose
    browser stopped beating a grace (:func:`page_grace`) ago: a crashed
    browser's kernel does not wait for the idle cull.  Only where this
    server holds the kernels (Voilà, Jupyter server); the scan is a quick
    look under the service's lock, the shutdowns are the kernel manager's
    own coroutines."""
    grace = page_grace()

    async def sweep() -> None:
        km = kernels()
        for kernel in service.ended_pages(grace):
            if km is None or kernel not in km:
                continue
            try:
                await km.shutdown_kernel(kernel)
                log.info("a learner's page went away %g s ago: its kernel was ended",
                         BEAT_AWAY + grace)
            except Exception:  # noqa: BLE001 - a kernel already gone is no failure
                log.warning("a dead page's kernel could not be ended", exc_info=True)

    def begin() -> None:
        PeriodicCallback(sweep, every * 1000).start()

    IOLoop.current().add_callback(begin)


def make_app(service: TableService | None = None, base_url: str = "/") -> web.Application:
    """A tornado application serving the API alone."""
    app = web.Application()
    setup(app, base_url, service)
    return app


def api_url(port: int, base_url: str = "/", ip: str = "127.0.0.1", scheme: str = "http") -> str:
    """Where a kernel on this machine reaches the API.

    >>> api_url(8866, "/", "0.0.0.0")
    'http://127.0.0.1:8866/rummy/api'
    """
    host = "127.0.0.1" if ip in ("", "0.0.0.0", "::", "localhost") else ip
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}/" + "/".join(p for p in (base_url.strip("/"), API) if p)


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    return [{"module": "tableserver.web"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Jupyter server calls this at start: serve the API beside everything else,
    and tell the kernels it starts where to find it (``RUMMY_API``).

    It also keeps the apps offline as ``make app`` serves them: Voilà's server
    extension has pages load MathJax from a CDN unless the server names no
    address and no configuration for it (as Voilà on its own does), and the
    apps typeset no formula.  So both are set to None here, unless the
    server's config set them."""
    for key in ("mathjax_url", "mathjax_config"):
        serverapp.web_app.settings.setdefault(key, None)
    service = setup(serverapp.web_app, serverapp.base_url)
    if service.teacher_key_made:
        print(f"Rummy table service: the teacher key is {service.teacher_key}", flush=True)
    os.environ["RUMMY_API"] = api_url(serverapp.port, serverapp.base_url, serverapp.ip)
