"""The hub's identity on the table API's handlers (tornado, JupyterHub's OAuth).

Kept apart from :mod:`tableserver.hub` (the process) because importing
JupyterHub's client takes seconds: the service answers the hub's "are you
up?" before it loads this.  Who a hub user is at the tables is
:mod:`tableserver.hub_identity`.
"""

from __future__ import annotations

import hashlib
import hmac
import html
from typing import Any

from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
from tornado import web

from tableserver import web as api
from tableserver.errors import BadRequest
from tableserver.handler import ApiHandler, Hub
from tableserver.hub_identity import SERVICE_NAME, TEACHER_SCOPE, Identity
from tableserver.service import TableService
from tableserver.tables import normal_code

__all__ = ["hub_handlers", "make_hub_app", "HomeHandler"]


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


class _HubUser(HubOAuthenticated, ApiHandler):
    """The identity layer of every API handler on the hub: the user is the
    hub's, asked (without blocking the loop) in :meth:`prepare`."""

    identity: Identity
    user: dict[str, Any] | None = None
    _asked_teacher = False
    _seatless: str | None = None

    def initialize(self, service: TableService, hub: Hub,  # type: ignore[override]
                   identity: Identity) -> None:
        super().initialize(service, hub)
        self.identity = identity

    def check_xsrf_cookie(self) -> None:
        """A POST signed in by the hub's cookie carries the hub's XSRF token
        (checked by the hub's OAuth); a token-authenticated one needs none."""
        self.hub_auth.check_xsrf_cookie(self)

    async def prepare(self) -> None:
        await super().prepare()
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

    def hub_learner(self) -> str | None:
        """The learner this request is: their whole hub name (two users whose
        names begin alike are two learners; only the label people see is
        shortened), never a name from the request."""
        return str(self.user["name"]) if self.user else None

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
    classes[api.BeatHandler] = HubBeat
    classes[api.TablesHandler] = HubTables
    return classes


class HubJoin(_HubUser, api.JoinHandler):
    """Sit down as the hub user (no name or token is asked for)."""

    async def post(self, code: str) -> None:
        def join() -> dict[str, Any]:
            if self.has_body():  # a body, if any, must still be JSON
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


class HubBeat(_HubUser, api.BeatHandler):
    """The heartbeat of the hub user's own page (a token in the body is ignored).

    A page on the hub runs in its user's own server, at another address than
    the service, and has no OAuth cookie of the service: its server relays
    the beat with its own hub token (:mod:`tableserver.hub_relay`)."""

    async def post(self, code: str) -> None:
        def beat() -> dict[str, Any]:
            d = self.json_body()
            return self.service.beat(code, self.token(), d.get("kernel"), d.get("gone", False))
        await self.run(beat)


class HubTables(_HubUser, api.TablesHandler):
    """A teacher's new table; each hub user has their own quota."""

    async def post(self) -> None:
        def create() -> dict[str, Any]:
            d = self.json_body()
            extra = api.table_settings(d)  # a teacher_key in it is ignored: the hub says who
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


def hub_handlers(prefix: str, service: TableService, hub: Hub,
                 identity: Identity) -> list[tuple[str, Any, Any]]:
    """The API's routes under the service's ``prefix`` with the hub's identity,
    the home page and the OAuth callback."""
    classes = _hub_classes()
    root = "/" + prefix.strip("/")
    out: list[tuple[str, Any, Any]] = []
    for route, cls, kw in api.handlers(prefix, service, hub):
        if cls not in classes:  # any other route (the progress grid, the docs): a hub user's
            classes[cls] = type("Hub" + cls.__name__, (_HubUser, cls), {})
        out.append((route, classes[cls], {**kw, "identity": identity}))
    return [(root + "/oauth_callback", HubOAuthCallbackHandler, {}),
            (root + "/?", HomeHandler, {"identity": identity}), *out]


def make_hub_app(service: TableService, prefix: str, secret: bytes) -> web.Application:
    """The service's tornado application: the API with the hub's identity."""
    service.wait_for_disk = False
    hub = Hub()
    service.listeners.append(hub.changed)
    identity = Identity(service, secret)
    cookie_secret = hmac.new(secret, b"cookie", hashlib.sha256).hexdigest()
    app = web.Application(hub_handlers(prefix, service, hub, identity),
                          cookie_secret=cookie_secret)
    app.settings["rummy_tables"] = service
    api.start(service, hub)
    return app
