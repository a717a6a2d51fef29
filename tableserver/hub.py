"""The table service as a JupyterHub service: learners known by their hub login.

On a hub (a school's JupyterHub, or ``make hub``), the hub starts this
process (``c.JupyterHub.services``) and its proxy serves it at
``/services/rummy-tables/``; the API is the one of :mod:`tableserver.web`,
under ``/services/rummy-tables/rummy/api/``, with the same service and the
same handlers.  Only who is asking changes:

- every request is a hub user's: their kernel's ``JUPYTERHUB_API_TOKEN``
  (``Authorization: token ...``) or, in a browser, the cookie of the hub's
  OAuth (a page's POST also carries the hub's XSRF token).  Nothing else gets
  in: no seat token and no teacher key is ever asked for or answered;
- a learner's seat is theirs wherever they open it, and teachers are the hub
  users with the teacher scope (:mod:`tableserver.hub_identity`);
- the record of learning: each learner's server sends the events its
  kernels kept (``POST .../progress/events``), kept here under the sender's
  hub name for the teacher's class grid (:mod:`tableserver.progress_api`).

This module is the process: it listens at once (the hub gives a service it
starts about ten seconds to answer), says it is starting while it loads
JupyterHub's client, then serves :func:`tableserver.hub_web.make_hub_app`.

    python -m tableserver.hub      # started by the hub, which sets JUPYTERHUB_*
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import signal
from urllib.parse import urlsplit

from tornado import httputil, web

from tableserver.guard import GuardedServer
from tableserver.hub_identity import SERVICE_NAME, hub_secret
from tableserver.service import TableService, service_options
from tableserver.store import Store, tables_path
from tableserver.web import scrub_logs

__all__ = ["Front", "StartingPage", "main"]


class Front(httputil.HTTPServerConnectionDelegate):
    """The server's requests go to ``app``: at first a page saying the service
    is starting (503), then the service's own application."""

    def __init__(self, app: web.Application) -> None:
        self.app = app

    def start_request(self, server_conn: object,
                      request_conn: httputil.HTTPConnection) -> httputil.HTTPMessageDelegate:
        return self.app.start_request(server_conn, request_conn)

    def on_close(self, server_conn: object) -> None:
        self.app.on_close(server_conn)


class StartingPage(web.RequestHandler):
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


def service_address(host: str | None) -> str:
    """Where the service listens for the host its URL names: a loopback
    address stays on the loopback; any other name (on Kubernetes the hub
    Service's, ``hub``, which is none of the pod's addresses) means every
    address of this machine, at the URL's port.

    >>> service_address("127.0.0.1"), service_address("hub"), service_address(None)
    ('127.0.0.1', '', '127.0.0.1')
    """
    if not host or host in ("127.0.0.1", "localhost"):
        return "127.0.0.1"
    if host == "::1":
        return host
    return ""


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
    port = where.port or 80
    ip = service_address(where.hostname)

    async def serve() -> None:
        # The hub gives a service it starts about ten seconds to answer: listen at once
        # (503 while starting), then load JupyterHub's client (seconds on a busy machine).
        # Behind the hub's proxy, the scheme and host a browser used are in X-Forwarded-*.
        front = Front(web.Application([(r".*", StartingPage, {"prefix": prefix})]))
        server = GuardedServer(front, xheaders=True)  # header, body and idle timeouts
        server.listen(port, ip)
        store = Store(tables_path())
        secret = hub_secret(store.path.parent)
        service = TableService(store, **service_options())
        loop = asyncio.get_running_loop()
        hub_web = await loop.run_in_executor(None, importlib.import_module,
                                             "tableserver.hub_web")
        front.app = hub_web.make_hub_app(service, prefix, secret)
        print(f"Rummy table service for the hub on {url}{prefix} (database {store.path})",
              flush=True)
        scrub_logs()
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
