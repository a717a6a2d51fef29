"""The kernel's side of the table service: its HTTP API, spoken from a learner's
or a teacher's kernel.

A table widget plays a local engine: it asks ``observe(learner)``, shows
``legal_actions``, calls ``apply(action, player=learner)``.  :class:`RemoteGame`
offers the same calls, backed by the table service over HTTP, so that a widget
plays a shared table as it is, holding no rule (the service holds the game and
runs the bots).  :func:`request` is every other call of the API (the teacher's
page, the class grid, the events a hub learner's kernel forwards); it raises
:class:`RemoteError` with the service's reason.  :func:`api_base` says where the
service is, :func:`on_hub` whether the hub's login says who asks.

This module is the client only: no widgets, no IPython.  It imports the
standard library, :mod:`rummy` and :mod:`tableserver.wire` (the JSON both sides
speak), never a server module such as :mod:`tableserver.core`; the views in
:mod:`widgets` use it, the service never does.

>>> api_base(env={"RUMMY_API": "http://127.0.0.1:8870/rummy/api/"})
'http://127.0.0.1:8870/rummy/api'
>>> table_url("http://127.0.0.1:8870/rummy/api", "K7QM-X4P9", "state")
'http://127.0.0.1:8870/rummy/api/tables/K7QM-X4P9/state'
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import json
import os
import secrets
import ssl
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from rummy.action import Action
from rummy.engine import engine_class, standings
from rummy.errors import GameError
from rummy.variants import find_variant
from tableserver.wire import decode_observation

__all__ = ["RemoteGame", "RemoteError", "request", "build_request", "refusal", "retry_after",
           "api_base",
           "table_url", "hub_headers", "on_hub", "in_daemon_thread"]

#: Where ``make app`` serves the API (the default outside a hub).
LOCAL_API = "http://127.0.0.1:8866/rummy/api"
#: The hub service's path, under the hub's public address.
HUB_SERVICE_API = "/services/rummy-tables/rummy/api"


#: Seconds between two heartbeats of a learner's page, sent by its browser
#: (:data:`widgets.remote_table.SEAT_KEEPER_JS`); the service's
#: :data:`tableserver.presence.BEAT_EVERY` is the same.
BEAT_EVERY = 5.0


class RemoteError(GameError):
    """The service refused or could not be reached; the message says why.

    ``status`` is the HTTP status of a refusal (0: the service was not
    reached); ``state`` the table as it is now, when the service sent it with
    the refusal (a move made on a page that had not heard of the latest ones);
    ``retry_after`` the seconds the service asked to wait before asking again
    (its ``Retry-After``, with a 429 or a 503), None when it said nothing.
    """

    def __init__(self, message: str, status: int = 0,
                 state: dict[str, Any] | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.state = state
        self.retry_after = retry_after


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """The seconds an HTTP ``Retry-After`` header ``value`` asks to wait: a
    number of seconds or a date (``now``: this clock's time, default the
    current one); None when there is none or it is neither.

    >>> retry_after("120"), retry_after(None), retry_after("soon")
    (120.0, None, None)
    >>> retry_after("Thu, 01 Jan 1970 00:01:40 GMT", now=40.0)
    60.0
    """
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def api_base(env: Mapping[str, str] | None = None) -> str:
    """Where this kernel reaches the table service: ``$RUMMY_API`` (set by the
    server that started the kernel), else on a hub the hub's service (its
    public address, ``$JUPYTERHUB_PUBLIC_URL``), else ``make app``'s address.

    >>> api_base(env={})
    'http://127.0.0.1:8866/rummy/api'
    >>> api_base(env={"JUPYTERHUB_PUBLIC_URL": "https://hub.example/",
    ...               "JUPYTERHUB_API_TOKEN": "t"})
    'https://hub.example/services/rummy-tables/rummy/api'
    """
    env = os.environ if env is None else env
    given = env.get("RUMMY_API")
    if given:
        return given.rstrip("/")
    public = env.get("JUPYTERHUB_PUBLIC_URL")
    if public and env.get("JUPYTERHUB_API_TOKEN"):
        return public.rstrip("/") + HUB_SERVICE_API
    return LOCAL_API


def table_url(api: str, code: str, what: str = "") -> str:
    """The address of table ``code``'s endpoint ``what`` (the table itself
    when empty) under the API ``api``.

    >>> table_url("http://127.0.0.1:8866/rummy/api", "AB CD")
    'http://127.0.0.1:8866/rummy/api/tables/AB%20CD'
    """
    return f"{api.rstrip('/')}/tables/{quote(code)}" + (f"/{what}" if what else "")


def hub_headers(url: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """On a hub, a request to the hub's table service carries this server's hub
    token (``$JUPYTERHUB_API_TOKEN``): the service knows the user by it.  A
    request elsewhere (the standalone service) never carries it.

    >>> hub_headers("https://hub.example/services/rummy-tables/rummy/api/tables",
    ...             env={"JUPYTERHUB_API_TOKEN": "tok"})
    {'Authorization': 'token tok'}
    >>> hub_headers("http://127.0.0.1:8866/rummy/api/tables", env={"JUPYTERHUB_API_TOKEN": "tok"})
    {}
    """
    token = (os.environ if env is None else env).get("JUPYTERHUB_API_TOKEN")
    if token and "/services/" in url:
        return {"Authorization": f"token {token}"}
    return {}


def on_hub(api: str | None = None) -> bool:
    """Whether this kernel speaks to the hub's table service as its hub user
    (then no name, token or teacher key is asked for: the hub login is who)."""
    return bool(hub_headers(api or api_base()))


def _tls() -> ssl.SSLContext | None:
    """The context a kernel checks its own server's certificate with:
    ``RUMMY_API_CA`` (``make classroom`` sets it to the certificate it serves)."""
    ca = os.environ.get("RUMMY_API_CA")
    if not ca:
        return None
    ctx = ssl.create_default_context(cafile=ca)
    ctx.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN  # the server's own (self-signed) one
    return ctx


def build_request(url: str, body: Any = None, *, token: str | None = None,
                  teacher: str | None = None, headers: dict[str, str] | None = None,
                  method: str | None = None) -> urllib.request.Request:
    """The HTTP request :func:`request` sends: a GET, or a POST of ``body`` as
    JSON (``method``: another, such as DELETE); a seat's or spectator's
    ``token`` and the ``teacher`` key go in headers, never in the address (a
    server logs addresses).

    >>> r = build_request("http://127.0.0.1:8866/rummy/api/tables/K7QM/act",
    ...                   {"action": "draw stock"}, token="seat-secret")
    >>> r.get_method(), r.data, r.get_header("X-rummy-token")
    ('POST', b'{"action": "draw stock"}', 'seat-secret')
    >>> build_request("http://127.0.0.1:8866/rummy/api/tables", teacher="key").get_method()
    'GET'
    """
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **hub_headers(url), **(headers or {})}
    if token:
        sent["X-Rummy-Token"] = token
    if teacher:
        sent["X-Rummy-Teacher-Key"] = teacher
    return urllib.request.Request(url, data=data, headers=sent,
                                  method=method or ("GET" if body is None else "POST"))


def refusal(status: int, raw: bytes, wait: str | None = None) -> RemoteError:
    """The error for the service's refusal ``status`` with the answer ``raw``
    (its JSON says why, and may hold the table as it is now) and the
    ``Retry-After`` header ``wait`` (:func:`retry_after`).

    >>> e = refusal(409, b'{"error": "the table moved on", "state": {"version": 8}}')
    >>> str(e), e.status, e.state
    ('the table moved on', 409, {'version': 8})
    >>> str(refusal(502, b"<html>Bad gateway</html>"))
    'the table service answered 502'
    >>> refusal(429, b'{"error": "too many events"}', "30").retry_after
    30.0
    """
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        answer = {"error": f"the table service answered {status}"}
    state = answer.get("state")
    return RemoteError(str(answer.get("error", status)), status,
                       state if isinstance(state, dict) else None, retry_after(wait))


def request(url: str, body: Any = None, *, token: str | None = None,
            teacher: str | None = None, timeout: float = 30,
            headers: dict[str, str] | None = None, method: str | None = None
            ) -> dict[str, Any]:
    """Call the table API at ``url`` (see :func:`build_request`) and answer its
    JSON.  A refusal raises :class:`RemoteError` with the service's reason and
    status (:func:`refusal`); a service that can't be reached, one with status 0.

    >>> request("http://127.0.0.1:1/rummy/api/tables", timeout=5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tableserver.client.RemoteError: the table service can't be reached (...): is `make app` running?
    """
    req = build_request(url, body, token=token, teacher=teacher, headers=headers,
                        method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=_tls()) as r:
            return dict(json.loads(r.read()))
    except urllib.error.HTTPError as e:
        raise refusal(e.code, e.read(), e.headers.get("Retry-After")) from None
    except (urllib.error.URLError, OSError) as e:
        raise RemoteError(f"the table service can't be reached ({e}): is `make app` "
                          "running?") from None


async def in_daemon_thread(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a daemon thread and await its answer.

    For a long poll (the teacher's page; a learner's page polls in a thread of
    its own): ``asyncio.to_thread`` uses the loop's executor, whose threads
    Python joins when the kernel shuts down, so a closed page's kernel would
    stay until the poll was answered (up to 25 s).  A daemon thread dies with
    the kernel, which quits at once.

    >>> asyncio.run(in_daemon_thread(lambda: 6 * 7))
    42
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(value)

    def run() -> None:
        try:
            value, error = fn(), None
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
            value, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name="rummy-long-poll", daemon=True).start()
    return await answer


class RemoteGame:
    """One seat's side of a shared table, speaking the engine's interface.

    ``observe(seat)`` answers the last state the service sent (only for this
    seat); ``apply`` sends the move and raises :class:`GameError` with the
    service's reason when it is refused (a stale page gets the fresh state
    and a message).  ``wait()`` blocks for news (a long poll)."""

    def __init__(self, code: str, token: str, *, api: str | None = None) -> None:
        self.api = (api or api_base()).rstrip("/")
        self.code = code
        self.token = token
        self._lock = threading.Lock()
        self.view: dict[str, Any] = {}
        self.obs: Any = None
        #: the moves this page made (a shared table has no undo)
        self.history: list[tuple[int, Action]] = []
        self._take(request(self._url("state"), token=token))
        self.seat: int = int(self.view["player"])
        self.variant = find_variant(self.view["table"]["variant"])
        self.options = dict(self.view["table"]["options"])
        self.seed: int | None = None  # the service keeps the seed

    @classmethod
    def join(cls, code: str, name: str, *, api: str | None = None,
             pin: str | None = None) -> RemoteGame:
        """Take the next free seat at table ``code`` under ``name`` (``pin``:
        the table's, if the teacher set one).  The join carries an id of its
        own, so that sending it again after a lost answer gets the same seat,
        and the page's browser (``HTTP_X_RUMMY_BROWSER``, which the server
        gave the page), so that one browser sits once at a table."""
        base = (api or api_base()).rstrip("/")
        body: dict[str, Any] = {"name": name, "request_id": secrets.token_urlsafe(16)}
        if pin:
            body["pin"] = pin
        browser = os.environ.get("HTTP_X_RUMMY_BROWSER")
        extra = {"X-Rummy-Browser": browser} if browser else None
        try:
            got = request(table_url(base, code, "join"), body, headers=extra)
        except RemoteError as e:
            if e.status != 0:
                raise
            got = request(table_url(base, code, "join"), body, headers=extra)  # once more
        return cls(got["code"], got["token"], api=base)

    def _url(self, what: str) -> str:
        return table_url(self.api, self.code, what)

    def _take(self, view: dict[str, Any]) -> bool:
        """Keep ``view`` if it is newer; answers whether it was.  A view that
        can't be read raises and leaves the page's state as it was (the view
        and its observation are always of the same version)."""
        with self._lock:
            if self.view and view.get("version", 0) <= self.view.get("version", 0):
                return False
            obs = decode_observation(view) if view.get("phase") != "waiting" else None
            self.view, self.obs = view, obs
            return True

    # -- the engine's interface ------------------------------------------------
    @property
    def version(self) -> int:
        """The version of the table this page holds (the service counts every change)."""
        return int(self.view.get("version", 0))

    @property
    def status(self) -> str:
        """The table's status: waiting, playing, paused, over or closed."""
        return str(self.view.get("status", ""))

    @property
    def players(self) -> tuple[str, ...]:
        """Every seat's name."""
        if self.obs is not None:
            return tuple(self.obs.players)
        return tuple(s["name"] for s in self.view["table"]["seats"])

    @property
    def is_over(self) -> bool:
        """Whether the game is over (or the table closed)."""
        return self.status in ("over", "closed")

    @property
    def current_player(self) -> int | None:
        """The seat to act, as this seat sees it."""
        return getattr(self.obs, "current_player", None)

    def to_act(self) -> list[int]:
        """This seat if it has a move to make (other seats' turns are the
        service's business)."""
        return [self.seat] if self.obs is not None and self.obs.legal_actions else []

    def observe(self, player: int) -> Any:
        """What this seat sees (another seat raises :class:`GameError`)."""
        if player != self.seat:
            raise GameError(f"at a shared table you see your own seat only (seat {self.seat})")
        if self.obs is None:
            raise GameError("the game has not started yet: wait for the teacher")
        return self.obs

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """This seat's legal moves."""
        return list(self.observe(self.seat if player is None else player).legal_actions)

    def idle_reason(self) -> str | None:
        """Why this seat has no move to make now, in the learner's words (None:
        it has one).  A click then says so at once, without asking the
        service: the table is paused or over, or this seat already chose its
        move for the caller's call, or it waits for the others.

        >>> g = RemoteGame.__new__(RemoteGame)
        >>> g.view, g.obs = {"status": "paused"}, None
        >>> g.idle_reason()
        'The hand is over: the teacher starts the next hand.'
        """
        status = self.status
        if status == "waiting":
            return "The game has not started yet: the teacher starts it."
        if status == "paused":
            return "The hand is over: the teacher starts the next hand."
        if status in ("over", "closed"):
            return "The game is over: there are no more moves."
        obs = self.obs
        if obs is None or obs.legal_actions:
            return None
        choice = getattr(obs, "choice", None)
        if choice is not None:
            return (f"You already chose ({choice}) for this call: wait for the others, "
                    "then the caller calls the next one.")
        return "It is not your move now: wait for the others."

    def apply(self, action: Action | str, player: int | None = None) -> None:
        """Send this seat's move; a refusal raises :class:`GameError` with the
        service's reason (a page that had missed a move holds the table as it
        is now).  A seat with no move to make now is told why at once
        (:meth:`idle_reason`), without a request."""
        if player is not None and player != self.seat:
            raise GameError(f"at a shared table you move for your own seat only (seat {self.seat})")
        parsed = Action.parse(action)
        text = str(parsed)
        # the gin advisor has no move of its own, yet advises while the table plays
        idle = self.idle_reason() if not parsed.verb.startswith("advise") else None
        if idle is not None:
            raise GameError(idle)
        try:
            view = request(self._url("act"), {"token": self.token, "action": text,
                                              "version": self.version})
        except RemoteError as e:
            if e.status == 409 and e.state:
                self._take(e.state)
                raise GameError(f"The table moved on before your move ({text}) arrived, so it "
                                "was not made: the table now shows where play is.") from None
            raise GameError(str(e)) from None
        self._take(view)
        self.history.append((self.seat, Action.parse(text)))

    def undo(self, player: int | None = None) -> None:
        """A shared table has no undo: raises :class:`GameError`."""
        raise GameError("at a shared table a move can't be taken back")

    def advise(self, action: Action | str, player: int | None = None, reason: str = "") -> Any:
        """Gin: the advisor's suggestion for the captain, through the service."""
        self.apply(Action.parse(f"advise {Action.parse(action)}"))
        return self.obs.advice if self.obs is not None else None

    def advice(self, bot: str = "expert", seed: int | None = None) -> Any:
        """At a shared table the advisor is a player: raises :class:`GameError`."""
        raise GameError("at a shared table the advisor is a player: ask them")

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: ``seat``, ``player``, ``score``, ``rank``, ``won``, from the
        public scores, ranked as the engine ranks them (:func:`rummy.engine.standings`)."""
        scores = list(self.obs.scores) if self.obs is not None else []
        ranks, won = standings(scores, engine_class(self.variant).low_wins, self.is_over)
        return [{"seat": i, "player": self.players[i], "score": s, "rank": ranks[i],
                 "won": i in won} for i, s in enumerate(scores)]

    def score_sheet(self) -> Any:
        """Scores per round or hand (every family, from the service's
        ``score_rows``) and the totals, as a DataFrame."""
        import pandas as pd  # heavy and optional: loaded only when a sheet is asked for

        obs = self.obs
        names = list(self.players)
        sent = self.view.get("score_rows") or []  # every family: a row per round or hand
        rows = [list(r) for _label, r in sent]
        index = [str(label) for label, _r in sent]
        rows.append(list(obs.scores) if obs is not None else [0] * len(names))
        index.append("Total")
        return pd.DataFrame(rows, index=index, columns=names)

    # -- news ----------------------------------------------------------------------
    def refresh(self) -> bool:
        """Ask for the state now; answers whether it changed."""
        return self._take(request(self._url("state"), token=self.token))

    def wait(self, timeout: float = 25) -> bool:
        """Block until the table changes (or ``timeout`` seconds); answers
        whether the state this page holds changed."""
        view = request(self._url(f"wait?version={self.version}&timeout={timeout:g}"),
                       token=self.token, timeout=timeout + 15)
        return self._take(view)
