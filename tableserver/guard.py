"""What keeps a school server up and its teacher key unguessed: the web
layer's guards, below the handlers.

- :func:`guard_hosts`: a request whose ``Host`` is not one of the server's
  own names (loopback, the classroom address, ``RUMMY_PUBLIC_URL``'s host)
  is refused before any handler runs, API or page: a DNS-rebinding site,
  whose name points at the server, is not served.
- :class:`GuardedServer`: tornado's HTTP server with header, body and idle
  timeouts (:data:`SERVER_LIMITS`) and, in classroom mode, at most
  ``per_address`` open connections from one address; :func:`raise_file_limit`
  lifts the open-file limit to the system's ceiling at start.
- :class:`KeyThrottle`: a growing wait between a client's teacher-key
  attempts after it gave wrong ones, and between anybody's when many were
  wrong; each wrong key is logged (the address, never the key).

(A teacher key chosen in ``RUMMY_TEACHER_KEY`` has 128 bits at least, or the
server does not start: :func:`tableserver.checks.check_key_strength`.)

>>> host_name("Rebind.Evil.Example:8866"), host_name("[::1]:8866"), host_name("127.0.0.1")
('rebind.evil.example', '::1', '127.0.0.1')
>>> sorted(allowed_hosts("10.0.0.5", env={"RUMMY_PUBLIC_URL": "https://room.school.example/"}))
['10.0.0.5', '127.0.0.1', '::1', 'localhost', 'room.school.example']
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from tornado import httpserver, httputil, web
from tornado.routing import Matcher, Rule

__all__ = ["LOOPBACK", "SERVER_LIMITS", "PER_ADDRESS", "host_name", "allowed_hosts",
           "guard_hosts", "GuardedServer", "raise_file_limit", "KeyThrottle"]

log = logging.getLogger("tableserver")

#: The names of this machine that every server answers to.
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
#: tornado's HTTP server settings: a client has 20 s to send a request's
#: headers (and, between two requests, to start the next), 60 s for its body
#: (bodies are at most 16 KiB: MAX_BODY), 64 KiB of headers.  A long poll
#: (at most 60 s) is an answer being prepared, which no timeout cuts.
SERVER_LIMITS: dict[str, Any] = {"idle_connection_timeout": 20.0, "body_timeout": 60.0,
                                 "max_header_size": 64 * 1024,
                                 "max_body_size": 1024 * 1024}
#: Open connections one address may hold in classroom mode (a page holds a
#: few: its long poll, its kernel's socket, its requests).
PER_ADDRESS = 64


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port, in small letters."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def allowed_hosts(*names: str, env: Mapping[str, str] | None = None) -> frozenset[str]:
    """Loopback, ``names`` (the address the server listens on) and the host
    of ``RUMMY_PUBLIC_URL`` (where the school publishes it, if anywhere)."""
    import os

    source = os.environ if env is None else env
    out = set(LOOPBACK)
    out.update(host_name(n) for n in names if n and n not in ("0.0.0.0", "::"))
    public = source.get("RUMMY_PUBLIC_URL")
    if public:
        out.add(host_name(urlsplit(public).netloc.rsplit("@", 1)[-1]))
    return frozenset(out)


class _ForeignHost(Matcher):
    """Matches a request whose ``Host`` is not one of ``allowed``."""

    def __init__(self, allowed: Iterable[str]) -> None:
        self.allowed = frozenset(allowed)

    def match(self, request: httputil.HTTPServerRequest) -> dict[str, Any] | None:
        return None if host_name(request.host or "") in self.allowed else {}


class _RefuseHost(web.RequestHandler):
    def prepare(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish('{"error": "this server answers to its own address only: open the '
                    'address the teacher gave"}')

    def check_xsrf_cookie(self) -> None:
        """Nothing is done: the request is refused in :meth:`prepare`."""


def guard_hosts(app: web.Application, allowed: Iterable[str]) -> None:
    """Refuse, in ``app``, every request whose ``Host`` is not in ``allowed``
    (the first rule: before the API's and the pages' handlers)."""
    router = app.default_router
    router.rules.insert(0, router.process_rule(Rule(_ForeignHost(allowed), _RefuseHost)))


class GuardedServer(httpserver.HTTPServer):
    """tornado's HTTP server with :data:`SERVER_LIMITS` (unless given
    otherwise) and at most ``per_address`` open connections from one address
    (None: no cap); a connection past the cap is closed at once."""

    def initialize(self, *args: Any, per_address: int | None = None,  # type: ignore[override]
                   **kwargs: Any) -> None:
        for k, v in SERVER_LIMITS.items():
            kwargs.setdefault(k, v)
        super().initialize(*args, **kwargs)
        self.per_address = per_address
        self.open_from: dict[str, int] = {}
        self._address_of: dict[object, str] = {}

    def handle_stream(self, stream: Any, address: Any) -> None:
        ip = str(address[0]) if isinstance(address, tuple) and address else ""
        if self.per_address is not None and self.open_from.get(ip, 0) >= self.per_address:
            stream.close()
            return
        before = set(self._connections)
        super().handle_stream(stream, address)
        for conn in set(self._connections) - before:
            self._address_of[conn] = ip
            self.open_from[ip] = self.open_from.get(ip, 0) + 1

    def on_close(self, server_conn: object) -> None:
        super().on_close(server_conn)
        ip = self._address_of.pop(server_conn, None)
        if ip is not None:
            left = self.open_from.get(ip, 1) - 1
            if left > 0:
                self.open_from[ip] = left
            else:
                self.open_from.pop(ip, None)


def raise_file_limit() -> tuple[int, int]:
    """Lift this process's open-file limit to its ceiling (each client's
    connection is a file); answers (soft, hard) after."""
    try:
        import resource
    except ImportError:  # not on this system
        return (0, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft, hard


class KeyThrottle:
    """How long a teacher-key attempt waits before it is checked.

    A client's first ``free`` wrong keys cost nothing (a typo); after that
    each attempt of that client waits ``base`` seconds, doubling with each
    further wrong key, up to ``most``.  Every client's attempts also wait
    for each other once more than ``overall_free`` wrong keys came in the
    last ``window`` seconds (from anywhere), ``overall_base`` seconds apart,
    doubling up to ``overall_most``.  Attempts are spaced: one started while
    another waits comes after it.  A right key ends the client's count.

    >>> t = KeyThrottle(clock=lambda: 0.0, free=1, base=1.0)
    >>> t.slot("10.0.0.7"), t.failed("10.0.0.7"), t.slot("10.0.0.7"), t.failed("10.0.0.7")
    (0.0, None, 0.0, None)
    >>> t.slot("10.0.0.7"), t.slot("10.0.0.7"), t.slot("10.0.0.9")
    (1.0, 3.0, 0.0)
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, free: int = 5,
                 base: float = 0.5, most: float = 60.0, overall_free: int = 30,
                 overall_base: float = 0.25, overall_most: float = 10.0,
                 window: float = 600.0) -> None:
        self.clock = clock
        self.free, self.base, self.most = free, base, most
        self.overall_free, self.overall_base, self.overall_most = (overall_free, overall_base,
                                                                   overall_most)
        self.window = window
        self.fails: dict[str, int] = {}
        self._next: dict[str, float] = {}
        self._next_all = 0.0
        self._recent: list[float] = []

    def _delay(self, n: int, free: int, base: float, most: float) -> float:
        return 0.0 if n < free else min(most, base * 2.0 ** min(n - free, 60))

    def slot(self, client: str) -> float:
        """Seconds the attempt ``client`` makes now waits (its place is kept)."""
        now = self.clock()
        self._recent = [t for t in self._recent if now - t < self.window]
        mine = self._delay(self.fails.get(client, 0), self.free, self.base, self.most)
        everybody = self._delay(len(self._recent), self.overall_free, self.overall_base,
                                self.overall_most)
        at = max(now, self._next.get(client, 0.0), self._next_all if everybody else 0.0)
        self._next[client] = at + mine
        if everybody:
            self._next_all = at + everybody
        if len(self._next) > 100_000:  # a flood of addresses: forget the oldest
            self._next = dict(list(self._next.items())[-50_000:])
        return at - now

    def failed(self, client: str) -> None:
        """``client`` gave a wrong key (logged with its address, never the key)."""
        n = self.fails.get(client, 0) + 1
        self.fails[client] = n
        self._recent.append(self.clock())
        log.warning("a wrong teacher key from %s (%d in a row)", client or "?", n)
        if len(self.fails) > 100_000:
            self.fails = dict(list(self.fails.items())[-50_000:])

    def passed(self, client: str) -> None:
        """``client`` gave the right key."""
        self.fails.pop(client, None)

    async def wait(self, client: str) -> None:
        """Wait for ``client``'s turn (on the event loop: nothing blocks)."""
        delay = self.slot(client)
        if delay > 0:
            await asyncio.sleep(delay)
