"""Voilà with the table service: what ``make app`` and ``make classroom`` run.

Voilà 0.5 on its own loads no Jupyter server extension, and only on its own
keeps kernels ready for the apps (``preheat_kernel`` in ``voila.json``).  So
this is Voilà itself, with the table API's handlers added to its own
tornado application: one process, one port, one origin for the apps and
``/rummy/api/``.  It takes every argument ``voila`` takes::

    python -m tableserver.voila_app --no-browser --port=8866 --template=rummy .

With ``--classroom`` (``make classroom``) it serves a room: it listens on the
machine's network address (unless ``--Voila.ip`` says otherwise), serves
HTTPS when ``RUMMY_TLS_CERT`` and ``RUMMY_TLS_KEY`` name a certificate and
its key, and prints the address learners open.  Either way it prints the
teacher key (``RUMMY_TEACHER_KEY``, else a fresh one), which the teacher's
page asks for; no kernel inherits it.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import secrets
import signal
import socket
import ssl
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from tornado.ioloop import IOLoop
from tornado.web import GZipContentEncoding
from voila.app import Voila

from tableserver import kernel_client
from tableserver.guard import (
    PER_ADDRESS,
    GuardedServer,
    allowed_hosts,
    guard_hosts,
    raise_file_limit,
)
from tableserver.handler import ApiHandler, Hub
from tableserver.kernel_client import PatientKernelClient
from tableserver.preheat import preheat_listener
from tableserver.service import TableService, service_options
from tableserver.web import BROWSER_COOKIE, api_url, handlers, scrub_logs, start

__all__ = ["RummyVoila", "main", "network_address", "tls_context"]


def network_address() -> str:
    """The address other machines on the network reach this one at (the
    interface of the default route; no packet is sent), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def tls_context(env: dict[str, str] | None = None) -> ssl.SSLContext | None:
    """The server's TLS context from ``RUMMY_TLS_CERT`` / ``RUMMY_TLS_KEY``
    (PEM files), or None when neither is set."""
    env = dict(os.environ) if env is None else env
    cert, key = env.get("RUMMY_TLS_CERT"), env.get("RUMMY_TLS_KEY")
    if not cert and not key:
        return None
    if not cert or not key:
        raise SystemExit("RUMMY_TLS_CERT and RUMMY_TLS_KEY go together: the certificate "
                         "and its private key, both PEM files (see docs/CLASSROOM.md)")
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        ctx.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as e:
        raise SystemExit(f"the certificate {cert} or its key {key} can't be used ({e}): "
                         "see docs/CLASSROOM.md for how to make them") from None
    return ctx


#: Memory a page's kernel takes, about (measured: 95 MiB for an app's kernel).
KERNEL_MEMORY = 120 * 1024 * 1024
#: Kernels one browser may hold at once (a page each), unless RUMMY_KERNELS_PER_BROWSER says.
PER_BROWSER = 6
#: Seconds a page's kernel waits for the page to connect once the page was sent
#: (RUMMY_CONNECT_WITHIN sets it); a page still being drawn is never ended.
CONNECT_WITHIN = 60.0


def default_max_kernels(meminfo: str = "/proc/meminfo") -> int:
    """Kernels in use at most: half the memory available at start, a kernel
    each (:data:`KERNEL_MEMORY`), at least 4 (``RUMMY_MAX_KERNELS`` sets it)."""
    try:
        with open(meminfo, encoding="ascii") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        available = int(fields["MemAvailable"].split()[0]) * 1024
    except (OSError, KeyError, ValueError):
        return 32
    return max(4, available // 2 // KERNEL_MEMORY)


class KernelCaps:
    """How many kernels the pages hold, in all and per browser, and which
    pages never came for theirs.

    A page counts from the moment it is allowed a kernel (while Voilà finds
    or starts one) and then by the kernel Voilà really served it with, as
    long as that kernel lives; kernels kept ready in Voilà's pools are
    nobody's.  A page's kernel that no page connected to within
    ``connect_within`` seconds after the page was sent is :meth:`unclaimed`;
    one whose page is still being drawn (Voilà running the notebook for it,
    minutes on a loaded machine) never is.

    >>> caps = KernelCaps(total=2, per_browser=1, connect_within=60)
    >>> caps.admit("page 1", "ana", live=[]) is None
    True
    >>> print(caps.admit("page 2", "ana", live=[]))  # Ana's first page is being served
    This browser has 1 of the kit's pages open: close one, then try again in a minute or two.
    >>> caps.taken("page 1", "k1"); caps.sent("page 1", now=100.0)
    >>> caps.unclaimed(live=["k1"], now=159.0), caps.unclaimed(live=["k1"], now=161.0)
    ([], ['k1'])
    >>> caps.connected("k1"); caps.unclaimed(live=["k1"], now=500.0)
    []
    """

    def __init__(self, total: int, per_browser: int, connect_within: float = 60.0) -> None:
        self.total = total
        self.per_browser = per_browser
        self.connect_within = connect_within
        self.owner: dict[str, str] = {}  # kernel id -> browser
        self.pages: dict[object, str] = {}  # a page being served, no kernel yet -> browser
        self.page_kernel: dict[object, str] = {}  # a page being served -> its kernel
        self.sent_at: dict[str, float] = {}  # kernel -> when its page was sent, until it connects
        self.ever_connected: set[str] = set()

    def in_use(self, live: Iterable[str]) -> list[str]:
        """The live kernels that pages were served with (``live``: the kernel
        manager's kernel ids)."""
        alive = set(live)
        return [k for k in self.owner if k in alive]

    def forget_ended(self, live: Iterable[str]) -> None:
        """Drop what is known of kernels that ended."""
        alive = set(live)
        self.owner = {k: b for k, b in self.owner.items() if k in alive}
        self.sent_at = {k: t for k, t in self.sent_at.items() if k in alive}
        self.ever_connected &= alive

    def admit(self, page: object, browser: str, live: Iterable[str]) -> str | None:
        """Why ``page`` (a request) may not have a kernel now, else None, and
        then it holds its place until :meth:`sent`."""
        self.forget_ended(live)
        held = len(self.owner) + len(self.pages)
        mine = (sum(1 for b in self.owner.values() if b == browser)
                + sum(1 for b in self.pages.values() if b == browser))
        if held >= self.total:
            return (f"The server is full: {held} pages are open, its limit. Try again "
                    "in a minute or two, when other pages have closed.")
        if mine >= self.per_browser:
            return (f"This browser has {self.per_browser} of the kit's pages open: close one, "
                    "then try again in a minute or two.")
        self.pages[page] = browser
        return None

    def taken(self, page: object, kernel_id: str) -> None:
        """Voilà gave ``page`` the kernel ``kernel_id`` (from a pool or new)."""
        browser = self.pages.pop(page, None)
        if browser is not None:
            self.owner[kernel_id] = browser
            self.page_kernel[page] = kernel_id

    def sent(self, page: object, now: float) -> None:
        """``page`` was sent whole (or its request ended): from ``now`` its
        kernel waits ``connect_within`` seconds for the page to connect."""
        self.pages.pop(page, None)
        kernel = self.page_kernel.pop(page, None)
        if kernel is not None and kernel not in self.ever_connected:
            self.sent_at[kernel] = now

    def connected(self, kernel_id: str) -> None:
        """A page opened ``kernel_id``'s socket."""
        self.ever_connected.add(kernel_id)
        self.sent_at.pop(kernel_id, None)

    def unclaimed(self, live: Iterable[str], now: float) -> list[str]:
        """Pages' kernels that no page connected to in time after it was sent."""
        self.forget_ended(live)
        return [k for k, t in self.sent_at.items() if now - t > self.connect_within]


class PageKernels:
    """A kernel manager as one page's handler sees it: the kernel Voilà
    serves the page with, taken from a pool (``get_rendered_notebook``) or
    started for it (``start_kernel``), is told to ``taken``; everything else
    is the kernel manager's own."""

    def __init__(self, km: Any, taken: Callable[[str], None]) -> None:
        self._km = km
        self._taken = taken

    def __getattr__(self, name: str) -> Any:
        return getattr(self._km, name)

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        got = await self._km.get_rendered_notebook(*args, **kwargs)
        self._taken(got[2])  # (render task, rendered cells, kernel id)
        return got

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        kernel_id = self._km.start_kernel(*args, **kwargs)
        if inspect.isawaitable(kernel_id):
            kernel_id = await kernel_id
        self._taken(str(kernel_id))
        return str(kernel_id)


class PagesGzip(GZipContentEncoding):  # type: ignore[misc]
    """Tornado's gzip for the pages and the template's files, for a browser
    that accepts it; never for the table API (its answers carry seat tokens,
    and a compressed answer's length can tell what it holds) nor for part of
    a file (a range request)."""

    def __init__(self, request: Any) -> None:
        super().__init__(request)
        if "/rummy/api/" in request.path:
            self._gzipping = False

    def transform_first_chunk(self, status_code: int, headers: Any, chunk: bytes,
                              finishing: bool) -> tuple[int, Any, bytes]:
        if status_code == 206 or "Content-Range" in headers:
            self._gzipping = False
        return super().transform_first_chunk(  # type: ignore[no-any-return]
            status_code, headers, chunk, finishing)


class KernelsHandler(ApiHandler):
    """``GET /rummy/api/kernels`` (the teacher key in ``X-Rummy-Teacher-Key``):
    how many of the pages' kernels are in use, and the caps."""

    def initialize(self, service: TableService, hub: Hub,  # type: ignore[override]
                   app: Any = None) -> None:
        super().initialize(service, hub)
        self.app = app

    async def get(self) -> None:
        def count() -> dict[str, Any]:
            self.service.check_teacher(self.teacher_key())
            caps = self.app.caps if self.app is not None else None
            if caps is None:
                return {"in_use": None, "limit": None, "per_browser": None}
            live = self.app.kernel_manager.list_kernel_ids()
            return {"in_use": len(caps.in_use(live)), "limit": caps.total,
                    "per_browser": caps.per_browser}
        await self.run(count)


class RummyVoila(Voila):  # type: ignore[misc]
    """Voilà serving the table API beside the apps."""

    name = "voila"  # read voila.json and the voila config like `voila` does
    description = "Voilà with the Rummy kit's table service under /rummy/api/"

    service: TableService | None = None
    #: serve a room (``--classroom``): the network address, the learners' address printed
    classroom = False
    _hub: Hub | None = None
    _tls: ssl.SSLContext | None = None
    caps: KernelCaps | None = None
    #: ``RUMMY_PUBLIC_URL`` as the school set it (its host is served too)
    _public_given: str | None = None

    def initialize(self, argv: Any = None) -> None:
        # Kernels talk to the server over Unix sockets where the system has them.
        # With TCP, each kernel's ports are chosen free and then bound by the
        # kernel a moment later; any connection opened in between (a browser, a
        # second kernel) can take one, and that kernel dies at birth with
        # "Address already in use".  voila.json or the command line may still
        # say ``--KernelManager.transport=tcp``.
        if os.name == "posix" and "transport" not in self.config.KernelManager:
            self.config.KernelManager.transport = "ipc"
        # the pages' kernel clients never wait on a lost wake-up (tableserver.kernel_client)
        self.config.KernelManager.client_factory = PatientKernelClient
        super().initialize(argv)
        kernel_client.log = self.log
        if self.classroom and "ip" not in self.config.Voila:
            self.ip = network_address()
        self._tls = tls_context()

    @property
    def scheme(self) -> str:
        return "https" if self._tls is not None else "http"

    def _url(self, ip: str) -> str:
        """Voilà's own "running at" address, with the scheme it serves (https
        with a certificate; Voilà itself always says http)."""
        return f"{self.scheme}://{ip}:{self.port}{self.base_url}"

    def public_url(self) -> str:
        host = "127.0.0.1" if self.ip in ("", "0.0.0.0", "::", "localhost") else self.ip
        base = (self.server_url or self.base_url or "/")
        return f"{self.scheme}://{host}:{self.port}{base}"

    def start(self) -> None:
        scrub_logs(self.log)
        quiet_tls_noise()
        # kernels (the preheated ones too) are started from this environment
        os.environ["RUMMY_API"] = api_url(self.port, self.server_url or self.base_url, self.ip,
                                          self.scheme)
        self._public_given = os.environ.get("RUMMY_PUBLIC_URL") or None
        os.environ["RUMMY_PUBLIC_URL"] = self.public_url()
        if self.ip not in ("", "0.0.0.0", "::", "localhost"):
            os.environ["VOILA_APP_IP"] = self.ip  # where a preheated kernel asks for its page
        if self._tls is not None:
            os.environ["VOILA_WS_PROTOCOL"] = "wss"
            os.environ["RUMMY_API_CA"] = os.path.abspath(os.environ["RUMMY_TLS_CERT"])
        self.service = TableService(wait_for_disk=False,  # requests await their writes
                                    **service_options())
        key = (self.service.teacher_key if self.service.teacher_key_made
               else "the one in RUMMY_TEACHER_KEY")
        if self.classroom or self.ip not in ("127.0.0.1", "::1", "localhost"):
            print(f"Rummy teaching kit: learners open {self.public_url()}", flush=True)
            print(f"Teacher key (the teacher's page asks for it): {key}", flush=True)
        else:  # nobody else can reach it: no learners' address, no key on the screen
            print(f"Rummy teaching kit on this machine only: open {self.public_url()} "
                  "(`make classroom` serves a room and prints the teacher key)", flush=True)
        if self.classroom and self._tls is None:
            print("Warning: no certificate (RUMMY_TLS_CERT / RUMMY_TLS_KEY), so seat tokens "
                  "and the teacher key cross the network in clear: see docs/CLASSROOM.md",
                  flush=True)
        super().start()

    def init_settings(self) -> dict[str, Any]:
        settings = dict(super().init_settings())
        km = self.kernel_manager
        self.caps = KernelCaps(int(os.environ.get("RUMMY_MAX_KERNELS") or default_max_kernels()),
                               int(os.environ.get("RUMMY_KERNELS_PER_BROWSER") or PER_BROWSER),
                               float(os.environ.get("RUMMY_CONNECT_WITHIN") or CONNECT_WITHIN))
        settings["rummy_kernel_caps"] = self.caps
        caps, plain_connect, plain = self.caps, km.notify_connect, km.notify_disconnect

        def notify_connect(kernel_id: str) -> None:
            plain_connect(kernel_id)
            caps.connected(kernel_id)

        km.notify_connect = notify_connect

        def notify_disconnect(kernel_id: str) -> None:
            # a page that lost its kernel's socket has the cull timeout (15 min, checked
            # every 30 s: voila.json) from now to come back before its kernel ends
            plain(kernel_id)
            kernel = getattr(km, "_kernels", {}).get(kernel_id)
            if kernel is not None:
                from jupyter_server._tz import utcnow

                kernel.last_activity = utcnow()

        km.notify_disconnect = notify_disconnect
        return settings

    def init_handlers(self) -> list[Any]:
        out = [_safe_templates(_with_xsrf_cookie(h)) for h in super().init_handlers()]
        if self.service is not None:
            hub = Hub()
            self.service.listeners.append(hub.changed)
            self.service.key_listeners.append(hub.key_checked)
            # first, so that Voilà's catch-all routes never shadow them
            root = "/" + "/".join(p for p in ((self.server_url or self.base_url).strip("/"),
                                              "rummy/api") if p)
            kernels = (root + "/kernels", KernelsHandler,
                       {"service": self.service, "hub": hub, "app": self})
            out = [kernels, *handlers(self.server_url or self.base_url, self.service, hub),
                   *out]
            self._hub = hub
        return out

    def listen(self) -> None:
        if self.service is not None and self._hub is not None:
            # the bots' worker thread, off the loop; a dead page's kernel is ended
            start(self.service, self._hub, lambda: self.kernel_manager)
            # a new table's learners find kernels started ahead (tableserver.preheat)
            self.service.listeners.append(preheat_listener(
                lambda: self.kernel_manager, self.service,
                IOLoop.current().asyncio_loop))  # type: ignore[attr-defined]
        raise_file_limit()
        # a page or a request for another host name (a DNS-rebinding site) is refused
        guard_hosts(self.app, allowed_hosts(self.ip, env={"RUMMY_PUBLIC_URL":
                                                          self._public_given or ""}))
        app, tls = self.app, self._tls
        per_address = PER_ADDRESS if self.classroom else None

        def listen_guarded(port: int, address: str = "", **kw: Any) -> Any:
            # timeouts for headers, bodies and idle connections; in a classroom a
            # cap of connections per address; HTTPS with a certificate
            server = GuardedServer(app, per_address=per_address, ssl_options=tls, **kw)
            server.listen(port, address)
            return server

        self.app.listen = listen_guarded
        # the pages and the kit's scripts travel compressed (kit.js: 860 KiB, 270 KiB gzipped)
        self.app.transforms.append(PagesGzip)
        self._end_unclaimed_kernels()
        super().listen()

    def _end_unclaimed_kernels(self) -> None:
        """Every few seconds, end the kernels whose page was sent but never
        connected in time (:meth:`KernelCaps.unclaimed`)."""
        from tornado.ioloop import PeriodicCallback

        caps, km = self.caps, self.kernel_manager
        if caps is None:
            return

        def check() -> None:
            for kernel_id in caps.unclaimed(km.list_kernel_ids(), time.monotonic()):
                caps.sent_at.pop(kernel_id, None)
                self.log.info("Ending kernel %s: its page never connected within %g s",
                              kernel_id, caps.connect_within)
                asyncio.ensure_future(_end_kernel(km, kernel_id, self.log))

        every = max(0.5, min(10.0, caps.connect_within / 4)) * 1000
        PeriodicCallback(check, every).start()


async def _end_kernel(km: Any, kernel_id: str, log: Any) -> None:
    try:
        done = km.shutdown_kernel(kernel_id)
        if inspect.isawaitable(done):
            await done
    except Exception as e:  # noqa: BLE001 - already gone: nothing to end
        log.info("Kernel %s was already ending (%s)", kernel_id, e)


class _TlsNoise(logging.Filter):
    """Drops tornado's report of a client that refused the certificate
    (``CERTIFICATE_UNKNOWN``, ``UNKNOWN_CA``: a self-signed one, before the
    learner accepted it) or hung up in the handshake: no server fault, and
    one per page."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken record is kept
            return True
        noise = ("CERTIFICATE_UNKNOWN", "certificate unknown", "UNKNOWN_CA", "unknown ca",
                 "BAD_CERTIFICATE", "bad certificate", "UNEXPECTED_EOF_WHILE_READING",
                 "HTTP_REQUEST")
        exc = record.exc_info[1] if record.exc_info else None
        detail = f"{text} {exc or ''}"
        return not (("SSL Error" in text or isinstance(exc, ssl.SSLError))
                    and any(n in detail for n in noise))


def quiet_tls_noise() -> None:
    """Keep certificate-unknown handshakes out of the server's log."""
    for name in ("tornado.general", "tornado.application", "asyncio"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _TlsNoise) for f in logger.filters):
            logger.addFilter(_TlsNoise())


def _safe_templates(route: Any) -> Any:
    """``route`` with Voilà's template files answering 404, never 500, for
    an address that names no template file (``/voila/templates/<anything>``)."""
    from tornado import web
    from voila.static_file_handler import TemplateStaticFileHandler

    if not isinstance(route, tuple) or len(route) < 2 or route[1] is not TemplateStaticFileHandler:
        return route

    class SafeTemplateFiles(TemplateStaticFileHandler):  # type: ignore[misc]
        def parse_url_path(self, path: str) -> str:
            try:
                return str(super().parse_url_path(path))
            except (AssertionError, ValueError, KeyError, IndexError):
                raise web.HTTPError(404) from None

        @classmethod
        def get_absolute_path(cls, root: str, path: str) -> str:
            try:
                return str(super().get_absolute_path(root, path))
            except (AssertionError, ValueError, KeyError, IndexError):
                raise web.HTTPError(404) from None

    return (route[0], SafeTemplateFiles, *route[2:])


def _with_xsrf_cookie(route: Any) -> Any:
    """``route`` with its page handler setting the ``_xsrf`` cookie.

    A Voilà page asks for its kernel to be shut down when it is closed or left
    (a beacon to ``voila/api/shutdown/<id>`` carrying the ``_xsrf`` cookie's
    value), but Voilà's own server never sets that cookie: the request was
    refused ("'_xsrf' argument missing") and the kernel lived on until culled.
    The page handlers (:class:`voila.handler.VoilaHandler` and its kin) now set
    it; the shutdown request keeps its check."""
    from voila.handler import VoilaHandler

    if not isinstance(route, tuple) or len(route) < 2:
        return route
    cls = route[1]
    if not (isinstance(cls, type) and issubclass(cls, VoilaHandler)):
        return route
    return (route[0], _cookie_setting(cls), *route[2:])


_COOKIE_CLASSES: dict[type, type] = {}


def _cookie_setting(cls: type) -> type:
    if cls not in _COOKIE_CLASSES:
        async def prepare(self: Any) -> None:
            done = super(new, self).prepare()  # type: ignore[misc,arg-type]
            if inspect.isawaitable(done):
                await done
            if _framed_by_another_site(self):
                return
            self.xsrf_token  # noqa: B018 - reading it sets the cookie (tornado)
            browser = _give_browser(self)
            caps = self.settings.get("rummy_kernel_caps")
            if caps is not None and self.request.method == "GET":
                km = self.settings["kernel_manager"]
                why = caps.admit(self, browser, km.list_kernel_ids())
                if why is not None:
                    self.set_status(503)
                    self.set_header("Retry-After", "60")
                    self.set_header("Content-Type", "text/html; charset=utf-8")
                    self.finish("<!doctype html><html lang='en'><title>The server is full"
                                f"</title><main><h1>Please wait</h1><p role='alert'>{why}</p>"
                                "</main></html>")
                    return
                self._rummy_caps = caps

        def page_kernels(self: Any) -> Any:
            # the kernel manager as this page's handler sees it: the kernel Voilà
            # serves the page with (a pool's or a new one) is the page's
            km = self.settings["kernel_manager"]
            caps = getattr(self, "_rummy_caps", None)
            return km if caps is None else PageKernels(km, lambda k: caps.taken(self, k))

        def on_finish(self: Any) -> None:
            super(new, self).on_finish()  # type: ignore[misc,arg-type]
            caps = getattr(self, "_rummy_caps", None)
            if caps is not None:
                caps.sent(self, time.monotonic())

        new = type(cls.__name__, (cls,), {"prepare": prepare, "on_finish": on_finish,
                                          "kernel_manager": property(page_kernels),
                                          "__module__": __name__})
        _COOKIE_CLASSES[cls] = new
    return _COOKIE_CLASSES[cls]


def _framed_by_another_site(handler: Any) -> bool:
    """A page only this site may frame (``frame-ancestors 'self'``); a
    request for a page inside another site's frame is refused (403) before a
    kernel starts.  Answers whether it was refused."""
    handler.set_header("Content-Security-Policy", "frame-ancestors 'self'")
    handler.set_header("X-Frame-Options", "SAMEORIGIN")
    headers = handler.request.headers
    if headers.get("Sec-Fetch-Site") == "cross-site" and \
            headers.get("Sec-Fetch-Dest") in ("iframe", "frame", "embed", "object"):
        handler.set_status(403)
        handler.set_header("Content-Type", "text/plain; charset=utf-8")
        handler.finish("The Rummy kit's pages open on their own, not inside another site.")
        return True
    return False


def _give_browser(handler: Any) -> str:
    """The page's browser keeps an id (cookie ``rummy_browser``, set here if
    it has none), and the page's kernel learns it (the ``X-Rummy-Browser``
    header, which voila.json hands kernels as ``HTTP_X_RUMMY_BROWSER``):
    its joins carry it, and one browser sits once at a table."""
    browser = handler.get_cookie(BROWSER_COOKIE)
    if not browser or not 16 <= len(browser) <= 128:
        browser = secrets.token_urlsafe(24)
        handler.set_cookie(BROWSER_COOKIE, browser, httponly=True, samesite="Strict",
                           secure=handler.request.protocol == "https", expires_days=1)
    handler.request.headers["X-Rummy-Browser"] = browser
    return str(browser)


def main(argv: list[str] | None = None) -> None:
    """Run Voilà with the table service (same arguments as ``voila``, and
    ``--classroom``)."""
    # Ctrl-C stops the server even when it was started without a terminal (a
    # shell's background job starts with SIGINT ignored)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    args = list(sys.argv[1:] if argv is None else argv)
    if "--classroom" in args:
        args.remove("--classroom")
        RummyVoila.classroom = True
    RummyVoila.launch_instance(args)


if __name__ == "__main__":
    main()
