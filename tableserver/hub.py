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
  run tables, and they see each table as the teacher does with the key.

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
import html
import logging
import os
import secrets
import signal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
from tornado import web

from tableserver import web as api
from tableserver.core import (
    MAX_NAME,
    BadRequest,
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


def _refusal_for(handler: _HubUser, status: int, message: str) -> str:
    """The service's refusal, said for a hub user (who has no token or key)."""
    if status != 403 or handler.user is None:
        return message
    name = handler.user["name"]
    if handler._asked_teacher and not Identity.is_teacher(handler.user):
        return (f"only a teacher may do this: the hub account {name} is not in the hub's "
                f"teachers group (the {TEACHER_SCOPE} permission)")
    if handler._seatless is not None:
        return f"you ({name}) have no seat at table {handler._seatless}: join it first"
    return message


class _HubUser(HubOAuthenticated, api._Handler):
    """The identity layer of every API handler on the hub: the user is the
    hub's, asked (without blocking the loop) in :meth:`prepare`."""

    identity: Identity
    user: dict[str, Any] | None = None
    _asked_teacher = False
    _seatless: str | None = None

    def initialize(self, service: TableService, hub: api.Hub,  # type: ignore[override]
                   identity: Identity) -> None:
        super().initialize(service, hub)
        self.identity = identity

    def check_xsrf_cookie(self) -> None:
        """A POST signed in by the hub's cookie carries the hub's XSRF token
        (checked by the hub's OAuth); a token-authenticated one needs none."""
        self.hub_auth.check_xsrf_cookie(self)

    async def prepare(self) -> None:  # type: ignore[override]
        super().prepare()
        if self._finished:
            return
        try:
            model = await self.hub_auth.get_user(self, sync=False)
        except web.HTTPError as e:
            self.send_error_json(502, f"the hub could not say who is asking ({e.status_code})")
            return
        if not model:
            self.send_error_json(401, "sign in to the hub first: the table service knows "
                                      "learners and teachers by their hub login")
            return
        if model.get("kind", "user") != "user" or not self.hub_auth.check_scopes(
                self.hub_auth.access_scopes, model):
            self.send_error_json(403, f"the hub account {model.get('name')} may not use the "
                                      f"table service (access:services!service={SERVICE_NAME})")
            return
        self.user = model
        self._hub_auth_user_cache = model

    # -- who the service sees --------------------------------------------------
    def token(self) -> str | None:
        """The user's seat at the table of the address (headers and the query
        are ignored: nobody can name another user's seat)."""
        code = self.path_args[0] if self.path_args else ""
        try:
            found = self.identity.token(code, self.user or {"name": ""})
        except BadRequest:
            return None
        if found is None:
            self._seatless = normal_code(code)
        return found

    def teacher_key(self, body: dict[str, Any] | None = None) -> Any:
        """The teacher's rights come from the hub, never from a key in the request."""
        self._asked_teacher = True
        return self.identity.teacher_key(self.user or {})

    def send_error_json(self, status: int, message: str, state: Any = None) -> None:
        super().send_error_json(status, _refusal_for(self, status, message), state)


def _hub_classes() -> dict[type, type]:
    """Each API handler of :mod:`tableserver.web` with the hub's identity."""
    classes: dict[type, type] = {
        base: type("Hub" + base.__name__, (_HubUser, base), {})
        for base in (api.AdminHandler, api.StateHandler, api.WaitHandler, api.NextHandler,
                     api.RemoveHandler, api.LockHandler, api.TurnAwayHandler, api.CloseHandler,
                     api.NotFoundHandler)}
    classes[api.JoinHandler] = HubJoin
    classes[api.ActHandler] = HubAct
    classes[api.TablesHandler] = HubTables
    return classes


class HubJoin(_HubUser, api.JoinHandler):
    """Sit down as the hub user (no name or token is asked for)."""

    async def post(self, code: str) -> None:
        def join() -> dict[str, Any]:
            if self._chunks or self.request.body:  # a body, if any, must still be JSON
                self.json_body()
            return self.identity.join(code, self.user or {})
        await self.run(join)


class HubAct(_HubUser, api.ActHandler):
    """A move for the hub user's own seat (a token in the body is ignored)."""

    async def post(self, code: str) -> None:
        def act() -> dict[str, Any]:
            d = self.json_body()
            return self.service.act(code, self.token(), d.get("action"), d.get("version"))
        await self.run(act)


class HubTables(_HubUser, api.TablesHandler):
    """A teacher's new table; each hub user has their own quota."""

    async def post(self) -> None:
        def create() -> dict[str, Any]:
            d = self.json_body()
            extra = {k: d[k] for k in ("timeout", "speed", "pause_between_hands", "stand_in")
                     if k in d}
            unknown = set(d) - {"variant", "seats", "options", "teacher_key", *extra}
            if unknown:
                raise BadRequest(f"unknown keys {sorted(unknown)}: a table takes variant, "
                                 "seats, options, timeout, speed, pause_between_hands, "
                                 "stand_in")
            name = (self.user or {}).get("name", "")
            return self.service.create(d.get("variant"), d.get("seats"), d.get("options"),
                                       teacher_key=self.teacher_key(), client=f"hub:{name}",
                                       **extra)
        await self.run(create, status=201)


class HomeHandler(HubOAuthenticated, web.RequestHandler):
    """``/services/rummy-tables/``: who the hub says you are (after its sign-in)."""

    def initialize(self, identity: Identity) -> None:
        self.identity = identity

    @web.authenticated
    def get(self) -> None:
        user = self.current_user
        teacher = Identity.is_teacher(user)
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        role = ("a teacher: you make and run the shared tables" if teacher
                else "a learner: your seats at shared tables are yours wherever you open them")
        name = html.escape(str(user["name"]))
        home = html.escape(self.hub_auth.hub_prefix + "home")
        xsrf = html.escape(self.xsrf_token.decode() if isinstance(self.xsrf_token, bytes)
                           else str(self.xsrf_token))
        self.finish(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rummy tables</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main id="rummy-hub" data-user="{name}" data-teacher="{str(teacher).lower()}"
 data-xsrf="{xsrf}">
<h1>Rummy tables</h1>
<p>You are signed in to the hub as <strong>{name}</strong>, {role}.</p>
<p>Play from the kit's apps in <a href="{home}">your own server</a>.</p>
</main></body></html>""")


def hub_handlers(prefix: str, service: TableService, hub: api.Hub,
                 identity: Identity) -> list[tuple[str, Any, Any]]:
    """The API's routes under the service's ``prefix`` with the hub's identity,
    the home page and the OAuth callback."""
    classes = _hub_classes()
    root = "/" + prefix.strip("/")
    out: list[tuple[str, Any, Any]] = []
    for route, cls, kw in api.handlers(prefix, service, hub):
        out.append((route, classes[cls], {**kw, "identity": identity}))
    return [(root + "/oauth_callback", HubOAuthCallbackHandler, {}),
            (root + "/?", HomeHandler, {"identity": identity}), *out]


def make_hub_app(service: TableService, prefix: str, secret: bytes) -> web.Application:
    """The service's tornado application: the API with the hub's identity."""
    service.wait_for_disk = False
    hub = api.Hub()
    service.listeners.append(hub.changed)
    identity = Identity(service, secret)
    cookie_secret = hmac.new(secret, b"cookie", hashlib.sha256).hexdigest()
    app = web.Application(hub_handlers(prefix, service, hub, identity),
                          cookie_secret=cookie_secret)
    app.settings["rummy_tables"] = service
    api.start(service, hub)
    return app


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
        store = Store(default_path())
        secret = hub_secret(store.path.parent)
        service = TableService(store, **service_options())
        app = make_hub_app(service, prefix, secret)
        # behind the hub's proxy: the scheme and host a browser used are in X-Forwarded-*
        server = app.listen(port, ip, xheaders=True, max_body_size=1024 * 1024)
        print(f"Rummy table service for the hub on {url}{prefix} (database {store.path})",
              flush=True)
        api.scrub_logs()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        server.stop()
        service.stop_bots()
        store.close()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
