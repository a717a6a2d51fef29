"""The base of every handler of the table API (tornado): JSON in, JSON out.

:class:`ApiHandler` refuses a request from another site and a body that is
not JSON or is larger than :data:`MAX_BODY` before anything is done, reads
a seat's token and the teacher key, and answers a call of the service once
every change it shows is on disk (:meth:`ApiHandler.run`).  :class:`Hub`
wakes the long polls of a table when it changes.  The table API
(:mod:`tableserver.web`), the record of learning's endpoints
(:mod:`tableserver.progress_api`) and the hub's identity layer
(:mod:`tableserver.hub_web`) build on them.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from typing import Any
from urllib.parse import urlsplit

from tornado import web

from tableserver.errors import BadRequest, ServiceError, without_paths
from tableserver.guard import KeyThrottle
from tableserver.service import TableService

__all__ = ["ApiHandler", "PostHandler", "Hub", "CODE", "MAX_BODY", "MAX_DEPTH"]

#: The largest request body accepted (bytes).
MAX_BODY = 16 * 1024
#: How deep a request's JSON may nest (objects and lists).
MAX_DEPTH = 16
#: A code in a path: letters, digits, dashes and spaces (``%20`` or ``+``).
CODE = r"([A-Za-z0-9 %+-]{1,60})"


#: The address of the client whose request is being answered (set by
#: :meth:`ApiHandler.prepare`, read when the service checks a teacher key).
_CLIENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("rummy_client",
                                                                     default=None)


class Hub:
    """What the requests of one server share: it wakes the long polls waiting
    on a table when it changes, and paces teacher-key attempts (``keys``)."""

    def __init__(self, keys: KeyThrottle | None = None) -> None:
        self._waiters: dict[str, set[asyncio.Future[None]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        #: the growing wait of a client that gave wrong teacher keys
        self.keys = keys if keys is not None else KeyThrottle()

    def key_checked(self, right: bool) -> None:
        """The service checked a teacher key (a listener of the service):
        count a wrong one against the client asking (none: not a request)."""
        client = _CLIENT.get()
        if client is None:
            return
        if right:
            self.keys.passed(client)
        else:
            self.keys.failed(client)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand changes to ``loop``, the server's (a change may be told from any thread)."""
        self._loop = loop

    def changed(self, code: str) -> None:
        """Called by the service (from any thread) after a change."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(code)
        else:
            loop.call_soon_threadsafe(self._wake, code)

    def _wake(self, code: str) -> None:
        for f in self._waiters.pop(code, set()):
            if not f.done():
                f.set_result(None)

    def waiter(self, code: str) -> asyncio.Future[None]:
        """A future that the next change of table ``code`` completes (its
        long poll may complete it itself, e.g. when its page went away)."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        f: asyncio.Future[None] = loop.create_future()
        self._waiters.setdefault(code, set()).add(f)
        return f

    async def wait(self, code: str, timeout: float,
                   f: asyncio.Future[None] | None = None) -> None:
        """Until the table ``code`` changes, ``f`` (from :meth:`waiter`) is
        completed, or ``timeout`` seconds pass."""
        if f is None:
            f = self.waiter(code)
        try:
            await asyncio.wait_for(f, timeout)
        except TimeoutError:
            pass
        finally:
            waiting = self._waiters.get(code)
            if waiting is not None:
                waiting.discard(f)
                if not waiting:
                    self._waiters.pop(code, None)


class ApiHandler(web.RequestHandler):
    """JSON in, JSON out; tokens never reach the access log."""

    service: TableService
    hub: Hub
    #: the largest body this endpoint reads (bytes)
    max_body: int = MAX_BODY

    def initialize(self, service: TableService, hub: Hub) -> None:
        """Each request's service and long-poll hub (tornado passes the route's keywords)."""
        self.service = service
        self.hub = hub
        self._chunks: list[bytes] = []
        self._size = 0
        #: the request is refused (another site, not JSON, too big): nothing more is read
        self.refused = False

    def check_xsrf_cookie(self) -> None:
        """No cookie is used: a request proves itself with a token in its body
        or a header, and :meth:`prepare` refuses any request from another origin."""

    def set_default_headers(self) -> None:
        """JSON, never cached, never sniffed, no referrer."""
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")

    def _request_summary(self) -> str:
        # the query may hold a token: log the path only
        return f"{self.request.method} {self.request.path} ({self.request.remote_ip})"

    def cross_site(self) -> str | None:
        """Why this request comes from another site's page, or None: a
        browser names the page's origin (``Origin``) and, in new browsers,
        whether it is this site (``Sec-Fetch-Site``)."""
        headers = self.request.headers
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            return f"a request from another site ({site}) is refused"
        origin = headers.get("Origin")
        if origin is not None:
            parts = urlsplit(origin)
            if origin == "null" or parts.netloc.lower() != self.request.host.lower() or \
                    parts.scheme != self.request.protocol:
                return "a request from another origin is refused: the API serves its own pages"
        return None

    def client(self) -> str:
        """The address of who asks."""
        return self.request.remote_ip or ""

    async def prepare(self) -> None:
        """Refuse, before anything is read, a request from another site, a POST
        that is not JSON and a body announced larger than :data:`MAX_BODY`;
        a request with a teacher key in its header waits its turn
        (:class:`tableserver.guard.KeyThrottle`)."""
        _CLIENT.set(self.client())
        self.refuse_early()
        if not self._finished and self.request.headers.get("X-Rummy-Teacher-Key") is not None:
            await self.hub.keys.wait(self.client())

    def refuse_early(self) -> None:
        """The checks of :meth:`prepare` that read nothing but the headers."""
        why = self.cross_site()
        if why is not None:
            self.refused = True  # nothing more is read or done
            self.send_error_json(403, why)
            return
        if self.request.method == "POST":
            kind = self.request.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                self.refused = True
                self.send_error_json(415, "a request body must be JSON, sent with "
                                          "Content-Type: application/json")
                return
        length = self.request.headers.get("Content-Length")
        if length is not None:
            try:
                too_big = int(length) > self.max_body
            except ValueError:
                too_big = False
            if too_big:
                self.refused = True
                self.send_error_json(413, f"the request body is larger than {self.max_body} "
                                          "bytes")

    def data_received(self, chunk: bytes) -> None:
        """Keep a streamed body's chunks, up to :attr:`max_body` bytes."""
        self._size += len(chunk)
        if self._size > self.max_body:
            self.refused = True
            self._chunks = []
        elif not self.refused:
            self._chunks.append(chunk)

    def has_body(self) -> bool:
        """Whether the request came with a body."""
        return bool(self._chunks or self.request.body)

    def json_body(self) -> dict[str, Any]:
        """The request's JSON object, or :class:`BadRequest` saying why not."""
        raw = b"".join(self._chunks) if self._chunks else (self.request.body or b"")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest("the request body must be a JSON object in UTF-8, e.g. "
                             '{"name": "Ana"}') from None
        if _depth(text) > MAX_DEPTH:
            raise BadRequest(f"the request body nests deeper than {MAX_DEPTH} levels: a table's "
                             "request is a flat JSON object")
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except BadRequest:
            raise
        except (ValueError, RecursionError):
            raise BadRequest("the request body must be a JSON object, e.g. "
                             '{"name": "Ana"}') from None
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object, e.g. {\"name\": \"Ana\"}")
        return data

    def token(self) -> str | None:
        """The seat's (or spectator's) token: ``X-Rummy-Token``, else ``?token=``."""
        return self.request.headers.get("X-Rummy-Token") or self.get_query_argument("token",
                                                                                    None)

    def teacher_key(self, body: dict[str, Any] | None = None) -> Any:
        """The teacher key: the ``X-Rummy-Teacher-Key`` header, or the body's ``teacher_key``."""
        if body is not None and "teacher_key" in body:
            return body["teacher_key"]
        return self.request.headers.get("X-Rummy-Teacher-Key")

    def send_json(self, data: Any, status: int = 200) -> None:
        """Answer ``data`` as JSON with ``status`` (unless an answer was sent)."""
        if self._finished:
            return
        self.set_status(status)
        self.finish(json.dumps(data))

    def send_error_json(self, status: int, message: str, state: Any = None) -> None:
        """Answer ``{"error": message}`` (and ``"state"``, for a 409) with ``status``."""
        body: dict[str, Any] = {"error": without_paths(message)}  # no file of the server
        if state is not None:
            body["state"] = state
        self.send_json(body, status)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """Tornado's own errors as JSON too."""
        reason = self._reason or "error"
        self.finish(json.dumps({"error": reason}))

    async def run(self, fn: Any, *args: Any, status: int = 200, **kwargs: Any) -> None:
        """Answer with ``fn(*args)``, or the service's refusal as JSON, once
        every change it shows is on disk (while the database commits, other
        requests are served, and their moves are committed together)."""
        if self.refused:
            self.send_error_json(413, f"the request body is larger than {self.max_body} bytes")
            return
        if self._key_in_body():
            await self.hub.keys.wait(self.client())
        try:
            out = fn(*args, **kwargs)
            await self._on_disk(out.get("code"))
            self.send_json(out, status)
        except ServiceError as e:
            try:
                if e.state is not None:
                    await self._on_disk(e.state.get("code"))
            except ServiceError as again:
                e = again
            self.send_error_json(e.status, e.message, e.state)

    def _key_in_body(self) -> bool:
        """Whether the request's JSON body gives a teacher key (and no header
        did) or a table's PIN: either waits its turn."""
        if self.request.method != "POST" or self.request.headers.get("X-Rummy-Teacher-Key"):
            return False
        try:
            body = self.json_body()
            return "teacher_key" in body or "pin" in body
        except BadRequest:
            return False

    async def _on_disk(self, code: Any) -> None:
        fut = self.service.pending(code) if isinstance(code, str) else None
        if fut is not None:
            try:
                await asyncio.wrap_future(fut)
            except Exception:
                self.service.saved(fut)  # reloads the tables and raises NotSaved


@web.stream_request_body
class PostHandler(ApiHandler):
    """A POST whose body is read as it arrives, and refused past MAX_BODY."""


def _no_constant(name: str) -> Any:
    raise BadRequest(f"the request body holds {name}: numbers must be finite")


def _depth(text: str) -> int:
    """How deep brackets nest in JSON ``text`` (outside strings).

    >>> _depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    deepest = depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif ch in "]}":
            depth -= 1
    return deepest
